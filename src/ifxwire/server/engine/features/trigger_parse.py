"""CREATE TRIGGER and DROP TRIGGER as text: the statement's grammar, its checks, and the
parsed body (BEFORE, FOR EACH ROW and AFTER actions) that triggers.py stores and fires.

The actions' statements are read by the SPL parser (``spl/parser.py``), as a routine's are;
the correlation and re-entrancy rules are ``trigger_rules.py``'s. Apart from triggers.py,
which keeps the catalogue rows and the firing around DML, so each file has one job (the
~800-line rule); triggers.py registers these parsers with the sql layer's hooks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp
from sqlglot.tokenizer_core import TokenType

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..schema.triggers import Trigger
from . import trigger_rules as rules
from .spl import ast as a
from .spl.client_statements import drop_target
from .spl.parser import SplParser

_STMT_WORDS = ("INSERT", "UPDATE", "DELETE", "EXECUTE")


@dataclass(eq=False)
class Action(a.ExprNode):
    when: exp.Expr | None = None
    stmts: list[a.Node] = field(default_factory=list)


@dataclass(eq=False)
class TriggerBody:
    before: list[Action]
    each_row: list[Action]
    after: list[Action]
    scope: dict[str, a.VarDecl]


@dataclass
class CreateTrigger:
    trigger: Trigger
    body: TriggerBody
    owner: str | None = None


@dataclass
class DropTrigger:
    name: str
    owner: str | None = None
    if_exists: bool = False


# ---- parsing ----------------------------------------------------------------------------------
def parse_create_trigger(p: Any) -> CreateTrigger:
    """CREATE TRIGGER, with the statement parser ``p`` at TRIGGER (after CREATE)."""
    sp = SplParser(p.sql, p._tokens)
    sp.i = p._index
    sp.expect("TRIGGER")
    owner, name = sp.qualified_name()
    start = sp.pos()
    instead = sp.eat("INSTEAD", "OF")
    event_word = sp.word()
    if event_word not in ("INSERT", "UPDATE", "DELETE", "SELECT"):
        raise sp.error()
    sp.i += 1
    columns: list[str] = []
    if instead and sp.word() == "OF":
        # "No OF column clause is valid in an INSTEAD OF UPDATE trigger" (ids_sqs_0639): the
        # INSTEAD OF event's diagram has no OF, so a syntax error [inference: no code named]
        raise sp.error()
    if event_word in ("UPDATE", "SELECT") and sp.eat("OF"):
        of_at = sp.i
        columns = sp.names()
        for k, col in enumerate(columns):
            if col in columns[:k]:
                # [jcat] -542 "Cannot specify a column more than once in a constraint,
                # trigger, or index." (UPDATE / SELECT Event: a column once in the OF list)
                raise EngineError(sc.COLUMN_TWICE, near=col, offset=sp.toks[of_at].start)
    sp.expect("ON")
    table = sp.qualified_name()[1]
    refs: dict[str, str] = {}
    if sp.eat("REFERENCING"):
        refs = sp.referencing()
    event = event_word[0]
    if instead:
        if event == "S":
            # [jcat] -19826; "No SELECT event ... is valid in an INSTEAD OF trigger" (ids_sqs_0639)
            raise EngineError(sc.INSTEAD_SELECT, offset=start)
        event = event.lower()
    if (event in "Ii" and "old" in refs) or (event in "Dd" and "new" in refs):
        raise sp.error()
    scope: dict[str, a.VarDecl] = {}
    for which, alias in refs.items():
        scope[alias] = a.VarDecl(alias, None, slot=-2 if which == "old" else -3, row=True,
                                 like=(None, table, ""))
    body = TriggerBody([], [], [], scope)
    if instead and sp.word() in ("BEFORE", "AFTER"):
        # [jcat] -19824; "No BEFORE nor AFTER action is valid in an INSTEAD OF trigger"
        raise EngineError(sc.INSTEAD_BEFORE_AFTER, near=sp.word(), offset=sp.pos())
    if sp.eat("BEFORE"):
        body.before = _actions(sp, table, False)
    if sp.eat("FOR", "EACH", "ROW"):
        body.each_row = _actions(sp, table, True, instead)
    elif instead:
        raise sp.error()
    if instead and sp.word() in ("BEFORE", "AFTER"):
        raise EngineError(sc.INSTEAD_BEFORE_AFTER, near=sp.word(), offset=sp.pos())
    if sp.eat("AFTER"):
        body.after = _actions(sp, table, False)
    if not (body.before or body.each_row or body.after):
        raise sp.error()
    rules.check_correlations(body, set(refs.values()))
    if not instead:
        rules.check_reentrancy(body, table.lower(), event, columns)
    if refs and not body.each_row:
        # [jcat] -730; Correlated Table Action (ids_sqs_0617): with a REFERENCING clause "you
        # must include a FOR EACH ROW triggered-action list"
        raise EngineError(sc.REFERENCING_NEEDS_ROW, offset=start)
    enabled = True
    if sp.word() in ("ENABLED", "DISABLED"):
        enabled = sp.word() == "ENABLED"
        sp.i += 1
    if not refs and body.each_row:
        pass  # FOR EACH ROW without REFERENCING cannot name the row: still valid
    p._advance(sp.i - p._index)
    trig = Trigger(0, name, owner or "", table, event, columns, refs.get("old"),
                   refs.get("new"), p.sql.strip(), enabled)
    return CreateTrigger(trig, body, owner)


def _actions(sp: Any, table: str, each_row: bool, instead: bool = False) -> list[Action]:
    out = [_action(sp, table, each_row, instead)]
    while sp.is_type(TokenType.COMMA) and (
            sp.word(1) == "WHEN" or sp.is_type(TokenType.L_PAREN, 1)):
        sp.i += 1
        out.append(_action(sp, table, each_row, instead))
    return out


def _action(sp: Any, table: str, each_row: bool, instead: bool = False) -> Action:
    """One ``[WHEN (cond)] (stmt, …)`` action. An INSTEAD OF trigger's action list has no
    WHEN and no INTO (ids_sqs_0638's diagram; the restrictions of ids_sqs_0639)."""
    node = Action(sp.pos())
    if instead and sp.word() == "WHEN":
        # [jcat] -19825; "No SELECT event or WHEN clause is valid in an INSTEAD OF trigger"
        raise EngineError(sc.INSTEAD_WHEN, near="WHEN", offset=sp.pos())
    if sp.eat("WHEN"):
        sp.expect_type(TokenType.L_PAREN)
        node.when = sp.expr()
        sp.expect_type(TokenType.R_PAREN)
    sp.expect_type(TokenType.L_PAREN)
    start = sp.i
    depth = 0
    pieces: list[tuple[int, int]] = []
    piece = start
    while True:
        tok = sp.tok()
        if tok is None:
            raise sp.error()
        tt = tok.token_type
        if tt == TokenType.L_PAREN:
            depth += 1
        elif tt == TokenType.R_PAREN:
            if depth == 0:
                pieces.append((piece, sp.i))
                break
            depth -= 1
        elif tt == TokenType.COMMA and depth == 0 and sp.word(1) in _STMT_WORDS:
            pieces.append((piece, sp.i))
            piece = sp.i + 1
        sp.i += 1
    end = sp.i
    for lo, hi in pieces:
        if lo >= hi:
            raise sp.error()
        first = sp.toks[lo].text.upper()
        if first == "EXECUTE":
            sp.i = lo
            call = sp.execute_call()
            if sp.i != hi:
                raise sp.error()
            if call.into and instead:
                # [jcat] -19823 "Cannot use EXECUTE PROCEDURE INTO with the INSTEAD OF
                # trigger" (EXECUTE FUNCTION … INTO too: our reading, the same clause)
                raise EngineError(sc.INSTEAD_EXECUTE_INTO, offset=sp.toks[lo].start)
            if call.into and not each_row:
                raise sp.error()  # INTO is for the FOR EACH ROW actions only
            node.stmts.append(call)
        elif first in ("INSERT", "UPDATE", "DELETE"):
            node.stmts.append(sp.sql_from(lo, hi))
        else:
            raise sp.error(tok=sp.toks[lo])
    sp.i = end + 1
    return node


def parse_drop_trigger(p: Any) -> DropTrigger:
    p._advance()  # TRIGGER
    if_exists, owner, name = drop_target(p)
    return DropTrigger(name, owner, if_exists)
