"""Progress bars with an ETA for long computations (rich, on standard error).

The long functions (effects of removal, index generation, advantage by true count) take
``progress=``: ``None``/``False`` for silence, ``True`` for a bar, or any callable
``progress(done, total)``.  The bar appears only once the work has run for
``ProgressBar.DELAY`` seconds, so quick calls stay quiet, and only where it can be drawn (a
terminal, or a notebook).
"""
from __future__ import annotations

import inspect
import sys
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:    # rich is imported only when a bar is drawn
    from rich.progress import Progress, TaskID


class ProgressBar:
    """A callable ``(done, total)`` that draws a rich progress bar with an ETA; it closes
    itself when ``done`` reaches ``total`` (or on ``close()``).  Threads may share one bar:
    every call holds a lock (two threads must not both open a bar, or update one that is
    half open or closed), and the bar never moves back (a thread that finished earlier
    may report later)."""

    DELAY = 1.0   # seconds of work before the bar shows

    def __init__(self, label: str = "working", stream=None, delay: float | None = None):
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.delay = self.DELAY if delay is None else delay
        self.started = time.monotonic()
        self._bar: Progress | None = None     # (both set by _open)
        self._task: TaskID | None = None
        self._closed = False
        self._done = 0
        self._lock = threading.Lock()

    def _live(self) -> bool:
        try:
            if self.stream.isatty():
                return True
        except (AttributeError, ValueError):
            return False
        return "ipykernel" in sys.modules      # a notebook draws rich bars too

    def __call__(self, done, total=None) -> None:
        with self._lock:
            if self._closed:
                return
            self._done = done = max(done, self._done)
            if self._bar is None:
                if time.monotonic() - self.started < self.delay or not self._live():
                    if total is not None and done >= total:
                        self._closed = True
                    return
                self._open(total)
            assert self._bar is not None and self._task is not None    # (_open set them)
            self._bar.update(self._task, completed=done, **({"total": total} if total else {}))
            if total is not None and done >= total:
                self._stop()

    def _open(self, total) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        bar = Progress(TextColumn("{task.description}"), BarColumn(),
                       MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"),
                       TimeRemainingColumn(), console=Console(file=self.stream),
                       transient=True)
        task = bar.add_task(self.label, total=total)
        bar.start()
        self._bar, self._task = bar, task

    def close(self) -> None:
        """Clear the bar (it is transient: nothing stays on the terminal); later calls
        draw nothing."""
        with self._lock:
            self._stop()

    def _stop(self) -> None:
        if self._bar is not None and not self._closed:
            self._bar.stop()
        self._closed = True


def progress_callback(progress, label: str = "working"):
    """What a ``progress=`` argument means: None (silent), a callable ``progress(done,
    total)``, or a ``ProgressBar`` for ``True``."""
    check_progress(progress)
    if progress is None or progress is False:
        return None
    if progress is True:
        return ProgressBar(label)
    return progress


def check_progress(progress, called_with: str = "the work done and the work in all") -> None:
    """TypeError unless ``progress`` is True, False, None or a callable that takes (done,
    total): a callable of another signature would fail in Python's words deep inside a long
    run, after the work it interrupts."""
    if progress is None or isinstance(progress, bool):
        return
    expected = "True, False, None or a callable progress(done, total)"
    if not callable(progress):
        raise TypeError(f"progress must be {expected}, got {type(progress).__name__} "
                        f"{progress!r:.40}")
    try:
        inspect.signature(progress).bind(0, 0)
    except TypeError:
        raise TypeError(f"progress must be {expected} (called with {called_with}), got a "
                        f"callable {_callable_signature(progress)}") from None
    except ValueError:                   # no signature to look at (some builtins): trust it
        pass


def _callable_signature(f) -> str:
    """'name(its parameters)', at most 60 characters."""
    text = f"{getattr(f, '__name__', type(f).__name__)}{inspect.signature(f)}"
    return text if len(text) <= 60 else text[:57] + "..."
