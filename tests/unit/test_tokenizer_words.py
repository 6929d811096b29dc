"""Every word that starts an Informix statement reaches our parser as a word.

sqlglot may make a word a COMMAND in any release (30.31 did so to SAVEPOINT and RELEASE): its
tokenizer then folds the rest of the statement into one string and our word-by-word parse of
that statement fails with -201. This holds the statement words of statements.py's dispatch
table to being plain tokens, so a new sqlglot that changes one fails here, by name, and not
as a syntax error far away in SQLAlchemy's or Django's suite.
"""

from __future__ import annotations

import pytest

from ifxwire.server.engine.sql.statements import _HANDLERS
from ifxwire.server.engine.sql.tokenizer import (
    IfxDelimidentTokenizer,
    IfxTokenizer,
)


@pytest.mark.parametrize("tokenizer", [IfxTokenizer, IfxDelimidentTokenizer])
@pytest.mark.parametrize("word", sorted(_HANDLERS))
def test_statement_word_is_not_a_command(tokenizer: type[IfxTokenizer], word: str) -> None:
    found = tokenizer().tokenize(f"{word} alpha beta")
    assert [tok.text.upper() for tok in found] == [word, "ALPHA", "BETA"]
    assert found[0].token_type not in tokenizer.COMMANDS


@pytest.mark.parametrize(
    ("sql", "words"),
    [
        ("SAVEPOINT sp1 UNIQUE", ["SAVEPOINT", "SP1", "UNIQUE"]),
        ("RELEASE SAVEPOINT sp1", ["RELEASE", "SAVEPOINT", "SP1"]),
        ("ROLLBACK WORK TO SAVEPOINT sp1", ["ROLLBACK", "WORK", "TO", "SAVEPOINT", "SP1"]),
    ],
)
def test_savepoint_statements_tokenize_word_by_word(sql: str, words: list[str]) -> None:
    assert [tok.text.upper() for tok in IfxTokenizer().tokenize(sql)] == words
