"""The login exchange: the ASF connection request and its accept / reject response.

Login is the only part of SQLI with an outer length (a 6-byte "SL header"), and its strings use
a different form from the rest of the protocol: ``u16 (len + 1)``, the bytes, a NUL, and no
even-padding.  Layouts follow jdbc-protocol.md section 1 (checked against both JDBC jars) and the
informix-driver report section 2.2; see docs/PROTOCOL.md "Login".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

from .codes import Login
from .wire import NeedMore, ProtocolViolation, Reader, Writer, u16_at

_APPL_TYPE = b"sqlexec" + b"\0" * 5
_PROT_OL = b"ol" + b"\0" * 6
_NET_TLITCP = b"tlitcp" + b"\0" * 2
CLIENT_VERSION = "9.280"
CLIENT_SERIAL = "RDS#R000000"
APPLICATION_ID = "sqli"
FLOAT_FORMAT = "IEEEM"
# The JDBC driver reads the response with one 4096-byte read (jdbc-protocol.md 1.3).
MAX_RESPONSE = 4096


_T = TypeVar("_T")


def _clone(obj: _T) -> _T:
    """A shallow copy of a memoised request / response (cheaper than copy.copy)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def _put_str(w: Writer, value: str | None, encoding: str) -> None:
    """Login string: u16 (n + 1), bytes, NUL; ``None`` is the bare u16 0 JDBC sends."""
    if value is None:
        w.u16(0)
        return
    data = value.encode(encoding)
    w.u16(len(data) + 1).raw(data).raw(b"\0")


def _get_str(r: Reader, encoding: str) -> str | None:
    n = r.u16()
    if n == 0:
        return None
    return r.raw(n).rstrip(b"\0").decode(encoding, errors="replace")


def _put_asf_binary(w: Writer, version: str, cap1: int, float_format: str, encoding: str,
                    applid: str = APPLICATION_ID) -> None:
    """The block both directions open with: markers, float format, application type, the
    version / serial / application id strings and the three capability words."""
    w.u16(Login.ASSOC).u16(Login.ASCBINARY).i32(Login.PROTOCOL_ID)
    _put_str(w, float_format, encoding)
    w.u16(Login.ASCBPARMS).raw(_APPL_TYPE)
    _put_str(w, version, encoding)
    _put_str(w, CLIENT_SERIAL, encoding)
    _put_str(w, applid, encoding)
    w.i32(cap1).i32(0).i32(0)


def _read_asf_binary(r: Reader, encoding: str) -> tuple[str, str, int, str]:
    """(float format, version, Cap_1, application id) from the block ``_put_asf_binary``
    writes."""
    _expect(r, Login.ASSOC, "SQ_ASSOC")
    _expect(r, Login.ASCBINARY, "SQ_ASCBINARY")
    r.i32()
    float_format = _get_str(r, encoding) or ""
    _expect(r, Login.ASCBPARMS, "SQ_ASCBPARMS")
    r.skip(12)
    version = _get_str(r, encoding) or ""
    _get_str(r, encoding)
    applid = _get_str(r, encoding) or ""
    cap1 = r.i32()
    r.i32()
    r.i32()
    return float_format, version, cap1, applid


@dataclass
class ConnectRequest:
    """What a client says when it connects (fields in the order JDBC writes them)."""

    user: str
    password: str | None = field(repr=False)  # never in a repr, a log or a traceback
    server: str
    database: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    pid: int = 0
    thread_id: int = 0
    hostname: str = ""
    cwd: str = ""
    app_name: str = ""
    cap1: int = Login.CAP1_ENHANCED
    client_version: str = CLIENT_VERSION
    options: int = 3


