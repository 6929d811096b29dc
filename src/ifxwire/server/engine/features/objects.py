"""Sequences and synonyms: catalog objects that are names for something else.

Both are rows in ``systables`` (tabtype 'Q' for a sequence; 'S' public and 'P' private
synonym) with their details in ``syssequences`` / ``syssyntable``, as on a real server, so
clients that read the catalog find them.

Sequence values are not transactional in Informix: a NEXTVAL is never given out twice, even
when its transaction rolls back. So the counters live in the Engine (``SequenceCounters``),
outside SQLite transactions, and each database file has a small side file recording how far
values have been handed out; it is written (and synced) once per CACHE values, so a killed
server skips at most one cache of values on restart, as Informix does.
"""

from __future__ import annotations

import json
import os
import threading

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..schema import catalog as cat
from ..schema.catalog import SequenceInfo, quote
from ..sql.statements_ext import SequenceSpec, SynonymSpec
from .ddl import DdlContext, _exists

INT8_MAX = 9223372036854775807
DEFAULT_CACHE = 20


# ---- sequences --------------------------------------------------------------------------------
def _check_options(seq: SequenceInfo, restarted: bool = False) -> None:
    """-8305 for a zero step, -8309 for a RESTART value outside MINVALUE..MAXVALUE
    (ids_sqs_0283), -8302 for other contradictions (catalogue texts [jcat]; fourteenth
    round)."""
    if seq.increment == 0:
        raise EngineError(sc.SEQUENCE_ZERO_STEP, near=seq.name)
    if restarted and seq.minvalue < seq.maxvalue and not (
            seq.minvalue <= seq.start <= seq.maxvalue):
        raise EngineError(sc.SEQUENCE_RESTART_RANGE, near=seq.name)
    if seq.minvalue >= seq.maxvalue or not seq.minvalue <= seq.start <= seq.maxvalue:
        raise EngineError(sc.SEQUENCE_OPTIONS, near=seq.name)


def _name_free(dc: DdlContext, name: str, if_not_exists: bool) -> bool:
    """Tables, views, sequences and synonyms share one name space (systables): False when
    ``name`` is taken and IF NOT EXISTS was given, -310 when taken otherwise."""
    if _exists(dc, name):
        if if_not_exists:
            return False
        raise EngineError(sc.TABLE_EXISTS, near=name)
    return True


def create_sequence(dc: DdlContext, spec: SequenceSpec,
                    counters: SequenceCounters | None = None, key: str = "") -> None:
    name = spec.name.name
    if not _name_free(dc, name, spec.if_exists):
        return
    inc = 1 if spec.increment is None else spec.increment
    maxv = spec.maxvalue if spec.maxvalue is not None and not spec.nomaxvalue else (
        INT8_MAX if inc > 0 else -1)
    minv = spec.minvalue if spec.minvalue is not None and not spec.nominvalue else (
        1 if inc > 0 else -INT8_MAX)
    start = spec.start if spec.start is not None else (minv if inc > 0 else maxv)
    seq = SequenceInfo(name, 0, spec.name.owner or dc.user, start, inc, maxv, minv,
                       bool(spec.cycle), DEFAULT_CACHE if spec.cache is None else spec.cache)
    _check_options(seq)
    tabid = cat.next_tabid(dc.conn)
    if counters is not None:
        # A tabid freed by a rolled-back or dropped object may come back: the new sequence
        # must not inherit the counter of the one that held it (it starts at START WITH).
        counters.restart(key, tabid)
    cat.insert_table_row(dc.conn, tabid, name, seq.owner, "Q", [])
    dc.conn.execute(
        # seqid is a SERIAL: the next number, as for any SERIAL column (it was left NULL)
        f"INSERT INTO syssequences (seqid, tabid, start_val, inc_val, max_val, min_val, cycle, "
        f"restart_val, cache, {quote('order')}) VALUES ((SELECT COALESCE(MAX(seqid), 0) + 1 "
        f"FROM syssequences), ?, ?, ?, ?, ?, ?, NULL, ?, '1')",
        (tabid, start, inc, maxv, minv, "1" if seq.cycle else "0", seq.cache))
    if not dc.ctx.ansi:
        # PUBLIC's Select on a new sequence outside ANSI databases [inferred]: "Informix
        # implements sequence objects as tables" (ids_sqs_0131) and a new table's default
        # PUBLIC privileges (ids_sqs_0567, NODEFDAC ids_sqr_285) hold Select, the one of
        # them a sequence takes (Alter is not among them). No page says so for sequences.
        dc.conn.execute("INSERT INTO systabauth VALUES (?, 'public', ?, 's-------')",
                        (seq.owner, tabid))


