"""The SPL corpus: routines and triggers in the styles of public Informix projects, run
through the ifxwire driver against the embedded server over a real socket.

Each file says what it models; the statements are ours, the expected rows are worked out
from Informix's documented semantics (``spl_runner.py`` has the format). The files in spl/
start from an empty logged database; stores_demo/procedures.sql from a fresh copy of
stores_demo (schema and data).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ifxwire

from .loader import CORPUS, STORES_DEMO, create_database
from .spl_runner import run_checked

SPL_FILES = sorted((CORPUS / "spl").glob("*.sql"))


def test_the_corpus_has_files() -> None:
    assert len(SPL_FILES) >= 3, SPL_FILES
    for path in SPL_FILES:
        assert "Models:" in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize("path", SPL_FILES, ids=lambda p: p.stem)
def test_spl_corpus_file(path: Path, connect_kwargs: dict[str, Any]) -> None:
    name = f"spl_{path.stem}"[:40]
    with ifxwire.connect(**connect_kwargs, autocommit=True) as conn:
        conn.cursor().execute(f"CREATE DATABASE {name} WITH LOG")
        assert run_checked(conn, path) > 0


def test_stores_demo_procedures_and_triggers(connect_kwargs: dict[str, Any]) -> None:
    name = create_database(connect_kwargs, "stores_spl")
    with ifxwire.connect(**connect_kwargs, database=name, autocommit=True) as conn:
        assert run_checked(conn, STORES_DEMO / "procedures.sql") > 30
