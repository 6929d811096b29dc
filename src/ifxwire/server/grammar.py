"""The catalogue of message groupings the server accepts in strict mode.

Each entry says which message may follow which inside one request group (the messages between
two SQ_EOTs).  Every transition here is backed by a grouping that IBM's JDBC driver or
informix-driver sends, listed with its evidence in docs/PROTOCOL.md "Request groups".  Strict
mode exists so that our own driver cannot quietly invent a grouping that only our own server
understands: a real Informix might reject it.
"""

from __future__ import annotations

from ..protocol.codes import Msg

START = -1

# The messages that may open a group (other than SQ_EOT).  libsqli sends BEGIN, CMMTWORK,
# RBWORK and BATCHEND without an SQ_EOT of their own, so they may be followed by any of these.
_LEADS: frozenset[int] = frozenset(
    {
        Msg.DBOPEN,
        Msg.DBCLOSE,
        Msg.PREPARE,
        Msg.COMMAND,
        Msg.ID,
        Msg.BEGIN,
        Msg.CMMTWORK,
        Msg.RBWORK,
        Msg.VERSION,
        Msg.EXIT,
        Msg.SVPT_SET,
        Msg.SVPT_RELEASE,
        Msg.SVPT_ROLLBACK,
        Msg.GETROUTINE,
        Msg.EXFPROUTINE,
        # libsqli: SQ_BATCHSTART opens a batch before its first PREPARE.
        Msg.BATCHSTART,
    }
)

