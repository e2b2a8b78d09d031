import type { CompareExperimentsResponse, ExperimentResult } from "@svc/sdk";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { ownActorIdOf } from "../api";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { numeric, Table } from "../components/table";
import { plural } from "../components/words";
import { useSignedIn } from "../session";
import { experimentCrumbs } from "./crumbs";
import { compareQuery, experimentQuery, projectDatasetsQuery } from "./queries";
import { ClippedText, OutputWithDiff, ScoreList } from "./result-parts";
import { formatDelta, formatMean } from "./scores";

type Entry = CompareExperimentsResponse["items"][number];
type Summary = CompareExperimentsResponse["summary"];

const CHANGE_WORDS: Record<Entry["change"], string> = {
  regressed: "regressed",
  improved: "improved",
  same: "same",
  added: "only in B",
  removed: "only in A",
};

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
  const datasets = useQuery(projectDatasetsQuery(projectSlug));
  const dataset = datasets.data?.items.find((one) => one.id === a.data?.datasetId);
  const compare = useInfiniteQuery(compareQuery(projectSlug, experimentId, otherExperimentId));
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
      {entries.length > 0 ? (
        <>
          <h2 className="section-title">Rows, regressions first</h2>
          <div className="table-scroller">
            <Table
              caption="Rows of the two experiments, regressions first"
              className="table results-table compare-table"
              columns={["Row", "Input and expected output", `A: ${nameA}`, `B: ${nameB}`]}
            >
              {entries.map((entry) => (
                <CompareRow key={entry.rowId} entry={entry} ownActorId={ownActorIdOf(session)} />
              ))}
            </Table>
          </div>
        </>
      ) : compare.data ? (
        <div className="empty">
          <p>Neither experiment has a result yet.</p>
        </div>
      ) : null}
      {compare.hasNextPage ? (
        <button
          type="button"
          className="button load-more"
          onClick={() => void compare.fetchNextPage()}
          disabled={compare.isFetchingNextPage}
        >
          {compare.isFetchingNextPage ? "Loading…" : "More rows"}
        </button>
      ) : null}
    </>
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
