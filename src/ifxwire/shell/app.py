"""The interactive prompt: multi-line input ending at ``;``, history, completion from the
catalog and syntax highlighting (prompt_toolkit and Pygments)."""

from __future__ import annotations

import os
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.filters import Condition
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.lexers import PygmentsLexer
from pygments.lexers.sql import SqlLexer

from .. import Error
from . import describe
from .completion import CatalogCompleter
from .session import ShellSession
from .splitter import is_complete


def history_path() -> Path | None:
    path = os.environ.get("IFXWIRE_HISTFILE", str(Path.home() / ".ifxwire_history"))
    return Path(path) if path else None


def _ready(text: str) -> bool:
    """Enter runs the input when it is a command or ends a statement; otherwise it starts a
    new line."""
    stripped = text.strip()
    if not stripped or stripped.startswith("\\"):
        return True
    if stripped.rstrip(";").lower() in ("quit", "exit"):
        return True
    return is_complete(text)


def interact(shell: ShellSession, history: Path | None) -> int:
    completer = CatalogCompleter()
    bindings = KeyBindings()

    @bindings.add("enter", filter=Condition(lambda: True))
    def _enter(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if buffer.complete_state is not None and buffer.complete_state.current_completion:
            buffer.apply_completion(buffer.complete_state.current_completion)
            return
        if _ready(buffer.text):
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n")

    session: PromptSession[str] = PromptSession(
        history=FileHistory(str(history)) if history else InMemoryHistory(),
        lexer=PygmentsLexer(SqlLexer),
        completer=completer,
        complete_while_typing=False,
        multiline=True,
        key_bindings=bindings,
        prompt_continuation=lambda width, line, wrap: "-> ".rjust(width),
    )
    shell.out.write("ifxwire shell. Statements end with ';'. \\? for help, \\q to quit.\n")
    ok = True
    while not shell.quit:
        if shell.catalog_changed:
            shell.catalog_changed = False
            try:
                completer.load(*describe.completion_names(shell.conn))
            except Error:
                completer.load([], {})  # no database open
        try:
            text = session.prompt(f"{shell.conn.database or '(no database)'}> ")
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        ok = shell.run_text(text, keep_going=True) and ok
    return 0
