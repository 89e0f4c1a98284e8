"""One Ctrl-C stops a long command within a second or so: exit code 130, one line on
standard error, no traceback, no wait for the work still queued in a thread pool."""
import os
import signal
import subprocess
import sys
import time

import pytest

from children import sigint_as_in_a_terminal

STARTED = 3.0     # seconds: imports done and the long computation running
GENEROUS = 15.0   # seconds allowed after the signal (the promise is about one)


def _interrupt(*args, started=STARTED):
    """(exit code, stderr, seconds from SIGINT to exit) of ``bjsolve ARGS`` interrupted
    ``started`` seconds after it began."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "bjsolve", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_as_in_a_terminal)
    time.sleep(started)
    if proc.poll() is not None:
        pytest.fail(f"bjsolve {' '.join(args)} finished before the interrupt")
    sent = time.monotonic()
    err = _sigint_and_wait(proc, f"bjsolve {' '.join(args)}")
    return proc.returncode, err, time.monotonic() - sent


def _sigint_and_wait(proc, what) -> str:
    """Send SIGINT to ``proc``, wait for its end: its stderr."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=GENEROUS)[1]
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"{what} still running {GENEROUS:g} s after SIGINT")


@pytest.mark.parametrize("args, started", [
    (("game", "--rules", "6D H17 DAS"), STARTED),
    # about 2 s on an idle machine (longer on a busy one): interrupted while its solves
    # run in the thread pool, after the imports (0.2-0.4 s)
    (("indices", "--decks", "8", "--hands", "all"), 1.0),
    # a six-deck BB+1 key's split sums run for minutes in one call of the kernel: they look
    # for the signal (and the helpers' for the run's stop token) as they go; 100-260 s
    # after the signal before they did
    (("advantage", "--rules", "6D ENHC BB+1"), STARTED),
])
def test_one_interrupt_stops_the_command(args, started):
    code, err, _ = _interrupt(*args, started=started)
    assert code == 130
    assert "Traceback" not in err
    assert err.strip() == "bjsolve: interrupted"


# -- Ctrl-C while the command line is still starting (imports) --------------------------------

def _child_env(**extra):
    """The environment of a child that finds this bjsolve, bjcore, numpy and rich, with or
    without the ``site`` module (``python -S``: a signal cannot land in the interpreter's
    own start-up, reading .pth files, which is Python's to handle, not the command's)."""
    import bjcore
    import numpy
    import rich

    import bjsolve
    roots = [os.path.dirname(os.path.dirname(m.__file__)) for m in (bjsolve, bjcore, numpy, rich)]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(dict.fromkeys(roots)), **extra)


def _before_bjsolve_started(code, err) -> bool:
    """A signal that came before the guard was up: while the interpreter itself was starting
    (site, runpy; on a busy machine that alone can take a tenth of a second) or in the few
    statements that put the guard up: Python's to handle."""
    from bjsolve.startup import interrupted_before_the_guard
    if code == -signal.SIGINT and not err:
        return True        # before Python had its handler: the shell shows 130 too
    return interrupted_before_the_guard(err)


@pytest.mark.parametrize("delay", [0.0, 0.02, 0.05, 0.1, 0.2])
@pytest.mark.parametrize("args", [
    ("indices", "--decks", "8"),
    ("simulate", "--rounds", "1e9", "--decks", "1", "--threads", "4", "--indices"),
])
def test_an_early_interrupt_exits_130_in_one_line(args, delay):
    proc = subprocess.Popen([sys.executable, "-m", "bjsolve", *args], env=_child_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_as_in_a_terminal)
    time.sleep(delay)
    err = _sigint_and_wait(proc, f"interrupted after {delay} s, bjsolve")
    if _before_bjsolve_started(proc.returncode, err):
        return
    assert proc.returncode == 130, f"SIGINT after {delay} s: exit {proc.returncode}: {err[-300:]}"
    assert err == "bjsolve: interrupted\n"


