import type { Actor, Experiment, ExperimentResult, ListExperimentResultsResponse } from "@svc/sdk";
import {
  type InfiniteData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { type FormEvent, lazy, Suspense, useCallback, useEffect, useId, useMemo, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { mayCall } from "../access";
import { api, ownActorIdOf, ownActorOf, SvcError } from "../api";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { LoadMore } from "../components/load-more";
import { useToasts } from "../components/toasts";
import { datasetTargetsQuery } from "../datasets/queries";
import { useSignedIn } from "../session";
import { plural } from "../words";
import { CommentDialog } from "./comment-dialog";
import { type Copied, CopyResultsDialog } from "./copy-results-dialog";
import { experimentCrumbs } from "./crumbs";
import { StatusBadge } from "./experiments-page";
import {
  DISTRIBUTION_SAMPLE,
  distributionQuery,
  experimentQuery,
  experimentResultsKey,
  resultsPagesQuery,
} from "./queries";
import { describeFilters, filtersFrom, isFiltered, type ResultFilters, withFilters } from "./result-filters";
import { ResultsTable } from "./results-table";
import { distributions, formatMean, formatScore } from "./scores";
import { keyCommand, moveSelection, PASS, RATING } from "./scoring-keys";

const DistributionChart = lazy(() =>
  import("./charts").then((charts) => ({ default: charts.DistributionChart })),
);

interface ScoreEntry {
  rowId: string;
  name: string;
  value: boolean | number;
  comment?: string;
}

/**
 * One experiment: what it ran on and how far it got, how its scores are spread, and its results with
 * filters kept in the address. A person who may write scores the selected result from the keyboard
 * and copies the rows of any view into another dataset.
 */
export function ExperimentPage() {
  const { projectSlug = "", experimentId = "" } = useParams();
  const session = useSignedIn();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFrom(params), [params]);

  const experiment = useQuery(experimentQuery(projectSlug, experimentId));
  const datasets = useQuery(datasetTargetsQuery(projectSlug));
  const dataset = datasets.data?.items.find((one) => one.id === experiment.data?.datasetId);
  const results = useInfiniteQuery(resultsPagesQuery(projectSlug, experimentId, filters));
  const items = useMemo(() => results.data?.pages.flatMap((page) => page.items) ?? [], [results.data]);

  const [selected, setSelected] = useState<string | undefined>();
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [commenting, setCommenting] = useState<string | undefined>();
  const [copying, setCopying] = useState(false);
  const [copied, setCopied] = useState<Copied | undefined>();

  const writable = mayCall(session.role, "recordExperimentScores");
  const finished = experiment.data?.status === "finished";
  const canScore = writable && experiment.data !== undefined && !finished;

  const score = useMutation({
    mutationFn: (entry: ScoreEntry) =>
      api.experiments.recordScores(projectSlug, experimentId, { scores: [entry] }),
    onSuccess: (_recorded, entry) => {
      // The table shows the new score at once; the summary and the distribution are read again.
      queryClient.setQueriesData<InfiniteData<ListExperimentResultsResponse>>(
        { queryKey: experimentResultsKey(projectSlug, experimentId) },
        (data) => data && withScore(data, entry, ownActorOf(session)),
      );
      void queryClient.invalidateQueries({
        queryKey: experimentQuery(projectSlug, experimentId).queryKey,
      });
      void queryClient.invalidateQueries({
        queryKey: distributionQuery(projectSlug, experimentId).queryKey,
      });
      toasts.show({
        kind: "success",
        message: `${scoreWords(entry)} for row ${entry.rowId}${entry.comment ? ", with a comment" : ""}`,
      });
    },
    onError: (error) => {
      // Finished meanwhile (by its runner, say): read it again, so that the page says so and stops scoring.
      if (error instanceof SvcError && error.status === 409)
        void queryClient.invalidateQueries({ queryKey: experimentQuery(projectSlug, experimentId).queryKey });
    },
  });

  const rowIds = useMemo(() => items.map((result) => result.rowId), [items]);
  const { hasNextPage, fetchNextPage } = results;
  const move = useCallback(
    (by: 1 | -1) => {
      const next = moveSelection(rowIds, selected, by);
      if (by === 1 && next === selected && hasNextPage) void fetchNextPage();
      setSelected(next);
    },
    [rowIds, selected, hasNextPage, fetchNextPage],
  );
  const record = score.mutate;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const command = keyCommand(event);
      if (!command) return;
      if (command.kind === "move") {
        event.preventDefault();
        move(command.by);
        return;
      }
      if (!canScore || selected === undefined) return;
      event.preventDefault();
      if (command.kind === "comment") {
        score.reset();
        setCommenting(selected);
        return;
      }
      // A verdict given again keeps the comment it had.
      const before = items.find((result) => result.rowId === selected)?.scores[command.name];
      const comment = before?.source === "human" ? before.comment : null;
      record({ rowId: selected, name: command.name, value: command.value, ...(comment ? { comment } : {}) });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [move, canScore, selected, items, record, score.reset]);

  const setFilters = (next: ResultFilters) => {
    setParams(withFilters(params, next), { replace: true });
    setChecked(new Set());
    setSelected(undefined);
  };
  const toggle = (rowId: string) =>
    setChecked((current) => {
      const next = new Set(current);
      if (!next.delete(rowId)) next.add(rowId);
      return next;
    });
  const toggleAll = () =>
    setChecked((current) => (items.every((r) => current.has(r.rowId)) ? new Set() : new Set(rowIds)));

  if (experiment.error && !experiment.data) return <ErrorMessage error={experiment.error} />;
  const data = experiment.data;
  const datasetBase = dataset ? `/projects/${projectSlug}/datasets/${dataset.slug}` : undefined;
  const commented = items.find((result) => result.rowId === commenting);
  const ownHuman = commented ? ownVerdict(commented, ownActorIdOf(session)) : undefined;

  return (
    <>
      <PageHeader
        title={data?.name ?? "Experiment"}
        crumbs={experimentCrumbs(projectSlug, dataset)}
        actions={
          data?.baseExperimentId ? (
            <Link
              to={`/projects/${projectSlug}/experiments/${data.baseExperimentId}/compare/${data.id}`}
              className="button"
            >
              Compare with its base
            </Link>
          ) : null
        }
      />
      {data ? <ExperimentFacts experiment={data} datasetBase={datasetBase} /> : null}
      {data ? <Distributions projectSlug={projectSlug} experiment={data} /> : null}
      <h2 className="section-title">Results</h2>
      <ScoringNote writable={writable} finished={finished} />
      {score.error && commenting === undefined ? (
        <ErrorMessage
          error={score.error}
          lead={
            score.error instanceof SvcError && score.error.status === 409
              ? "Not recorded: this experiment is finished and takes no more scores."
              : "Not recorded:"
          }
        />
      ) : null}
      <ResultFiltersBar
        filters={filters}
        names={Object.keys(data?.scores ?? {}).sort()}
        onChange={setFilters}
        status={
          results.isPending
            ? "Loading results…"
            : `${plural(items.length, "result")}${results.hasNextPage ? " so far" : ""}${isFiltered(filters) ? ` ${describeFilters(filters)}` : ""}`
        }
        onCopy={writable && dataset ? () => setCopying(true) : undefined}
        checkedCount={checked.size}
      />
      {copied ? (
        <div className="banner banner-success" role="status">
          Copied {plural(copied.rowsCopied, "row")} into {copied.target.name} as version {copied.version}.{" "}
          <Link to={`/projects/${projectSlug}/datasets/${copied.target.slug}`}>
            Open {copied.target.name}
          </Link>
        </div>
      ) : null}
      {results.error ? <ErrorMessage error={results.error} /> : null}
      {!results.isPending && items.length === 0 ? (
        <div className="empty">
          <p>
            {isFiltered(filters)
              ? `No result ${describeFilters(filters)}.`
              : "No result has been recorded yet: a runner records them as it goes."}
          </p>
        </div>
      ) : items.length > 0 ? (
        <ResultsTable
          results={items}
          selected={selected}
          onSelect={setSelected}
          checked={checked}
          onToggle={toggle}
          onToggleAll={toggleAll}
          ownActorId={ownActorIdOf(session)}
        />
      ) : null}
      <LoadMore pages={results} label="More results" className="button load-more" />
      {commenting !== undefined ? (
        <CommentDialog
          rowId={commenting}
          initial={ownHuman}
          busy={score.isPending}
          error={score.error ?? undefined}
          onSubmit={(entry) =>
            // Closed by its own answer only: a key's score still on its way must not close it.
            score.mutate({ rowId: commenting, ...entry }, { onSuccess: () => setCommenting(undefined) })
          }
          onClose={() => setCommenting(undefined)}
        />
      ) : null}
      {dataset && copying ? (
        <CopyResultsDialog
          open={copying}
          projectSlug={projectSlug}
          experimentId={experimentId}
          source={{ slug: dataset.slug, name: dataset.name }}
          checked={[...checked]}
          filters={filters}
          onClose={() => setCopying(false)}
          onDone={(done) => {
            setCopying(false);
            setCopied(done);
            toasts.show({
              kind: "success",
              message: `Copied ${plural(done.rowsCopied, "row")} into ${done.target.name}`,
            });
          }}
        />
      ) : null}
    </>
  );
}