# previous message (START at the beginning of a group) -> messages allowed next
TRANSITIONS: dict[int, frozenset[int]] = {
    START: _LEADS
    | {
        Msg.PROTOCOLS,
        Msg.INFO,
        Msg.DBLIST,
        Msg.LODATA,
        Msg.CFPDESCRIBE,
        Msg.BATCHEND,
        # An empty group: libsqli ends the previous group with a bare SQ_EOT before
        # SQ_BEGIN/SQ_CMMTWORK/SQ_RBWORK (sqli_transaction.c) and reads one reply to it.
        Msg.EOT,
    },
    # Fast path (JDBC getHandle/sendFastPath, informix-driver fast_path_call; bytecode):
    # GETROUTINE EOT; EXFPROUTINE [BIND] EOT (informix-driver sends an empty BIND too).
    Msg.GETROUTINE: frozenset({Msg.EOT}),
    Msg.EXFPROUTINE: frozenset({Msg.BIND, Msg.EOT}),
    # JDBC's CallableStatement of a routine with OUT parameters, after the PREPARE's -9752
    # (IfxSqli.sendCFPDescribe, bytecode; our trace): CFPDESCRIBE EOT.
    Msg.CFPDESCRIBE: frozenset({Msg.EOT}),
    # SQ_LODATA (JDBC sendLoData / executeWriteSmBlob): the request, a write's data, EOT.
    Msg.LODATA: frozenset({Msg.EOT}),
    # Savepoints (JDBC sendSavepoint etc., bytecode): one message per group.
    Msg.SVPT_SET: frozenset({Msg.EOT}),
    Msg.SVPT_RELEASE: frozenset({Msg.EOT}),
    Msg.SVPT_ROLLBACK: frozenset({Msg.EOT}),
    # SQ_BATCHSTART before the first EXECUTE and SQ_BATCHEND after the last one of a JDBC batch
    # when bit 61 is in force and the database is ANSI (IfxSqli.sendCommand, bytecode).
    # libsqli's sqli_batch_execute sends SQ_BATCHSTART alone, then each statement's
    # PREPARE NDESCRIBE WANTDONE EOT group: BATCHSTART PREPARE (sqli_transaction.c, our trace).
    Msg.BATCHSTART: frozenset({Msg.EXECUTE, Msg.PREPARE}),
    # libsqli ends the batch with a lone SQ_BATCHEND that the next group carries (our trace:
    # BATCHEND DBCLOSE EXIT).
    Msg.BATCHEND: frozenset({Msg.RELEASE, Msg.EOT}) | _LEADS,
    Msg.PROTOCOLS: frozenset({Msg.EOT}),
    Msg.INFO: frozenset({Msg.EOT}),
    Msg.DBOPEN: frozenset({Msg.EOT}),
    # libsqli's sqli_close: SQ_DBCLOSE, then SQ_EXIT with no SQ_EOT between (sqli_handshake.c).
    Msg.DBCLOSE: frozenset({Msg.EOT, Msg.EXIT}),
    Msg.DBLIST: frozenset({Msg.EOT}),
    # JDBC and informix-driver end these with SQ_EOT; libsqli sends `EOT BEGIN` (and the
    # same for CMMTWORK and RBWORK), so the message opens the client's next group: BEGIN
    # PREPARE ..., RBWORK DBCLOSE EXIT (sqli_transaction.c; our trace of its live tests).
    Msg.BEGIN: frozenset({Msg.EOT}) | _LEADS,
    Msg.CMMTWORK: frozenset({Msg.EOT}) | _LEADS,
    Msg.RBWORK: frozenset({Msg.EOT}) | _LEADS,
    Msg.VERSION: frozenset({Msg.EOT}),
    # PREPARE NDESCRIBE WANTDONE (JDBC and informix-driver);
    # COMMAND NDESCRIBE EXECUTE RELEASE, repeated for Statement batches (JDBC).
    Msg.PREPARE: frozenset({Msg.NDESCRIBE}),
    Msg.COMMAND: frozenset({Msg.NDESCRIBE}),
    Msg.NDESCRIBE: frozenset({Msg.WANTDONE, Msg.EXECUTE, Msg.BATCHSTART}),
    Msg.WANTDONE: frozenset({Msg.EOT}),
    # ... and libsqli's statement without parameters: ID EXECUTE WANTDONE EOT
    # (sqli_send_execute in sqli_protocol_write.c, our trace).
    # ID then one statement action.
    Msg.ID: frozenset(
        {
            Msg.CIDESCRIBE,
            Msg.CURNAME,
            Msg.BIND,
            Msg.EXECUTE,
            Msg.OPEN,
            Msg.NFETCH,
            Msg.CLOSE,
            Msg.RELEASE,
            Msg.RET_TYPE,
            Msg.SFETCH,
            Msg.FETCHBLOB,
        }
    ),
    Msg.CIDESCRIBE: frozenset({Msg.EOT}),
    # CURNAME [BIND] [SCROLL] [HOLD] OPEN (JDBC: BIND after CURNAME; informix-driver: SCROLL
    # OPEN; JDBC IfxSqli.sendQuery writes SCROLL then HOLD before OPEN, bytecode).
    Msg.CURNAME: frozenset({Msg.BIND, Msg.OPEN, Msg.SCROLL, Msg.HOLD}),
    Msg.SCROLL: frozenset({Msg.OPEN, Msg.HOLD}),
    Msg.HOLD: frozenset({Msg.OPEN}),
    # BIND then OPEN / EXECUTE / BBIND, or alone (informix-driver's bind-only group).
    Msg.BIND: frozenset({Msg.OPEN, Msg.EXECUTE, Msg.BBIND, Msg.SCROLL, Msg.HOLD, Msg.BATCHSTART,
                         Msg.EOT, Msg.FPARAM}),
    # A fast-path call of a routine with OUT parameters: EXFPROUTINE BIND FPARAM EOT
    # (IfxSqli.sendFastPath, sendFParam, bytecode; our trace).
    Msg.FPARAM: frozenset({Msg.EOT}),
    Msg.BBIND: frozenset({Msg.BLOB}),
    # BBIND BLOB... then OPEN/EXECUTE (JDBC sendBind + sendBlob), or the end of
    # informix-driver's bind-only group (BIND BBIND BLOB... EOT, _build_bind_only_pdu).
    Msg.BLOB: frozenset({Msg.BLOB, Msg.OPEN, Msg.EXECUTE, Msg.EOT}),
    # OPEN then ID NFETCH in the same group, or the reply (variable-length results).
    Msg.OPEN: frozenset({Msg.ID, Msg.EOT}),
    Msg.RET_TYPE: frozenset({Msg.NFETCH}),
    Msg.NFETCH: frozenset({Msg.EOT}),
    Msg.SFETCH: frozenset({Msg.EOT}),
    Msg.FETCHBLOB: frozenset({Msg.EOT}),
    # EXECUTE: end, next batch row (ID (BIND EXECUTE)xN), or RELEASE (COMMAND form).
    Msg.EXECUTE: frozenset({Msg.EOT, Msg.BIND, Msg.RELEASE, Msg.BATCHEND, Msg.WANTDONE}),
    Msg.CLOSE: frozenset({Msg.EOT}),
    Msg.RELEASE: frozenset({Msg.EOT, Msg.COMMAND}),
}


#: Messages whose handling changes nothing a refused group could leave behind: they only set
#: up session state (a statement, its cursor name and parameters, BYTE/TEXT data on its way).
#: The strict checker lets these run before it has seen the group's end when the group cannot
#: be held whole (BYTE/TEXT data, SQL text over max_statement_bytes); anything else waits
#: until the whole group is judged (docs/PROTOCOL.md §6).
PURE: frozenset[int] = frozenset(
    {
        Msg.ID,
        Msg.CURNAME,
        Msg.BIND,
        Msg.BBIND,
        Msg.BLOB,
        Msg.SCROLL,
        Msg.HOLD,
        Msg.PREPARE,
        Msg.COMMAND,
        Msg.NDESCRIBE,
        Msg.WANTDONE,
        Msg.CIDESCRIBE,
        Msg.RET_TYPE,
    }
)


def allowed(previous: int, code: int) -> bool:
    nxt = TRANSITIONS.get(previous)
    return nxt is not None and code in nxt
