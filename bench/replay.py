"""The replay server: records one live conversation per driver and scenario, then replays it.

Why: ifxwire-server is pure Python over SQLite, so a large SELECT costs it more CPU than any
client spends decoding. Served live, a fetch benchmark measures the server. The replay server
answers from recorded reply bytes instead, so fetch figures measure the client alone.

How (one process, controlled with JSON lines on stdin/stdout by bench/run.py):

* ``record KEY``: a listener that forwards to the real server and records the first accepted
  connection (the *template*) as a list of turns: the bytes the client sent, then the bytes the
  server answered before the client spoke again. SQLI is strictly request/reply on the read
  paths (a client sends whole request groups and waits for the reply to its SQ_EOT), so turns
  are exact. Other connections of the same key are forwarded but not kept.
* ``mark KEY``: the orchestrator calls it after the worker's setup, after the first round
  (A, which prepares) and after the second round (B, steady state: cached statement, same
  cursor name length). The turn counts at those moments split the template.
* ``serve KEY``: a listener that gives every connection the template: the prefix, round A,
  then round B again and again, and the recorded close. A turn is complete when as many bytes
  as recorded have arrived (the login packet by its own length header, since it carries the
  process id and host name). Bytes that differ at equal length are counted, not fatal
  (informix-driver and JDBC number cursor names with a process-wide counter); a length
  mismatch is counted and, if the request ends in SQ_EOT and nothing more arrives for a
  second, answered anyway. Each bench round checks its row count, so a replay that does not
  fit cannot pass unnoticed.

Statement ids and cursor names match because each worker reconnects and repeats exactly the
sequence it ran while recording; the server hands out statement ids deterministically.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import sys
import threading
from dataclasses import dataclass, field
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

EXIT = b"\x00\x38"  # SQ_EXIT: the client's goodbye, answered by SQ_EXIT
EOT = b"\x00\x0c"
_EOT_CODE = 0x0C
_TUPLE_CODE = 0x0E
RECV = 256 * 1024
PARTIAL_TIMEOUT = 1.0


def tuple_rows(data: bytes | bytearray) -> int | None:
    """Rows in a reply made of SQ_TUPLE messages and the SQ_EOT that ends it, else None.

    An SQ_TUPLE is its code, a 16-bit field, a 32-bit payload size and the payload padded to
    an even length (PROTOCOL.md; the driver's reply parser reads it the same way).
    """
    pos, n, end = 0, 0, len(data)
    while end - pos >= 2:
        code = (data[pos] << 8) | data[pos + 1]
        if code == _EOT_CODE:
            return n if n and pos + 2 == end else None
        if code != _TUPLE_CODE or end - pos < 8:
            return None
        size = int.from_bytes(data[pos + 4 : pos + 8], "big", signed=True)
        if size < 0:
            return None
        pos += 8 + size + (size & 1)
        n += 1
    return None


def fetch_run(turns: list[Turn]) -> tuple[int, int]:
    """[i, j): the longest run of turns with the same request and a tuples-only reply."""
    best = (0, 0)
    i = 0
    while i < len(turns):
        if tuple_rows(turns[i].server) is None:
            i += 1
            continue
        j = i + 1
        while (
            j < len(turns)
            and turns[j].client == turns[i].client
            and tuple_rows(turns[j].server) is not None
        ):
            j += 1
        if j - i > best[1] - best[0]:
            best = (i, j)
        i = j
    return best


def login_length(data: bytes | bytearray) -> int | None:
    """Length of the SQLI login packet (big-endian u16 at offset 0), None if too short."""
    if len(data) < 2:
        return None
    return (data[0] << 8) | data[1]


@dataclass
class Turn:
    client: bytearray = field(default_factory=bytearray)
    server: bytearray = field(default_factory=bytearray)


Plan = tuple[list["Turn"], list["Turn"], list["Turn"]]


@dataclass
class Recording:
    turns: list[Turn] = field(default_factory=list)
    marks: list[int | None] = field(default_factory=list)
    template_taken: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Stats:
    connections: int = 0
    turns: int = 0
    bytes_out: int = 0
    content_mismatch: int = 0
    length_mismatch: int = 0
    exhausted: int = 0
    errors: list[str] = field(default_factory=list)


class Listener:
    """Accepts connections and runs ``handler`` on each, on reused threads.

    Why reused: a thread started per connection costs a clone() and a hand-off on every
    connect, the same for every driver, and that shared overhead would shrink the differences
    the cold-connect scenario is there to measure. The thread that accepts serves the
    connection itself; it starts a replacement only when no other thread waits in accept(),
    and goes back to accept() afterwards (at most IDLE_ACCEPTORS wait at once).
    """

    IDLE_ACCEPTORS = 4

    def __init__(self, handler: Any) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.port: int = self.sock.getsockname()[1]
        self.handler = handler
        self.conns: list[socket.socket] = []
        self.threads: list[threading.Thread] = []
        self.closed = False
        self._lock = threading.Lock()
        self._waiting = 1
        self._spawn()

    def _spawn(self) -> None:
        t = threading.Thread(target=self._accept, daemon=True)
        with self._lock:
            self.threads.append(t)
        t.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self.conns.append(conn)
                self._waiting -= 1
                spare = self._waiting == 0
                if spare:
                    self._waiting += 1
            if spare:
                self._spawn()
            # A handler failure must not cost the listener a thread.
            with contextlib.suppress(Exception):
                self.handler(conn)
            with self._lock:
                if self._waiting >= self.IDLE_ACCEPTORS:
                    return
                self._waiting += 1

    def close(self, wait: float = 5.0) -> None:
        self.closed = True
        # shutdown() wakes the thread blocked in accept(); close() alone does not on Linux.
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()
        with self._lock:
            threads, conns = list(self.threads), list(self.conns)
        for t in threads:
            t.join(wait)
        for c in conns:
            with contextlib.suppress(OSError):
                c.close()


class Key:
    """Everything the replay process holds for one (driver, scenario)."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.rec = Recording()
        self.stats = Stats()
        self.recorder: Listener | None = None
        self.server: Listener | None = None
        self.grown: list[Listener] = []

    # ---------------------------------------------------------------- recording

    def start_record(self) -> int:
        self.recorder = Listener(self._proxy)
        return self.recorder.port

    def _proxy(self, client: socket.socket) -> None:
        rec = self.rec
        with rec.lock:
            template = not rec.template_taken
            rec.template_taken = True
        up = socket.create_connection(self.upstream)
        up.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        turns = rec.turns

        def pump(src: socket.socket, dst: socket.socket, from_client: bool) -> None:
            try:
                while True:
                    data = src.recv(RECV)
                    if not data:
                        break
                    if template:
                        # Append before forwarding: the peer cannot answer bytes it has not
                        # received, so the order of turns is the order of the conversation.
                        with rec.lock:
                            if from_client:
                                if not turns or turns[-1].server:
                                    turns.append(Turn())
                                turns[-1].client += data
                            elif turns:
                                turns[-1].server += data
                    dst.sendall(data)
            except OSError:
                pass
            finally:
                for s in (src, dst):
                    with contextlib.suppress(OSError):
                        s.shutdown(socket.SHUT_RDWR)

        back = threading.Thread(target=pump, args=(up, client, False), daemon=True)
        back.start()
        pump(client, up, True)
        back.join()
        up.close()

    def mark(self) -> int | None:
        rec = self.rec
        with rec.lock:
            n = len(rec.turns) if rec.template_taken else None
            rec.marks.append(n)
        return n

    def stop_record(self) -> dict[str, Any]:
        if self.recorder is not None:
            self.recorder.close()
            self.recorder = None
        turns = self.rec.turns
        return {
            "turns": len(turns),
            "marks": self.rec.marks,
            "client_bytes": sum(len(t.client) for t in turns),
            "server_bytes": sum(len(t.server) for t in turns),
        }

    # ---------------------------------------------------------------- replaying

    def start_serve(self) -> int:
        self.server = Listener(lambda sock: self._replay(sock, self._plan()))
        return self.server.port

    def _plan(self) -> Plan:
        """(play once, then loop, then tail) out of the template and its marks."""
        turns = self.rec.turns
        marks = [m for m in self.rec.marks if m is not None]
        if len(marks) >= 3 and marks[1] < marks[2] <= len(turns):
            a_end, b_end = marks[1], marks[2]
            return turns[:b_end], turns[a_end:b_end], turns[b_end:]
        return turns, [], []

    def start_grown(self, base_rows: int, target_rows: int) -> dict[str, Any]:
        """Serve round A with its fetch replies repeated until it carries ``target_rows`` rows.

        Why: a 10M-row streamed SELECT served live measures ifxwire-server (about 5 µs of
        its CPU per row), and recorded in full it would hold gigabytes here. The recorded
        ``base_rows``-row result is enough: the turns in the middle of round A that are plain
        fetch replies (the same request each time, a reply of SQ_TUPLE messages and SQ_EOT only)
        are served again and again, as if the table went on with the same rows. Only round A
        is grown: a fresh connection runs the setup, then A, once. Returns the port and the
        exact number of rows round A then carries (the bench checks the client counts it).
        """
        turns = self.rec.turns
        marks = [m for m in self.rec.marks if m is not None]
        if len(marks) < 3:
            raise ValueError("no complete recording to grow")
        start, end = marks[0], marks[1]
        i, j = fetch_run(turns[start:end])
        if j - i < 1:
            raise ValueError("round A has no run of plain fetch replies to repeat")
        middle = turns[start + i : start + j]
        counts = [tuple_rows(t.server) or 0 for t in middle]
        rows, body = base_rows, list(middle)
        k = 0
        while rows < target_rows:  # whole middles, then what part of one reaches the target
            rows += counts[k % len(counts)]
            body.append(middle[k % len(middle)])
            k += 1
        once = turns[: start + i] + body + turns[start + j : end]
        plan: Plan = (once, [], turns[marks[2] :] if marks[2] <= len(turns) else [])
        listener = Listener(lambda sock: self._replay(sock, plan))
        self.grown.append(listener)
        return {"port": listener.port, "rows": rows, "repeated_turns": len(middle)}

    def _replay(self, sock: socket.socket, plan: Plan) -> None:
        st = self.stats
        st.connections += 1
        once, loop, tail = plan
        pending = bytearray()
        index = 0  # turns served on this connection
        in_tail = False
        tail_pos = 0

        def next_turn() -> Turn | None:
            nonlocal tail_pos
            if in_tail:
                if tail_pos < len(tail):
                    tail_pos += 1
                    return tail[tail_pos - 1]
                return None
            if index < len(once):
                return once[index]
            if loop:
                return loop[(index - len(once)) % len(loop)]
            return None

        try:
            while True:
                turn = next_turn()
                while True:
                    if (
                        not in_tail
                        and tail
                        and index >= len(once)
                        and bytes(pending[: len(tail[0].client)]) == bytes(tail[0].client)
                        and (turn is None or len(pending) < len(turn.client))
                    ):
                        in_tail = True
                        turn = next_turn()
                    if turn is None:
                        need = len(EXIT)
                    elif index == 0:
                        need = login_length(pending) or 1 << 30
                    else:
                        need = len(turn.client)
                    if pending[:2] == EXIT and (turn is None or bytes(turn.client[:2]) != EXIT):
                        sock.sendall(EXIT)
                        return
                    if len(pending) >= need:
                        break
                    sock.settimeout(PARTIAL_TIMEOUT if pending else None)
                    try:
                        data = sock.recv(RECV)
                    except TimeoutError:
                        if pending.endswith(EOT) and turn is not None:
                            st.length_mismatch += 1
                            need = len(pending)
                            break
                        continue
                    if not data:
                        return
                    pending += data
                if turn is None:
                    st.exhausted += 1
                    return
                got = bytes(pending[:need])
                del pending[:need]
                if index and need != len(turn.client):
                    st.length_mismatch += 1
                elif index and got != turn.client:
                    st.content_mismatch += 1
                sock.sendall(turn.server)
                st.turns += 1
                st.bytes_out += len(turn.server)
                index += 1
        except OSError as exc:
            if not (self.server and self.server.closed):
                st.errors.append(repr(exc))
        finally:
            with contextlib.suppress(OSError):
                sock.close()

    def stats_dict(self) -> dict[str, Any]:
        st = self.stats
        return {
            "connections": st.connections,
            "turns": st.turns,
            "bytes_out": st.bytes_out,
            "content_mismatch": st.content_mismatch,
            "length_mismatch": st.length_mismatch,
            "exhausted": st.exhausted,
            "errors": st.errors[:5],
        }

    def close(self) -> None:
        for lst in (self.recorder, self.server, *self.grown):
            if lst is not None:
                lst.close(wait=1.0)
        self.recorder = self.server = None
        self.grown = []
        self.rec = Recording()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="bench replay server (controlled over stdin)")
    p.add_argument("--upstream", required=True, help="HOST:PORT of the real server")
    args = p.parse_args(argv)
    host, _, port = args.upstream.rpartition(":")
    upstream = (host, int(port))
    keys: dict[str, Key] = {}
    out = sys.stdout

    def reply(obj: dict[str, Any]) -> None:
        out.write(json.dumps(obj) + "\n")
        out.flush()

    reply({"ok": True, "pid": os.getpid()})
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        cmd, name = msg.get("cmd"), msg.get("key", "")
        try:
            if cmd == "quit":
                for k in keys.values():
                    k.close()
                reply({"ok": True})
                return 0
            if cmd == "record":
                if name in keys:
                    keys[name].close()
                keys[name] = Key(upstream)
                reply({"ok": True, "port": keys[name].start_record()})
            elif cmd == "mark":
                reply({"ok": True, "turns": keys[name].mark()})
            elif cmd == "stop_record":
                reply({"ok": True, **keys[name].stop_record()})
            elif cmd == "serve":
                reply({"ok": True, "port": keys[name].start_serve()})
            elif cmd == "serve_grown":
                reply({"ok": True, **keys[name].start_grown(msg["base"], msg["target"])})
            elif cmd == "stats":
                reply({"ok": True, **keys[name].stats_dict()})
            elif cmd == "drop":
                if name in keys:
                    keys.pop(name).close()
                reply({"ok": True})
            else:
                reply({"ok": False, "error": f"unknown command {cmd!r}"})
        except Exception as exc:  # report, keep serving the other keys
            reply({"ok": False, "error": f"{type(exc).__name__}: {exc}"})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