def build_connect_request(req: ConnectRequest, encoding: str = "iso-8859-1") -> bytes:
    w = Writer()
    _put_asf_binary(w, req.client_version, req.cap1, FLOAT_FORMAT, encoding)
    w.u16(1)
    _put_str(w, req.user, encoding)
    _put_str(w, req.password, encoding)
    w.raw(_PROT_OL).i32(Login.PROTOCOL_ID).raw(_NET_TLITCP).i32(1)
    w.u16(Login.ASCINITREQ).u16(Login.ASF_XCONNECT).i32(req.options)
    _put_str(w, req.server, encoding)
    _put_str(w, req.database, encoding)
    w.u16(0).u16(0).u16(0).u16(0)
    w.u16(Login.ASCENV).u16(len(req.env))
    for name, value in req.env.items():
        _put_str(w, name, encoding)
        _put_str(w, value, encoding)
    w.u16(Login.ASCPINFO).i32(0).i32(req.pid).i32(req.thread_id)
    _put_str(w, req.hostname, encoding)
    w.u16(0)
    _put_str(w, req.cwd, encoding)
    app = req.app_name.encode(encoding)
    w.u16(Login.ASCMISC_60).u16(11 + len(app)).i32(0).i32(0)
    _put_str(w, req.app_name, encoding)
    w.u16(Login.ASCEOT)
    pdu = w.buf
    header = Writer().u16(6 + len(pdu)).raw(bytes([Login.SLTYPE_CONREQ, Login.SL_PROT_SQLI_0600]))
    header.u16(0)
    return bytes(header.buf + pdu)


#: The shortest connection request parse_connect_request can accept: every string absent
#: (u16 0) and no optional section. SL header 6; SQ_ASSOC, SQ_ASCBINARY, protocol id 8; float
#: format 2; SQ_ASCBPARMS and application type 14; version, serial, application id 6;
#: Cap_1..3 12; user type, user, password 6; the "ol"/"tlitcp" block 24; SQ_ASCINITREQ, its
#: kind and options 8; server, database 4; reserved 8; SQ_ASCEOT 2.
MIN_CONNECT_REQUEST = 100


def packet_length(buf: bytes | bytearray | memoryview) -> int:
    """Total length of a login packet from its first two bytes (raises NeedMore if absent)."""
    if len(buf) < 2:
        raise NeedMore
    n: int = u16_at(buf, 0)[0]
    if n < 6:
        raise ProtocolViolation(f"login packet length {n} is shorter than its header", 0)
    return n


def _expect(r: Reader, value: int, what: str) -> None:
    at = r.pos
    got = r.u16()
    if got != value:
        raise ProtocolViolation(f"login: expected {what} ({value}), found {got}", at)


def parse_connect_request(packet: bytes, encoding: str = "iso-8859-1") -> ConnectRequest:
    """Parse a whole connection request packet (SL header included).

    Not memoised, unlike the response: the packet holds the password in clear text, and a
    cache would keep recent ones in the server's memory for a 15 µs gain.
    """
    r = Reader(packet)
    try:
        r.u16()
        sltype, attr = r.u8(), r.u8()
        if sltype != Login.SLTYPE_CONREQ:
            raise ProtocolViolation(f"login: SL type {sltype} is not a connection request", 2)
        if attr != Login.SL_PROT_SQLI_0600:
            raise ProtocolViolation(f"login: SL protocol {attr} is not SQLI 6.00 (60)", 3)
        r.u16()
        _, client_version, cap1, _ = _read_asf_binary(r, encoding)
        r.u16()
        user = _get_str(r, encoding) or ""
        password = _get_str(r, encoding)
        r.skip(24)
        _expect(r, Login.ASCINITREQ, "SQ_ASCINITREQ")
        r.u16()
        options = r.i32()
        server = _get_str(r, encoding) or ""
        database = _get_str(r, encoding)
        r.skip(8)
        req = ConnectRequest(
            user=user,
            password=password,
            server=server,
            database=database,
            cap1=cap1,
            client_version=client_version,
            options=options,
        )
        while r.remaining:
            at = r.pos
            kind = r.u16()
            if kind == Login.ASCEOT:
                return req
            if kind == Login.ASCENV:
                for _ in range(r.u16()):
                    name = _get_str(r, encoding) or ""
                    req.env[name] = _get_str(r, encoding) or ""
            elif kind == Login.ASCPINFO:
                r.i32()
                req.pid = r.i32()
                req.thread_id = r.i32()
                req.hostname = _get_str(r, encoding) or ""
                r.u16()
                req.cwd = _get_str(r, encoding) or ""
            elif kind == Login.ASCMISC_60:
                size = r.u16()
                body = Reader(r.raw(size))
                body.skip(8)
                req.app_name = _get_str(body, encoding) or ""
            else:
                raise ProtocolViolation(f"login: unknown section {kind}", at)
        raise ProtocolViolation("login: request ends without SQ_ASCEOT", r.pos)
    except NeedMore:
        raise ProtocolViolation("login: request is truncated", r.pos) from None


