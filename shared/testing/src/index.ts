export * from "./backends";
export * from "./infra";
export * from "./service-tests";
export * from "./traces";
