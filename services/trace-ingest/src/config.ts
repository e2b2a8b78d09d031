import { serviceConfigSchema } from "@svc/service/service-config";
import { loadEnv } from "@svc/telemetry";

/** Nothing beyond what every service reads. */
export const configSchema = serviceConfigSchema;

export const loadConfig = () => loadEnv(configSchema);
