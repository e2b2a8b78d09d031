/** An attribute's value as a test gives it. */
export type OtlpValue = string | number | boolean;

/** Attributes as an OpenTelemetry exporter sends them over OTLP/HTTP JSON: integers as strings. */
export const attributesOf = (attributes: Record<string, OtlpValue>) =>
  Object.entries(attributes).map(([key, value]) => ({
    key,
    value:
      typeof value === "string"
        ? { stringValue: value }
        : typeof value === "boolean"
          ? { boolValue: value }
          : Number.isInteger(value)
            ? { intValue: String(value) }
            : { doubleValue: value },
  }));
