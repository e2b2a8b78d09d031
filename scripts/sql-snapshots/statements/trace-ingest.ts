import * as ingestPrices from "../../../services/trace-ingest/src/repositories/model-prices";
import * as ingestSpans from "../../../services/trace-ingest/src/repositories/spans";
import * as ingestMetrics from "../../../services/trace-ingest/src/repositories/trace-metrics";
import * as ingestTraces from "../../../services/trace-ingest/src/repositories/traces";
import { snapshotOf } from "../render";
import { spanId, traceId } from "./values";

/** What the one span says of its turn, which its trace's summary repeats. */
const turn = {
  sessionId: "s_1",
  userId: null,
  tags: ["beta"],
  models: ["small"],
  tokensInput: 12,
  tokensOutput: 30,
  input: "Where is my refund?",
  output: "On its way",
};

export const traceIngest = [
  snapshotOf({
    source: "services/trace-ingest/src/repositories/spans.ts",
    module: ingestSpans,
    statements: {
      upsertSpans: [
        {
          run: (db) =>
            ingestSpans.upsertSpans(db, "prj_1", [
              {
                span: {
                  traceId,
                  spanId,
                  parentSpanId: null,
                  name: "chat",
                  kind: 3,
                  startNs: "1735787045000000000",
                  endNs: "1735787046000000000",
                  statusCode: 1,
                  statusMessage: null,
                  attributes: { "gen_ai.request.model": "small" },
                  resourceAttributes: { "service.name": "support-bot" },
                  scope: { name: "agent", version: null },
                  events: [],
                  links: [],
                },
                facts: { ...turn, costMicrocents: null },
                costMicrocents: 4,
              },
            ]),
        },
      ],
      listSpanOutlines: [{ run: (db) => ingestSpans.listSpanOutlines(db, "prj_1", [traceId]) }],
      listSpanMessages: [{ run: (db) => ingestSpans.listSpanMessages(db, "prj_1", [{ traceId, spanId }]) }],
    },
    noStatement: { spanRowOf: "builds the row upsertSpans writes" },
  }),
  snapshotOf({
    source: "services/trace-ingest/src/repositories/traces.ts",
    module: ingestTraces,
    statements: {
      lockTraces: [{ run: (db) => ingestTraces.lockTraces(db, "prj_1", [traceId]) }],
      updateTraceSummaries: [
        {
          run: (db) =>
            ingestTraces.updateTraceSummaries(db, "prj_1", [
              {
                traceId,
                spanCount: 1,
                errorCount: 0,
                startNs: "1735787045000000000",
                endNs: "1735787046000000000",
                durationNs: "1000000000",
                rootSpanId: spanId,
                rootSpanName: "chat",
                ...turn,
                tokensTotal: 42,
                costTotalMicrocents: 4,
              },
            ]),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/trace-ingest/src/repositories/trace-metrics.ts",
    module: ingestMetrics,
    statements: {
      listTraceMetricFacts: [{ run: (db) => ingestMetrics.listTraceMetricFacts(db, "prj_1", [traceId]) }],
      addTraceMetricDeltas: [
        {
          run: (db) =>
            ingestMetrics.addTraceMetricDeltas(db, "prj_1", [
              {
                width: "minute",
                grouping: "model",
                bucketStart: "2025-01-02T03:04:00.000Z",
                groupValue: "small",
                traces: 1,
                errors: 0,
                tokensInput: 12,
                tokensOutput: 30,
                costMicrocents: 4,
                latency: { "80": 1 },
              },
            ]),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/trace-ingest/src/repositories/model-prices.ts",
    module: ingestPrices,
    statements: {
      listOrganizationPrices: [{ run: (db) => ingestPrices.listOrganizationPrices(db, "org_1") }],
      upsertOrganizationPrice: [
        {
          run: (db) =>
            ingestPrices.upsertOrganizationPrice(db, "org_1", {
              id: "price_1",
              model: "gpt-4o*",
              effectiveFrom: "2025-01-01",
              inputMicrocentsPerMillion: 250_000_000n,
              outputMicrocentsPerMillion: 1_000_000_000n,
            }),
          answers: [
            [
              {
                id: "price_1",
                model: "gpt-4o*",
                effective_from: "2025-01-01",
                input: "250000000",
                output: "1000000000",
                updated_at: "2025-01-01T00:00:00.000Z",
              },
            ],
          ],
        },
      ],
      deleteOrganizationPrice: [
        { run: (db) => ingestPrices.deleteOrganizationPrice(db, "org_1", "price_1") },
      ],
    },
  }),
];
