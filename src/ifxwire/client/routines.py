"""OUT and INOUT parameters of stored routines: ``Cursor.callproc`` the way IBM JDBC calls them.

A routine with OUT or INOUT parameters cannot run as ``EXECUTE PROCEDURE``: its PREPARE fails
with -9752, whose error text is ``database:handle:unique`` — the routine's fast-path handle.
JDBC's ``CallableStatement`` then describes the arguments (``SQ_CFPDESCRIBE``), asks for the
handle with the parameter description (``SQ_GETROUTINE`` by id, answered by ``SQ_FPARAM``)
and calls the routine by fast path with its own ``SQ_FPARAM`` (docs/PROTOCOL.md §10). This
module sends exactly those groups, in that order (golden vectors from JDBC's captured bytes:
tests/unit/test_callproc_vectors.py):

1. ``PREPARE NDESCRIBE WANTDONE EOT`` of ``execute procedure name(?, …)`` → -9752;
2. ``CFPDESCRIBE EOT`` + JDBC's lone ``EOT`` (never answered), then ``GETROUTINE EOT`` by
   id: the argument names and modes, then the handle and the call's types;
3. ``EXFPROUTINE BIND FPARAM EOT`` per call (with JDBC's ``BEGIN EOT`` / ``COMMIT`` around
   it where ``client/fastpath.py`` puts them): the OUT values, then the return values.

Steps 1–2 run once per routine and connection (cached like ``call_function``'s handles), so
a repeated call is one round trip, as a reused JDBC CallableStatement is.

The exchanges are operations (``connection.Op``: ``call_op``, ``callproc_op``) that the sync
cursor runs blocking and the asyncio cursor awaits: one implementation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from struct import Struct
from typing import TYPE_CHECKING, Any

from .. import errors as _e
from ..errors import DatabaseError, NotSupportedError, ProgrammingError
from ..protocol import fastpath as fp
from ..protocol import messages as m
from ..protocol.codes import NAMED_IN_BIND, Msg
from ..protocol.columns import ColumnDesc
from ..protocol.requests import EOT, bind_head, id_group
from ..protocol.wire import Writer
from ..types.bind import BLOB_BIND_TYPES, encode_bind_value
from . import fastpath as _fp
from .binds import param_error
from .outparams import InOutParam, OutParam, has_markers
from .replies import Reply
from .statements import describe_columns

if TYPE_CHECKING:
    from .cursorstate import CursorState

    # The session as this module needs it; the public Connection adds the PEP 249 surface
    # (and imports this module: naming it here would make an import circle).
    from .lifecycle import StatementSession as Connection
    from .steps import Op

__all__ = [
    "PROC_NAME",
    "InOutParam",
    "OutParam",
    "OutRoutine",
    "call_op",
    "callproc_op",
    "has_markers",
]

Group = tuple[bytes, Reply]

#: -9752: "Argument must be a Statement Local Variable or SPL variable or argument for an OUT
#: or INOUT parameter" — what a PREPARE of a call to such a routine answers.
OUT_ARGUMENT = -9752
#: -674: the routine cannot be resolved (a cached handle whose routine is gone).
NO_ROUTINE = -674
IN, OUT, INOUT = 0, 1, 2
_MODE_WORDS = {IN: "IN", OUT: "OUT", INOUT: "INOUT"}
_HEAD = Struct(">hh")
_NULL = Struct(">hh").pack(-1, 0)


@dataclass(slots=True)
class OutRoutine:
    """What the describe steps taught about a routine: its fast-path handle, its arguments
    (names, declared types, modes) and the server's SQ_FPARAM for calls."""

    name: str
    database: bytes
    handle: int
    args: list[fp.RoutineArg]
    fparam: fp.FParam

    def label(self, i: int) -> str:
        name = self.args[i].name
        return f"parameter {i + 1} ({name}) of {self.name}" if name else (
            f"parameter {i + 1} of {self.name}")


# --------------------------------------------------------------------------------------------
# Groups and replies
# --------------------------------------------------------------------------------------------


