"""The experiment runner against the running platform (SVC_BASE_URL and SVC_API_KEY, as test_api)."""

from __future__ import annotations

import os
import secrets
import threading
import unittest

from svc import Client, CodeEvaluator, DatasetRow, TaskAnswer

BASE_URL = os.environ.get("SVC_BASE_URL")
API_KEY = os.environ.get("SVC_API_KEY")


def setUpModule() -> None:  # noqa: N802 (unittest's name)
    if not BASE_URL or not API_KEY:
        raise unittest.SkipTest("set SVC_BASE_URL and SVC_API_KEY to a running platform to run these tests")


def add(row: DatasetRow) -> str:
    cells = row.input
    return str(cells["a"] + cells["b"])


class ExperimentRunnerTest(unittest.TestCase):
    client: Client
    project: str
    dataset: str

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Client(api_key=API_KEY, base_url=BASE_URL)
        cls.project = cls.client.projects.create(name=f"py runner {secrets.token_hex(4)}").slug

    def setUp(self) -> None:
        # A dataset of its own for each test: one edits rows that the other scores.
        self.dataset = self.client.datasets.create(self.project, name=f"qa {secrets.token_hex(4)}").slug
        self.client.datasets.insert_rows(
            self.project,
            self.dataset,
            rows=[{"id": f"q{i:02d}", "input": {"a": i, "b": i}, "expectedOutput": str(2 * i)} for i in range(20)],
        )

    def test_runs_every_row_concurrently_records_failures_and_scores_both_ways(self) -> None:
        lock = threading.Lock()
        state = {"running": 0, "most": 0}

        def task(row: DatasetRow) -> object:
            with lock:
                state["running"] += 1
                state["most"] = max(state["most"], state["running"])
            threading.Event().wait(0.01)
            with lock:
                state["running"] -= 1
            if row.row_id == "q05":
                raise RuntimeError("model overloaded")
            if row.row_id == "q06":
                return TaskAnswer(output="wrong", tokens=9, cost_microcents=120)
            return add(row)

        outcome = self.client.experiments.run(
            self.project,
            self.dataset,
            name="py adder",
            task=task,
            concurrency=3,
            batch_size=6,
            evaluators=[
                {"name": "exact", "kind": "exact_match"},
                CodeEvaluator("short", lambda row, output: len(str(output)) <= 1),
            ],
        )
        self.assertEqual(state["most"], 3)
        self.assertEqual((outcome.progress.done, outcome.progress.failed, outcome.progress.recorded), (20, 1, 20))
        self.assertEqual(outcome.experiment.status, "finished")
        self.assertEqual((outcome.experiment.results, outcome.experiment.errors), (20, 1))
        exact = outcome.experiment.scores["exact"]
        self.assertEqual(exact.count, 19)
        self.assertAlmostEqual(exact.mean or 0, 18 / 19)
        failed = self.client.experiments.results(self.project, outcome.experiment.id, errored=True)
        self.assertEqual([(r.row_id, r.error) for r in failed.items], [("q05", "RuntimeError: model overloaded")])

    def test_re_runs_only_rows_changed_since_its_base(self) -> None:
        base = self.client.experiments.run(self.project, self.dataset, name="py v1", task=add)
        self.client.datasets.update_row(self.project, self.dataset, "q03", input={"a": 1, "b": 1})
        called: list[str] = []

        def task(row: DatasetRow) -> object:
            called.append(row.row_id)
            return add(row)

        outcome = self.client.experiments.run(
            self.project, self.dataset, name="py v2", base=base.experiment.id, task=task
        )
        self.assertEqual(called, ["q03"])
        self.assertEqual((outcome.experiment.carried, outcome.experiment.results), (19, 20))


if __name__ == "__main__":
    unittest.main()
