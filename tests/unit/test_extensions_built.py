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


def test_speedups_parts_listed_in_order() -> None:
    """_speedups.c is one translation unit including its parts (one job each, so no file
    passes ~800 lines); setup.py's ``depends`` must name exactly those parts, in order, so a
    change to a part rebuilds the module and the sdist carries every part."""
    tree = ast.parse(SETUP.read_text())
    listed = next(
        ast.literal_eval(node.value) for node in tree.body
        if isinstance(node, ast.Assign)
        and any(getattr(t, "id", "") == "SPEEDUPS_PARTS" for t in node.targets))
    main = SETUP.parent / "src" / "ifxwire" / "_speedups.c"
    included = [f"src/ifxwire/{m}" for m in
                re.findall(r'^#include "(_speedups_\w+\.h)"$', main.read_text(), re.M)]
    assert included == listed
    for rel in [*listed, "src/ifxwire/_speedups.c"]:
        assert len((SETUP.parent / rel).read_text().splitlines()) <= 800, rel