def prepare_group(conn: Connection, procname: str, nargs: int) -> Group:
    """JDBC's ``prepareCall("{call name(?, …)}")``: NativeSQL's ``execute procedure`` text
    (for functions too), prepared with the usual PREPARE NDESCRIBE WANTDONE."""
    sql = f"execute procedure {procname}({', '.join('?' * nargs)})"
    w = Writer()
    m.put_prepare(w, conn._encode_sql(sql), nargs, conn._layout)
    m.put_eot(w)
    return bytes(w.buf), conn._reply()


def handle_from_prepare(conn: Connection, procname: str, reply: Reply) -> tuple[bytes, int]:
    """The (database, handle) a -9752 names (``IfxSqli.addException`` splits its text at
    colons: ``database:handle:unique``). A PREPARE that succeeds means the routine has no
    OUT or INOUT parameter: the statement is released and the caller told so."""
    err = reply.error
    if err is None:
        d = reply.describe
        if d is not None and d.stmt_id >= 0:
            conn._defer(id_group(d.stmt_id, Msg.RELEASE))
        raise ProgrammingError(
            f"{procname} has no OUT or INOUT parameter: pass plain values, not "
            "ifxwire.OutParam / ifxwire.InOutParam", sqlstate="07006")
    if err.sqlcode != OUT_ARGUMENT:
        raise conn._server_error(err)
    text = err.text.decode(conn.encoding, errors="replace").strip("\x00 ")
    parts = text.split(":")
    try:
        if len(parts) < 3:
            raise ValueError(text)
        return parts[0].encode(conn.encoding), int(parts[1])
    except ValueError:
        raise _e.protocol_error(
            f"-9752 for {procname} without a routine handle (text {text!r}, expected "
            "database:handle:unique)") from None


def describe_groups(conn: Connection, database: bytes, handle: int) -> list[Group]:
    """``CFPDESCRIBE EOT`` followed by JDBC's lone ``EOT`` (its ``receiveMessage`` sends one;
    no reply comes for it), then ``GETROUTINE`` by id with the FPARAM flag. Both by-id forms
    exist only with named parameters (capability bit 52)."""
    if not conn._layout.named_params:
        raise NotSupportedError(
            "OUT parameters need a server with named parameters (SQLI capability bit 52)",
            sqlstate="0A000")
    w = Writer()
    fp.put_cfpdescribe(w, database, handle)
    w.raw(EOT + EOT)
    g = Writer()
    fp.put_getroutine_by_id(g, database, handle, conn._layout)
    g.raw(EOT)
    return [(bytes(w.buf), conn._reply()), (bytes(g.buf), conn._reply())]


def described(conn: Connection, procname: str, groups: list[Group]) -> OutRoutine:
    (_, described_reply), (_, handle_reply) = groups
    _fp.check(conn, described_reply, handle_reply)
    args, fparam = described_reply.fp_args, handle_reply.fparam
    if args is None or handle_reply.routine is None or fparam is None:
        raise _e.protocol_error(
            f"the describe of {procname} lacked SQ_IFPDESCRIBE, the handle or SQ_FPARAM")
    if len(fparam.args) != len(args):
        raise _e.protocol_error(
            f"{procname}: SQ_IFPDESCRIBE has {len(args)} arguments, SQ_FPARAM "
            f"{len(fparam.args)}")
    database, handle = handle_reply.routine
    return OutRoutine(procname, database, handle, args, fparam)


def _typed_null(desc: ColumnDesc, encoding: str) -> bytes:
    """A NULL of the parameter's declared type in SQ_BIND form (``i16 type, [owner, name],
    i16 -1, i16 0``), as JDBC binds a registered OUT parameter (captured: ``0002 ffff 0000``
    for INTEGER, ``0005 ffff 0000`` for DECIMAL)."""
    base = desc.type & 0xFF
    w = Writer()
    w.i16(base)
    if base in NAMED_IN_BIND:
        w.charstr(desc.owner.encode(encoding)).charstr(desc.type_name.encode(encoding))
    return bytes(w.buf) + _NULL


