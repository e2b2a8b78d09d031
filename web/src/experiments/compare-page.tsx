import type { CompareExperimentsResponse, ExperimentResult } from "@svc/sdk";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Link, useParams, useSearchParams } from "react-router";
import { ownActorIdOf } from "../api";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { LoadMore } from "../components/load-more";
import { numeric, Table } from "../components/table";
import { datasetTargetsQuery } from "../datasets/queries";
import { useSignedIn } from "../session";
import { plural } from "../words";
import { experimentCrumbs } from "./crumbs";
import { type CompareChange, compareQuery, experimentQuery } from "./queries";
import { ClippedText, OutputWithDiff, ScoreList } from "./result-parts";
import { formatDelta, formatMean } from "./scores";

type Entry = CompareExperimentsResponse["items"][number];
type Summary = CompareExperimentsResponse["summary"];

const CHANGE_WORDS: Record<CompareChange, string> = {
  regressed: "regressed",
  improved: "improved",
  same: "same",
  added: "only in B",
  removed: "only in A",
};

/** The changes in the order the rows come in, each with the caption of the table that shows only it. */
const CHANGES: readonly { change: CompareChange; label: string; caption: string }[] = [
  { change: "regressed", label: "Regressed", caption: "Rows of the two experiments that regressed" },
  { change: "improved", label: "Improved", caption: "Rows of the two experiments that improved" },
  { change: "added", label: "Only in B", caption: "Rows with a result only in B" },
  { change: "removed", label: "Only in A", caption: "Rows with a result only in A" },
  { change: "same", label: "Same", caption: "Rows of the two experiments that scored the same" },
];

/** The `change` of the page's address, when it names one. */
export function changeFrom(params: URLSearchParams): CompareChange | undefined {
  const value = params.get("change");
  return CHANGES.find((one) => one.change === value)?.change;
}

/**
 * Two experiments of one dataset side by side: the summary first (each shared score's mean in A and
 * B, how many rows got worse or better), then row by row, regressions first, each row marked when
 * the dataset changed it between the two versions.
 */
export function ComparePage() {
  const { projectSlug = "", experimentId = "", otherExperimentId = "" } = useParams();
  const session = useSignedIn();
  const a = useQuery(experimentQuery(projectSlug, experimentId));
  const b = useQuery(experimentQuery(projectSlug, otherExperimentId));
  const datasets = useQuery(datasetTargetsQuery(projectSlug));
  const dataset = datasets.data?.items.find((one) => one.id === a.data?.datasetId);
  const [params, setParams] = useSearchParams();
  const change = changeFrom(params);
  const compare = useInfiniteQuery(compareQuery(projectSlug, experimentId, otherExperimentId, change));
  const entries = compare.data?.pages.flatMap((page) => page.items) ?? [];
  const summary = compare.data?.pages[0]?.summary;
  const nameA = a.data?.name ?? "A";
  const nameB = b.data?.name ?? "B";
  const experimentPath = (id: string) => `/projects/${projectSlug}/experiments/${id}`;

  return (
    <>
      <PageHeader
        title={`Compare ${nameA} with ${nameB}`}
        crumbs={experimentCrumbs(projectSlug, dataset)}
        actions={
          <Link
            to={`/projects/${projectSlug}/experiments/${otherExperimentId}/compare/${experimentId}`}
            className="button button-quiet"
          >
            Swap A and B
          </Link>
        }
      />
      <p className="compare-sides">
        <span className="side-tag">A</span> <Link to={experimentPath(experimentId)}>{nameA}</Link> (version{" "}
        {a.data?.version ?? "…"}), the baseline · <span className="side-tag">B</span>{" "}
        <Link to={experimentPath(otherExperimentId)}>{nameB}</Link> (version {b.data?.version ?? "…"})
      </p>
      {a.error ? <ErrorMessage error={a.error} /> : null}
      {b.error ? <ErrorMessage error={b.error} /> : null}
      {compare.error ? <ErrorMessage error={compare.error} /> : null}
      {compare.isPending ? (
        <p className="page-status" role="status">
          Comparing…
        </p>
      ) : summary ? (
        <SummaryView summary={summary} nameA={nameA} nameB={nameB} />
      ) : null}
      {summary ? <h2 className="section-title">Rows</h2> : null}
      {summary ? (
        <ChangeFilter
          summary={summary}
          change={change}
          onChange={(next) => setParams(next ? { change: next } : {}, { replace: true })}
        />
      ) : null}
      {entries.length > 0 ? (
        <div className="table-scroller">
          <Table
            caption={
              CHANGES.find((one) => one.change === change)?.caption ??
              "Rows of the two experiments, regressions first"
            }
            className="table results-table compare-table"
            columns={["Row", "Input and expected output", `A: ${nameA}`, `B: ${nameB}`]}
          >
            {entries.map((entry) => (
              <CompareRow key={entry.rowId} entry={entry} ownActorId={ownActorIdOf(session)} />
            ))}
          </Table>
        </div>
      ) : compare.data ? (
        <div className="empty">
          <p>
            {change
              ? `No row ${change === "added" || change === "removed" ? "has a result only in one of them" : CHANGE_WORDS[change]}.`
              : "Neither experiment has a result yet."}
          </p>
        </div>
      ) : null}
      <LoadMore pages={compare} label="More rows" className="button load-more" />
    </>
  );
}