/** The cached results with one human score set, as the platform now holds it. */
function withScore(
  data: InfiniteData<ListExperimentResultsResponse>,
  entry: ScoreEntry,
  actor: Actor,
): InfiniteData<ListExperimentResultsResponse> {
  const scored = (result: ExperimentResult): ExperimentResult =>
    result.rowId !== entry.rowId
      ? result
      : {
          ...result,
          scores: {
            ...result.scores,
            [entry.name]: {
              value: entry.value,
              source: "human",
              comment: entry.comment ?? null,
              actor,
            },
          },
        };
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(scored) })) };
}

/** "Recorded a pass", "Recorded rating 3": what a key press did. */
function scoreWords(entry: ScoreEntry): string {
  if (typeof entry.value === "boolean") return `Recorded a ${entry.value ? "pass" : "fail"}`;
  return `Recorded ${entry.name} ${formatScore(entry.value)}`;
}

/** The person's own verdict or rating on a result, the comment box's starting point. */
function ownVerdict(result: ExperimentResult, ownActorId: string) {
  for (const name of [PASS, RATING]) {
    const score = result.scores[name];
    if (score?.source === "human" && score.actor.id === ownActorId)
      return { name, value: score.value, comment: score.comment };
  }
  return undefined;
}

function ExperimentFacts({
  experiment,
  datasetBase,
}: {
  experiment: Experiment;
  datasetBase: string | undefined;
}) {
  return (
    <dl className="facts">
      <div>
        <dt>Version</dt>
        <dd>
          {datasetBase ? (
            <Link to={`${datasetBase}?version=${experiment.version}`}>{experiment.version}</Link>
          ) : (
            experiment.version
          )}
        </dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={experiment.status} />
        </dd>
      </div>
      <div>
        <dt>Rows</dt>
        <dd>{experiment.rows.toLocaleString()}</dd>
      </div>
      <div>
        <dt>Results</dt>
        <dd>{experiment.results.toLocaleString()}</dd>
      </div>
      <div>
        <dt>Errors</dt>
        <dd>{experiment.errors.toLocaleString()}</dd>
      </div>
      <div>
        <dt>Carried</dt>
        <dd>{experiment.carried.toLocaleString()}</dd>
      </div>
      <div>
        <dt>Started</dt>
        <dd>
          <time dateTime={experiment.createdAt}>{new Date(experiment.createdAt).toLocaleString()}</time>
        </dd>
      </div>
    </dl>
  );
}