def _argument(routine: OutRoutine, i: int, value: object, encoding: str) -> bytes:
    """The SQ_BIND item of argument ``i``, after checking the caller marked it as its mode
    wants: OUT needs ``OutParam()``; IN takes plain values only; INOUT takes either, or
    ``InOutParam(value)``."""
    arg = routine.args[i]
    if arg.mode == OUT and not isinstance(value, OutParam):
        raise ProgrammingError(
            f"{routine.label(i)} is an OUT parameter: pass ifxwire.OutParam(), not "
            f"{type(value).__name__}", sqlstate="07006")
    if arg.mode == IN and isinstance(value, (OutParam, InOutParam)):
        raise ProgrammingError(
            f"{routine.label(i)} is an IN parameter: pass a plain value, not {value!r}",
            sqlstate="07006")
    if isinstance(value, OutParam):
        return _typed_null(arg.desc, encoding)
    if isinstance(value, InOutParam):
        value = value.value
    if isinstance(value, BLOB_BIND_TYPES):
        raise NotSupportedError(
            f"{routine.label(i)}: a BYTE/TEXT value cannot be passed in a call with OUT "
            "parameters (fast-path arguments have no SQ_BLOB data)", sqlstate="0A000")
    try:
        return encode_bind_value(value, encoding)
    except Exception as exc:
        raise param_error(i, value, exc) from exc


def call_group(conn: Connection, routine: OutRoutine, values: Sequence[object]) -> Group:
    """``EXFPROUTINE BIND FPARAM EOT``: JDBC's ``sendFastPath`` + ``sendFParam``."""
    if len(values) != len(routine.args):
        raise ProgrammingError(
            f"{routine.name} takes {len(routine.args)} arguments, {len(values)} given",
            sqlstate="07001")
    encoding = conn.encoding
    w = Writer()
    fp.put_exfproutine(w, routine.database, routine.handle, len(values), conn._layout,
                       want_fparam=True)
    w.raw(bind_head(len(values)))
    for i, value in enumerate(values):
        w.raw(_argument(routine, i, value, encoding))
    fp.put_fparam_request(w)
    w.raw(EOT)
    return bytes(w.buf), conn._reply()


def outputs(conn: Connection, routine: OutRoutine, values: Sequence[object], reply: Reply
            ) -> tuple[list[object], list[Any]]:
    """(the parameters with the OUT and INOUT values in place, the return values). The
    server's SQ_FPROUTINE carries one value per argument its SQ_FPARAM gave mode 1, in
    argument order, then the return values (JDBC ``executeFastPath``)."""
    _fp.check(conn, reply)
    got = list(reply.fp_values or [])
    back = [i for i, (_, mode) in enumerate(routine.fparam.args) if mode == OUT]
    if len(got) != len(back) + len(routine.fparam.returns):
        raise _e.protocol_error(
            f"{routine.name}: SQ_FPROUTINE has {len(got)} values, expected {len(back)} "
            f"output and {len(routine.fparam.returns)} return values")
    result = [v.value if isinstance(v, InOutParam) else v for v in values]
    for k, i in enumerate(back):
        result[i] = got[k]
    for i, v in enumerate(result):
        if isinstance(v, OutParam):
            raise _e.protocol_error(f"the server returned no value for {routine.label(i)}")
    return result, got[len(back):]


def returns_description(routine: OutRoutine) -> tuple[Any, ...] | None:
    """The PEP 249 description of the one-row result holding a function's return values
    (SQ_FPARAM names no column: each is "")."""
    returns = routine.fparam.returns
    return describe_columns(returns) if returns else None


def cache_key(conn: Connection, procname: str, nargs: int) -> tuple[str | None, str, int]:
    return conn._database, procname.lower(), nargs


# --------------------------------------------------------------------------------------------
# The exchanges, as operations (connection.Op) that both drivers run
# --------------------------------------------------------------------------------------------