# A child that sends itself SIGINT as a given module starts importing: the moments above,
# pinned down without timing.  "datetime" is imported by numpy's C core while it loads
# (numpy turned an interrupt there into "Importing the numpy C-extensions failed"); "enum"
# was imported by the guard's own module (``signal``) before the guard was up.
_INTERRUPT_AT_IMPORT = r'''
import os, sys, _signal     # not signal, which imports enum
target, entry = sys.argv[1], sys.argv[2]
class InterruptAtImport:
    def find_spec(self, name, path=None, target_module=None):
        if name == target:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), _signal.SIGINT)
        return None
sys.meta_path.insert(0, InterruptAtImport())
sys.argv = ["bjsolve", *sys.argv[3:]]
if entry == "-m":
    import runpy
    runpy.run_module("bjsolve", run_name="__main__", alter_sys=True)
else:   # what the installed script does: import the entry point, call it
    import importlib
    module, function = entry.split(":")
    sys.exit(getattr(importlib.import_module(module), function)())
'''


def _script_entry_point() -> str:
    import tomllib
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]["scripts"]["bjsolve"]


@pytest.mark.parametrize("module", ["enum", "argparse", "bjsolve.cli.common", "numpy", "datetime",
                                    "bjcore._core", "bjsolve.counting.tables"])
@pytest.mark.parametrize("entry", ["-m", "script"])
def test_an_interrupt_while_a_module_imports_exits_130_in_one_line(module, entry):
    entry = _script_entry_point() if entry == "script" else entry
    proc = subprocess.run([sys.executable, "-S", "-c", _INTERRUPT_AT_IMPORT, module, entry,
                           "indices", "--decks", "1", "--top", "1"],
                          env=_child_env(), capture_output=True, text=True, timeout=120,
                          preexec_fn=sigint_as_in_a_terminal)
    assert proc.returncode == 130, f"exit {proc.returncode}: {proc.stderr[-300:]}"
    assert proc.stderr == "bjsolve: interrupted\n"


_SITECUSTOMIZE = r'''
import os, signal, sys
class InterruptAtImport:
    def find_spec(self, name, path=None, target_module=None):
        if name == "bjsolve.__main__":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, InterruptAtImport())
'''


def test_an_interrupt_between_the_package_and_its_main_exits_130(tmp_path):
    """``python -m bjsolve`` imports the package before ``bjsolve.__main__``: the guard is
    up from the package's first lines (a SIGINT there gave a KeyboardInterrupt traceback
    through runpy and bjsolve/__main__.py)."""
    (tmp_path / "sitecustomize.py").write_text(_SITECUSTOMIZE)
    env = _child_env()
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-m", "bjsolve", "indices", "--decks", "1",
                           "--top", "1"], env=env, capture_output=True, text=True,
                          timeout=120, preexec_fn=sigint_as_in_a_terminal)
    assert proc.returncode == 130, f"exit {proc.returncode}: {proc.stderr[-300:]}"
    assert proc.stderr == "bjsolve: interrupted\n"


def _traceback(*frames) -> str:
    lines = ["Traceback (most recent call last):"]
    lines += [f'  File "{path}", line {line}, in {function}' for path, line, function in frames]
    return "\n".join(lines + ["KeyboardInterrupt", ""])


def test_only_the_window_before_the_guard_counts_as_the_interpreters():
    """The timing tests above accept a traceback only from the window no program can close:
    the interpreter's start-up and the statements that put the guard up."""
    from bjsolve.startup import interrupted_before_the_guard as early
    import bjsolve
    package = os.path.dirname(bjsolve.__file__)
    init, startup = os.path.join(package, "__init__.py"), os.path.join(package, "startup.py")
    with open(init, encoding="utf-8") as f:
        guard = next(n for n, line in enumerate(f, 1) if line.strip() == "guard_imports()")
    runpy = ("/usr/lib/python3.11/runpy.py", 142, "_get_module_details")
    assert early(_traceback(runpy, ("/usr/lib/python3.11/enum.py", 229, "__set_name__")))
    assert early(_traceback(runpy, (init, guard - 1, "<module>")))
    assert early(_traceback(runpy, (init, guard, "<module>"), (startup, 33, "guard_imports")))
    assert not early(_traceback(runpy, (init, guard + 1, "<module>")))
    assert not early(_traceback(runpy, (init, guard, "<module>"),
                                (os.path.join(package, "cli", "__init__.py"), 10, "<module>")))
    assert not early(_traceback(runpy, (startup, 45, "imports_done")))
    # the window's statements importing another module: that module came before the guard
    assert not early(_traceback(runpy, (init, guard - 1, "<module>"),
                                ("/usr/lib/python3.11/enum.py", 229, "__set_name__")))
    assert not early("bjsolve: interrupted\n")
