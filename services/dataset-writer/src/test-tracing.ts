import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/**
 * Spans captured in memory, with the PostgreSQL instrumentation the services run with. It patches
 * `pg` as it is loaded: a test file imports this module before anything that loads `pg`.
 */
export const spans = new InMemorySpanExporter();
export const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
trace.setGlobalTracerProvider(provider);
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
export const pgInstrumentation = new PgInstrumentation({ requireParentSpan: true });
pgInstrumentation.setTracerProvider(provider);
pgInstrumentation.enable();
