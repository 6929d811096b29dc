"""The pure path's stride runs of integer LIST/MULTISET columns (ifxwire/arrowlists.py),
against fetchall (crafted runs, NULL sentinel elements among them, in
tests/unit/test_arrowlists.py).

Without the C decoder, a result whose columns are fixed-width numerics and LIST/MULTISET of
SMALLINT/INTEGER/BIGINT is cut into runs of tuples of one size and layout, each column taken
out of the run whole; what does not fit a run (another element count, a NULL list, a NULL
element, which no Informix server sends: collection elements are NOT NULL) goes to the
column walker. Every test compares with fetchall and checks, with a
spy, which path the rows took.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from test_arrow import _check_same  # tests/integration is on sys.path

import ifxwire
from ifxwire import arrow as ifx_arrow
from ifxwire import arrowlists, arrowtuples

pa = pytest.importorskip("pyarrow")  # the [test] extra installs it: never skipped in CI
pytestmark = pytest.mark.both_drivers  # sync and asyncio (tests/integration/_aio_facade.py)


@pytest.fixture(autouse=True)
def pure(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure column path even where the C accelerator is built."""
    monkeypatch.setattr(arrowtuples, "c_decoder", lambda: None)


@pytest.fixture(params=[1024, 32768 * 4], ids=["small-replies", "default-replies"])
def lconn(request: pytest.FixtureRequest, driver: Any, connect_kwargs: dict[str, Any],
          dbname: str) -> Iterator[ifxwire.Connection]:
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True,
                       fetch_buffer_size=request.param)
    try:
        yield c
    finally:
        c.close()


