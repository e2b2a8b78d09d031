// Operations only: the operation table is this module's namespace, so nothing else is exported here.
export * from "./columns";
export * from "./datasets";
export * from "./events";
export * from "./files";
export * from "./rows";
export * from "./versions";
