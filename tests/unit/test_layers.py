"""The server's import order (issue 26, docs/ARCHITECTURE.md "The engine's layers").

The engine is five subpackages, each importing only those below it:

    core -> schema -> sql -> features -> session

and the wire layer (the modules of ``ifxwire/server`` outside ``engine``) imports the engine
through its interface, ``ifxwire.server.engine`` (its ``__init__``), alone. The engine never
imports the wire layer. Imports are read with ``ast``, those inside functions included.

Every import keeps the order, both those that run and those under ``if TYPE_CHECKING:``
(read alike, with ``ast``): a lower layer calls a feature through the hook tables the feature
fills (core/hooks.py, schema/hooks.py, sql/hooks.py), and names what it needs of a higher
layer with a Protocol of its own (features/session_api.py: the session as the features use
it) or with a class that lives down in it (schema/triggers.py: the trigger the catalogue
stores). An import made for type hints alone runs nothing, but it still draws an arrow up for
a reader, a type checker and a structure view, and so a circle across the layers.

Every import made inside a function under ``ifxwire/server`` carries a comment (on its line or
the line above) giving its reason, and there are at most ``MAX_IN_FUNCTION`` of them.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
SERVER = SRC / "ifxwire" / "server"
ENGINE = "ifxwire.server.engine"
LAYERS = ("core", "schema", "sql", "features", "session")
MAX_IN_FUNCTION = 40


def _module(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module(p): p for p in SERVER.rglob("*.py")}


def _resolve(module: str, is_package: bool, node: ast.ImportFrom | ast.Import,
             known: dict[str, Path]) -> list[str]:
    """The modules of this tree that one import statement loads."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = module.split(".")
            if not is_package:
                base.pop()
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join([*base, *([node.module] if node.module else [])])
        else:
            prefix = node.module or ""
        names = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in known else prefix
                 for a in node.names]
    found = []
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name:
            found.append(name)
    return found


class Import:
    def __init__(self, source: str, line: int, target: str, in_function: bool,
                 type_only: bool, commented: bool) -> None:
        self.source, self.line, self.target = source, line, target
        self.in_function, self.type_only, self.commented = in_function, type_only, commented

    def __repr__(self) -> str:
        return f"{self.source}:{self.line} -> {self.target}"


def _explained(lines: list[str], lineno: int) -> bool:
    """A comment on the import's line, or above it or above the imports just before it."""
    if "#" in lines[lineno - 1]:
        return True
    i = lineno - 2
    while i >= 0 and lines[i].lstrip().startswith(("from ", "import ")):
        i -= 1
    return i >= 0 and lines[i].lstrip().startswith("#")


def _visit(node: ast.AST, module: str, is_package: bool, lines: list[str],
           known: dict[str, Path], in_function: bool, type_only: bool) -> Iterator[Import]:
    for child in ast.iter_child_nodes(node):
        func = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
        guarded = type_only or (isinstance(child, ast.If)
                                and "TYPE_CHECKING" in ast.unparse(child.test))
        if isinstance(child, ast.Import | ast.ImportFrom):
            commented = _explained(lines, child.lineno)
            for target in dict.fromkeys(_resolve(module, is_package, child, known)):
                yield Import(module, child.lineno, target, in_function, type_only, commented)
        yield from _visit(child, module, is_package, lines, known, func, guarded)


@functools.cache
def _all_imports() -> list[Import]:
    return list(_imports())


def _imports() -> Iterator[Import]:
    known = _modules()
    for module, path in known.items():
        text = path.read_text()
        yield from _visit(ast.parse(text), module, path.name == "__init__.py",
                          text.splitlines(), known, False, False)


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if parts[:3] != ENGINE.split(".") or len(parts) < 4:
        return None
    return LAYERS.index(parts[3])


def _short(module: str) -> str:
    return module.removeprefix(ENGINE + ".")


def test_every_engine_module_is_in_a_layer() -> None:
    for module in _modules():
        if module.startswith(ENGINE + "."):
            assert module.split(".")[3] in LAYERS, module


def test_the_engine_never_imports_the_wire_layer() -> None:
    wrong = [i for i in _all_imports()
             if i.source.startswith(ENGINE) and not i.target.startswith(ENGINE)
             and i.target.startswith("ifxwire.server")]
    assert wrong == []


def test_the_wire_layer_uses_only_the_engines_interface() -> None:
    wrong = [i for i in _all_imports()
             if not i.source.startswith(ENGINE) and i.target.startswith(ENGINE + ".")]
    assert wrong == []


def _upward() -> list[Import]:
    """Every import, run or type-only, from a layer to one above it."""
    found = []
    for i in _all_imports():
        lower, upper = _layer(i.source), _layer(i.target)
        if lower is not None and upper is not None and upper > lower:
            found.append(i)
    return found


def test_each_layer_imports_only_those_below_it() -> None:
    wrong = [i for i in _upward() if not i.type_only]
    assert wrong == [], "an import against the layer order: register a hook instead"


def test_type_only_imports_keep_the_order_too() -> None:
    """``if TYPE_CHECKING:`` imports included: a feature names the session through
    ``features/session_api.FeatureSession``, never ``session.session.EngineSession``."""
    wrong = [i for i in _upward() if i.type_only]
    assert wrong == [], "a type-only import against the layer order: name a Protocol below"


def _components(edges: set[tuple[str, str]]) -> list[set[str]]:
    """The import circles (strongly connected components of two or more modules)."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            comp = set()
            while True:
                top = stack.pop()
                comp.add(top)
                if top == node:
                    break
            if len(comp) > 1:
                found.append(comp)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_spans_two_layers() -> None:
    """Issue 26's measure: a circle of imports stays inside one subpackage (the wire layer
    counts as one). Type-only imports count: they draw the same arrows in a structure view."""
    edges = {(i.source, i.target) for i in _all_imports() if i.source != i.target}
    for comp in _components(edges):
        assert len({_layer(m) for m in comp}) == 1, sorted(comp)


def test_every_hook_slot_is_filled_once_the_engine_is_imported() -> None:
    """A lower layer calls a feature only through a slot; importing the engine loads every
    feature, so none is left to fail at its first use."""
    import dataclasses

    import ifxwire.server.engine  # noqa: F401  (loads every feature)
    from ifxwire.server.engine.core import hooks as core_hooks
    from ifxwire.server.engine.schema import hooks as schema_hooks
    from ifxwire.server.engine.sql import hooks as sql_hooks

    empty_marks = (core_hooks._unregistered, schema_hooks._unregistered,
                   sql_hooks._unregistered)
    tables = [core_hooks.EXTENSIONS, schema_hooks.FEATURES, sql_hooks.PARSERS,
              sql_hooks.TRANSLATION]
    empty = [f"{type(t).__name__}.{f.name}" for t in tables for f in dataclasses.fields(t)
             if getattr(t, f.name) in empty_marks]
    assert empty == []
    assert "FILETOBLOB" in sql_hooks.TRANSLATION.functions


def test_imports_inside_functions_are_few_and_explained() -> None:
    inner = {(i.source, i.line): i for i in _all_imports() if i.in_function}
    unexplained = [i for i in inner.values() if not i.commented]
    assert unexplained == [], "say why the import is inside a function"
    assert len(inner) <= MAX_IN_FUNCTION
