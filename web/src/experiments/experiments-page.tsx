import type { Experiment } from "@svc/sdk";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useMemo, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { LoadMore } from "../components/load-more";
import { numeric, Table } from "../components/table";
import { datasetQuery } from "../datasets/queries";
import { experimentsQuery } from "./queries";
import { formatMean, meanTrend, scoreNames } from "./scores";

const ScoreTrendChart = lazy(() =>
  import("./charts").then((charts) => ({ default: charts.ScoreTrendChart })),
);

/**
 * A dataset's experiments, newest first, with each score's mean, and a chart of those means over
 * time. Choosing two opens their comparison, the older one as the baseline.
 */
export function ExperimentsPage() {
  const { projectSlug = "", datasetSlug = "" } = useParams();
  const navigate = useNavigate();
  const dataset = useQuery(datasetQuery(projectSlug, datasetSlug));
  const experiments = useInfiniteQuery(experimentsQuery(projectSlug, datasetSlug));
  const items = useMemo(
    () => experiments.data?.pages.flatMap((page) => page.items) ?? [],
    [experiments.data],
  );
  const names = useMemo(() => scoreNames(items), [items]);
  const trend = useMemo(() => meanTrend(items), [items]);
  const charted = names.filter((name) => trend.some((point) => point.means[name] !== undefined));
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const base = `/projects/${projectSlug}/datasets/${datasetSlug}`;

  const toggle = (id: string) =>
    setChosen((current) =>
      current.includes(id) ? current.filter((one) => one !== id) : [...current, id].slice(-2),
    );
  const compare = () => {
    const [a, b] = items
      .filter((experiment) => chosen.includes(experiment.id))
      .sort((x, y) => x.createdAt.localeCompare(y.createdAt));
    if (a && b) navigate(`/projects/${projectSlug}/experiments/${a.id}/compare/${b.id}`);
  };

  return (
    <>
      <PageHeader
        title="Experiments"
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: projectSlug, to: `/projects/${projectSlug}` },
          { label: dataset.data?.name ?? datasetSlug, to: base },
        ]}
        actions={
          <>
            <Link to={base} className="button button-quiet">
              Rows
            </Link>
            <Link to={`${base}/versions`} className="button button-quiet">
              Versions
            </Link>
          </>
        }
      />
      {experiments.error ? <ErrorMessage error={experiments.error} /> : null}
      {experiments.isPending ? (
        <p className="page-status" role="status">
          Loading experiments…
        </p>
      ) : items.length === 0 ? (
        <NoExperiments projectSlug={projectSlug} datasetSlug={datasetSlug} />
      ) : (
        <>
          {charted.length > 0 ? (
            <section className="chart-panel" aria-labelledby="trend-title">
              <h2 id="trend-title">Score means over time</h2>
              <Suspense fallback={<p role="status">Loading the chart…</p>}>
                <ScoreTrendChart points={trend} names={charted} />
              </Suspense>
            </section>
          ) : null}
          <div className="toolbar">
            <span className="row-count" role="status">
              {chosen.length === 2
                ? "Two experiments chosen"
                : `Choose two experiments to compare them (${chosen.length} of 2)`}
            </span>
            <button
              type="button"
              className="button button-primary"
              disabled={chosen.length !== 2}
              onClick={compare}
            >
              Compare
            </button>
          </div>
          <ExperimentTable
            projectSlug={projectSlug}
            items={items}
            names={names}
            chosen={chosen}
            onToggle={toggle}
          />
          <LoadMore pages={experiments} label="Older experiments" />
        </>
      )}
    </>
  );
}

function ExperimentTable({
  projectSlug,
  items,
  names,
  chosen,
  onToggle,
}: {
  projectSlug: string;
  items: readonly Experiment[];
  names: readonly string[];
  chosen: readonly string[];
  onToggle(id: string): void;
}) {
  return (
    <div className="table-scroller">
      <Table
        caption="Experiments, newest first"
        className="table experiments-table"
        columns={[
          { name: "Compare", label: <span className="visually-hidden">Compare</span> },
          "Experiment",
          "Started",
          numeric("Version"),
          "Status",
          numeric("Rows"),
          numeric("Results"),
          numeric("Errors"),
          numeric("Carried"),
          ...names.map((name) => ({ name: `score:${name}`, label: `${name} (mean)`, numeric: true })),
        ]}
      >
        {items.map((experiment) => (
          <tr key={experiment.id}>
            <td>
              <input
                type="checkbox"
                aria-label={`Compare ${experiment.name}`}
                checked={chosen.includes(experiment.id)}
                onChange={() => onToggle(experiment.id)}
              />
            </td>
            <th scope="row">
              <Link to={`/projects/${projectSlug}/experiments/${experiment.id}`}>{experiment.name}</Link>
            </th>
            <td>
              <time dateTime={experiment.createdAt}>{new Date(experiment.createdAt).toLocaleString()}</time>
            </td>
            <td className="numeric">{experiment.version}</td>
            <td>
              <StatusBadge status={experiment.status} />
            </td>
            <td className="numeric">{experiment.rows.toLocaleString()}</td>
            <td className="numeric">{experiment.results.toLocaleString()}</td>
            <td className="numeric">{experiment.errors.toLocaleString()}</td>
            <td className="numeric">{experiment.carried.toLocaleString()}</td>
            {names.map((name) => (
              <td key={name} className="numeric">
                {formatMean(experiment.scores[name]?.mean)}
              </td>
            ))}
          </tr>
        ))}
      </Table>
    </div>
  );
}

export function StatusBadge({ status }: { status: Experiment["status"] }) {
  return <span className={status === "running" ? "badge badge-running" : "badge"}>{status}</span>;
}

/** No experiment yet: how to start one, from a program or from a shell. */
function NoExperiments({ projectSlug, datasetSlug }: { projectSlug: string; datasetSlug: string }) {
  const sdk = `import { Client } from "@svc/sdk";

const client = new Client(); // SVC_API_KEY and SVC_BASE_URL from the environment
const { experiment } = await client.experiments.run({
  projectSlug: "${projectSlug}",
  datasetSlug: "${datasetSlug}",
  name: "first run",
  evaluators: [{ name: "exact", kind: "exact_match", trim: true }],
  task: async (row) => myAgent(row.input), // what it returns is the output
});`;
  const cli = `svc experiments create --project-slug ${projectSlug} --dataset-slug ${datasetSlug} --name "first run"   # prints its id
svc experiments record-results --project-slug ${projectSlug} --experiment-id <its id> --results '[{"rowId": "q1", "output": "4"}]'`;
  return (
    <div className="empty empty-left">
      <p>
        <strong>No experiment has run on this dataset yet.</strong> An experiment runs your agent over one
        version of the dataset, records what it answered for each row and scores it; its results show here.
      </p>
      <h2>From a program (TypeScript SDK; the Python SDK is alike)</h2>
      <pre className="snippet">
        <code>{sdk}</code>
      </pre>
      <h2>From a shell</h2>
      <pre className="snippet">
        <code>{cli}</code>
      </pre>
      <p className="muted">
        Run it again with <code>base</code> set to an earlier experiment and only new or changed rows run;
        choose two experiments here to compare them. The README&rsquo;s &ldquo;Evaluate an agent&rdquo;
        section says more.
      </p>
    </div>
  );
}
