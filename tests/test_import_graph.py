"""The package's layout, read from its source with ast (nothing is imported to find the edges):

* no cycle between modules, counting every import of the package's own modules, also those
  inside functions and classes (a cycle kept lazy is still a cycle of concepts); imports
  under ``if TYPE_CHECKING:`` are for type checkers only and are not counted;
* no private name (``_x``, not ``__x__``) imported from another subpackage (the top-level
  modules of ``bjsolve`` count as one subpackage of their own);
* every subpackage has ``__all__``; every name in it exists, and none is also the name of one
  of the subpackage's modules (importing that module would replace the name).
"""

from __future__ import annotations

import ast
import importlib
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "python" / "bjsolve"


def _module_name(path: pathlib.Path) -> str:
    parts = ["bjsolve", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
PACKAGES = {name for name, p in MODULES.items() if p.name == "__init__.py"}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST):
    """Every Import/ImportFrom node, skipping the bodies of ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            yield from (n for child in node.orelse for n in _imports_of(child))
            continue
        yield from _imports_of(node)


def _imports_of(node: ast.AST):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    else:
        yield from _imports(node)


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute module an ``from ... import`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    package = module if module in PACKAGES else module.rpartition(".")[0]
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _edges(module: str):
    """(imported module, imported name or None) for each import of the package's own code."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "bjsolve":
                    yield alias.name, None
            continue
        source = _resolve(module, node)
        if source.split(".")[0] != "bjsolve":
            continue
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            if submodule in MODULES:  # "from . import common": the module itself
                yield submodule, None
            else:
                yield source, alias.name


def _subpackage(module: str) -> str:
    """The subpackage a module belongs to ("" for the top-level modules)."""
    parts = module.split(".")
    if module in PACKAGES:
        return parts[1] if len(parts) > 1 else ""
    return parts[1] if len(parts) > 2 else ""


GRAPH = {
    m: sorted({target for target, _ in _edges(m) if target in MODULES and target != m})
    for m in MODULES
}


def test_the_graph_was_read():
    assert (
        "bjsolve.exact.solver" in GRAPH["bjsolve.exact.policy"]
        or "bjsolve.exact.policy" in GRAPH["bjsolve.exact.solver"]
    )
    assert len(PACKAGES) >= 7


def test_no_import_cycles():
    """Depth-first search for a back edge; the first cycle found is shown."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(GRAPH, WHITE)
    stack: list[str] = []
    cycles = []

    def visit(m):
        colour[m] = GREY
        stack.append(m)
        for n in GRAPH[m]:
            if colour[n] == GREY:
                cycles.append(stack[stack.index(n) :] + [n])
            elif colour[n] == WHITE:
                visit(n)
        stack.pop()
        colour[m] = BLACK

    for m in sorted(GRAPH):
        if colour[m] == WHITE:
            visit(m)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


# the subpackages from the bottom up: each imports only from those before it (and the
# top-level helpers ``bjsolve.lazy`` and ``bjsolve.startup``)
LAYERS = ("model", "output", "exact", "counting", "sidebets", "risk", "simulation", "web",
          "cli")


def test_subpackages_import_only_from_the_layers_below():
    found = []
    for module in MODULES:
        mine = _subpackage(module)
        if mine not in LAYERS:
            continue
        for target in GRAPH[module]:
            theirs = _subpackage(target)
            if theirs == "":
                if target not in ("bjsolve", "bjsolve.lazy", "bjsolve.startup"):
                    found.append(f"{module} imports {target}")
            elif LAYERS.index(theirs) > LAYERS.index(mine):
                found.append(f"{module} ({mine}) imports {target} ({theirs})")
    assert not found, "\n".join(found)


def test_no_private_name_imported_across_subpackages():
    found = []
    for module in MODULES:
        for target, name in _edges(module):
            private = name if name is not None else target.rpartition(".")[2]
            if not (private.startswith("_") and not private.startswith("__")):
                continue
            if target not in MODULES:
                continue
            if _subpackage(target) != _subpackage(module):
                found.append(f"{module} imports {private} from {target}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("package", sorted(PACKAGES - {"bjsolve"}))
def test_subpackage_has_all_and_every_name_exists(package):
    tree = ast.parse(MODULES[package].read_text(encoding="utf-8"))
    assert ast.get_docstring(tree), f"{package} has no docstring saying what lives there"
    assigned = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    assert "__all__" in assigned, f"{package} has no __all__"
    mod = importlib.import_module(package)
    assert mod.__all__, f"{package}.__all__ is empty"
    submodules = {name.rpartition(".")[2] for name in MODULES if name.rpartition(".")[0] == package}
    for name in mod.__all__:
        assert getattr(mod, name, None) is not None, f"{package}.{name} does not exist"
        assert name not in submodules, f"{package}.{name} is also a module's name"


def test_top_level_all_names_exist():
    import bjsolve

    for name in bjsolve.__all__:
        assert getattr(bjsolve, name, None) is not None, name


def test_pyproject_ships_every_subpackage():
    """A non-editable install ships only the packages pyproject.toml lists."""
    tomllib = pytest.importorskip("tomllib")    # (Python 3.11+)

    with open(PACKAGE.parent.parent / "pyproject.toml", "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    assert PACKAGES <= listed, f"missing from pyproject.toml: {sorted(PACKAGES - listed)}"
