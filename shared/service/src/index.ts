// The serving side of a service: its operations on the bus (run-service and service-config are
// imported by their own paths, so that the database and the bus load after telemetry).
export * from "./operations";
