"""CPU budgets and cancellation for work done while a person waits (odds, win chances).

Work is measured in this thread's CPU time (``time.thread_time``), never wall time: a server
thread sharing its cores, or waiting on the interpreter's lock, is not charged for the others.
Long work is stopped from inside: within :func:`limited`, every exact enumeration checks once
per path and seeded dice once per roll (:func:`firefight.dice.sources.checked`), and code with
loops of its own calls :meth:`Limit.check`; past its deadline, or once cancelled, the check
raises :class:`Stop`. ``Stop`` is a ``BaseException`` so that rule code's ``except Exception``
never swallows it; whatever it interrupts is thrown away (caches are written only once their
entry is whole).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from firefight.dice.sources import checked

T = TypeVar("T")

#: Calls of :meth:`Limit.check` between looks at the clock (a look costs a system call).
LOOK_EVERY = 16


class Stop(BaseException):
    """The work's time is up (``cancelled`` False) or its answer is no longer wanted."""

    def __init__(self, cancelled: bool) -> None:
        super().__init__("cancelled" if cancelled else "out of time")
        self.cancelled = cancelled


#: The clock work is measured on: this thread's CPU time. A test that needs budgeted work
#: to come out the same on every run holds it still (every attempt then runs to its end).
CLOCK: Callable[[], float] = time.thread_time


def cpu() -> float:
    """This thread's CPU time, in seconds (:data:`CLOCK`)."""
    return CLOCK()


class Limit:
    """A deadline in this thread's CPU time and a cancellation flag, checked by :meth:`check`."""

    def __init__(
        self, deadline: float | None = None, cancel: threading.Event | None = None
    ) -> None:
        self.deadline = deadline
        self.cancel = cancel
        self._calls = 0

    def check(self) -> None:
        """Raise :class:`Stop` once cancelled or past the deadline (the clock read every
        :data:`LOOK_EVERY` calls, the flag every call)."""
        if self.cancel is not None and self.cancel.is_set():
            raise Stop(cancelled=True)
        self._calls += 1
        if self.deadline is not None and self._calls % LOOK_EVERY == 0 and cpu() > self.deadline:
            raise Stop(cancelled=False)

    def left(self) -> float:
        """CPU seconds left before the deadline (infinite without one); a cancellation
        raises."""
        if self.cancel is not None and self.cancel.is_set():
            raise Stop(cancelled=True)
        return float("inf") if self.deadline is None else self.deadline - cpu()


#: The innermost :func:`limited` of this thread, or None.
_CURRENT: ContextVar[Limit | None] = ContextVar("firefight_limit", default=None)


def current() -> Limit:
    """The innermost limit in force (one with no deadline and no flag outside any)."""
    return _CURRENT.get() or Limit()


@contextmanager
def limited(seconds: float | None, cancel: threading.Event | None = None) -> Iterator[Limit]:
    """Within: work stops (:class:`Stop`) after ``seconds`` more CPU of this thread (None: no
    deadline of its own), or once ``cancel`` (or an enclosing limit's flag) is set; never
    later than an enclosing limit's deadline. The dice check on their own."""
    outer = _CURRENT.get()
    deadline = None if seconds is None else cpu() + seconds
    if outer is not None:
        if outer.deadline is not None:
            deadline = outer.deadline if deadline is None else min(deadline, outer.deadline)
        cancel = cancel or outer.cancel
    limit = Limit(deadline, cancel)
    token = _CURRENT.set(limit)
    try:
        with checked(limit.check):
            yield limit
    finally:
        _CURRENT.reset(token)


def attempt(seconds: float, work: Callable[[], T]) -> T | None:
    """``work()`` within ``seconds`` more CPU (and the enclosing limit), or None if its time
    ran out first; a cancellation goes on up."""
    try:
        with limited(seconds):
            return work()
    except Stop as stop:
        if stop.cancelled:
            raise
        return None
