"""One Ctrl-C stops a long command within a second or so: exit code 130, one line on
standard error, no traceback, no wait for the work still queued in a thread pool."""
import os
import signal
import subprocess
import sys
import time

import pytest

STARTED = 3.0     # seconds: imports done and the long computation running
GENEROUS = 15.0   # seconds allowed after the signal (the promise is about one)


def _interrupt(*args):
    """(exit code, stderr, seconds from SIGINT to exit) of ``bjsolve ARGS`` interrupted once
    it has started."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "bjsolve", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(STARTED)
    if proc.poll() is not None:
        pytest.fail(f"bjsolve {' '.join(args)} finished before the interrupt")
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=GENEROUS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"bjsolve {' '.join(args)} still running {GENEROUS:g} s after SIGINT")
    return proc.returncode, err, time.monotonic() - sent


@pytest.mark.parametrize("args", [
    ("game", "--rules", "6D H17 DAS"),
    ("indices", "--decks", "8", "--hands", "all"),
])
def test_one_interrupt_stops_the_command(args):
    code, err, _ = _interrupt(*args)
    assert code == 130
    assert "Traceback" not in err
    assert err.strip() == "bjsolve: interrupted"
