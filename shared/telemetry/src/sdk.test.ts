import { trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { startTelemetry, telemetrySignals } from "./sdk";

describe("telemetrySignals", () => {
  it("turns every signal off when nothing is configured", () => {
    expect(telemetrySignals({})).toEqual({ traces: false, metrics: false, logs: false });
  });

  it("turns traces and metrics on with an OTLP endpoint, logs only when named", () => {
    expect(telemetrySignals({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toEqual({
      traces: true,
      metrics: true,
      logs: false,
    });
    expect(
      telemetrySignals({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_LOGS_EXPORTER: "otlp" }),
    ).toEqual({ traces: true, metrics: true, logs: true });
  });

  it("follows each signal's own endpoint and exporter", () => {
    expect(telemetrySignals({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c/v1/traces" })).toEqual({
      traces: true,
      metrics: false,
      logs: false,
    });
    expect(telemetrySignals({ OTEL_METRICS_EXPORTER: "console" })).toEqual({
      traces: false,
      metrics: true,
      logs: false,
    });
    expect(
      telemetrySignals({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_METRICS_EXPORTER: "none" }),
    ).toEqual({ traces: true, metrics: false, logs: false });
  });

  it("turns everything off with OTEL_SDK_DISABLED, whatever else is set", () => {
    expect(
      telemetrySignals({
        OTEL_SDK_DISABLED: "true",
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_TRACES_EXPORTER: "otlp",
      }),
    ).toEqual({ traces: false, metrics: false, logs: false });
  });
});

describe("startTelemetry", () => {
  it("starts nothing when nothing is configured", async () => {
    const saved = { ...process.env };
    for (const key of Object.keys(process.env)) if (key.startsWith("OTEL_")) delete process.env[key];
    try {
      const telemetry = await startTelemetry({ service: "test" });
      expect(telemetry.enabled).toBe(false);
      expect(trace.getTracer("test").startSpan("x").isRecording()).toBe(false);
      await telemetry.shutdown();
    } finally {
      Object.assign(process.env, saved);
    }
  });
});
