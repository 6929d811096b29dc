"""The SQLAlchemy dialect end to end against the embedded server, beyond what SQLAlchemy's own
compliance suite (tests/sqla_suite) checks: Informix types and DDL, reflection of Informix
specifics, the pipelined executemany path, savepoints, isolation, streaming, and asyncio."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import socket
from decimal import Decimal
from typing import Any

import pytest

sa = pytest.importorskip("sqlalchemy")
from sqlalchemy import (  # noqa: E402
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Numeric,
    String,
    Table,
    Text,
    func,
    insert,
    inspect,
    select,
)

from ifxwire.sqlalchemy import BLOB, CLOB, DATETIME, INTERVAL, LVARCHAR, MONEY  # noqa: E402


def test_urls_resolve_to_the_dialect() -> None:
    from ifxwire.sqlalchemy.aio import InformixDialect_ifxwire_async
    from ifxwire.sqlalchemy.ifxwire import InformixDialect_ifxwire

    for url in ("informix://u:p@h:1/db", "informix+ifxwire://u:p@h:1/db"):
        assert sa.engine.make_url(url).get_dialect() is InformixDialect_ifxwire
    async_url = sa.engine.make_url("informix+ifxwire_async://u:p@h:1/db")
    assert async_url.get_dialect() is InformixDialect_ifxwire_async


def test_compiles_informix_sql() -> None:
    from ifxwire.sqlalchemy.ifxwire import dialect

    d = dialect()
    md = MetaData()
    t = Table("t", md, Column("id", Integer, primary_key=True), Column("amount", MONEY(8, 2)),
              Column("at", DATETIME("YEAR", "SECOND")),
              Column("span", INTERVAL("DAY", "SECOND", precision=5)),
              Column("note", String(), nullable=False, server_default="x"),
              CheckConstraint("amount > 0", name="ck_amount"))
    ddl = str(sa.schema.CreateTable(t).compile(dialect=d))
    assert "id SERIAL NOT NULL" in ddl
    assert "amount MONEY(8, 2)" in ddl and "at DATETIME YEAR TO SECOND" in ddl
    assert "span INTERVAL DAY(5) TO SECOND" in ddl
    assert "note LVARCHAR DEFAULT 'x' NOT NULL" in ddl
    assert "CHECK (amount > 0) CONSTRAINT ck_amount" in ddl
    assert "PRIMARY KEY (id)" in ddl
    q = select(t.c.id).order_by(t.c.id).limit(5).offset(10)
    sql = str(q.compile(dialect=d, compile_kwargs={"literal_binds": True}))
    assert sql.startswith("SELECT SKIP 10 FIRST 5 t.id")
    assert str(select(sa.literal(1)).compile(dialect=d)) == \
        "SELECT CAST(? AS INTEGER) AS anon_1 FROM TABLE(SET{1})"
    fk = Table("c", md, Column("tid", ForeignKey("t.id", ondelete="CASCADE", name="fk_t")))
    assert ("FOREIGN KEY (tid) REFERENCES t (id) ON DELETE CASCADE CONSTRAINT fk_t"
            in str(sa.schema.CreateTable(fk).compile(dialect=d)))
    with pytest.raises(sa.exc.CompileError, match="ON DELETE SET NULL"):
        bad = Table("b", md, Column("tid", ForeignKey("t.id", ondelete="SET NULL")))
        str(sa.schema.CreateTable(bad).compile(dialect=d))


@pytest.fixture()
def tables(engine: Any) -> Any:
    md = MetaData()
    parent = Table(
        "parent", md,
        Column("id", BigInteger, primary_key=True),
        Column("name", String(40), nullable=False, unique=True),
        Column("price", Numeric(10, 2), server_default="0"),
        Column("active", Boolean),
        Column("born", Date),
        Column("seen", DateTime),
        Column("body", Text),
        Column("blob", LargeBinary),
        Column("long_text", LVARCHAR(4000)),
        CheckConstraint("price >= 0", name="ck_price"),
    )
    child = Table(
        "child", md,
        Column("id", Integer, primary_key=True),
        Column("parent_id", ForeignKey("parent.id", ondelete="CASCADE", name="fk_parent"),
               nullable=False),
        Column("label", String(20)),
        Index("ix_child_label", "label", "parent_id"),
    )
    md.create_all(engine)
    yield md, parent, child
    md.drop_all(engine)


def test_round_trip_types_and_serials(engine: Any, tables: Any) -> None:
    _, parent, child = tables
    row = {"name": "a", "price": Decimal("12.50"), "active": True, "born": dt.date(1999, 1, 2),
           "seen": dt.datetime(2024, 2, 29, 13, 45, 59, 120), "body": "é" * 3000,
           "blob": bytes(range(256)) * 10, "long_text": "x" * 4000}
    with engine.begin() as conn:
        result = conn.execute(insert(parent), row)
        assert result.inserted_primary_key == (1,)  # BIGSERIAL value from SQ_INSERTDONE
        conn.execute(insert(child), {"parent_id": 1, "label": "one"})
    with engine.connect() as conn:
        got = conn.execute(select(parent)).one()._asdict()
    assert got == {"id": 1, **row}


def test_executemany_uses_the_pipelined_path(engine: Any, tables: Any, server: Any) -> None:
    _, parent, _ = tables
    rows = [{"name": f"n{i}", "price": Decimal(i)} for i in range(300)]
    with engine.begin() as conn:
        conn.execute(insert(parent), rows[:1])  # prepared once, then only groups go out
        before = server.request_groups
        result = conn.execute(insert(parent), rows[1:])
        sent = server.request_groups - before
    assert result.rowcount == 299
    # one group per row: no per-row statement preparation or multi-VALUES rewriting
    assert sent == 299
    with engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(parent)) == 300


def test_reflection_of_informix_specifics(engine: Any, tables: Any) -> None:
    insp = inspect(engine)
    cols = {c["name"]: c for c in insp.get_columns("parent")}
    assert cols["id"]["autoincrement"] is True and isinstance(cols["id"]["type"], BigInteger)
    assert cols["price"]["default"] == "0"
    assert isinstance(cols["long_text"]["type"], LVARCHAR)
    assert cols["long_text"]["type"].length == 4000
    assert isinstance(cols["seen"]["type"], DATETIME)
    assert insp.get_pk_constraint("parent")["constrained_columns"] == ["id"]
    assert [u["column_names"] for u in insp.get_unique_constraints("parent")] == [["name"]]
    assert insp.get_check_constraints("parent") == [{"name": "ck_price",
                                                     "sqltext": "price >= 0"}]
    fks = insp.get_foreign_keys("child")
    assert fks == [{"name": "fk_parent", "constrained_columns": ["parent_id"],
                    "referred_schema": None, "referred_table": "parent",
                    "referred_columns": ["id"], "options": {"ondelete": "CASCADE"}}]
    assert insp.get_indexes("child") == [
        {"name": "ix_child_label", "column_names": ["label", "parent_id"], "unique": False}]
    # a reflected table re-creates the same columns
    md = MetaData()
    Table("parent", md, autoload_with=engine)
    assert str(md.tables["parent"].c.price.type) == "DECIMAL(10, 2)"


def test_savepoints_and_isolation(engine: Any, tables: Any) -> None:
    _, parent, _ = tables
    with engine.connect() as conn:
        with conn.begin():
            conn.execute(insert(parent), {"name": "kept"})
            nested = conn.begin_nested()
            conn.execute(insert(parent), {"name": "undone"})
            nested.rollback()
        names = conn.scalars(select(parent.c.name)).all()
    assert names == ["kept"]
    with engine.connect().execution_options(isolation_level="REPEATABLE READ") as conn:
        assert conn.get_isolation_level() == "REPEATABLE READ"
    with engine.connect() as conn:
        assert conn.get_isolation_level() == "READ COMMITTED"


def test_stream_results(engine: Any, tables: Any) -> None:
    _, parent, _ = tables
    with engine.begin() as conn:
        conn.execute(insert(parent), [{"name": f"s{i}"} for i in range(2000)])
    with engine.connect() as conn:
        result = conn.execution_options(stream_results=True, max_row_buffer=100).execute(
            select(parent.c.id).order_by(parent.c.id))
        ids = [row.id for row in result.yield_per(100)]
    assert ids == list(range(1, 2001))


def test_asyncio_engine(url: str, tables: Any) -> None:
    from sqlalchemy.ext.asyncio import create_async_engine

    _, parent, _ = tables

    async def main() -> tuple[Any, list[str], list[int]]:
        eng = create_async_engine(url.replace("+ifxwire://", "+ifxwire_async://"))
        try:
            async with eng.begin() as conn:
                r = await conn.execute(insert(parent), {"name": "async"})
                pk = r.inserted_primary_key
                await conn.execute(insert(parent), [{"name": f"m{i}"} for i in range(5)])
            async with eng.connect() as conn:
                names = (await conn.scalars(select(parent.c.name).order_by(parent.c.id))).all()
                stream = await conn.stream(select(parent.c.id).order_by(parent.c.id))
                ids = [row.id async for row in stream]
                tables_seen = await conn.run_sync(lambda c: inspect(c).get_table_names())
                assert "parent" in tables_seen
            return pk, list(names), ids
        finally:
            await eng.dispose()

    pk, names, ids = asyncio.run(main())
    assert pk == (1,)
    assert names == ["async", "m0", "m1", "m2", "m3", "m4"]
    assert ids == [1, 2, 3, 4, 5, 6]


def test_disconnect_is_detected(engine: Any) -> None:
    with engine.connect() as conn:
        dbapi_conn = conn.connection.dbapi_connection
        # the peer is gone as far as the driver can tell: its next read sees end of file
        dbapi_conn._transport.sock.shutdown(socket.SHUT_RDWR)
        with pytest.raises(sa.exc.DBAPIError) as err:
            conn.execute(select(1))
        assert err.value.connection_invalidated
    with engine.connect() as conn:  # the pool hands out a fresh connection
        assert conn.scalar(select(1)) == 1


def test_smart_large_objects(engine: Any) -> None:
    md = MetaData()
    docs = Table("docs", md, Column("id", Integer, primary_key=True), Column("b", BLOB),
                 Column("c", CLOB))
    md.create_all(engine)
    data, text = bytes(range(256)) * 4000, "héllo " * 50_000
    try:
        with engine.begin() as conn:
            conn.execute(insert(docs), {"b": data, "c": text})
            conn.execute(insert(docs), {"b": io.BytesIO(data[:10]), "c": None})  # streamed
        with engine.connect() as conn:
            rows = conn.execute(select(docs).order_by(docs.c.id)).all()
            assert rows[0].b.read() == data and rows[0].c.read() == text
            assert rows[1].b.read() == data[:10] and rows[1].c is None
        cols = {c["name"]: c["type"] for c in inspect(engine).get_columns("docs")}
        assert isinstance(cols["b"], BLOB) and isinstance(cols["c"], CLOB)
    finally:
        md.drop_all(engine)
