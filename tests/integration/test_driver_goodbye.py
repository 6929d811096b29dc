"""close() sends the goodbye (SQ_EXIT) and returns; the acknowledgement is read by the next
connect, when too many wait, or at exit (client/goodbye.py, docs/DRIVER.md §2).

The scripted fake server withholds its acknowledgement behind an event, so each test knows
whether the client waited; the lock test runs against the real server.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import ifxwire
import ifxwire.aio
from conftest import FakeServer
from ifxwire.client import goodbye
from ifxwire.protocol.codes import Msg

#: Generous bounds for a loaded CI machine; the withheld acknowledgements are far longer.
QUICK = 0.5
WITHHELD = 1.5


@pytest.fixture(autouse=True)
def _no_goodbyes_left() -> Any:
    goodbye.settle()
    yield
    goodbye.settle()


def test_close_returns_without_the_acknowledgement(fake: FakeServer) -> None:
    fake.exit_gate = threading.Event()
    conn = ifxwire.connect(**fake.kwargs())
    started = time.monotonic()
    conn.close()
    assert time.monotonic() - started < QUICK
    assert conn.closed
    assert len(goodbye._pending) == 1
    fake.exit_gate.set()


def test_next_connect_reads_the_acknowledgement_first(fake: FakeServer) -> None:
    """The next connect does not even open its TCP connection before the old session is
    acknowledged gone, so it can never meet that session's locks."""
    fake.exit_gate = threading.Event()
    ifxwire.connect(**fake.kwargs()).close()
    accepted = fake.accepted
    result: list[Any] = []
    t = threading.Thread(target=lambda: result.append(ifxwire.connect(**fake.kwargs())))
    t.start()
    time.sleep(WITHHELD)
    assert fake.accepted == accepted  # still waiting for the goodbye
    fake.exit_gate.set()
    t.join(30)
    assert len(result) == 1 and not result[0].closed
    assert fake.accepted == accepted + 1
    assert not goodbye._pending
    deadline = time.monotonic() + 10
    while fake.client_gone < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert fake.client_gone == 1  # the old socket was closed once its goodbye was read
    result[0].close(wait=True)


def test_asyncio_connect_reads_pending_goodbyes_first(fake: FakeServer) -> None:
    """The asyncio connect keeps the sync connect's promise too (a sync connection closed,
    then an asyncio one opened, never meets the old session's locks): no TCP connect before
    the pending acknowledgement is read, and the event loop runs on while it waits."""
    fake.exit_gate = threading.Event()
    ifxwire.connect(**fake.kwargs()).close()
    assert len(goodbye._pending) == 1
    accepted = fake.accepted
    ticks = 0

    async def main() -> None:
        nonlocal ticks

        async def heartbeat() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.05)
                ticks += 1

        beat = asyncio.create_task(heartbeat())
        task = asyncio.create_task(ifxwire.aio.connect(**fake.kwargs()))
        await asyncio.sleep(WITHHELD)
        assert fake.accepted == accepted  # still waiting for the goodbye
        assert ticks >= 5  # ... without blocking the loop
        fake.exit_gate.set()
        aconn = await asyncio.wait_for(task, 30)
        beat.cancel()
        assert not aconn.closed and not goodbye._pending
        assert fake.accepted == accepted + 1
        await aconn.close()

    asyncio.run(main())


def test_close_wait_reads_the_acknowledgement(fake: FakeServer) -> None:
    fake.exit_gate = threading.Event()
    conn = ifxwire.connect(**fake.kwargs())
    threading.Timer(WITHHELD, fake.exit_gate.set).start()
    started = time.monotonic()
    conn.close(wait=True)
    assert time.monotonic() - started >= WITHHELD - 0.05
    assert not goodbye._pending


#: An SQ_XACTSTAT (code and three shorts), which a server may send before its SQ_EXIT.
XACTSTAT = int(Msg.XACTSTAT).to_bytes(2, "big") + bytes(6)