def _spy(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Rows per path: stride runs (stride_batch), the walker (column_batch), rows decoded
    with OPEN's first reply (batch_from_rows); runs cut out but refused for a NULL element
    (``refused``)."""
    seen = {"stride": 0, "walker": 0, "rows": 0, "refused": 0}
    for mod, name, key in ((arrowlists, "stride_batch", "stride"),
                           (arrowtuples, "column_batch", "walker"),
                           (ifx_arrow, "batch_from_rows", "rows")):
        real = getattr(mod, name)

        def spy(*args: Any, _real: Any = real, _key: str = key) -> Any:
            batch = _real(*args)
            seen[_key] += batch.num_rows
            return batch

        monkeypatch.setattr(mod, name, spy)
    real_cut = arrowlists.ListRuns._cut

    def cut(self: Any, *args: Any) -> Any:
        run = real_cut(self, *args)
        if run is None:
            seen["refused"] += 1
        return run

    monkeypatch.setattr(arrowlists.ListRuns, "_cut", cut)
    return seen


def test_integer_collections_beside_numerics_by_stride(
    lconn: ifxwire.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stretches of rows of one size (stride runs) between rows of other sizes, NULL and
    empty lists, NULL numerics, every element width and its boundaries (the most negative
    value but one, the largest), DATE and FLOAT beside: fetch_arrow_table and the stream
    equal fetchall, and most rows came by stride."""
    seen = _spy(monkeypatch)
    cur = lconn.cursor()
    cur.execute("CREATE TEMP TABLE tls (k INTEGER, a LIST(INTEGER NOT NULL), "
                "b MULTISET(BIGINT NOT NULL), f FLOAT, c LIST(SMALLINT NOT NULL), d DATE)")
    rows = []
    for k in range(1200):
        odd = k % 97 == 50  # a row of another size inside a stretch
        n = 10 if k < 900 else 3 + (k // 100) % 3
        a = None if k % 211 == 7 else ifxwire.List(
            [k * 10 + j for j in range(n + (2 if odd else 0))]
            + ([2**31 - 1, -2**31 + 1] if k % 5 == 0 else [0, 1]), "integer")
        b = ifxwire.Multiset([k * 2**40, -(2**63) + 1, 2**63 - 1] if k < 1100 else [],
                             "bigint")
        c = ifxwire.List([k % 300, -32767, 32767], "smallint")
        rows.append((None if k % 13 == 4 else k, a, b, None if k % 17 == 1 else k / 3, c,
                     None if k % 19 == 2 else dt.date(1900, 1, 1) + dt.timedelta(days=k * 37)))
    cur.executemany("INSERT INTO tls VALUES (?, ?, ?, ?, ?, ?)", rows)
    table = _check_same(lconn, "SELECT * FROM tls ORDER BY 1")
    assert table.column(1).type == pa.list_(pa.field("item", pa.int32(), nullable=False))
    # Most rows by stride: the walker takes the rows of other sizes and those of a run that a
    # receive cut (the asyncio loop cuts where its reads ended, more often on a loaded
    # machine: 60 walker rows against 450 stride rows seen under the test command's two lanes).
    assert seen["stride"] > 4 * seen["walker"] and seen["refused"] == 0
    cur.execute("SELECT a, k FROM tls ORDER BY 2")
    got = [v for batch in cur.fetch_record_batch(rows_per_batch=97)
           for v in batch.column(0).to_pylist()]
    want = [None if r[1] is None else list(r[1])
            for r in sorted(rows, key=lambda r: (r[0] is not None, r[0]))]
    assert got == want and cur.rowcount == len(rows)


def test_only_a_list_column(driver: Any, connect_kwargs: dict[str, Any], dbname: str,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The composite bench's shape (one LIST(INTEGER NOT NULL) of 10): every row by stride
    except the first reply's (decoded as rows with OPEN; small replies, so that most are
    not in it)."""
    seen = _spy(monkeypatch)
    lconn = driver.connect(**connect_kwargs, database=dbname, autocommit=True,
                           fetch_buffer_size=1024)
    cur = lconn.cursor()
    cur.execute("CREATE TEMP TABLE tlo (l LIST(INTEGER NOT NULL))")
    data = [[r * 10 + i for i in range(10)] for r in range(2000)]
    cur.executemany("INSERT INTO tlo VALUES (?)", [[ifxwire.List(d, "integer")] for d in data])
    table = _check_same(lconn, "SELECT * FROM tlo")
    assert table.column(0).to_pylist() == data
    assert seen["stride"] > 8 * seen["walker"] and seen["stride"] > 0 and seen["refused"] == 0
    lconn.close()


def test_table_asks_for_16_mib_replies(driver: Any, connect_kwargs: dict[str, Any],
                                       dbname: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """fetch_arrow_table on stride runs asks for 16 MiB replies (TABLE_FETCH_SIZE: the runs
    are cut out of the receive buffer, no reply is held, so a larger one costs no memory and
    saves round trips and record batches: 100k LIST rows, ~98 → 25 → 7), and the server
    sends them: ~6 MB of LIST rows come in one NFETCH (two at 4 MiB); a stream keeps 1 MiB."""
    from ifxwire.client import arrowfetch
    from ifxwire.client import cursor as cursor_mod

    sizes: list[int] = []
    real = cursor_mod.nfetch_group

    def spy(stmt_id: int, fetch_size: int) -> bytes:
        sizes.append(fetch_size)
        return real(stmt_id, fetch_size)

    monkeypatch.setattr(cursor_mod, "nfetch_group", spy)
    seen = _spy(monkeypatch)
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    try:
        cur = c.cursor()
        cur.execute("CREATE TEMP TABLE tl4 (l LIST(INTEGER NOT NULL), k INTEGER)")
        data = [[r, r + 1, -r] for r in range(6000)]  # ~1 KB a tuple: ~6 MB
        cur.executemany("INSERT INTO tl4 VALUES (?, ?)",
                        [(ifxwire.List(d, "integer"), r) for r, d in enumerate(data)])
        cur.execute("SELECT * FROM tl4 ORDER BY k")
        sizes.clear()
        assert cur.fetch_arrow_table().column(0).to_pylist() == data
        assert sizes == [arrowfetch.TABLE_FETCH_SIZE] and sizes == [1 << 24]
        assert seen["stride"] > 0
        cur.execute("SELECT * FROM tl4 ORDER BY k")
        sizes.clear()
        assert sum(b.num_rows for b in cur.fetch_record_batch()) == 6000
        assert sizes and set(sizes) == {arrowfetch.ARROW_FETCH_SIZE} == {1 << 20}
    finally:
        c.close()
