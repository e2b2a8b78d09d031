"""The experiments resource with `run`: a task over every pending row of a dataset version, scored and recorded."""

from __future__ import annotations

import importlib
import re
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Sequence, Set, Tuple, Union

from ._generated import (
    DatasetRow,
    EvaluatorParam,
    ExperimentsResource,
    Experiment,
    RecordExperimentResultsResultParam,
    RecordExperimentResultsResultScoreParam,
)
from ._models import UNSET

ScoreValue = Union[float, int, bool, str]

_TRACE_ID = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class CodeEvaluator:
    """An evaluator that runs in this process beside the task: `evaluate(row, output)` gives a score
    (a number, a boolean or a short category), or None for none. Recorded with source `code`."""

    name: str
    evaluate: Callable[[DatasetRow, Any], Optional[ScoreValue]]


@dataclass(frozen=True)
class TaskAnswer:
    """What a task may return instead of its bare output: the output with its cost and its trace."""

    output: Any
    tokens: Optional[int] = None
    cost_microcents: Optional[int] = None
    trace_id: Optional[str] = None


@dataclass
class RunProgress:
    done: int = 0
    """Rows the task has been called on in this run."""
    failed: int = 0
    """Of those, the ones whose task raised."""
    recorded: int = 0
    """Rows recorded on the platform so far in this run."""


@dataclass
class RunOutcome:
    experiment: Experiment
    """The experiment after the run, with its score summary."""
    progress: RunProgress = field(default_factory=RunProgress)


Evaluator = Union[EvaluatorParam, CodeEvaluator]


class ExperimentsWithRunner(ExperimentsResource):
    """Experiments, with `run` beside the generated calls."""

    def run(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        name: str,
        task: Callable[[DatasetRow], Any],
        evaluators: Sequence[Evaluator] = (),
        version: Optional[int] = None,
        base: Optional[str] = None,
        metadata: Any = UNSET,
        concurrency: int = 8,
        batch_size: int = 100,
        experiment_id: Optional[str] = None,
        finish: bool = True,
        on_progress: Optional[Callable[[RunProgress], None]] = None,
    ) -> RunOutcome:
        """Starts an experiment (or goes on with `experiment_id`), calls `task` on each pending row with at
        most `concurrency` running at once, scores the answers with the code evaluators, and records the
        results in batches; the platform applies the rule evaluators (dicts with a `kind`). A task that
        raises records the error for its row and the run goes on. After a crash, pass the experiment's
        `experiment_id`: only rows without a result run again.
        """
        if not _whole(concurrency) or concurrency < 1:
            raise ValueError("concurrency must be a whole number above 0")
        if not _whole(batch_size) or not 0 < batch_size <= 1000:
            raise ValueError("batch_size must be a whole number from 1 to 1000")
        rules: List[EvaluatorParam] = [e for e in evaluators if not isinstance(e, CodeEvaluator)]
        code = [e for e in evaluators if isinstance(e, CodeEvaluator)]
        if experiment_id is None:
            created = self.create(
                project_slug,
                dataset_slug,
                name=name,
                version=UNSET if version is None else version,
                base_experiment_id=UNSET if base is None else base,
                metadata=metadata,
                evaluators=rules,
            )
            experiment_id = created.id
        run_id: str = experiment_id
        progress = RunProgress()
        waiting: List[RecordExperimentResultsResultParam] = []

        def record(everything: bool) -> None:
            while len(waiting) >= batch_size or (everything and waiting):
                batch = waiting[:batch_size]
                del waiting[:batch_size]
                self.record_results(project_slug, run_id, results=batch)
                progress.recorded += len(batch)
                if on_progress is not None:
                    on_progress(RunProgress(progress.done, progress.failed, progress.recorded))

        def collect(finished: Set[Future[RecordExperimentResultsResultParam]]) -> None:
            for future in finished:
                result = future.result()
                progress.done += 1
                if "error" in result:
                    progress.failed += 1
                waiting.append(result)
                if on_progress is not None:
                    on_progress(RunProgress(progress.done, progress.failed, progress.recorded))
            record(False)

        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            running: Set[Future[RecordExperimentResultsResultParam]] = set()
            for row in self.iterate_pending(project_slug, experiment_id, limit=200):
                running.add(pool.submit(_run_task, task, row, code))
                if len(running) >= concurrency:
                    finished, still = wait(running, return_when=FIRST_COMPLETED)
                    running = set(still)
                    collect(set(finished))
            finished, _ = wait(running)
            collect(set(finished))
        record(True)
        experiment = (
            self.update(project_slug, experiment_id, status="finished")
            if finish
            else self.get(project_slug, experiment_id)
        )
        return RunOutcome(experiment=experiment, progress=progress)


def _run_task(
    task: Callable[[DatasetRow], Any], row: DatasetRow, code: Sequence[CodeEvaluator]
) -> RecordExperimentResultsResultParam:
    started = time.perf_counter()
    try:
        returned, trace_id = _traced(lambda: task(row))
    except Exception as error:  # noqa: BLE001 (a task's failure is recorded, whatever it is)
        message = f"{type(error).__name__}: {error}"[:10_000]
        return {"rowId": row.row_id, "output": None, "error": message, "latencyMs": _since(started)}
    latency = _since(started)
    answer = returned if isinstance(returned, TaskAnswer) else TaskAnswer(output=returned)
    result: RecordExperimentResultsResultParam = {"rowId": row.row_id, "output": answer.output, "latencyMs": latency}
    if answer.tokens is not None:
        result["tokens"] = answer.tokens
    if answer.cost_microcents is not None:
        result["costMicrocents"] = answer.cost_microcents
    trace = answer.trace_id or trace_id
    if trace is not None and _TRACE_ID.match(trace):
        result["traceId"] = trace
    scores: List[RecordExperimentResultsResultScoreParam] = []
    for evaluator in code:
        value = evaluator.evaluate(row, answer.output)
        if value is not None:
            scores.append({"name": evaluator.name, "value": value, "source": "code"})
    if scores:
        result["scores"] = scores
    return result


def _traced(call: Callable[[], Any]) -> Tuple[Any, Optional[str]]:
    """Runs the task in a span when the process uses OpenTelemetry, and gives the span's trace id."""
    try:
        api: Any = importlib.import_module("opentelemetry.trace")
    except ImportError:
        return call(), None
    tracer: Any = api.get_tracer("svc-sdk")
    with tracer.start_as_current_span("svc.experiment.task") as span:
        value = call()
        context: Any = span.get_span_context()
        trace_id = int(context.trace_id)
        return value, (f"{trace_id:032x}" if trace_id else None)


def _whole(value: object) -> bool:
    """A whole number; checked at run time too, for callers without a type checker."""
    return isinstance(value, int) and not isinstance(value, bool)


def _since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


__all__: List[str] = ["CodeEvaluator", "ExperimentsWithRunner", "RunOutcome", "RunProgress", "TaskAnswer"]
