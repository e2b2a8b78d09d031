export * from "./backends";
export * from "./infra";