def alter_sequence(dc: DdlContext, spec: SequenceSpec, counters: SequenceCounters,
                   key: str) -> None:
    seq = _sequence(dc, spec)
    if spec.increment is not None:
        seq.increment = spec.increment
    if spec.maxvalue is not None or spec.nomaxvalue:
        seq.maxvalue = INT8_MAX if spec.nomaxvalue else spec.maxvalue  # type: ignore[assignment]
    if spec.minvalue is not None or spec.nominvalue:
        seq.minvalue = -INT8_MAX if spec.nominvalue else spec.minvalue  # type: ignore[assignment]
    if spec.cycle is not None:
        seq.cycle = spec.cycle
    if spec.cache is not None:
        seq.cache = spec.cache
    if spec.start is not None:
        raise EngineError(sc.SYNTAX, near="START")
    restart = seq.start if spec.restart_bare else spec.restart
    if restart is not None:
        seq.start = restart
    _check_options(seq, restarted=restart is not None)
    dc.conn.execute(
        "UPDATE syssequences SET start_val = ?, inc_val = ?, max_val = ?, min_val = ?, "
        "cycle = ?, cache = ?, restart_val = ? WHERE tabid = ?",
        (seq.start, seq.increment, seq.maxvalue, seq.minvalue, "1" if seq.cycle else "0",
         seq.cache, restart, seq.tabid))
    if restart is not None:
        counters.restart(key, seq.tabid)


def drop_sequence(dc: DdlContext, spec: SequenceSpec, counters: SequenceCounters,
                  key: str) -> None:
    if spec.name.name not in dc.schema.sequences and spec.if_exists:
        return
    seq = _sequence(dc, spec)
    # "If you drop a sequence, any synonyms for the name of the sequence are also dropped"
    # (ids_sqs_0734); the same page refuses a synonym as DROP SEQUENCE's name (_sequence)
    dc.conn.execute("DELETE FROM systables WHERE tabid IN (SELECT tabid FROM syssyntable "
                    "WHERE btabid = ?)", (seq.tabid,))
    dc.conn.execute("DELETE FROM syssyntable WHERE btabid = ?", (seq.tabid,))
    dc.conn.execute("DELETE FROM syssequences WHERE tabid = ?", (seq.tabid,))
    dc.conn.execute("DELETE FROM systables WHERE tabid = ?", (seq.tabid,))
    dc.conn.execute("DELETE FROM systabauth WHERE tabid = ?", (seq.tabid,))
    counters.restart(key, seq.tabid)


def rename_sequence(dc: DdlContext, spec: SequenceSpec) -> None:
    seq = _sequence(dc, spec)
    assert spec.new_name is not None
    if _exists(dc, spec.new_name):
        raise EngineError(sc.TABLE_EXISTS, near=spec.new_name)
    dc.conn.execute("UPDATE systables SET tabname = ? WHERE tabid = ?",
                    (spec.new_name, seq.tabid))


def _sequence(dc: DdlContext, spec: SequenceSpec) -> SequenceInfo:
    """The sequence ALTER / DROP / RENAME SEQUENCE name; a missing one is -8300 "The
    specified sequence object (%s) is not in the database." [jcat] (fifteenth round; was
    -206, the table's code: the catalogue's text names this case, the code a server sends is
    our inference)."""
    seq = dc.schema.sequences.get(spec.name.name)
    if seq is None or (spec.name.owner is not None and spec.name.owner != seq.owner):
        raise EngineError(sc.NO_SEQUENCE, sc.ISAM_NOT_FOUND, near=spec.name.name)
    return SequenceInfo(**vars(seq))


