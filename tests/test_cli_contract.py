"""The sub-command contract other modules rely on (bjsolve.cli)."""
import subprocess
import sys

import pytest

from bjsolve import cli
from bjsolve.cli import common


@pytest.mark.parametrize("module_name", cli.COMMANDS)
def test_every_command_module_follows_the_contract(module_name):
    m = cli.command_modules()[module_name.replace("_", "-")]
    assert m.NAME.replace("-", "_") == module_name
    assert isinstance(m.HELP, str) and "\n" not in m.HELP
    assert callable(m.add_arguments) and callable(m.run)


def test_split_classes_match_the_solver():
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES
    assert tuple(SPLIT_CLASSES) == common.SPLIT_CLASSES


def test_help_imports_no_numpy():
    code = ("import sys, io, contextlib\n"
            "from bjsolve.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    assert main(['--help']) == 0\n"
            "    for name in ('edge', 'hand', 'indices'):\n"
            "        assert main([name, '--help']) == 0\n"
            "print('numpy' in sys.modules, 'rich' in sys.modules)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["False", "False"]
