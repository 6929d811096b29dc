"""bench/composite_bench.py's receive floor (issue 25, arrow12): the bytes it times are the
LIST result's as our server encodes them, and the floor is measured over a real socket.

The floor says how much of the LIST fetch no decoder can save (the kernel receiving the
1,028-byte tuples, docs/ARROW.md *Composite fetch, arrow12*); it is only worth reporting if
its bytes are the fetch's bytes, which is what the first test pins."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import composite_bench as cb  # noqa: E402

import ifxwire  # noqa: E402
from ifxwire import arrowtuples as at  # noqa: E402
from ifxwire.protocol.codes import TypeCode  # noqa: E402
from ifxwire.protocol.columns import ColumnDesc  # noqa: E402
from ifxwire.types.complextype import parse_type_name  # noqa: E402
from ifxwire.types.composite import encode_complex  # noqa: E402
from ifxwire.types.rowcodec import build_row_decoder  # noqa: E402

TEXT = "LIST(integer not null)"


def test_floor_bytes_are_the_servers_list_tuples() -> None:
    data = cb.list_tuples(3)
    node = parse_type_name(TEXT)
    pos = 0
    decode = build_row_decoder([ColumnDesc("l", TypeCode.LIST, 0, type_name=TEXT)],
                               "iso-8859-1")
    for r in range(3):
        value = encode_complex(node, ifxwire.List(list(range(r * 10, r * 10 + 10))))
        assert len(value) == 1020  # 4 + 136 + 2 * 414 + 12 + 40 (docs/PROTOCOL.md §13)
        # SQ_TUPLE (14), a 0 warning word, the payload's size, the payload (even: no pad)
        assert data[pos:pos + 8] == bytes.fromhex("000e 0000 000003fc")
        assert data[pos + 8:pos + 1028] == value
        assert decode(data, pos + 8, 1020) == (list(range(r * 10, r * 10 + 10)),)
        pos += 1028
    assert data[pos:] == b"\x00\x0c"  # the SQ_EOT that ends the run


def test_receive_floor_times_a_real_socket() -> None:
    got = cb.receive_floor(300, 2)
    assert got["list_recv_s"] > 0
    if at.c_decoder() is not None and hasattr(at._arrowdec.Columns, "pump"):
        assert got["list_pump_s"] > 0
    else:
        assert set(got) == {"list_recv_s"}


def test_report_states_the_floor_against_the_scalar_fetch() -> None:
    result = {"mode": "accelerated", "rows": 100, "scalar_s": 0.5, "list_s": 1.0,
              "ratio": 2.0, "scalar_arrow_s": 0.010, "list_arrow_s": 0.032,
              "arrow_ratio": 3.2, "list_recv_s": 0.025, "list_pump_s": 0.027}
    text = cb.report([result])
    assert ("Receive floor (accelerated): the LIST result's bytes only received 25.0 ms "
            "= 2.50× the 10 INTEGER columns' fetch; received and decoded in C "
            "(Columns.pump) 27.0 ms") in text
    del result["list_recv_s"]
    assert "Receive floor" not in cb.report([result])


@pytest.mark.parametrize("rows", [1, 2])
def test_odd_and_even_counts_frame_alike(rows: int) -> None:
    assert len(cb.list_tuples(rows)) == 1028 * rows + 2


def test_report_puts_the_text_form_beside_the_binary_one() -> None:
    """arrow13: the LIST fetched with cursor.collections = "text", against the same scalars."""
    result = {"mode": "accelerated", "rows": 100, "scalar_s": 0.5, "list_s": 1.0,
              "ratio": 2.0, "scalar_arrow_s": 0.010, "list_arrow_s": 0.032,
              "arrow_ratio": 3.2, "list_text_s": 2.0, "text_ratio": 4.0,
              "list_text_arrow_s": 0.018, "text_arrow_ratio": 1.8}
    text = cb.report([result])
    assert "| accelerated | fetch_arrow_table | 100 | 10.0 ms | 32.0 ms | 3.20× | missed |" in text
    assert ("| accelerated | fetch_arrow_table, text form | 100 | 10.0 ms | 18.0 ms | 1.80× "
            "| met |") in text
    assert "| accelerated | fetchall, text form | 100 | 500.0 ms | 2000.0 ms | 4.00× | missed |" \
        in text