/** Which rows the table shows: all of them, or those of one change, each choice with its count. */
function ChangeFilter({
  summary,
  change,
  onChange,
}: {
  summary: Summary;
  change: CompareChange | undefined;
  onChange(change: CompareChange | undefined): void;
}) {
  const all = summary.regressed + summary.improved + summary.same + summary.added + summary.removed;
  return (
    <fieldset className="toolbar compare-filter">
      <legend className="visually-hidden">Rows to show</legend>
      <button
        type="button"
        className={change === undefined ? "chip chip-on" : "chip"}
        aria-pressed={change === undefined}
        onClick={() => onChange(undefined)}
      >
        All, regressions first ({all.toLocaleString()})
      </button>
      {CHANGES.map((one) => (
        <button
          key={one.change}
          type="button"
          className={change === one.change ? "chip chip-on" : "chip"}
          aria-pressed={change === one.change}
          onClick={() => onChange(one.change)}
        >
          {one.label} ({summary[one.change].toLocaleString()})
        </button>
      ))}
    </fieldset>
  );
}

function SummaryView({ summary, nameA, nameB }: { summary: Summary; nameA: string; nameB: string }) {
  const scores = Object.entries(summary.scores).sort(([x], [y]) => x.localeCompare(y));
  return (
    <section className="compare-summary" aria-labelledby="summary-title">
      <h2 id="summary-title">Summary</h2>
      <ul className="change-counts">
        <li className="count-regressed">
          <strong>{summary.regressed.toLocaleString()}</strong> regressed
        </li>
        <li className="count-improved">
          <strong>{summary.improved.toLocaleString()}</strong> improved
        </li>
        <li>
          <strong>{summary.same.toLocaleString()}</strong> same
        </li>
        <li>
          <strong>{summary.added.toLocaleString()}</strong> added (only in B)
        </li>
        <li>
          <strong>{summary.removed.toLocaleString()}</strong> removed (only in A)
        </li>
        <li>
          <strong>{summary.rowsChanged.toLocaleString()}</strong> {summary.rowsChanged === 1 ? "row" : "rows"}{" "}
          changed in the dataset
        </li>
      </ul>
      {scores.length === 0 ? (
        <p className="muted">The two experiments share no numeric or boolean score.</p>
      ) : (
        <Table
          caption="Each shared score's mean in A and B"
          className="table summary-table"
          columns={["Score", numeric(`A: ${nameA}`), numeric(`B: ${nameB}`), numeric("Delta (B − A)")]}
        >
          {scores.map(([name, score]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td className="numeric">{formatMean(score.a)}</td>
              <td className="numeric">{formatMean(score.b)}</td>
              <td className={`numeric ${deltaClass(score.delta)}`}>{formatDelta(score.delta)}</td>
            </tr>
          ))}
        </Table>
      )}
      <p className="muted">
        {plural(summary.regressed + summary.improved + summary.same + summary.added + summary.removed, "row")}{" "}
        compared. Higher scores are better.
      </p>
    </section>
  );
}

const deltaClass = (delta: number | null): string =>
  delta === null || Math.abs(delta) < 0.0005 ? "" : delta > 0 ? "delta-up" : "delta-down";

function CompareRow({ entry, ownActorId }: { entry: Entry; ownActorId: string }) {
  const either = entry.b ?? entry.a;
  return (
    <tr className={`change-${entry.change}`}>
      <th scope="row">
        <span className="row-id">{entry.rowId}</span>
        <span className={`badge badge-${entry.change}`}>{CHANGE_WORDS[entry.change]}</span>
        {entry.rowChanged ? (
          <span className="badge badge-modified" title="The row's revision differs between the two versions">
            row changed in the dataset
          </span>
        ) : null}
      </th>
      <td>
        <ClippedText value={either?.input} />
        <div className="expected-line">
          <span className="muted">Expected: </span>
          <ClippedText value={entry.b?.expectedOutput ?? entry.a?.expectedOutput} />
        </div>
      </td>
      <Side result={entry.a} ownActorId={ownActorId} />
      <Side result={entry.b} ownActorId={ownActorId} />
    </tr>
  );
}

function Side({ result, ownActorId }: { result: ExperimentResult | null; ownActorId: string }) {
  if (result === null)
    return (
      <td>
        <span className="muted">no result</span>
      </td>
    );
  return (
    <td>
      {result.error ? <div className="result-error">{result.error}</div> : null}
      {result.error && result.output === null ? null : (
        <OutputWithDiff output={result.output} expected={result.expectedOutput} />
      )}
      <ScoreList scores={result.scores} ownActorId={ownActorId} />
    </td>
  );
}
