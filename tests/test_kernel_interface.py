"""The kernels' one interface (issue #23): the Python layer, the tests and the benchmarks
reach the compiled kernels through the package ``bjcore`` only, never through a private
``bjcore._x`` module; every name ``bjcore`` exports resolves, and type checkers see the
same names.

Imports are found by parsing (``ast``), not by searching the text, so that a comment or a
docstring naming a kernel's file (``see bjcore._chart``) is no import; the scripts the
tests run in child processes (string constants that parse as Python with an import) are
parsed too.
"""
import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bjcore

ROOT = Path(__file__).resolve().parents[1]
SCANNED = [ROOT / "python" / "bjsolve", ROOT / "tests", ROOT / "benchmarks"]


def _is_private(dotted: str) -> bool:
    """Whether ``dotted`` is a private module of bjcore (bjcore._x, bjcore._x.y)."""
    parts = dotted.split(".")
    return parts[0] == "bjcore" and len(parts) > 1 and parts[1].startswith("_")


def _private_uses(tree: ast.AST):
    """(line, what) of each use of a private bjcore module in ``tree``, and the trees of
    the child scripts it holds."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_private(alias.name):
                    yield node.lineno, f"import {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if _is_private(node.module):
                yield node.lineno, f"from {node.module} import ..."
            elif node.module == "bjcore":
                for alias in node.names:
                    if alias.name.startswith("_"):
                        yield node.lineno, f"from bjcore import {alias.name}"
        elif isinstance(node, ast.Attribute):
            # bjcore._x (a dunder such as bjcore.__file__ is no kernel module)
            if (isinstance(node.value, ast.Name) and node.value.id == "bjcore"
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                yield node.lineno, f"bjcore.{node.attr}"
        elif isinstance(node, ast.Call):
            # importlib.import_module("bjcore._x"), __import__("bjcore._x")
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in ("import_module", "__import__") and node.args:
                first = node.args[0]
                if (isinstance(first, ast.Constant) and isinstance(first.value, str)
                        and _is_private(first.value)):
                    yield node.lineno, f"{name}({first.value!r})"
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and "import" in node.value and "\n" in node.value):
            try:   # a script run in a child process, or just text
                script = ast.parse(textwrap.dedent(node.value))
            except SyntaxError:
                continue
            for line, what in _private_uses(script):
                yield node.lineno + line - 1, what


def _python_files():
    here = Path(__file__).resolve()   # (this file holds examples of what is refused)
    for folder in SCANNED:
        yield from (path for path in sorted(folder.rglob("*.py")) if path != here)


def test_the_scan_finds_each_kind_of_private_use():
    source = '''
import bjcore._core
import bjcore._memo as memo
from bjcore._game import GameEngine
from bjcore import _dealer, UpcardEngine
x = bjcore._simulate.MAX_CARDS
importlib.import_module("bjcore._ruin")
CHILD = """
import json
from bjcore._distribution import RoundLaws
"""
CHILD_INDENTED = "\\n    import json\\n    from bjcore import _split_moments\\n"
# bjcore._chart in a comment, and in a docstring:
"""see bjcore._chart"""
from bjcore import GameEngine
y = bjcore.__file__
'''
    found = [what for _, what in _private_uses(ast.parse(source))]
    assert sorted(found) == sorted([
        "import bjcore._core", "import bjcore._memo", "from bjcore._game import ...",
        "from bjcore import _dealer", "bjcore._simulate", "import_module('bjcore._ruin')",
        "from bjcore._distribution import ...", "from bjcore import _split_moments"])


def test_no_file_imports_a_private_kernel_module():
    files = list(_python_files())
    assert len(files) > 100   # (the layer and the tests were found)
    uses = [f"{path.relative_to(ROOT)}:{line}: {what}"
            for path in files
            for line, what in _private_uses(ast.parse(path.read_text(), str(path)))]
    assert uses == [], "import these names from bjcore:\n" + "\n".join(uses)


def test_every_exported_name_resolves():
    assert len(set(bjcore.__all__)) == len(bjcore.__all__)
    for name in bjcore.__all__:
        assert getattr(bjcore, name) is not None, name
        assert name in dir(bjcore)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        bjcore.nothing_here  # noqa: B018


def test_type_checkers_see_the_exported_names():
    """``__all__``, the table of the names loaded on first use and the imports type checkers
    read (``if TYPE_CHECKING:``) name the same things, each from the same module."""
    tree = ast.parse(Path(bjcore.__file__).read_text())
    seen, exports = {}, None
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "_EXPORTS":
            exports = ast.literal_eval(node.value)
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.level == 1
                for alias in imp.names:
                    assert alias.asname == alias.name   # (re-exported, as mypy wants)
                    seen[alias.name] = imp.module
    assert exports and seen == exports
    assert sorted(bjcore.__all__) == sorted([*exports, "release_memory"])


def test_importing_the_package_loads_no_kernel():
    """The names load on first use: ``import bjcore`` loads no compiled module, nor numpy
    (which the round laws, the moments and the simulator take)."""
    script = ("import sys, bjcore\n"
              "print(sorted(m for m in sys.modules if m.startswith(('bjcore.', 'numpy'))))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == "[]\n"
