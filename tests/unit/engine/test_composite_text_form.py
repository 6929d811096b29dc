"""The server's text form of a collection (features/composite.text_encoder): what a client
that sends no SQ_RET_TYPE receives (docs/PROTOCOL.md §13). A NULL element is written as the
NULL keyword, as a ROW's NULL field already is, and as the driver's text reader
(types/compositetext.py) reads it; it was Python's ``None`` (``str(None)``) until arrow14."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ifxwire.protocol.columns import ColumnDesc
from ifxwire.server.engine import text_encoder
from ifxwire.server.engine.core import values as vals
from ifxwire.types.complextype import parse_type_name
from ifxwire.types.compositetext import text_collection_decoder


def _col(text: str) -> ColumnDesc:
    node = parse_type_name(text)
    return ColumnDesc("l", node.code, 0, type_name=text, detail=node)


@pytest.mark.parametrize(("text", "value", "want"), [
    ("LIST(integer)", [1, None, -3], "LIST{1,NULL,-3}"),
    ("SET(bigint)", [None], "SET{NULL}"),
    ("MULTISET(float)", [1.5, None], "MULTISET{1.5,NULL}"),
    ("LIST(decimal(8,2))", [Decimal("1.25"), None], "LIST{1.25,NULL}"),
    ("LIST(varchar(10))", ["a", None], "LIST{'a',NULL}"),
    ("ROW(a integer, b integer)", (1, None), "ROW(1,NULL)"),
])
def test_null_element_is_the_null_keyword(text: str, value: object, want: str) -> None:
    assert text_encoder(_col(text), vals.ConvContext())(value) == want


def test_the_driver_reads_the_null_element_back() -> None:
    """The numeric text with a NULL element reads back as None through the driver's reader."""
    col = _col("LIST(integer)")
    encoded = text_encoder(col, vals.ConvContext())([4, None, 5]).encode("ascii")
    assert list(text_collection_decoder(col, "iso-8859-1")(encoded)) == [4, None, 5]
