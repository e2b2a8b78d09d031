import * as ingestPrices from "../../../services/trace-ingest/src/repositories/model-prices";
import * as ingestSpans from "../../../services/trace-ingest/src/repositories/spans";
import { snapshotOf } from "../render";
import { spanId, traceId, turn } from "./values";

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
    },
    noStatement: { spanRowOf: "builds the row upsertSpans writes" },
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
