import {
  type CreateExperimentBody,
  type DatasetRow,
  type Experiment,
  ExperimentsResource,
  type RecordExperimentResultsBody,
} from "./api.generated.js";
import type { RequestOptions } from "./transport.js";

/** A rule the platform applies to each result as it is recorded (`exact_match`, `levenshtein`, …). */
export type RuleEvaluator = NonNullable<CreateExperimentBody["evaluators"]>[number];

/** What a score may be: a number, a boolean (1 or 0 in means) or a short category. */
export type ScoreValue = number | boolean | string;

/**
 * An evaluator that runs in this process beside the task: it gets the row and what the task answered,
 * and gives a score (source `code`), or `undefined` for none.
 */
export interface CodeEvaluator {
  name: string;
  evaluate(args: {
    row: DatasetRow;
    output: unknown;
  }): ScoreValue | undefined | Promise<ScoreValue | undefined>;
}

/** What a task may answer besides its output: the cost of the call, and its trace. */
export interface TaskAnswer {
  output: unknown;
  tokens?: number | undefined;
  costMicrocents?: number | undefined;
  traceId?: string | undefined;
}

const ANSWER = Symbol("svc.taskAnswer");

/** Marks a task's answer that carries tokens, cost or a trace id beside the output. */
export function taskAnswer(answer: TaskAnswer): TaskAnswer {
  return Object.assign({ [ANSWER]: true }, answer);
}

export interface RunProgress {
  /** Rows the task has been called on in this run. */
  done: number;
  /** Of those, the ones whose task threw. */
  failed: number;
  /** Rows recorded on the platform so far in this run. */
  recorded: number;
}