@pytest.mark.parametrize("xactstat", [False, True], ids=["exit", "xactstat-then-exit"])
def test_a_plain_acknowledgement_is_read_without_the_steps(
    fake: FakeServer, xactstat: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``goodbye.finish`` reads an acknowledgement that one receive brings whole without
    ``ack_steps`` (a generator per connect-and-close: issue 24's 3 % check); an SQ_XACTSTAT
    ahead of it sends the read to the steps, which skip it."""
    made: list[int] = []
    original = goodbye.ack_steps

    def counted(t: Any) -> Any:
        made.append(1)
        return original(t)

    monkeypatch.setattr(goodbye, "ack_steps", counted)
    if xactstat:
        fake.exit_prefix = XACTSTAT
    conn = ifxwire.connect(**fake.kwargs())
    conn.close(wait=True)
    assert made == ([1] if xactstat else [])
    assert not goodbye._pending


@pytest.mark.parametrize("xactstat", [False, True], ids=["exit", "xactstat-then-exit"])
def test_both_drivers_wait_for_the_acknowledgement_itself(
    fake: FakeServer, xactstat: bool
) -> None:
    """``close(wait=True)`` and the asyncio ``close`` read the same acknowledgement steps
    (``goodbye.ack_steps``): an SQ_XACTSTAT ahead of it is not taken for it. (The asyncio
    close used to return on the first bytes to arrive.)"""
    if xactstat:
        fake.exit_prefix = XACTSTAT
    fake.exit_gate = threading.Event()
    conn = ifxwire.connect(**fake.kwargs())
    threading.Timer(WITHHELD, fake.exit_gate.set).start()
    started = time.monotonic()
    conn.close(wait=True)
    assert time.monotonic() - started >= WITHHELD - 0.05

    async def close_async() -> float:
        aconn = await ifxwire.aio.connect(**fake.kwargs())
        threading.Timer(WITHHELD, gate.set).start()
        began = time.monotonic()
        await aconn.close()
        assert aconn.closed
        return time.monotonic() - began

    gate = fake.exit_gate = threading.Event()
    took = asyncio.run(close_async())
    assert WITHHELD - 0.05 <= took < goodbye.CLOSE_TIMEOUT + 1.0
    assert not goodbye._pending


def test_unanswered_goodbye_costs_the_next_connect_at_most_the_timeout(
    fake: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(goodbye, "CLOSE_TIMEOUT", 0.5)
    fake.exit_gate = threading.Event()  # never set: the server stays silent
    fake.exit_gate_timeout = 20.0
    started = time.monotonic()
    ifxwire.connect(**fake.kwargs()).close()
    conn = ifxwire.connect(**fake.kwargs())
    took = time.monotonic() - started
    assert 0.45 <= took < 0.5 + 5.0
    assert not goodbye._pending
    fake.exit_gate.set()
    conn.close(wait=True)


def test_pending_goodbyes_are_bounded(fake: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(goodbye, "MAX_PENDING", 3)
    conns = [ifxwire.connect(**fake.kwargs()) for _ in range(6)]
    for c in conns:
        c.close()
        assert len(goodbye._pending) <= 3
    assert len(goodbye._pending) == 3


def test_broken_connection_leaves_nothing_pending(fake: FakeServer) -> None:
    conn = ifxwire.connect(**fake.kwargs())
    fake.close()  # the server goes away: the goodbye cannot be sent or is never answered
    conn._broken = "test: marked broken"
    conn.close()
    assert not goodbye._pending


def test_goodbye_read_at_exit(fake: FakeServer, tmp_path: Path) -> None:
    """A program that closes its last connection and ends still reads the acknowledgement
    (atexit), within the close timeout: it ends after the server answered, not before."""
    fake.exit_gate = threading.Event()
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(f"""
        import ifxwire
        ifxwire.connect(host={fake.host!r}, port={fake.port}, user="informix",
                        password="in4mix").close()
        print("closed", flush=True)
    """))
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "closed"
    time.sleep(QUICK)
    assert child.poll() is None  # waiting at exit for the goodbye
    fake.exit_gate.set()
    assert child.wait(30) == 0
    deadline = time.monotonic() + 10
    while fake.client_gone < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert fake.client_gone == 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_forked_child_leaves_the_parents_goodbyes_alone(fake: FakeServer) -> None:
    fake.exit_gate = threading.Event()
    ifxwire.connect(**fake.kwargs()).close()
    assert len(goodbye._pending) == 1
    pid = os.fork()
    if pid == 0:  # the child: nothing of the parent's to read
        os._exit(0 if not goodbye._pending else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert len(goodbye._pending) == 1
    fake.exit_gate.set()
    goodbye.settle()
    assert not goodbye._pending


def test_closed_sessions_locks_are_gone_for_the_next_connect(
    connect_kwargs: dict[str, Any], dbname: str
) -> None:
    """Against the real server: a session that held an exclusive table lock is closed, and
    the next connection takes the same lock without waiting, every time."""
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        c.cursor().execute("CREATE TABLE IF NOT EXISTS goodbye_locks (i INT)")
    for _ in range(20):
        holder = ifxwire.connect(**connect_kwargs, database=dbname)
        holder.cursor().execute("LOCK TABLE goodbye_locks IN EXCLUSIVE MODE")
        holder.close()  # its transaction is rolled back by the server, the lock let go
        with ifxwire.connect(**connect_kwargs, database=dbname) as nxt:
            cur = nxt.cursor()
            cur.execute("SET LOCK MODE TO NOT WAIT")
            cur.execute("LOCK TABLE goodbye_locks IN EXCLUSIVE MODE")
            nxt.rollback()
