"""The progress bar is shared by the threads of a computation: one bar, drawn under a
lock, never moving back, and always cleared."""
import io
import threading
import time

from bjsolve import Rules
from bjsolve.counting.indices import generate_indices
from bjsolve.output.progress import ProgressBar


class TerminalStream(io.StringIO):
    def isatty(self):
        return True


class SlowToOpen(ProgressBar):
    """A bar whose opening takes a while (as on a loaded machine), counting its bars."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.opened = 0

    def _open(self, total):
        time.sleep(0.02)
        self.opened += 1
        super()._open(total)


def test_threads_updating_one_bar_open_one_bar_and_leave_none_behind():
    bar = SlowToOpen("indices", stream=TerminalStream(), delay=0.0)
    total, threads = 26, 8
    start = threading.Barrier(threads)
    errors = []

    def work(worker):
        start.wait()
        try:
            for done in range(worker, total + 1, threads):
                bar(done, total)
        except Exception as exc:       # (KeyError: None when a bar was half open)
            errors.append(exc)

    pool = [threading.Thread(target=work, args=(w,)) for w in range(1, threads + 1)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    bar.close()
    assert errors == []
    assert bar.opened == 1
    assert not bar._bar.live.is_started


def test_the_bar_never_moves_back_and_ignores_calls_after_close():
    bar = ProgressBar("x", stream=TerminalStream(), delay=0.0)
    bar(2, 5)
    bar(1, 5)       # a thread that finished earlier but reports later
    assert bar._bar.tasks[0].completed == 2
    bar.close()
    bar(3, 5)
    assert bar._bar.tasks[0].completed == 2 and not bar._bar.live.is_started


def test_indices_report_each_step_once_in_order():
    seen = []
    generate_indices(Rules(decks=1), true_counts=range(-2, 3),
                     progress=lambda d, t: seen.append((d, t)))
    assert seen == [(k, 5) for k in range(1, 6)]


def test_a_progress_callable_of_another_signature_is_refused_before_the_work():
    """Every function that takes ``progress=`` checks it up front (a wrong signature used to
    fail in Python's words once the first step of a long computation was done)."""
    import pytest

    from bjsolve import effects_of_removal
    from bjsolve.counting.removal import advantage_by_true_count
    calls = []

    def no_arguments():
        calls.append(1)

    for run in (lambda p: effects_of_removal(Rules(decks=1), progress=p),
                lambda p: generate_indices(Rules(decks=1), "hilo", hands=[("T6", "T")],
                                           progress=p),
                lambda p: advantage_by_true_count(Rules(decks=1), "hilo", progress=p)):
        with pytest.raises(TypeError, match=r"progress\(done, total\).*no_arguments\(\)"):
            run(no_arguments)
        with pytest.raises(TypeError, match="progress must be .* got str"):
            run("yes")
    assert calls == []