@dataclass
class ConnectResponse:
    """The server's answer.  ``accepted`` False carries the rejection sqlcode in svc_error."""

    accepted: bool
    version: str = "IBM Informix Dynamic Server Version 14.10.FC9"
    svc_error: int = 0
    os_error: int = 0
    warnings: int = 0
    cap1: int = Login.CAP1_ENHANCED
    messages: list[tuple[int, bytes]] = field(default_factory=list)
    float_format: str = FLOAT_FORMAT
    #: A redirect's detail, ``server|host|port`` (see parse_redirect); the packet is then of
    #: SL type 13 and carries no SQ_ASCINITRESP.
    redirect: str | None = None
    #: The third string of the ASF block. A real server's -761 rejection carries its own
    #: DBSERVERNAME here, which nmap's informix.lua reads to retry with (docs/PROTOCOL.md §2);
    #: elsewhere the application id JDBC's mock accepted ("sqli").
    applid: str = APPLICATION_ID


@dataclass(frozen=True)
class RedirectTarget:
    """Where a redirect (SL type 13) sends the client: a server name and its address."""

    server: str
    host: str
    port: int


def parse_redirect(detail: str) -> RedirectTarget:
    """Split a redirect's detail as IBM JDBC does (docs/PROTOCOL.md §2, *Redirect*).

    JDBC 15.0.0.1 (``asf.Connection.processGroupRedirectRequest``) tokenises the text on any of
    ``:``, ``=`` and ``|`` and takes server, host and port from the tokens after the first
    (which, in JDBC, is its own exception's class name); a field report built on a live 15.0
    server describes the detail as ``label=server|host|port``.  We take the last three tokens,
    so both forms read the same, and refuse anything else: the target is chosen by the
    server, so it is checked before anyone connects to it.
    """
    tokens = [t.strip() for t in re.split(r"[:=|]", detail)]
    tokens = [t for t in tokens if t]
    if len(tokens) < 3 or len(tokens) > 4:
        raise ValueError("a redirect names a server, a host and a port")
    server, host, port_text = tokens[-3:]
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError("a redirect's port must be a number from 1 to 65535")
    if any(ord(c) < 32 or ord(c) == 127 for c in server + host):
        raise ValueError("a redirect's server or host name holds a control character")
    return RedirectTarget(server, host, int(port_text))


#: Built accept/reject packets without messages, by their fields: the same bytes every time.
_PLAIN_RESPONSES: dict[tuple[object, ...], bytes] = {}


def build_connect_response(resp: ConnectResponse, encoding: str = "iso-8859-1") -> bytes:
    if resp.messages:
        return _build_connect_response(resp, encoding)
    key = (
        resp.accepted,
        resp.version,
        resp.svc_error,
        resp.os_error,
        resp.warnings,
        resp.cap1,
        resp.float_format,
        resp.redirect,
        resp.applid,
        encoding,
    )
    packet = _PLAIN_RESPONSES.get(key)
    if packet is None:
        if len(_PLAIN_RESPONSES) >= 16:
            _PLAIN_RESPONSES.clear()
        packet = _PLAIN_RESPONSES[key] = _build_connect_response(resp, encoding)
    return packet


