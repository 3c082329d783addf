"""The GM's odds beside the tracker: one thread works out each encounter's list of choices.

For the version a GM's page asks about, a :class:`Job` evaluates the acting combatant's actions
(:class:`~firefight.analysis.choices.Evaluation`): first answers within the budget (the CPU the
step itself took comes out of it), then refinement one slice at a time while a GM's page
watches the encounter (or asked within :data:`WANTED_FOR` seconds), each change pushed to the
GM's pages (``on_update``). A new version cancels the old one's job at once: whatever it was
computing stops at its next check (:mod:`firefight.analysis.budget`), and the CPU it spent
after the cancel is kept in :attr:`OddsWorker.stale_cpu` (a test holds it small).

Only this thread touches a job's evaluation; requests read the JSON it leaves after each slice
(:attr:`Job.rows`), so nothing is read half-changed.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firefight.analysis.budget import Stop, cpu
from firefight.analysis.choices import BUDGET, CEILING, Evaluation, Shared, progress_text
from firefight.core.turns import FightState
from firefight.encounter.engine import Engine

#: Seconds after the last request for a list during which it is refined though no GM's page
#: watches the encounter's live stream.
WANTED_FOR = 60.0
#: Seconds between two pushes of a job's whole list while it is refined (slices in between
#: wait for the next push; the last one is always pushed).
PUSH_EVERY = 0.5
#: Longest wait, in seconds, of a request for first answers (a budget of CPU seconds can take
#: longer on a busy machine).
ANSWER_WAIT = 120.0

#: Jobs kept (one per encounter); past them the one asked about longest ago is dropped.
JOBS_KEPT = 64
#: Encounters whose engine caches (the chain's moves, the fast path's sampler) are kept from one
#: version to the next; the ones asked longest ago are dropped first.
SHARED_KEPT = 16

#: What a job pushes: encounter id, version, and the JSON of its list and progress.
Update = Callable[[str, int, dict[str, Any]], None]


@dataclass
class Job:
    """One version's list of choices being worked out."""

    encounter_id: str
    version: int
    evaluation: Evaluation
    cancel: threading.Event = field(default_factory=threading.Event)
    answered: threading.Event = field(default_factory=threading.Event)
    #: The list's JSON and progress as of the last slice (what requests read).
    rows: list[dict[str, Any]] = field(default_factory=list)
    progress: dict[str, Any] = field(default_factory=dict)
    #: Why the evaluation failed (one line), if it did.
    error: str | None = None
    #: monotonic time of the last request for it.
    asked: float = field(default_factory=time.monotonic)
    #: The worker thread's CPU clock when the job was cancelled (None: not cancelled).
    cancelled_at: float | None = None
    #: CPU seconds the step that made this version took (taken out of the budget).
    step_cpu: float = 0.0
    pushed: float = 0.0
    unpushed: bool = False
    #: monotonic time of its last slice (jobs of several encounters take turns).
    worked: float = 0.0

    def snapshot(self) -> dict[str, Any]:
        """The JSON pushed to a GM's page: version, the list, progress and its words."""
        cpu = {"step": self.step_cpu, "first_answers": self.evaluation.first_cpu}
        return {
            "version": self.version,
            "actions": self.rows,
            "progress": {**self.progress, "text": progress_text(self.progress), "cpu": cpu},
        }


