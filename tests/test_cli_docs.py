"""The command lines the documents show parse as written (flags, values, ramps)."""
import re
import shlex
from pathlib import Path

import pytest

from bjsolve.cli import parse

ROOT = Path(__file__).resolve().parents[1]


def command_lines(path):
    """Every 'bjsolve ...' / 'python -m bjsolve ...' line of a document's sh blocks."""
    text = (ROOT / path).read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        block = re.sub(r"\\\n\s*", "", block)       # a command continued with '\'
        for line in block.splitlines():
            line = line.split(" #")[0].strip()
            m = re.match(r"(?:python -m )?bjsolve (.*)", line)
            if m:
                lines.append(m.group(1))
    return lines


@pytest.mark.parametrize("argv", command_lines("docs/cli-counting.md")
                         + [a for a in command_lines("README.md") if a.split()[0] != "--help"])
def test_documented_command_lines_parse(argv):
    args = parse(shlex.split(argv))
    assert args.module.NAME == args.command
