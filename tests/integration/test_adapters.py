"""The adapter registry (ifxwire.types.adapters) through the real server.

Loaders turn the built-in decoded value of an Informix type into the application's value;
dumpers turn an application value into something the binder sends. Global, per-connection and
per-cursor maps are copy-on-write snapshots of the level above. docs/TYPES.md §6.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
from ifxwire.protocol.codes import TypeCode
from ifxwire.types.adapters import BUILTIN, AdaptersMap, BindItem

pytestmark = pytest.mark.both_drivers


class Color(enum.Enum):
    RED = "r"
    GREEN = "g"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 9


class Point:
    def __init__(self, x: int, y: int) -> None:
        self.x, self.y = x, y


@pytest.fixture()
def db(driver: Any, connect_kwargs: dict[str, Any], dbname: str) -> Iterator[ifxwire.Connection]:
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    try:
        cur = c.cursor()
        cur.execute("DROP TABLE IF EXISTS ad")
        cur.execute(
            "CREATE TABLE ad (id INTEGER, d DECIMAL(10,2), b BOOLEAN, lv LVARCHAR(100), "
            "s VARCHAR(20), n INTEGER)"
        )
        cur.executemany(
            "INSERT INTO ad VALUES (?, ?, ?, ?, ?, ?)",
            [(1, Decimal("1.50"), True, "long", "x", 10), (2, None, False, None, None, None)],
        )
        yield c
    finally:
        c.close()


def _rows(cur: ifxwire.Cursor, cols: str = "d, b, lv") -> list[tuple[Any, ...]]:
    return cur.execute(f"SELECT {cols} FROM ad ORDER BY id").fetchall()


def test_builtins_are_registered() -> None:
    ad = ifxwire.adapters
    for code in (TypeCode.INTEGER, TypeCode.DECIMAL, TypeCode.BOOLEAN, TypeCode.LVARCHAR):
        assert ad.get_loader(code) is BUILTIN
    assert ad.get_loader("boolean") is BUILTIN
    for cls in (bool, int, float, Decimal, str, bytes):
        assert ad.get_dumper(cls) is BUILTIN
    assert ad.get_dumper(Point) is None
    assert not ad.has_user_loaders and not ad.has_user_dumpers


def test_connection_loader(
    driver: Any, db: ifxwire.Connection, connect_kwargs: dict[str, Any]
) -> None:
    db.adapters.register_loader("decimal", float)
    db.adapters.register_loader("boolean", lambda b: "yes" if b else "no")
    db.adapters.register_loader(TypeCode.LVARCHAR, str.upper)
    assert _rows(db.cursor()) == [(1.5, "yes", "LONG"), (None, "no", None)]  # NULL stays None
    # Other connections and the global map are untouched.
    with driver.connect(**connect_kwargs, database=db.database) as other:
        assert _rows(other.cursor()) == [(Decimal("1.50"), True, "long"), (None, False, None)]
    assert not ifxwire.adapters.has_user_loaders


def test_cursor_loader_is_private_to_the_cursor(db: ifxwire.Connection) -> None:
    mine = db.cursor()
    mine.adapters.register_loader("integer", str)
    assert _rows(mine, "id, n") == [("1", "10"), ("2", None)]
    assert _rows(db.cursor(), "id, n") == [(1, 10), (2, None)]
    # The same cached statement serves both cursors, each with its own decoder.
    assert _rows(mine, "id, n")[0] == ("1", "10")


def test_global_loader_applies_to_new_connections(driver: Any,
    connect_kwargs: dict[str, Any], dbname: str, db: ifxwire.Connection
) -> None:
    before = driver.connect(**connect_kwargs, database=dbname)
    try:
        ifxwire.adapters.register_loader("varchar", lambda s: f"<{s}>")
        with driver.connect(**connect_kwargs, database=dbname) as after:
            assert _rows(after.cursor(), "s") == [("<x>",), (None,)]
        # A connection opened before the registration keeps its snapshot.
        assert _rows(before.cursor(), "s") == [("x",), (None,)]
    finally:
        ifxwire.adapters.reset_loader("varchar")
        before.close()
    assert not ifxwire.adapters.has_user_loaders


@pytest.mark.one_driver  # the sync cursor's decoder cache
def test_hot_path_uses_the_cached_decoder(db: ifxwire.Connection) -> None:
    cur = db.cursor()
    cur.execute("SELECT id, d FROM ad")
    cur.fetchall()
    p = db._statement("SELECT id, d FROM ad", _plan("SELECT id, d FROM ad"))[0]
    assert cur._decoder(p) is p.decoder  # no user loader: the compiled decoder itself
    cur.adapters.register_loader("boolean", bool)  # a loader for a type not in this result
    assert cur._decoder(p) is p.decoder
    cur.adapters.register_loader("decimal", float)
    wrapped = cur._decoder(p)
    assert wrapped is not p.decoder
    assert cur._decoder(p) is wrapped  # cached until the next registration


def _plan(sql: str) -> Any:
    from ifxwire.client.placeholders import plan_sql

    return plan_sql(sql)


def test_failing_loader_is_a_data_error(db: ifxwire.Connection) -> None:
    def boom(v: object) -> object:
        raise ValueError("no thanks")

    cur = db.cursor()
    cur.adapters.register_loader("decimal", boom)
    with pytest.raises(ifxwire.DataError, match="no thanks"):
        _rows(cur)
    assert _rows(db.cursor()) == [(Decimal("1.50"), True, "long"), (None, False, None)]


def test_dumpers(db: ifxwire.Connection) -> None:
    db.adapters.register_dumper(enum.Enum, lambda e: e.value)  # serves every Enum subclass
    db.adapters.register_dumper(
        Point, lambda p: BindItem(TypeCode.INTEGER, 0x0A00, struct.pack(">i", p.x * 100 + p.y))
    )
    cur = db.cursor()
    cur.execute("INSERT INTO ad (id, s, n) VALUES (?, ?, ?)", (3, Color.GREEN, Point(4, 2)))
    cur.executemany("INSERT INTO ad (id, s, n) VALUES (?, ?, ?)", [(4, Color.RED, Level.HIGH)])
    rows = cur.execute("SELECT id, s, n FROM ad WHERE id >= 3 ORDER BY id").fetchall()
    # IntEnum is an int first (its MRO reaches int before Enum): bound as the built-in int.
    assert rows == [(3, "g", 402), (4, "r", 9)]


def test_every_level_in_execute_and_executemany(
    driver: Any, connect_kwargs: dict[str, Any], db: ifxwire.Connection
) -> None:
    """Issue 24's acceptance: global (``ifxwire.adapters``), connection (``.adapters`` of
    Connection / AsyncConnection) and cursor (``.adapters`` of Cursor / AsyncCursor)
    dumpers and loaders, through execute and through executemany (whose compiled rows
    encoder knows no user dumpers), on the sync and the asyncio driver alike (the asyncio
    cursor once bound no user dumper at all: 07006 "cannot bind a Color")."""
    ifxwire.adapters.register_dumper(Color, lambda e: e.value)
    ifxwire.adapters.register_loader("integer", lambda i: i * 1000)
    try:
        with driver.connect(**connect_kwargs, database=db.database, autocommit=True) as c:
            cur = c.cursor()  # the global maps, snapshot at connect
            cur.execute("INSERT INTO ad (id, s) VALUES (?, ?)", (3, Color.RED))
            cur.executemany("INSERT INTO ad (id, s) VALUES (?, ?)",
                            [(4, Color.GREEN), (5, Color.RED)])
            c.adapters.register_dumper(Point, lambda p: f"{p.x},{p.y}")  # the connection's
            c.adapters.register_loader("varchar", str.upper)
            c.cursor().execute("INSERT INTO ad (id, s) VALUES (?, ?)", (6, Point(1, 2)))
            c.cursor().executemany("INSERT INTO ad (id, s) VALUES (?, ?)",
                                   [(7, Point(3, 4)), (8, Color.GREEN)])
            mine = c.cursor()  # the cursor's own, over the connection's
            mine.adapters.register_dumper(bool, lambda b: "yes" if b else "no")
            mine.adapters.register_loader("varchar", lambda v: f"[{v}]")
            mine.executemany("INSERT INTO ad (id, s) VALUES (?, ?)", [(9, True), (10, False)])
            mine.execute("INSERT INTO ad (id, s) VALUES (?, ?)", (11, Point(5, 6)))
            select = "SELECT id, s FROM ad WHERE id >= 3 ORDER BY id"
            stored = [(3, "r"), (4, "g"), (5, "r"), (6, "1,2"), (7, "3,4"), (8, "g"),
                      (9, "yes"), (10, "no"), (11, "5,6")]
            assert mine.execute(select).fetchall() == [(i * 1000, f"[{v}]") for i, v in stored]
            assert c.cursor().execute(select).fetchall() == [
                (i * 1000, v.upper()) for i, v in stored]
        with driver.connect(**connect_kwargs, database=db.database) as other:
            # Another connection has the global maps only.
            assert other.execute("SELECT id, s FROM ad WHERE id = 6").fetchall() == [
                (6000, "1,2")]
            with pytest.raises(ifxwire.ProgrammingError, match="Point"):
                other.execute("INSERT INTO ad (id, s) VALUES (?, ?)", (12, Point(0, 0)))
    finally:
        ifxwire.adapters.reset_dumper(Color)
        ifxwire.adapters.reset_loader("integer")
    assert not ifxwire.adapters.has_user_loaders and not ifxwire.adapters.has_user_dumpers


def test_dumper_overrides_a_builtin_per_cursor(db: ifxwire.Connection) -> None:
    cur = db.cursor()
    cur.adapters.register_dumper(bool, lambda b: "Y" if b else "N")
    cur.execute("INSERT INTO ad (id, s) VALUES (?, ?)", (5, True))
    db.cursor().execute("INSERT INTO ad (id, s) VALUES (?, ?)", (6, True))
    rows = cur.execute("SELECT s FROM ad WHERE id IN (5, 6) ORDER BY id").fetchall()
    assert rows == [("Y",), ("t",)]
    cur.adapters.reset_dumper(bool)
    assert cur.adapters.get_dumper(bool) is BUILTIN


def test_dumper_errors_name_the_parameter(db: ifxwire.Connection) -> None:
    db.adapters.register_dumper(Point, lambda p: object())
    with pytest.raises(ifxwire.ProgrammingError, match="parameter 1"):
        db.cursor().execute("SELECT id FROM ad WHERE n = ?", (Point(1, 2),))


def test_copy_on_write() -> None:
    root = AdaptersMap()
    child = AdaptersMap(root)
    root.register_loader("integer", str)
    assert child.get_loader("integer") is BUILTIN  # the snapshot predates the registration
    grandchild = AdaptersMap(root)
    assert grandchild.get_loader("integer") is str
    grandchild.register_loader("integer", float)
    assert root.get_loader("integer") is str


def test_registration_errors() -> None:
    ad = AdaptersMap()
    with pytest.raises(ValueError, match="unknown Informix type"):
        ad.register_loader("no_such_type", str)
    with pytest.raises(TypeError):
        ad.register_loader(2.5, str)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ad.register_dumper("int", str)  # type: ignore[arg-type]


def test_bad_bind_item_is_an_error_not_a_disconnect(db: ifxwire.Connection) -> None:
    """A BindItem the server's codecs refuse (INTERVAL HOUR TO SECOND with no hour digits) is
    answered with -1260; the session survives (it used to be closed)."""
    db.adapters.register_dumper(
        Point, lambda p: BindItem(TypeCode.INTERVAL, 0x046A, b"\x00\x03\xc3\x01\x02\x03")
    )
    cur = db.cursor()
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.execute("SELECT id FROM ad WHERE n = ?", (Point(1, 2),))
    assert info.value.sqlcode == -1260
    assert cur.execute("SELECT COUNT(*) FROM ad").fetchone() == (2,)