class SequenceCounters:
    """The values handed out so far, per database file and sequence (see the module
    docstring). Thread-safe: sessions of one database share a sequence."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._current: dict[tuple[str, int], int] = {}  # last value handed out
        self._reserved: dict[tuple[str, int], int] = {}  # persisted high-water mark
        self._loaded: dict[str, dict[str, int]] = {}

    @staticmethod
    def _file(path: str) -> str:
        return path + "-seq"

    def _load(self, path: str) -> dict[str, int]:
        data = self._loaded.get(path)
        if data is None:
            try:
                with open(self._file(path), encoding="utf-8") as f:
                    raw = json.load(f)
                data = {str(k): int(v) for k, v in raw.items()}
            except (OSError, ValueError, AttributeError):
                data = {}
            self._loaded[path] = data
        return data

    def _save(self, path: str) -> None:
        tmp = self._file(path) + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self._loaded[path], f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self._file(path))

    def next(self, path: str, seq: SequenceInfo) -> int:
        key = (path, seq.tabid)
        with self._lock:
            saved = self._load(path)
            current = self._current.get(key)
            if current is None:
                mark = saved.get(str(seq.tabid))
                value = seq.start if mark is None else mark + seq.increment
            else:
                value = current + seq.increment
            if value > seq.maxvalue or value < seq.minvalue:
                if not seq.cycle:
                    raise EngineError(sc.SEQUENCE_EXHAUSTED if seq.increment > 0
                                      else sc.SEQUENCE_BELOW_MIN, near=seq.name)
                value = seq.minvalue if seq.increment > 0 else seq.maxvalue
            self._current[key] = value
            reserved = self._reserved.get(key)
            behind = reserved is None or (
                value > reserved if seq.increment > 0 else value < reserved)
            if behind or current is None:
                mark = value + seq.increment * (max(seq.cache, 1) - 1)
                mark = min(max(mark, seq.minvalue), seq.maxvalue)
                self._reserved[key] = mark
                saved[str(seq.tabid)] = mark
                self._save(path)
            return value

    def restart(self, path: str, tabid: int) -> None:
        """Forget a sequence's counter (ALTER … RESTART, DROP): the next value comes from its
        catalog row again."""
        key = (path, tabid)
        with self._lock:
            saved = self._load(path)
            self._current.pop(key, None)
            self._reserved.pop(key, None)
            if saved.pop(str(tabid), None) is not None:
                self._save(path)

    def forget(self, path: str) -> None:
        with self._lock:
            self._loaded.pop(path, None)
            for key in [k for k in self._current if k[0] == path]:
                self._current.pop(key, None)
                self._reserved.pop(key, None)


# ---- synonyms ---------------------------------------------------------------------------------
def create_synonym(dc: DdlContext, spec: SynonymSpec) -> None:
    name = spec.name.name
    if not _name_free(dc, name, spec.if_exists):
        return
    target = spec.target
    assert target is not None
    btabid: int | None = None
    seq = dc.schema.sequences.get(target.name) if target.database is None else None
    if seq is not None:
        # a synonym for a sequence (ids_sqs_0734 drops "any synonyms for the name of the
        # sequence" with it): syssyntable.btabid is the sequence's tabid
        btabid = seq.tabid
        towner = seq.owner
    elif target.database is None:
        info = dc.resolve(target.name, target.owner, None, 0)
        if info.temp:
            # [jcat] -510 "Cannot create synonym for temporary table (%s)."
            raise EngineError(sc.SYNONYM_FOR_TEMP, near=info.name)
        if info.kind not in ("T", "V"):
            raise not_implemented("a synonym for this object")
        btabid = info.tabid
        towner = info.owner
    else:
        dc.resolve(target.name, target.owner, target.database, 0)  # -206/-329 if missing
        towner = target.owner or ""
    tabid = cat.next_tabid(dc.conn)
    cat.insert_table_row(dc.conn, tabid, name, spec.name.owner or dc.user,
                         "S" if spec.public else "P", [])
    # "If you define a synonym for an object that is in your current database, only the tabid
    # and btabid columns are used" (Guide to SQL: Reference, SYSSYNTABLE); servername, dbname,
    # owner and tabname describe an external object only.
    external = btabid is None
    dc.conn.execute("INSERT INTO syssyntable VALUES (?, ?, ?, ?, ?, ?)",
                    (tabid, None, target.database, towner if external else None,
                     target.name if external else None, btabid))


def drop_synonym(dc: DdlContext, spec: SynonymSpec) -> None:
    syn = dc.schema.synonyms.get(spec.name.name)
    if syn is None:
        if spec.if_exists:
            return
        raise EngineError(sc.NO_TABLE, sc.ISAM_NOT_FOUND, near=spec.name.name)
    dc.conn.execute("DELETE FROM syssyntable WHERE tabid = ?", (syn.tabid,))
    dc.conn.execute("DELETE FROM systables WHERE tabid = ?", (syn.tabid,))