/** Each score's spread over the experiment's results (its first results, when there are very many). */
function Distributions({ projectSlug, experiment }: { projectSlug: string; experiment: Experiment }) {
  const sample = useQuery(distributionQuery(projectSlug, experiment.id));
  const spread = useMemo(() => distributions(sample.data?.results ?? []), [sample.data]);
  if (sample.error)
    return <ErrorMessage error={sample.error} lead="The score distribution could not be read." />;
  if (sample.isPending || spread.length === 0) return null;
  return (
    <section className="chart-panel" aria-labelledby="spread-title">
      <h2 id="spread-title">Score distribution</h2>
      {sample.data.complete ? null : (
        <p className="muted">Of the first {DISTRIBUTION_SAMPLE.toLocaleString()} results.</p>
      )}
      <div className="chart-grid">
        {spread.map((distribution, i) => (
          <figure key={distribution.name} className="chart-card">
            <figcaption>
              <strong>{distribution.name}</strong>{" "}
              <span className="muted">
                mean {formatMean(experiment.scores[distribution.name]?.mean)} ·{" "}
                {plural(distribution.count, "result")}
              </span>
            </figcaption>
            <Suspense fallback={<p role="status">Loading the chart…</p>}>
              <DistributionChart distribution={distribution} index={i} />
            </Suspense>
          </figure>
        ))}
      </div>
    </section>
  );
}

