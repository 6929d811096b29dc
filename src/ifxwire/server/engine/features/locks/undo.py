"""The undo log of row-lock mode: before-images of uncommitted rows, kept in the database file.

Why in the file: a statement's changes are committed to SQLite at once (other sessions may
then write other rows), so what makes an Informix transaction undoable is the before-image
written in the same SQLite transaction as the change. A crash (kill -9) leaves the images of
every Informix transaction that had not committed; the first open of the database by the next
server process applies them (``recover``), so no uncommitted change stays visible, and a
committed one, whose images were deleted in the SQLite transaction of its COMMIT, stays.

An entry is (table, op, rowid, image): op I (undo: delete the row), U (restore the image), D
(insert the image again under its rowid), J (undo: delete the rows ``rid`` to ``int(img)``, a
run of consecutive rowids one statement inserted: ``coalesce``), S (a schema change by DDL:
ddl_undo.py). The image
lists the row's columns in the table's ``PRAGMA table_info`` order, as JSON (a BLOB value as
{"b": hex}).
"""

from __future__ import annotations

import json
import json.encoder
import sqlite3
from collections.abc import Callable, Sequence

from .. import table_aside

UNDO_TABLE = "_ifx_undo"
CREATE = (f"CREATE TABLE IF NOT EXISTS {UNDO_TABLE} (owner TEXT NOT NULL, seq INTEGER NOT NULL, "
          "tab TEXT NOT NULL, op TEXT NOT NULL, rid INTEGER NOT NULL, img TEXT)")

Entry = tuple[str, str, int, "str | None"]


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _bytes_image(value: object) -> object:
    """The JSON encoder's ``default``: a BLOB value as {"b": hex} (any other type is an
    error, as in json.dumps; SQLite gives int, float, str, bytes or None)."""
    if isinstance(value, bytes):
        return {"b": value.hex()}
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


#: json.dumps's own C encoder, made once: json.dumps makes it again at every call, through
#: three Python frames, and the lock trigger encodes a before-image for every row a
#: statement updates or deletes (issue 26: about a twentieth of the server's Python time in
#: 8 writers' one-row UPDATEs). Same text as json.dumps with BLOBs mapped to {"b": hex}.
_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)
_ENCODER: Callable[[object, int], Sequence[str]] | None = (
    _C_ENCODER(None, _bytes_image, json.encoder.encode_basestring_ascii, None, ": ", ", ",
               False, False, True) if _C_ENCODER is not None else None)
_FALLBACK = json.JSONEncoder(default=_bytes_image).encode


def encode(values: Sequence[object]) -> str:
    if _ENCODER is None:
        return _FALLBACK(values)
    return "".join(_ENCODER(values, 0))


def decode(text: str) -> list[object]:
    return [bytes.fromhex(v["b"]) if isinstance(v, dict) else v for v in json.loads(text)]


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[0]) for r in conn.execute(
        "SELECT name FROM main.pragma_table_info(?) ORDER BY cid", (table,))]


def apply(conn: sqlite3.Connection, entries: Sequence[Entry]) -> None:
    """Undo ``entries`` (in the order they were made) inside the caller's SQLite transaction.
    Foreign keys are checked at its COMMIT: a cascade's child rows come back before their
    parent."""
    conn.execute("PRAGMA defer_foreign_keys = ON")
    cols: dict[str, list[str]] = {}
    for table, op, rowid, img in reversed(entries):
        q = f"main.{_quote(table)}"
        if op == "S":
            apply_schema(conn, table, img)
            cols.clear()
            continue
        if op == "I":
            conn.execute(f"DELETE FROM {q} WHERE rowid = ?", (rowid,))
            continue
        if op == "J":
            conn.execute(f"DELETE FROM {q} WHERE rowid BETWEEN ? AND ?", (rowid, int(str(img))))
            continue
        if img is None:
            continue
        names = cols.get(table)
        if names is None:
            names = cols[table] = columns(conn, table)
        values = decode(img)[:len(names)]
        names = names[:len(values)]
        if op == "U":
            sets = ", ".join(f"{_quote(n)} = ?" for n in names)
            conn.execute(f"UPDATE {q} SET {sets} WHERE rowid = ?", (*values, rowid))
        else:
            at: int | None = rowid
            if conn.execute(f"SELECT 1 FROM {q} WHERE rowid = ?", (rowid,)).fetchone():
                at = None  # a catalogue row's rowid taken since (no lock keeps it)
            marks = ", ".join("?" for _ in range(len(names) + 1))
            conn.execute(f"INSERT INTO {q} (rowid, {', '.join(map(_quote, names))}) "
                         f"VALUES ({marks})", (at, *values))