def routine_op(conn: Connection, procname: str, nargs: int) -> Op[OutRoutine]:
    """The described routine, from the connection's cache or by steps 1–2 (two round trips:
    the PREPARE, then the describe groups pipelined)."""
    key = cache_key(conn, procname, nargs)
    found: OutRoutine | None = conn._out_routines.get(key)
    if found is not None:
        return found
    group = prepare_group(conn, procname, nargs)
    yield [group]
    database, handle = handle_from_prepare(conn, procname, group[1])
    groups = describe_groups(conn, database, handle)
    yield groups
    found = described(conn, procname, groups)
    conn._out_routines[key] = found
    return found


def call_op(conn: Connection, procname: str, values: Sequence[object]
            ) -> Op[tuple[OutRoutine, list[object], list[Any]]]:
    """Run the routine with OUT/INOUT parameters (the caller holds the lock): the routine,
    the parameters with their output values, the return values. A call the server refuses
    forgets the cached description; one whose cached handle no longer resolves (-674: the
    routine was dropped or replaced, so it did not run) is described again and made once
    more."""
    key = cache_key(conn, procname, len(values))
    cached = key in conn._out_routines
    try:
        return (yield from _call_once_op(conn, procname, values))
    except DatabaseError as exc:
        if exc.sqlcode is None:  # refused before anything was sent (wrong marks)
            raise
        conn._out_routines.pop(key, None)
        if not (cached and exc.sqlcode == NO_ROUTINE):
            raise
    return (yield from _call_once_op(conn, procname, values))


def _call_once_op(conn: Connection, procname: str, values: Sequence[object]
                  ) -> Op[tuple[OutRoutine, list[object], list[Any]]]:
    found = yield from routine_op(conn, procname, len(values))
    groups = [call_group(conn, found, values)]
    reply = groups[0][1]
    begin = _fp.transaction_groups(conn, groups)
    commit = _fp.commit_group(conn, groups)
    yield groups
    _fp.after_transaction(conn, begin, commit)
    return (found, *outputs(conn, found, values, reply))


def callproc_op(cur: CursorState, procname: str, values: Sequence[object]) -> Op[list[object]]:
    """``callproc`` with OUT/INOUT markers under the lock: the parameters with their output
    values, and the return values as the cursor's result."""
    conn = cur.session
    conn._check()
    cur._reset()
    found, params, returns = yield from call_op(conn, procname, values)
    set_returns(cur, found, returns)
    return params


def out_parameters_hint(exc: DatabaseError, procname: str) -> DatabaseError:
    """A plain callproc of a routine with OUT/INOUT parameters: -9752 with what to do (the
    server's text is the fast-path handle, meaningless to a reader)."""
    hinted = type(exc)(
        f"{procname} has OUT or INOUT parameters: pass ifxwire.OutParam() for each OUT and "
        "ifxwire.InOutParam(value) (or a plain value) for each INOUT argument",
        sqlcode=exc.sqlcode, isamcode=exc.isamcode, sqlstate=exc.sqlstate)
    return hinted


def set_returns(cur: CursorState, found: OutRoutine, returns: list[Any]) -> None:
    """A function's return values as the cursor's one-row result (JDBC's ``getResultSet``
    after ``execute()``); a procedure leaves no result set. The rows are all here: nothing
    stays open on the server."""
    description = returns_description(found)
    if description is None:
        return
    cur._has_result = True
    cur._shape(description)
    cur._serve([tuple(returns)], during_fetch=False)
    cur._received = 1
    cur.rowcount = 1
    cur._exhausted = True


#: What ``callproc`` takes as a routine's name: ``[database[@server]:][owner.]name``.
PROC_NAME = re.compile(
    r'^(?:[A-Za-z_][\w$]*(?:@[A-Za-z_][\w$]*)?:)?(?:(?:"[^"]+"|[A-Za-z_][\w$]*)\.)?[A-Za-z_][\w$]*$'
)