def _build_connect_response(resp: ConnectResponse, encoding: str) -> bytes:
    w = Writer()
    _put_asf_binary(w, resp.version, resp.cap1, resp.float_format, encoding, resp.applid)
    w.u16(1).u16(0).u16(0)
    w.raw(_PROT_OL).i32(Login.PROTOCOL_ID).raw(_NET_TLITCP).i32(1)
    if resp.redirect is not None:
        # JDBC reads u16 103, one u16 (skipped), then the detail as a login string.
        w.u16(Login.ASCREDIRECT).u16(Login.ASF_XCONNECT).charstr(resp.redirect.encode(encoding))
        w.u16(Login.ASCEOT)
        return _sl_packet(Login.SLTYPE_REDIRECT, w)
    # Six bytes every client skips or reads as zero (JDBC, nmap skip them; libsqli reads the
    # last two as an error code, and logs in to real servers): zeros (PROTOCOL.md §2).
    w.u16(Login.ASCINITRESP).raw(bytes(6))
    w.i16(resp.svc_error).i16(resp.os_error).i16(resp.warnings).i16(len(resp.messages))
    for offset, text in resp.messages:
        w.i16(offset).charstr(text)
    w.u16(Login.ASCEOT)
    if resp.accepted:
        # The options a live 15.0 accept carried; rejects and redirects keep 0, as no
        # witness shows them (docs/PROTOCOL.md §2, "The SL header of the response").
        return _sl_packet(Login.SLTYPE_CONACC, w, Login.SL_ACCEPT_OPTIONS)
    return _sl_packet(Login.SLTYPE_CONREJ, w)


def _sl_packet(sltype: int, w: Writer, options: int = 0) -> bytes:
    out = Writer().u16(6 + len(w.buf)).raw(bytes([sltype, Login.SL_PROT_SQLI_0600])).u16(options)
    packet = bytes(out.buf + w.buf)
    if len(packet) > MAX_RESPONSE:
        raise ValueError(f"login response of {len(packet)} bytes exceeds {MAX_RESPONSE}")
    return packet


def parse_connect_response(packet: bytes, encoding: str = "iso-8859-1") -> ConnectResponse:
    """Parse a whole response packet (SL header included), following JDBC's DecodeAscBinary.

    Memoised by packet (a server answers every login of a user the same way); each caller
    gets its own copy.
    """
    if type(packet) is not bytes:
        return _parse_connect_response(bytes(packet), encoding)
    resp = _clone(_parse_connect_response_cached(packet, encoding))
    resp.messages = list(resp.messages)
    return resp


def read_connect_response(packet: bytes, encoding: str = "iso-8859-1") -> ConnectResponse:
    """parse_connect_response for a caller that only reads the result: the memoised object
    itself, shared with every other caller (the driver's login checks it and takes the
    version; a copy per connect would cost more than the check)."""
    if type(packet) is not bytes:
        return _parse_connect_response(bytes(packet), encoding)
    return _parse_connect_response_cached(packet, encoding)


@lru_cache(maxsize=16)
def _parse_connect_response_cached(packet: bytes, encoding: str) -> ConnectResponse:
    return _parse_connect_response(packet, encoding)


def _parse_connect_response(packet: bytes, encoding: str) -> ConnectResponse:
    r = Reader(packet)
    try:
        r.u16()
        sltype = r.u8()
        if sltype not in (Login.SLTYPE_CONACC, Login.SLTYPE_CONREJ, Login.SLTYPE_REDIRECT):
            raise ProtocolViolation(f"login: unexpected SL type {sltype} in the response", 2)
        r.skip(3)
        float_format, version, cap1, applid = _read_asf_binary(r, encoding)
        r.skip(2)
        r.skip(r.u16())
        r.skip(r.u16())
        r.skip(24)
        resp = ConnectResponse(
            accepted=sltype == Login.SLTYPE_CONACC,
            version=version,
            cap1=cap1,
            float_format=float_format,
            applid=applid,
        )
        at = r.pos
        kind = r.u16()
        if kind == Login.ASCINITRESP:
            r.skip(6)
            resp.svc_error = r.i16()
            resp.os_error = r.i16()
            resp.warnings = r.i16()
            for _ in range(r.i16()):
                offset = r.i16()
                if offset < 0:
                    break
                resp.messages.append((offset, r.charstr()))
        elif kind == Login.ASCREDIRECT:
            r.u16()
            resp.redirect = r.charstr().decode(encoding, errors="replace")
        elif kind != Login.ASCEOT:
            raise ProtocolViolation(f"login: unknown response section {kind}", at)
        return resp
    except NeedMore:
        raise ProtocolViolation("login: response is truncated", r.pos) from None