def apply_schema(conn: sqlite3.Connection, name: str, img: str | None) -> None:
    """Take back one schema change (an ``S`` entry; ``undo.apply`` calls it)."""
    if img is None:
        conn.execute("CREATE TABLE main._ifx_bump (x)")
        conn.execute("DROP TABLE main._ifx_bump")
        return
    spec = json.loads(img)
    kind, old = str(spec["type"]), spec.get("old")
    # A table a foreign key names is renamed aside, not dropped: dropping it would delete
    # its rows first, through the keys' ON DELETE actions (a child's rows cascaded away, or
    # the rollback refused by the keys).
    aside = None
    if (kind == "table" and old is not None and table_aside.in_main(conn, name)
            and table_aside.named_by_foreign_key(conn, name)):
        aside = f"_ifx_undo_{name}"
        legacy = conn.execute("PRAGMA legacy_alter_table").fetchone()[0]
        conn.execute("PRAGMA legacy_alter_table = ON")
        try:
            conn.execute(f"ALTER TABLE main.{_quote(name)} RENAME TO {_quote(aside)}")
        finally:
            conn.execute(f"PRAGMA legacy_alter_table = {int(legacy)}")
    else:
        conn.execute(f"DROP {kind.upper()} IF EXISTS main.{_quote(name)}")
    if old is None:
        return
    conn.execute(str(old))
    bk = spec.get("backup")
    if bk:
        cols = columns(conn, str(bk))[1:]
        names = ", ".join(map(_quote, cols))
        conn.execute(f"INSERT INTO main.{_quote(name)} (rowid, {names}) "
                     f"SELECT * FROM main.{_quote(str(bk))}")
        conn.execute(f"DROP TABLE main.{_quote(str(bk))}")
    if aside is not None:
        table_aside.point_back(conn, name, aside)
        conn.execute(f"DROP TABLE main.{_quote(aside)}")
    for sql in spec.get("deps") or ():
        conn.execute(str(sql))


def coalesce(entries: list[Entry]) -> list[Entry]:
    """``entries`` with each run of I entries of one table at consecutive rowids as one J entry.

    Why: a bulk INSERT (executemany's batch, INSERT … SELECT) wrote one undo row per inserted
    row, about a third of row-lock mode's added server CPU per inserted row (py-spy of
    bench/arrow_ingest_bench.py's server); SQLite gives a table's new rows consecutive rowids
    (the largest plus one) while this session holds the write latch, so such a statement's
    whole undo is one entry. Every rowid in a run was inserted by the statement (they are
    consecutive), so deleting the range takes back exactly those rows."""
    if not any(e[1] == "I" for e in entries):
        return entries
    out: list[Entry] = []
    run_table = ""
    first = last = 0
    for entry in entries:
        table, op, rid, _ = entry
        if op == "I":
            if run_table == table and rid == last + 1:
                last = rid
                continue
            _end_run(out, run_table, first, last)
            run_table, first, last = table, rid, rid
            continue
        _end_run(out, run_table, first, last)
        run_table = ""
        out.append(entry)
    _end_run(out, run_table, first, last)
    return out


def extend(log: list[Entry], entries: list[Entry], frozen: int) -> None:
    """Append a statement's (coalesced) ``entries`` to the transaction's ``log``, joining its
    first run of inserted rowids to the log's last entry when that continues it (same table,
    the next rowid) and lies past ``frozen`` (entries before it are committed to the file and
    are cut back to by index, so they are never changed).

    Why: a statement that is not batched (an executemany whose table has triggers, or full-row
    logging for change capture, runs row by row) left one entry per inserted row in memory:
    a 1M-row load held 1M tuples (~70 MB) until its COMMIT. A range of consecutive rowids
    after our last one was inserted by us (another session's insert would have taken the
    next rowid first), so one entry takes the whole run back, as in ``coalesce``."""
    if not entries:
        return
    first = entries[0]
    if len(log) > frozen and first[1] in "IJ":
        last = log[-1]
        if last[1] in "IJ" and last[0] == first[0] and first[2] == _run_end(last) + 1:
            log[-1] = (last[0], "J", last[2], str(_run_end(first)))
            log.extend(entries[1:])
            return
    log.extend(entries)


def _run_end(entry: Entry) -> int:
    return entry[2] if entry[1] == "I" else int(str(entry[3]))


def _end_run(out: list[Entry], table: str, first: int, last: int) -> None:
    if not table:
        return
    out.append((table, "I", first, None) if first == last else (table, "J", first, str(last)))


def store(conn: sqlite3.Connection, owner: str, first_seq: int,
          entries: Sequence[Entry]) -> None:
    conn.executemany(f"INSERT INTO {UNDO_TABLE} VALUES (?, ?, ?, ?, ?, ?)",
                     [(owner, first_seq + i, t, op, rid, img)
                      for i, (t, op, rid, img) in enumerate(entries)])


def recover(conn: sqlite3.Connection) -> int:
    """Roll back every transaction whose images are in the file (the server that wrote them
    is gone); returns how many entries were applied. Runs in its own SQLite transaction."""
    exists = conn.execute("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?",
                          (UNDO_TABLE,)).fetchone()
    if not exists:
        return 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        rows = conn.execute(f"SELECT owner, tab, op, rid, img FROM {UNDO_TABLE} "
                            "ORDER BY owner, seq").fetchall()
        by_owner: dict[str, list[Entry]] = {}
        for owner, tab, op, rid, img in rows:
            by_owner.setdefault(str(owner), []).append((str(tab), str(op), int(rid), img))
        for entries in by_owner.values():
            apply(conn, entries)
        conn.execute(f"DELETE FROM {UNDO_TABLE}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return len(rows)
