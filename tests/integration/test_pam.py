"""PAM challenge/response login, driver and server, sync and asyncio.

The server's conversations: the default one ("Password: " checked against its users) and a
multi-step one (an information text, a password with echo off, a token with echo on).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio
from ifxwire import PamChallenge
from ifxwire.protocol.pam import PAM_PROMPT_ECHO_OFF, PAM_PROMPT_ECHO_ON, PAM_TEXT_INFO
from ifxwire.server.pam import Conversation

USER, PASSWORD, TOKEN = "informix", "in4mix", "314159"


def two_steps(user: str) -> Conversation:
    yield PAM_TEXT_INFO, f"Welcome {user}, two questions follow"
    password = yield PAM_PROMPT_ECHO_OFF, "Password: "
    token = yield PAM_PROMPT_ECHO_ON, "Token: "
    if password == PASSWORD and token == TOKEN:
        return True
    yield 3, "Authentication failure: wrong password or token"
    return False


@pytest.fixture(scope="module")
def pam_server() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, pam=True) as srv:
        yield srv


@pytest.fixture(scope="module")
def pam2_server() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, pam=two_steps) as srv:
        yield srv


def answers(password: str = PASSWORD, token: str = TOKEN,
            seen: list[PamChallenge] | None = None) -> Any:
    def answer(ch: PamChallenge) -> str | None:
        if seen is not None:
            seen.append(ch)
        if not ch.needs_answer:
            return None
        return token if ch.prompt.startswith("Token") else password

    return answer


def kw(srv: Any, **extra: Any) -> dict[str, Any]:
    # The login packet's password is wrong on purpose: PAM decides, not the packet.
    return {"host": srv.host, "port": srv.port, "user": USER, "password": "not-used",
            "autocommit": True, **extra}


def test_password_prompt_right_and_wrong(pam_server: Any) -> None:
    seen: list[PamChallenge] = []
    with ifxwire.connect(**kw(pam_server, pam_callback=answers(seen=seen))) as c:
        c.execute("CREATE DATABASE pamdb")
        assert c.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1").fetchone() == (1,)
    assert [(ch.style, ch.prompt, ch.echo) for ch in seen] == [(1, "Password: ", False)]
    with pytest.raises(ifxwire.OperationalError, match="Authentication failure") as info:
        ifxwire.connect(**kw(pam_server, pam_callback=answers(password="wrong")))
    assert info.value.sqlstate == "28000"


def test_multi_step_challenges(pam2_server: Any) -> None:
    seen: list[PamChallenge] = []
    with ifxwire.connect(**kw(pam2_server, pam_callback=answers(seen=seen))) as c:
        c.execute("CREATE DATABASE pam2db")
    assert [(ch.style, ch.needs_answer) for ch in seen] == [(4, False), (1, True), (2, True)]
    assert seen[0].prompt == "Welcome informix, two questions follow"
    with pytest.raises(ifxwire.OperationalError, match="wrong password or token"):
        ifxwire.connect(**kw(pam2_server, pam_callback=answers(token="000000")))
    with ifxwire.connect(**kw(pam2_server, pam_callback=answers(), database="pam2db")) as c:
        assert c.database == "pam2db"  # DBOPEN after the conversation


def test_callback_gives_up_or_is_missing(pam_server: Any) -> None:
    with pytest.raises(ifxwire.OperationalError, match="gave no answer"):
        ifxwire.connect(**kw(pam_server, pam_callback=lambda ch: None))
    with pytest.raises(ifxwire.InterfaceError, match="pam_callback"):
        ifxwire.connect(**kw(pam_server))
    with pytest.raises(ifxwire.InterfaceError, match="callable"):
        ifxwire.connect(**kw(pam_server, pam_callback="secret"))
    with pytest.raises(ifxwire.InterfaceError, match="must return a str"):
        ifxwire.connect(**kw(pam_server, pam_callback=lambda ch: 42))


def test_server_still_works_for_others(pam_server: Any, pam2_server: Any) -> None:
    # Sessions that failed their conversation left nothing behind: a right one still works.
    for n, srv in enumerate((pam_server, pam2_server)):
        with ifxwire.connect(**kw(srv, pam_callback=answers())) as c:
            c.execute(f"CREATE DATABASE pam3db_{n}")


def test_asyncio_pam_with_sync_and_async_callbacks(pam2_server: Any) -> None:
    async def async_answers(ch: PamChallenge) -> str | None:
        await asyncio.sleep(0)
        return answers()(ch)  # type: ignore[no-any-return]

    async def go() -> None:
        for n, callback in enumerate((answers(), async_answers)):
            c = await aio.connect(**kw(pam2_server, pam_callback=callback))
            try:
                cur = await c.execute(f"CREATE DATABASE pam4db_{n}")
                await cur.close()
                assert c.database == f"pam4db_{n}"
            finally:
                await c.close()
        with pytest.raises(ifxwire.OperationalError, match="PAM authentication failed"):
            await aio.connect(**kw(pam2_server, pam_callback=answers(password="nope")))

    asyncio.run(asyncio.wait_for(go(), 60))


def test_non_pam_server_ignores_the_callback(server: Any) -> None:
    called: list[PamChallenge] = []
    with ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                         pam_callback=called.append) as c:
        assert c.server_capabilities  # logged in with the password, no conversation
    assert called == []
