"""Every C extension setup.py lists is built when any of them is.

setup.py marks each extension ``optional=True`` so that a machine without a compiler installs
the pure-Python package; the price is that a compile error in one extension is only a warning
in pip's output, and the accelerated test lane then runs that part pure without saying so (a
helper's first build of ``_arrowdec.c`` failed that way unnoticed). A machine that built one
extension has a compiler, so the others must have built too.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parents[2] / "setup.py"


def _extension_names() -> list[str]:
    names = []
    for node in ast.walk(ast.parse(SETUP.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Extension":
            first = node.args[0]
            assert isinstance(first, ast.Constant) and isinstance(first.value, str)
            names.append(first.value)
    return names


def test_setup_lists_the_extensions() -> None:
    assert "ifxwire._speedups" in _extension_names() and len(_extension_names()) >= 4


def test_all_extensions_built_or_none() -> None:
    built = {}
    for name in _extension_names():
        try:
            importlib.import_module(name)
            built[name] = True
        except ImportError:
            built[name] = False
    if not any(built.values()):
        pytest.skip("no C extension built on this machine (no compiler): the pure package")
    assert all(built.values()), f"built only some C extensions: {built}"


def _extension_sources() -> dict[str, list[str]]:
    """{main .c: the parts setup.py lists as its ``depends``} for every extension
    (``depends=SOME_PARTS``, a list assigned at the top of setup.py; [] without one)."""
    tree = ast.parse(SETUP.read_text())
    lists = {
        target.id: ast.literal_eval(node.value) for node in tree.body
        if isinstance(node, ast.Assign) for target in node.targets
        if isinstance(target, ast.Name) and target.id.endswith("_PARTS")}
    sources = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Extension":
            depends = next((k.value for k in node.keywords if k.arg == "depends"), None)
            listed = lists[depends.id] if isinstance(depends, ast.Name) else []
            sources[ast.literal_eval(node.args[1])[0]] = listed
    return sources


def test_split_modules_parts_listed_in_order() -> None:
    """A split module (_speedups.c, _arrowdec.c, _tuplewriter.c, _cdcspeed.c) is one
    translation unit including its parts (one job each, so no file passes ~800 lines);
    setup.py's ``depends`` must name exactly those parts, in order: a change to a part then
    rebuilds the module, and the sdist carries every part (setuptools puts ``depends`` in
    it; without them a wheel built from the sdist fails to compile the module and, it being
    optional, installs it pure without a word)."""
    sources = _extension_sources()
    assert len(sources) >= 4
    split = 0
    for main_rel, listed in sources.items():
        main = SETUP.parent / main_rel
        included = [f"src/ifxwire/{m}" for m in re.findall(
            rf'^#include "({main.stem}_\w+\.h)"$', main.read_text(), re.M)]
        assert included == listed, main_rel
        split += bool(listed)
        for rel in listed:
            assert (SETUP.parent / rel).is_file(), rel
    assert split >= 4


def test_no_c_file_over_800_lines() -> None:
    """Every C source and part in the package keeps to the house's ~800 lines."""
    for path in sorted((SETUP.parent / "src" / "ifxwire").glob("*.[ch]")):
        assert len(path.read_text().splitlines()) <= 800, path.name
