"""Every Informix type, driver → real server → driver, with hypothesis and at the boundaries.

Each property test binds at least ``MIN_VALUES`` generated values per type (NULLs included):
hypothesis draws lists of ``BATCH`` values, ``executemany`` inserts them with an id, a SELECT
reads them back in id order and every value must come back exactly (or as the documented
normal form: CHAR loses trailing blanks, fixed DECIMAL gets its scale). Batching keeps the
whole file fast while still sending hundreds of values of each type through the server.

docs/TYPES.md §7 names these tests row by row.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from decimal import Context, Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import ifxwire
from ifxwire.types.values import DateTimeFields, IntervalYM

pytestmark = pytest.mark.both_drivers

BATCH = 200
EXAMPLES = 3
NULL_EVERY = 7  # a NULL is inserted before every 7th generated value
MIN_VALUES = 500

SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    # No shrinking: a failing batch of 250 values shrinks slowly, and the assertion message
    # already names the value, its index and both sides.
    phases=[Phase.explicit, Phase.generate],
    # A batch of 200 values can overrun Hypothesis's data buffer for some seeds (float32
    # draws are costly); overruns count as filtered inputs, not as our own filtering.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
)


@pytest.fixture(scope="module")
def db(driver: Any, connect_kwargs: dict[str, Any], dbname: str
       ) -> Iterator[ifxwire.Connection]:
    _tables.clear()  # each driver's run has a database of its own (conftest.dbname)
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    try:
        yield c
    finally:
        c.close()


_tables: dict[str, str] = {}


def _table(conn: ifxwire.Connection, coltype: str) -> str:
    """One table per column type, created on first use, emptied before each batch."""
    name = _tables.get(coltype)
    cur = conn.cursor()
    if name is None:
        name = f"rt_{len(_tables)}"
        cur.execute(f"CREATE TABLE {name} (id INTEGER NOT NULL, v {coltype})")
        _tables[coltype] = name
    else:
        cur.execute(f"DELETE FROM {name}")
    return name


def roundtrip(conn: ifxwire.Connection, coltype: str, values: list[Any]) -> list[Any]:
    """Insert ``values`` into a ``coltype`` column and read them back in order."""
    name = _table(conn, coltype)
    cur = conn.cursor()
    cur.executemany(f"INSERT INTO {name} (id, v) VALUES (?, ?)", list(enumerate(values)))
    assert cur.rowcount == len(values)
    cur.execute(f"SELECT v FROM {name} ORDER BY id")
    return [row[0] for row in cur.fetchall()]


def check(
    conn: ifxwire.Connection,
    coltype: str,
    elements: st.SearchStrategy[Any],
    expect: Callable[[Any], Any] = lambda v: v,
    *,
    nulls: bool = True,
    unique: bool = False,
) -> int:
    """Run the property for one column type; returns how many non-NULL values went through."""
    sent: list[int] = []
    lists = st.lists(elements, min_size=BATCH, max_size=BATCH, unique=unique)

    @SETTINGS
    @given(lists)
    def prop(values: list[Any]) -> None:
        if nulls:
            values = [
                x
                for i, v in enumerate(values)
                for x in ((None, v) if i % NULL_EVERY == 0 else (v,))
            ]
        got = roundtrip(conn, coltype, values)
        want = [None if v is None else expect(v) for v in values]
        assert len(got) == len(want)
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert g == w and type(g) is type(w), (coltype, i, values[i], g, w)
        sent.append(sum(v is not None for v in values))

    prop()
    total = sum(sent)
    assert total >= MIN_VALUES, (coltype, total)
    return total


# ------------------------------------------------------------------------------ strategies

CTX = Context(prec=80)  # the default 28 digits would round 32-digit values
I16 = 2**15 - 1
I32 = 2**31 - 1
I64 = 2**63 - 1


def _decimals(precision: int, scale: int) -> st.SearchStrategy[Decimal]:
    """Exact DECIMAL(p,s) values: an integer of up to p digits, shifted by s places."""
    bound = 10**precision - 1
    return st.integers(-bound, bound).map(lambda n: Decimal(n).scaleb(-scale, CTX))


def _floating(precision: int) -> st.SearchStrategy[Decimal]:
    """Floating DECIMAL(p) values: up to p significant digits, magnitude below 10^124.
    Informix's decimal holds 16 base-100 pairs (decimal.h, DECSIZE 16): 32 digits fit only
    when the first one starts a pair, so DECIMAL(32) is tried with 31 (any alignment fits);
    test_floating_decimal_pairs covers the 32nd digit."""
    bound = 10**min(precision, 31) - 1
    exponents = st.integers(-120, 124 - precision)
    return st.builds(lambda n, e: Decimal(n).scaleb(e, CTX), st.integers(-bound, bound), exponents)


def _text(max_chars: int, alphabet: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[str]:
    chars = st.characters(min_codepoint=1, max_codepoint=255) if alphabet is None else alphabet
    return st.text(chars, max_size=max_chars)


def _micro10(v: Any) -> Any:
    return v.replace(microsecond=v.microsecond // 10 * 10)


def _signed_td(max_days: int, unit: int = 10) -> st.SearchStrategy[dt.timedelta]:
    """Intervals with FRACTION(5) resolution; negatives stay inside timedelta's range."""
    return st.builds(
        lambda neg, d, s, u: (-1 if neg else 1) * dt.timedelta(days=d, seconds=s, microseconds=u),
        st.booleans(),
        st.integers(0, max_days - 1),
        st.integers(0, 86399),
        st.integers(0, 999999 // unit).map(lambda u: u * unit),
    )


def _hours_td() -> st.SearchStrategy[dt.timedelta]:
    return st.builds(
        lambda neg, s: dt.timedelta(seconds=-s if neg else s),
        st.booleans(),
        st.integers(0, 99 * 3600 + 59 * 60 + 59),
    )


_MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _month_day() -> st.SearchStrategy[DateTimeFields]:
    return st.integers(1, 12).flatmap(
        lambda m: st.integers(1, _MONTH_DAYS[m - 1]).map(
            lambda d: DateTimeFields(2, 4, month=m, day=d)
        )
    )


def _float32() -> st.SearchStrategy[float]:
    return st.floats(width=32, allow_nan=False, allow_infinity=False)


# ------------------------------------------------------------------------------ properties

INTEGER_CASES = [
    ("SMALLINT", st.integers(-I16, I16), False),
    ("INTEGER", st.integers(-I32, I32), False),
    ("INT8", st.integers(-I64, I64), False),
    ("BIGINT", st.integers(-I64, I64), False),
    ("SERIAL", st.integers(1, I32), True),
    ("SERIAL8", st.integers(1, I64), True),
    ("BIGSERIAL", st.integers(1, I64), True),
]


@pytest.mark.one_driver  # every case here; one case of it on both: test_families_on_both
@pytest.mark.parametrize(
    ("coltype", "elements", "serial"), INTEGER_CASES, ids=[c[0] for c in INTEGER_CASES]
)
def test_integers(
    db: ifxwire.Connection, coltype: str, elements: st.SearchStrategy[int], serial: bool
) -> None:
    # SERIAL columns are NOT NULL and unique in practice: explicit, distinct, positive values.
    check(db, coltype, elements, nulls=not serial, unique=serial)


def test_smallfloat(db: ifxwire.Connection) -> None:
    check(db, "SMALLFLOAT", _float32())


def test_float(db: ifxwire.Connection) -> None:
    check(db, "FLOAT", st.floats(allow_nan=False, allow_infinity=False))


DECIMAL_CASES = [
    ("DECIMAL(32,0)", 32, 0),
    ("DECIMAL(32,16)", 32, 16),
    ("DECIMAL(10,2)", 10, 2),
    ("DECIMAL(5,5)", 5, 5),
    ("MONEY", 16, 2),
    ("MONEY(32,4)", 32, 4),
]


@pytest.mark.one_driver  # every case here; one case of it on both: test_families_on_both
@pytest.mark.parametrize(
    ("coltype", "precision", "scale"), DECIMAL_CASES, ids=[c[0] for c in DECIMAL_CASES]
)
def test_fixed_decimal(db: ifxwire.Connection, coltype: str, precision: int, scale: int) -> None:
    quantum = Decimal(1).scaleb(-scale)
    check(db, coltype, _decimals(precision, scale), lambda v: v.quantize(quantum, context=CTX))


@pytest.mark.parametrize("precision", [16, 32])
def test_floating_decimal(db: ifxwire.Connection, precision: int) -> None:
    def same(v: Decimal) -> Decimal:
        return v  # compared by value: the decoder's presentation drops trailing zeros

    check(db, f"DECIMAL({precision})", _floating(precision), same)


def test_floating_decimal_pairs(db: ifxwire.Connection) -> None:
    """A floating DECIMAL(p) keeps the base-100 pairs of its field, (p + 2) // 2 of them, at
    most 16: DECIMAL (no precision: DECIMAL(16), 10 bytes) keeps 9 pairs, so a double's
    17-digit form comes back as written (a real server returns 4.9393689715768056E45 so,
    issue 23) and a Decimal of 17 or 18 digits too when they fill the pairs; 32 digits fit
    DECIMAL(32) when the first digit starts a pair, else the 32nd is rounded away."""
    cur = db.cursor()
    cur.execute("CREATE TEMP TABLE fdp (id INT, d DECIMAL, d16 DECIMAL(16), d32 DECIMAL(32),"
                " d5 DECIMAL(5))")
    values: list[Any] = [4.9393689715768056E45, 0.1, 1 / 3, -2.2250738585072014e-308 * 1e200,
                         Decimal("123456789012345678"), Decimal("1234567890123456789")]
    for i, v in enumerate(values):
        cur.execute("INSERT INTO fdp VALUES (?, ?, ?, ?, ?)", (i, v, v, v, v))
    cur.execute("SELECT d, d16, d32, d5 FROM fdp ORDER BY id")
    rows = cur.fetchall()
    for v, (d, d16, d32, _d5) in zip(values[:4], rows, strict=False):
        assert float(d) == float(d16) == float(d32) == v
    # 18 digits starting a pair fill 9 pairs; 19 make 1|23|…|67|89: 10 pairs, the last one
    # rounded (half up) away.
    assert (rows[4][0], rows[5][0]) == (Decimal("123456789012345678"),
                                        Decimal("1234567890123456800"))
    assert rows[5][2] == Decimal("1234567890123456789")
    # DECIMAL(5): 3 pairs: 12|34|57 of 123456.78…, 1|23|46 of 12345.6…
    assert rows[4][3] == Decimal("123457000000000000")
    cur.execute("INSERT INTO fdp (id, d32) VALUES (9, ?)", (Decimal("1" * 32),))
    cur.execute("INSERT INTO fdp (id, d32) VALUES (10, ?)", (Decimal("1" * 31 + ".1"),))
    cur.execute("INSERT INTO fdp (id, d32) VALUES (11, ?)", (Decimal("9" * 31 + ".5"),))
    cur.execute("SELECT d32 FROM fdp WHERE id >= 9 ORDER BY id")
    # 1|11|…|11.|10 needs 17 pairs: the .1 goes; 9|99|…|99.|50 rounds up to 10**31.
    assert [r[0] for r in cur.fetchall()] == [Decimal("1" * 32), Decimal("1" * 31),
                                              Decimal(10) ** 31]


@pytest.mark.parametrize("coltype", ["CHAR(20)", "NCHAR(20)"])
def test_char(db: ifxwire.Connection, coltype: str) -> None:
    # Blank padding: the column stores 20 bytes, the driver strips trailing blanks only.
    check(db, coltype, _text(20), lambda v: v.rstrip(" "))


@pytest.mark.parametrize("coltype", ["VARCHAR(255)", "NVARCHAR(255)", "LVARCHAR(2000)"])
def test_varchar(db: ifxwire.Connection, coltype: str) -> None:
    # Trailing blanks are data in variable-length strings; '' stays '' (not NULL).
    limit = 255 if "(255)" in coltype else 600
    check(db, coltype, _text(limit))


def test_date(db: ifxwire.Connection) -> None:
    check(db, "DATE", st.dates())


DATETIME_CASES: list[tuple[str, st.SearchStrategy[Any]]] = [
    ("DATETIME YEAR TO FRACTION(5)", st.datetimes().map(_micro10)),
    ("DATETIME YEAR TO SECOND", st.datetimes().map(lambda v: v.replace(microsecond=0))),
    ("DATETIME HOUR TO SECOND", st.times().map(lambda v: v.replace(microsecond=0))),
    ("DATETIME HOUR TO FRACTION(5)", st.times().map(_micro10)),
    ("DATETIME YEAR TO DAY", st.dates()),
    ("DATETIME MONTH TO DAY", _month_day()),
]


@pytest.mark.one_driver  # every case here; one case of it on both: test_families_on_both
@pytest.mark.parametrize(
    ("coltype", "elements"), DATETIME_CASES, ids=[c[0] for c in DATETIME_CASES]
)
def test_datetime(db: ifxwire.Connection, coltype: str, elements: st.SearchStrategy[Any]) -> None:
    check(db, coltype, elements)


INTERVAL_CASES: list[tuple[str, st.SearchStrategy[Any]]] = [
    ("INTERVAL DAY(9) TO FRACTION(5)", _signed_td(999_999_999)),
    ("INTERVAL DAY(9) TO SECOND", _signed_td(999_999_999, unit=1_000_000)),
    ("INTERVAL HOUR TO SECOND", _hours_td()),
    ("INTERVAL YEAR(9) TO MONTH", st.integers(-(10**9) * 12 + 1, 10**9 * 12 - 1).map(IntervalYM)),
]


@pytest.mark.one_driver  # every case here; one case of it on both: test_families_on_both
@pytest.mark.parametrize(
    ("coltype", "elements"), INTERVAL_CASES, ids=[c[0] for c in INTERVAL_CASES]
)
def test_interval(db: ifxwire.Connection, coltype: str, elements: st.SearchStrategy[Any]) -> None:
    check(db, coltype, elements)


@pytest.mark.parametrize("family", ["integer", "decimal", "datetime", "interval"])
def test_families_on_both(db: ifxwire.Connection, family: str) -> None:
    """One case of each parametrized family above on both drivers (the families run every
    case on the sync driver only): the asyncio driver shares the value codecs, so what its
    run checks is the path values take (pipelined binds, fetch batches), and one case of
    each family shows it; all of them would double the module's time (issue 24)."""
    if family == "integer":
        check(db, "BIGINT", st.integers(-I64, I64))
    elif family == "decimal":
        quantum = Decimal(1).scaleb(-16)
        check(db, "DECIMAL(32,16)", _decimals(32, 16), lambda v: v.quantize(quantum, context=CTX))
    elif family == "datetime":
        check(db, *DATETIME_CASES[0])
    else:
        check(db, *INTERVAL_CASES[0])


def test_boolean(db: ifxwire.Connection) -> None:
    check(db, "BOOLEAN", st.booleans())


def test_byte(db: ifxwire.Connection) -> None:
    # Empty values included: an empty BYTE is not NULL. Each value goes through SQ_BBIND and
    # SQ_FETCHBLOB; values above 1024 bytes take several SQ_BLOB chunks.
    check(db, "BYTE", st.binary(max_size=3000))


def test_text(db: ifxwire.Connection) -> None:
    # Bound both ways: ifxwire.Text (TEXT descriptor + SQ_BBIND) and plain str (CHAR, which
    # the server converts). The database code set is ISO-8859-1: every Latin-1 text fits.
    latin1 = st.characters(max_codepoint=0xFF, exclude_characters="\x00")
    values = _text(1500, latin1).flatmap(lambda t: st.sampled_from([t, ifxwire.Text(t)]))
    check(db, "TEXT", values, lambda v: str(v))


# ------------------------------------------------------------------------------ boundaries

DEC32 = Decimal("9" * 32)
NEG32 = Decimal("-" + "9" * 32)
BOUNDARY_CASES: list[tuple[str, list[Any]]] = [
    ("SMALLINT", [-I16, I16, 0, -1]),
    ("INTEGER", [-I32, I32, 0]),
    ("INT8", [-I64, I64, 0, -1, 2**32, -(2**32)]),
    ("BIGINT", [-I64, I64, 0]),
    ("SERIAL", [1, I32]),
    ("SERIAL8", [1, I64]),
    ("BIGSERIAL", [1, I64]),
    ("SMALLFLOAT", [3.4028234663852886e38, -3.4028234663852886e38, 1.401298464324817e-45, 0.0]),
    ("FLOAT", [1.7976931348623157e308, -1.7976931348623157e308, 5e-324, -0.0]),
    ("DECIMAL(32,0)", [DEC32, NEG32, Decimal(0)]),
    ("DECIMAL(32,16)", [DEC32.scaleb(-16, CTX), NEG32.scaleb(-16, CTX), Decimal("0E-16")]),
    ("DECIMAL(32,32)", [DEC32.scaleb(-32, CTX), NEG32.scaleb(-32, CTX)]),
    ("DECIMAL(32)", [DEC32, NEG32.scaleb(90, CTX), DEC32.scaleb(-120, CTX)]),
    ("MONEY(32,2)", [DEC32.scaleb(-2, CTX), NEG32.scaleb(-2, CTX)]),
    (
        "DATE",
        [dt.date(1, 1, 1), dt.date(9999, 12, 31), dt.date(1899, 12, 31), dt.date(2000, 2, 29)],
    ),
    (
        "DATETIME YEAR TO FRACTION(5)",
        [dt.datetime(1, 1, 1), dt.datetime(9999, 12, 31, 23, 59, 59, 999990)],
    ),
    ("DATETIME HOUR TO FRACTION(5)", [dt.time(0), dt.time(23, 59, 59, 999990)]),
    ("DATETIME YEAR TO DAY", [dt.date(1, 1, 1), dt.date(9999, 12, 31)]),
    (
        "DATETIME MONTH TO DAY",
        [DateTimeFields(2, 4, month=1, day=1), DateTimeFields(2, 4, month=12, day=31)],
    ),
    (
        "INTERVAL DAY(9) TO FRACTION(5)",
        [
            dt.timedelta(days=999_999_999, hours=23, minutes=59, seconds=59, microseconds=999990),
            dt.timedelta(days=-999_999_999),
            dt.timedelta(microseconds=-10),
            dt.timedelta(0),
        ],
    ),
    (
        "INTERVAL YEAR(9) TO MONTH",
        [IntervalYM.of(999_999_999, 11), IntervalYM.of(-999_999_999, -11)],
    ),
    (
        "INTERVAL HOUR TO SECOND",
        [dt.timedelta(hours=99, minutes=59, seconds=59), -dt.timedelta(hours=99)],
    ),
    ("BOOLEAN", [True, False]),
]


@pytest.mark.parametrize(("coltype", "values"), BOUNDARY_CASES, ids=[c[0] for c in BOUNDARY_CASES])
def test_boundaries(db: ifxwire.Connection, coltype: str, values: list[Any]) -> None:
    with_null = values if coltype.startswith(("SERIAL", "BIGSERIAL")) else [*values, None]
    got = roundtrip(db, coltype, with_null)
    assert got == with_null
    assert [type(v) for v in got] == [type(v) for v in with_null]


@pytest.mark.parametrize(
    ("coltype", "minus_one"),
    [("SMALLINT", -(2**15)), ("INTEGER", -(2**31)), ("INT8", -(2**63) + 1 - 1)],
)
def test_integer_null_sentinels_refused(
    db: ifxwire.Connection, coltype: str, minus_one: int
) -> None:
    """The most negative value of each integer type is its NULL marker and cannot be stored."""
    with pytest.raises(ifxwire.DatabaseError):
        roundtrip(db, coltype, [minus_one])


@pytest.mark.parametrize(
    "coltype", ["CHAR(5)", "NCHAR(5)", "VARCHAR(5)", "NVARCHAR(5)", "LVARCHAR"]
)
def test_empty_string_is_not_null(db: ifxwire.Connection, coltype: str) -> None:
    got = roundtrip(db, coltype, ["", None, " ", "a"])
    padded = coltype.startswith(("CHAR", "NCHAR"))
    assert got == ["", None, "" if padded else " ", "a"]
    name = _tables[coltype]
    cur = db.cursor()
    cur.execute(f"SELECT id FROM {name} WHERE v IS NULL")
    assert cur.fetchall() == [(1,)]
    cur.execute(f"SELECT id FROM {name} WHERE v = '' ORDER BY id")
    # Every character type compares blank padded, so '' equals ' ': VARCHAR keeps the blank
    # it was given but compares as CHAR does (Guide to SQL: Reference, ids_sqr_148).
    assert [r[0] for r in cur.fetchall()] == [0, 2]


def test_char_padding(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str, db: ifxwire.Connection
) -> None:
    roundtrip(db, "CHAR(6)", ["ab", "ab  ", " ab", "abcdef"])
    name = _tables["CHAR(6)"]
    cur = db.cursor()
    cur.execute(f"SELECT v, LENGTH(v), OCTET_LENGTH(v) FROM {name} ORDER BY id")
    assert cur.fetchall() == [("ab", 2, 6), ("ab", 2, 6), (" ab", 3, 6), ("abcdef", 6, 6)]
    cur.execute(f"SELECT id FROM {name} WHERE v = 'ab' ORDER BY id")
    assert cur.fetchall() == [(0,), (1,)]
    with driver.connect(**connect_kwargs, database=dbname, keep_char_padding=True) as raw:
        rows = raw.cursor().execute(f"SELECT v FROM {name} ORDER BY id").fetchall()
    assert [r[0] for r in rows] == ["ab    ", "ab    ", " ab   ", "abcdef"]
    # A non-ANSI database truncates a value longer than the column, as Informix does.
    assert roundtrip(db, "CHAR(6)", ["abcdefgh"]) == ["abcdef"]


UTF8 = {"client_locale": "en_US.utf8", "db_locale": "en_US.utf8"}
ASTRAL = "😀𝄞🀄"  # three 4-byte UTF-8 characters


def test_utf8_database_four_byte_characters(driver: Any, connect_kwargs: dict[str, Any]) -> None:
    with driver.connect(**connect_kwargs, **UTF8) as c:
        c.cursor().execute(f"CREATE DATABASE u8_types{driver.suffix} WITH LOG")
    with driver.connect(
        **connect_kwargs, database=f"u8_types{driver.suffix}", autocommit=True, **UTF8
    ) as c:
        assert c.encoding == "utf-8"
        cur = c.cursor()
        cur.execute(
            "CREATE TABLE u (id INTEGER, c CHAR(12), nc NCHAR(12), v VARCHAR(12), "
            "nv NVARCHAR(12), lv LVARCHAR(100))"
        )
        values = [ASTRAL, "a" + ASTRAL[0] + "é", "", None]
        for i, v in enumerate(values):
            cur.execute("INSERT INTO u VALUES (?, ?, ?, ?, ?, ?)", (i, v, v, v, v, v))
        cur.execute("SELECT c, nc, v, nv, lv FROM u ORDER BY id")
        assert cur.fetchall() == [(v, v, v, v, v) for v in values]
        # Byte semantics: 12 bytes hold three 4-byte characters, not four.
        cur.execute("SELECT OCTET_LENGTH(v) FROM u WHERE id = 0")
        assert cur.fetchone() == (12,)
        # Too long: truncated at the last whole character that fits in 12 bytes.
        cur.execute("INSERT INTO u (id, c, v) VALUES (9, ?, ?)", ("x" + ASTRAL, "x" + ASTRAL))
        cur.execute("SELECT c, v, OCTET_LENGTH(v) FROM u WHERE id = 9")
        assert cur.fetchone() == ("x" + ASTRAL[:2], "x" + ASTRAL[:2], 9)
        # Parameters and literals in the SQL text both carry 4-byte characters.
        cur.execute(f"SELECT id FROM u WHERE lv = '{ASTRAL}' AND v = ?", (ASTRAL,))
        assert cur.fetchall() == [(0,)]
