import {
  modelPriceListSchema,
  modelPricePathSchema,
  modelPriceSchema,
  setModelPriceBodySchema,
} from "../schemas/model-prices";
import { subjects } from "../subjects";
import { defineOperation } from "./define";

const MATCHING =
  "A span's model takes the price of its exact name if the table has one, else of the longest prefix pattern (`gpt-4o*`) it starts with; of that model's prices, the one with the latest `effectiveFrom` on or before the span's start (UTC day).";

export const listModelPrices = defineOperation({
  operationId: "listModelPrices",
  command: "list",
  method: "GET",
  path: "/v1/model-prices",
  tag: "model-prices",
  summary: "The organisation's price table: the shipped defaults and its own prices",
  description: [
    "Every price ingestion may use to cost a span whose exporter sent no `gen_ai.usage.cost`: input tokens times the input price plus output tokens times the output price. The shipped defaults are the providers' published list prices (see `source: default`); an organisation's own price for the same model and date replaces the default.",
    MATCHING,
    "Sorted by model, then effectiveFrom. Changing a price never rewrites the cost of spans already stored.",
  ].join("\n\n"),
  subject: subjects.modelPrices.list,
  access: "viewer",
  response: modelPriceListSchema,
  successStatus: 200,
  readOnly: true,
});

export const setModelPrice = defineOperation({
  operationId: "setModelPrice",
  command: "set",
  method: "POST",
  path: "/v1/model-prices",
  tag: "model-prices",
  summary: "Set the price of a model (or a prefix of models) from a day on",
  description: [
    "Creates the organisation's price for `model` and `effectiveFrom`, or replaces the one it already has for both. Spans ingested from then on whose start is on or after `effectiveFrom` take it; spans already stored keep their cost.",
    MATCHING,
  ].join("\n\n"),
  subject: subjects.modelPrices.set,
  access: "admin",
  body: setModelPriceBodySchema,
  response: modelPriceSchema,
  successStatus: 200,
  // Replaces the organisation's price for the same model and day, if it has one.
  effect: { destructive: true, idempotent: true },
});

export const deleteModelPrice = defineOperation({
  operationId: "deleteModelPrice",
  command: "delete",
  method: "DELETE",
  path: "/v1/model-prices/{priceId}",
  tag: "model-prices",
  summary: "Delete one of the organisation's prices",
  description:
    "The shipped default it replaced, if any, applies again to spans ingested from then on. A shipped default cannot be deleted (409 conflict): set a price for the same model and date to replace it.",
  subject: subjects.modelPrices.delete,
  access: "admin",
  params: modelPricePathSchema,
  response: null,
  successStatus: 204,
  errors: ["not_found", "conflict"],
});