/** How to score from the keyboard, or why one cannot here. */
function ScoringNote({ writable, finished }: { writable: boolean; finished: boolean }) {
  if (!writable) return null;
  if (finished)
    return (
      <p className="note">
        This experiment is finished: it takes no more scores, so scoring from the keyboard is off.
      </p>
    );
  return (
    <p className="note">
      Select a result (click it, or <kbd>j</kbd>/<kbd>k</kbd> or <kbd>↓</kbd>/<kbd>↑</kbd>), then press{" "}
      <kbd>p</kbd> pass, <kbd>f</kbd> fail, <kbd>1</kbd>–<kbd>5</kbd> a rating, or <kbd>c</kbd> to comment.
    </p>
  );
}

function ResultFiltersBar({
  filters,
  names,
  onChange,
  status,
  onCopy,
  checkedCount,
}: {
  filters: ResultFilters;
  names: readonly string[];
  onChange(filters: ResultFilters): void;
  status: string;
  onCopy: (() => void) | undefined;
  checkedCount: number;
}) {
  const id = useId();
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("score") ?? "");
    const below = Number(String(form.get("below") ?? "").trim() || Number.NaN);
    if (name && Number.isFinite(below)) onChange({ ...filters, score: name, below });
  };
  return (
    <div className="toolbar">
      <button
        type="button"
        className={filters.errored ? "chip chip-on" : "chip"}
        aria-pressed={filters.errored}
        onClick={() => onChange({ ...filters, errored: !filters.errored })}
      >
        With an error
      </button>
      {names.length > 0 ? (
        <form className="score-filter" onSubmit={apply} key={`${filters.score}-${filters.below}`}>
          <label htmlFor={`${id}-score`}>Score</label>
          <select id={`${id}-score`} name="score" defaultValue={filters.score ?? names[0]}>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-below`}>below</label>
          <input
            id={`${id}-below`}
            name="below"
            type="number"
            step="any"
            required
            className="number-input"
            defaultValue={filters.below ?? ""}
          />
          <button type="submit" className="button">
            Filter
          </button>
          {filters.score !== undefined ? (
            <button
              type="button"
              className="button button-quiet"
              onClick={() => onChange({ ...filters, score: undefined, below: undefined })}
            >
              Clear score filter
            </button>
          ) : null}
        </form>
      ) : null}
      <span className="row-count" role="status">
        {status}
      </span>
      {onCopy ? (
        <button type="button" className="button" onClick={onCopy}>
          Copy {checkedCount > 0 ? plural(checkedCount, "checked row") : "these rows"} to a dataset…
        </button>
      ) : null}
    </div>
  );
}
