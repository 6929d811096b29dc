"""The SPL corpus: routines and triggers in the styles of public Informix projects, run
through the ifxwire driver against the embedded server over a real socket.

Each file in tests/corpus/spl/ says what it models; the statements are ours, the expected
rows are worked out from Informix's documented semantics (``spl_runner.py`` has the format).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from spl_runner import run_corpus

from ifxwire.server import Server

CORPUS = Path(__file__).parent / "spl"
FILES = sorted(CORPUS.glob("*.sql"))


@pytest.fixture(scope="module")
def connect_kwargs() -> Iterator[dict[str, Any]]:
    with Server(port=0) as srv:
        yield {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}


def test_the_corpus_has_files() -> None:
    assert len(FILES) >= 4, FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_corpus_file(path: Path, connect_kwargs: dict[str, Any]) -> None:
    assert run_corpus(path, connect_kwargs, f"spl_{path.stem}"[:40]) > 0