export interface RunOptions {
  projectSlug: string;
  datasetSlug: string;
  /** The experiment's name. */
  name: string;
  /** The dataset version to run on; the current one by default. */
  version?: number | undefined;
  /** An earlier experiment of the dataset: only rows new or changed since it are run. */
  base?: string | undefined;
  metadata?: unknown;
  /** Called once per pending row, at most `concurrency` at a time; what it returns is the output. */
  task(row: DatasetRow, context: { experimentId: string; signal?: AbortSignal | undefined }): unknown;
  /** Rules for the platform and functions for this process, in any order. */
  evaluators?: readonly (RuleEvaluator | CodeEvaluator)[] | undefined;
  /** Tasks running at once (default 8). */
  concurrency?: number | undefined;
  /** Results recorded per request (default 100, at most 1,000). */
  batchSize?: number | undefined;
  /** Goes on with this experiment (after a crash) instead of starting one: only its pending rows run. */
  experimentId?: string | undefined;
  /** Finish the experiment when every row has a result (default true). */
  finish?: boolean | undefined;
  onProgress?: ((progress: RunProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export interface RunOutcome {
  /** The experiment as it stands after the run, with its score summary. */
  experiment: Experiment;
  progress: RunProgress;
}

type Result = RecordExperimentResultsBody["results"][number];

/** Experiments, with `run`: a task over every pending row of a dataset version, scored and recorded. */
export class ExperimentsWithRunner extends ExperimentsResource {
  /**
   * Starts an experiment (or goes on with `experimentId`), pages through its pending rows, calls
   * `task` on each with bounded concurrency, runs the code evaluators, and records the results in
   * batches. A task that throws records the error for its row and the run goes on. A run stopped
   * half-way is resumed by passing its `experimentId`: only rows without a result run again.
   */
  async run(options: RunOptions): Promise<RunOutcome> {
    const concurrency = positive(options.concurrency ?? 8, "concurrency");
    const batchSize = positive(options.batchSize ?? 100, "batchSize");
    if (batchSize > 1000) throw new RangeError("batchSize must be at most 1000");
    const evaluators = options.evaluators ?? [];
    const rules = evaluators.filter((e): e is RuleEvaluator => "kind" in e);
    const code = evaluators.filter((e): e is CodeEvaluator => "evaluate" in e);
    const call: RequestOptions = { signal: options.signal };
    const { projectSlug } = options;
    const experimentId =
      options.experimentId ??
      (
        await this.create(
          projectSlug,
          options.datasetSlug,
          {
            name: options.name,
            ...(options.version !== undefined ? { version: options.version } : {}),
            ...(options.base !== undefined ? { baseExperimentId: options.base } : {}),
            ...(options.metadata !== undefined
              ? { metadata: options.metadata as Exclude<CreateExperimentBody["metadata"], undefined> }
              : {}),
            evaluators: rules,
          },
          call,
        )
      ).id;

    const progress: RunProgress = { done: 0, failed: 0, recorded: 0 };
    const waiting: Result[] = [];
    let flushing: Promise<void> = Promise.resolve();
    const flush = (all: boolean) => {
      while (waiting.length >= batchSize || (all && waiting.length > 0)) {
        const batch = waiting.splice(0, batchSize);
        flushing = flushing.then(async () => {
          await this.recordResults(projectSlug, experimentId, { results: batch }, call);
          progress.recorded += batch.length;
          options.onProgress?.({ ...progress });
        });
      }
      return flushing;
    };

    const runOne = async (row: DatasetRow) => {
      const result = await runTask(row, experimentId, options, code);
      progress.done += 1;
      if (result.error !== undefined) progress.failed += 1;
      waiting.push(result);
      options.onProgress?.({ ...progress });
      await flush(false);
    };

    const running = new Set<Promise<void>>();
    for await (const row of this.iteratePending(projectSlug, experimentId, { limit: 200 }, call)) {
      const job = runOne(row).finally(() => running.delete(job));
      running.add(job);
      if (running.size >= concurrency) await Promise.race(running);
    }
    await Promise.all(running);
    await flush(true);
    const experiment =
      options.finish === false
        ? await this.get(projectSlug, experimentId, call)
        : await this.update(projectSlug, experimentId, { status: "finished" }, call);
    return { experiment, progress };
  }
}

async function runTask(
  row: DatasetRow,
  experimentId: string,
  options: RunOptions,
  code: readonly CodeEvaluator[],
): Promise<Result> {
  const started = performance.now();
  let answer: TaskAnswer;
  try {
    const returned = await withTrace(() => options.task(row, { experimentId, signal: options.signal }));
    answer = isAnswer(returned.value)
      ? { ...returned.value, traceId: returned.value.traceId ?? returned.traceId }
      : { output: returned.value, traceId: returned.traceId };
  } catch (error) {
    return { rowId: row.rowId, output: null, error: messageOf(error), latencyMs: elapsed(started) };
  }
  const latencyMs = elapsed(started);
  const scores = [];
  for (const evaluator of code) {
    const value = await evaluator.evaluate({ row, output: answer.output });
    if (value !== undefined) scores.push({ name: evaluator.name, value, source: "code" as const });
  }
  return {
    rowId: row.rowId,
    output: (answer.output ?? null) as Result["output"],
    latencyMs,
    ...(answer.tokens !== undefined ? { tokens: answer.tokens } : {}),
    ...(answer.costMicrocents !== undefined ? { costMicrocents: answer.costMicrocents } : {}),
    ...(answer.traceId !== undefined && /^[0-9a-f]{32}$/.test(answer.traceId)
      ? { traceId: answer.traceId }
      : {}),
    ...(scores.length > 0 ? { scores } : {}),
  };
}

interface OpenTelemetryApi {
  trace: {
    getTracer(name: string): {
      startActiveSpan<T>(
        name: string,
        fn: (span: { spanContext(): { traceId: string }; end(): void }) => T,
      ): T;
    };
  };
}
let openTelemetry: Promise<OpenTelemetryApi | undefined> | undefined;

/**
 * Runs the task inside a span when the process uses OpenTelemetry (`@opentelemetry/api` can be
 * loaded), so that the result records the trace the task's own spans belong to.
 */
async function withTrace(task: () => unknown): Promise<{ value: unknown; traceId: string | undefined }> {
  // A specifier bundlers leave alone: the SDK does not depend on OpenTelemetry, it uses it when there.
  const specifier = ["@opentelemetry", "api"].join("/");
  openTelemetry ??= import(/* @vite-ignore */ specifier).then(
    (api: OpenTelemetryApi) => api,
    () => undefined,
  );
  const api = await openTelemetry;
  if (!api) return { value: await task(), traceId: undefined };
  return api.trace.getTracer("svc-sdk").startActiveSpan("svc.experiment.task", async (span) => {
    try {
      const traceId = span.spanContext().traceId;
      return { value: await task(), traceId: /^0+$/.test(traceId) ? undefined : traceId };
    } finally {
      span.end();
    }
  });
}

const isAnswer = (value: unknown): value is TaskAnswer =>
  typeof value === "object" && value !== null && ANSWER in value;

function messageOf(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length === 0 ? "The task failed" : text.slice(0, 10_000);
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 1000) / 1000;

function positive(value: number, name: string): number {
  if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`${name} must be a whole number above 0`);
  return value;
}
