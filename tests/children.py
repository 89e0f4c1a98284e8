"""What the tests that run a child Python process share: its environment, Ctrl-C as a
terminal delivers it, and the helpers its script needs."""
import os
import signal
import sys

# for a child script under an address-space limit: the size mapped so far, in bytes
VM_SIZE_SOURCE = r'''
def vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
'''


def child_env(**extra) -> dict:
    """The environment of a child that imports what this test process imports."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), **extra)


def sigint_as_in_a_terminal() -> None:
    """``preexec_fn``: SIGINT handled as a terminal's Ctrl-C meets it.  A test run started in
    the background (nohup, ``&``) hands its children SIGINT ignored, and Python keeps an
    ignored SIGINT ignored: the command would run on."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