class OddsWorker:
    """The thread and its jobs, one current job per encounter."""

    def __init__(
        self,
        *,
        budget: float = BUDGET,
        ceiling: float = CEILING,
        on_update: Update | None = None,
        watched: Callable[[str], bool] | None = None,
    ) -> None:
        self.budget = budget
        self.ceiling = ceiling
        self.on_update = on_update
        self.watched = watched or (lambda _id: False)
        self._cond = threading.Condition()
        self._jobs: dict[str, Job] = {}
        self._queue: deque[Job] = deque()
        self._shared: OrderedDict[str, Shared] = OrderedDict()
        self._thread: threading.Thread | None = None
        self._closed = False
        #: CPU seconds each cancelled job's thread spent after the cancel, newest last.
        self.stale_cpu: deque[float] = deque(maxlen=64)

    # -- asking ------------------------------------------------------------------------------
    def job(
        self,
        encounter_id: str,
        version: int,
        engine: Engine,
        state: FightState,
        *,
        budget: float | None = None,
        ceiling: float | None = None,
        spent: float = 0.0,
    ) -> Job:
        """The job of this version (made and queued if new, the encounter's older one
        cancelled); ``spent``: CPU already spent on the step that made the version, taken out
        of the budget."""
        with self._cond:
            found = self._jobs.get(encounter_id)
            if found is not None and found.version == version and not found.cancel.is_set():
                found.asked = time.monotonic()
                if ceiling is not None:
                    for c in found.evaluation.choices:
                        for w in c.works():
                            w.ceiling = ceiling
                self._cond.notify_all()
                return found
            if found is not None:
                self._cancel(found)
            shared = self._shared.get(encounter_id)
            evaluation = Evaluation(
                engine,
                state,
                budget=max((self.budget if budget is None else budget) - spent, 0.0),
                ceiling=self.ceiling if ceiling is None else ceiling,
                win=True,
                shared=shared,
            )
            self._shared[encounter_id] = evaluation.shared
            self._shared.move_to_end(encounter_id)
            while len(self._shared) > SHARED_KEPT:
                self._shared.popitem(last=False)
            job = Job(encounter_id, version, evaluation, step_cpu=spent)
            evaluation.cancel = job.cancel
            job.progress = evaluation.progress()
            self._jobs[encounter_id] = job
            if len(self._jobs) > JOBS_KEPT:  # an encounter nobody asked about for longest
                stale = min(self._jobs.values(), key=lambda j: j.asked)
                self._cancel(stale)
                del self._jobs[stale.encounter_id]
            self._queue.append(job)
            self._start()
            self._cond.notify_all()
            return job

    def answers(self, job: Job) -> Job:
        """``job`` once its first answers are in (or it failed, or was cancelled)."""
        if not job.answered.wait(ANSWER_WAIT):
            raise TimeoutError("the odds took too long")
        return job

    def moved(self, encounter_id: str, version: int) -> None:
        """The encounter is at ``version`` now: an older version's job is cancelled."""
        with self._cond:
            found = self._jobs.get(encounter_id)
            if found is not None and found.version != version:
                self._cancel(found)
                del self._jobs[encounter_id]

    def close(self) -> None:
        """Cancel every job and end the thread."""
        with self._cond:
            self._closed = True
            for job in self._jobs.values():
                self._cancel(job)
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _cancel(self, job: Job) -> None:
        if job.cancel.is_set():
            return
        job.cancelled_at = self._thread_cpu()
        job.cancel.set()
        job.answered.set()  # nobody waits on a list that will never come

    def _thread_cpu(self) -> float | None:
        """The worker thread's CPU clock, read from another thread (Linux), or None."""
        thread = self._thread
        if thread is None or thread.ident is None:
            return None
        try:
            return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        except (AttributeError, OSError):
            return None

    # -- the thread --------------------------------------------------------------------------
    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="firefight-odds", daemon=True)
            self._thread.start()

    def _next(self) -> Job | None:
        """A job waiting for first answers, else the refinable job asked longest ago; None:
        nothing to do (the caller waits)."""
        while self._queue:
            job = self._queue.popleft()
            if not job.cancel.is_set():
                return job
        now = time.monotonic()
        refinable = [
            j
            for j in self._jobs.values()
            if not j.cancel.is_set()
            and j.answered.is_set()
            and j.error is None
            and j.progress.get("refining")
            and (now - j.asked < WANTED_FOR or self.watched(j.encounter_id))
        ]
        return min(refinable, key=lambda j: j.worked) if refinable else None

    def _run(self) -> None:
        while True:
            with self._cond:
                job = None if self._closed else self._next()
                idle = [j for j in self._jobs.values() if j.unpushed] if job is None else []
            for held in idle:  # going idle: what was refined since the last push goes out
                self._publish(held, force=True)
            if job is not None:
                self._work(job)
                continue
            with self._cond:
                if self._closed:
                    return
                if not any(j.unpushed for j in self._jobs.values()):
                    self._cond.wait(timeout=1.0)

    def _work(self, job: Job) -> None:
        evaluation = job.evaluation
        job.worked = time.monotonic()
        try:
            if not evaluation.answered:
                evaluation.first_answers()
                self._publish(job, force=True)
                job.answered.set()
            else:
                evaluation.refine()
                self._publish(job, force=not evaluation.progress()["refining"])
        except Stop:
            pass
        except Exception as err:  # a refusal or a bug: the list says so, the thread goes on
            job.error = " ".join(str(err).split())[:300] or type(err).__name__
            job.answered.set()
        if job.cancel.is_set() and job.cancelled_at is not None:
            self.stale_cpu.append(cpu() - job.cancelled_at)

    def _publish(self, job: Job, force: bool) -> None:
        """The job's JSON brought up to date and pushed (at most every :data:`PUSH_EVERY`
        seconds while refining; ``force``: now)."""
        if job.cancel.is_set():
            return
        now = time.monotonic()
        if not force and now - job.pushed < PUSH_EVERY:
            job.unpushed = True
            return
        job.rows = job.evaluation.rows()
        job.progress = job.evaluation.progress()
        job.pushed, job.unpushed = now, False
        if self.on_update is not None:
            self.on_update(job.encounter_id, job.version, job.snapshot())
