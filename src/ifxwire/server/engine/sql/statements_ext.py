"""Informix statement syntax beyond tables, indexes and views: access control (GRANT,
REVOKE, roles), sequences, synonyms, TRUNCATE and constraint modes.

Each ``parse_*`` function takes the statement parser positioned on the statement's first
word and returns an ``IfxStatement`` whose ``meta["spec"]`` is one of the dataclasses below;
``statements.py`` dispatches to them. Kept apart so the core statement grammar stays small.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlglot import exp
from sqlglot.tokenizer_core import TokenType

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from .hooks import PARSERS
from .statement_specs import DropRoutine, _stmt

if TYPE_CHECKING:
    from .statement_specs import TableName
    from .statements_create import CreateParser

# Table-level privileges and their letter in systabauth.tabauth ("su*idxarn").
TABLE_PRIVILEGES = {"SELECT": 0, "UPDATE": 1, "INSERT": 3, "DELETE": 4, "INDEX": 5,
                    "ALTER": 6, "REFERENCES": 7, "UNDER": 8}
DATABASE_PRIVILEGES = ("CONNECT", "RESOURCE", "DBA")


@dataclass
class GrantSpec:
    grant: bool
    kind: str  # table, database, role, routine, language, default_role
    privileges: list[str]
    grantees: list[str]
    table: TableName | None = None
    columns: dict[str, list[str]] = field(default_factory=dict)
    with_grant: bool = False
    grantor: str | None = None
    routine: DropRoutine | None = None  # kind routine: which (GRANT EXECUTE ON …)
    language: str | None = None  # kind language: SPL, C, JAVA (GRANT USAGE ON LANGUAGE …)
    type_name: str | None = None  # kind type: GRANT UNDER ON [ROW] TYPE name
    every: bool = False  # ALL [PRIVILEGES] (its UNDER only for a typed table, ids_sqs_0829)


@dataclass
class RoleSpec:
    name: str | None  # None: SET ROLE NULL/NONE
    if_exists: bool = False
    default: bool = False  # SET ROLE DEFAULT


@dataclass
class SequenceSpec:
    name: TableName
    increment: int | None = None
    start: int | None = None
    restart: int | None = None
    restart_bare: bool = False  # RESTART without a value: at the sequence's START value
    minvalue: int | None = None
    maxvalue: int | None = None
    nominvalue: bool = False
    nomaxvalue: bool = False
    cycle: bool | None = None
    cache: int | None = None
    if_exists: bool = False  # IF [NOT] EXISTS
    new_name: str | None = None  # RENAME SEQUENCE


@dataclass
class SynonymSpec:
    name: TableName
    target: TableName | None = None
    public: bool = True
    if_exists: bool = False


@dataclass
class TruncateSpec:
    table: TableName


@dataclass
class ConstraintModeSpec:
    names: list[str] | None  # None: ALL
    mode: str  # ENABLED, DISABLED, DEFERRED, IMMEDIATE, FILTERING
    table: TableName | None = None  # SET CONSTRAINTS FOR table
    with_error: bool = False  # FILTERING WITH ERROR (sysobjstate 'G'; without: 'F')


@dataclass
class ViolationsSpec:
    """START / STOP VIOLATIONS TABLE FOR table [USING violations, diagnostics] [MAX ROWS n]
    (ids_sqs_1211, ids_sqs_1231)."""
    start: bool
    table: TableName
    violations: str | None = None
    diagnostics: str | None = None
    max_rows: int | None = None


def _user_list(p: CreateParser) -> list[str]:
    users = [_user(p)]
    while p._match(TokenType.COMMA):
        users.append(_user(p))
    return users


def _user(p: CreateParser) -> str:
    tok = p._curr
    if tok and tok.token_type == TokenType.STRING:
        p._advance()
        return tok.text
    return p._name()


def parse_grant(p: CreateParser) -> exp.Expr:
    grant = p._word() == "GRANT"
    p._advance()
    if grant and p._eat("DEFAULT", "ROLE"):
        role = _user(p)
        p._expect_word("TO")
        spec = GrantSpec(True, "default_role", [role], _user_list(p))
        return _stmt("grant", spec)
    if not grant and p._eat("DEFAULT", "ROLE"):
        p._expect_word("FROM")
        return _stmt("revoke", GrantSpec(False, "default_role", [], _user_list(p)))
    privileges: list[str] = []
    columns: dict[str, list[str]] = {}
    every = False
    while True:
        word = p._word()
        if word == "ALL":
            every = True
            p._advance()
            if p._word() == "PRIVILEGES":
                p._advance()
            privileges.extend(TABLE_PRIVILEGES)
        elif word in TABLE_PRIVILEGES or word in DATABASE_PRIVILEGES or word in (
                "EXECUTE", "USAGE"):
            p._advance()
            privileges.append(word)
            if p._curr and p._curr.token_type == TokenType.L_PAREN:
                columns[word] = p._name_list()
        else:
            privileges.append(_user(p))  # a role
        if not p._match(TokenType.COMMA):
            break
    if p._word() == "ON":
        p._advance()
        target = p._word()
        if target in ("PROCEDURE", "FUNCTION", "ROUTINE", "SPECIFIC") or (
                privileges == ["EXECUTE"] and target != "LANGUAGE"):
            keyword = target if target in ("PROCEDURE", "FUNCTION", "ROUTINE",
                                           "SPECIFIC") else ""
            routine = PARSERS.drop_routine(p, keyword)
            spec = GrantSpec(grant, "routine", privileges, [], routine=routine)
        elif target == "LANGUAGE":
            p._advance()
            language = p._word()
            p._advance()
            spec = GrantSpec(grant, "language", privileges, [], language=language)
        elif target == "TYPE" or (target == "ROW" and p._next is not None
                                  and p._next.text.upper() == "TYPE"):
            # Type-level privileges (Syntax, "Type-Level Privileges", ids_sqs_0128: UNDER ON
            # TYPE; "UNDER Privilege", ids_sqs_0833, writes UNDER ON ROW TYPE)
            p._advance()
            if target == "ROW":
                p._advance()
            spec = GrantSpec(grant, "type", privileges, [], type_name=p._name())
        else:
            if target in ("TABLE", "SEQUENCE"):
                p._advance()
            spec = GrantSpec(grant, "table", privileges, [], table=p._table_name(),
                             columns=columns, every=every)
    elif all(w in DATABASE_PRIVILEGES for w in privileges):
        spec = GrantSpec(grant, "database", privileges, [])
    else:
        spec = GrantSpec(grant, "role", privileges, [])
    p._expect_word("TO" if grant else "FROM")
    spec.grantees = _user_list(p)
    while p._curr and p._curr.token_type != TokenType.SEMICOLON:
        if p._eat("WITH", "GRANT", "OPTION"):
            spec.with_grant = True
        elif p._word() == "AS":
            p._advance()
            spec.grantor = _user(p)
        elif p._word() in ("CASCADE", "RESTRICT"):
            p._advance()
        else:
            p.raise_error("Unexpected GRANT option")
    return _stmt("grant" if grant else "revoke", spec)


def parse_role(p: CreateParser, verb: str) -> exp.Expr:
    """CREATE ROLE / DROP ROLE (after the verb and ROLE)."""
    if_exists = p._if_exists(negate=verb == "create")
    return _stmt(f"{verb}_role", RoleSpec(_user(p), if_exists))


def parse_set_role(p: CreateParser) -> exp.Expr:
    word = p._word()
    if word in ("NULL", "NONE"):
        p._advance()
        return _stmt("set_role", RoleSpec(None))
    if word == "DEFAULT":
        p._advance()
        return _stmt("set_role", RoleSpec(None, default=True))
    return _stmt("set_role", RoleSpec(_user(p)))


def _signed(p: CreateParser) -> int:
    neg = p._match(TokenType.DASH)
    if not neg:
        p._match(TokenType.PLUS)
    value = p._int_arg()
    return -value if neg else value


def parse_sequence(p: CreateParser, verb: str) -> exp.Expr:
    """CREATE / ALTER / DROP / RENAME SEQUENCE, after the verb and SEQUENCE."""
    if_exists = p._if_exists(negate=verb == "create")
    spec = SequenceSpec(p._table_name(), if_exists=if_exists)
    if verb == "rename":
        p._expect_word("TO")
        spec.new_name = p._name()
    seen: set[str] = set()
    while verb in ("create", "alter") and p._curr and (
            p._curr.token_type != TokenType.SEMICOLON):
        word = p._word()
        group = _SEQUENCE_OPTION_GROUPS.get(word, word)
        if group in seen:
            # "Use path no more than once" (ids_sqs_0281, ids_sqs_0277)
            raise EngineError(sc.SEQUENCE_OPTION_TWICE, near=word)
        seen.add(group)
        p._advance()
        if word == "INCREMENT":
            if p._word() == "BY":
                p._advance()
            spec.increment = _signed(p)
        elif word == "START":
            if p._word() == "WITH":
                p._advance()
            spec.start = _signed(p)
        elif word == "RESTART" and verb == "alter":
            if p._word() == "WITH":
                p._advance()
            if p._curr and p._curr.token_type in (
                    TokenType.NUMBER, TokenType.DASH, TokenType.PLUS):
                spec.restart = _signed(p)
            else:
                # its own flag: 0 is a value (RESTART WITH 0 below a MINVALUE of 1 is
                # -8309), where it used to stand for "no value" (fifteenth round)
                spec.restart_bare = True
        elif word == "MAXVALUE":
            spec.maxvalue = _signed(p)
        elif word == "MINVALUE":
            spec.minvalue = _signed(p)
        elif word == "NOMAXVALUE":
            spec.nomaxvalue = True
        elif word == "NOMINVALUE":
            spec.nominvalue = True
        elif word == "CYCLE":
            spec.cycle = True
        elif word == "NOCYCLE":
            spec.cycle = False
        elif word == "CACHE":
            spec.cache = p._int_arg()
        elif word == "NOCACHE":
            spec.cache = 0  # ids_sqs_2020: NOCACHE; syssequences.cache 0
        elif word in ("ORDER", "NOORDER"):
            pass
        else:
            p.raise_error("Unexpected sequence option", p._prev)
    if verb == "alter" and not seen:
        raise EngineError(sc.SEQUENCE_NO_OPTIONS, near=spec.name.name)
    return _stmt(f"{verb}_sequence", spec)


#: Sequence options that exclude each other: one of each group per statement (-8303).
_SEQUENCE_OPTION_GROUPS = {
    "NOMAXVALUE": "MAXVALUE", "NOMINVALUE": "MINVALUE", "NOCYCLE": "CYCLE",
    "NOCACHE": "CACHE", "NOORDER": "ORDER"}


def parse_synonym(p: CreateParser, verb: str, public: bool) -> exp.Expr:
    """CREATE [PUBLIC|PRIVATE] SYNONYM name FOR table / DROP SYNONYM name."""
    if_exists = p._if_exists(negate=verb == "create")
    spec = SynonymSpec(p._table_name(), public=public, if_exists=if_exists)
    if verb == "create":
        p._expect_word("FOR")
        spec.target = p._table_name()
    return _stmt(f"{verb}_synonym", spec)


def parse_truncate(p: CreateParser) -> exp.Expr:
    p._advance()
    if p._word() == "TABLE":
        p._advance()
    if p._word() == "ONLY":
        p._advance()
    spec = TruncateSpec(p._table_name())
    while p._curr and p._curr.token_type != TokenType.SEMICOLON:
        if p._word() in ("DROP", "REUSE"):
            p._advance()
            p._expect_word("STORAGE")
        elif p._word() == "KEEP":
            p._advance()
            p._expect_word("STATISTICS")
        else:
            p.raise_error("Unexpected TRUNCATE option")
    return _stmt("truncate", spec)


_MODES = ("ENABLED", "DISABLED", "DEFERRED", "IMMEDIATE", "FILTERING")


def parse_set_constraints(p: CreateParser) -> exp.Expr:
    """SET CONSTRAINTS {ALL | name[, …] | FOR table} mode (after SET CONSTRAINTS)."""
    names: list[str] | None = None
    table = None
    if p._word() == "ALL":
        p._advance()
    else:
        names, table = _object_names(p)
    mode = p._word()
    if mode not in _MODES:
        p.raise_error("Expected a constraint mode")
    p._advance()
    with_error = _filtering_option(p) if mode == "FILTERING" else False
    return _stmt("set_constraints", ConstraintModeSpec(names, mode, table, with_error))


def _filtering_option(p: CreateParser) -> bool:
    """FILTERING's error option: WITH ERROR, WITHOUT ERROR, or none (WITHOUT ERROR is the
    default: ids_sqs_1103, "Filtering Modes"); True for WITH ERROR."""
    if p._word() == "WITH" and p._word(1) == "ERROR":
        p._advance(2)
        return True
    if p._word() == "WITHOUT" and p._word(1) == "ERROR":
        p._advance(2)
    return False


def parse_violations(p: CreateParser) -> exp.Expr:
    """START | STOP VIOLATIONS TABLE FOR [owner.]table, START with [USING violations,
    diagnostics] [MAX ROWS n] (Guide to SQL: Syntax, ids_sqs_1211 / ids_sqs_1231): positioned
    on START or STOP. MAX ROWS takes an integer from 1 to the INTEGER maximum."""
    start = p._word() == "START"
    p._advance()
    p._expect_word("VIOLATIONS")
    p._expect_word("TABLE")
    p._expect_word("FOR")
    spec = ViolationsSpec(start, p._table_name())
    if start and p._word() == "USING":
        p._advance()
        spec.violations = p._name()
        if not p._match(TokenType.COMMA):
            p.raise_error("Expected the diagnostics table's name")
        spec.diagnostics = p._name()
    if start and p._word() == "MAX":
        p._advance()
        p._expect_word("ROWS")
        tok = p._curr
        if tok is None or tok.token_type != TokenType.NUMBER or not tok.text.isdigit() or not (
                1 <= int(tok.text) <= 2**31 - 1):
            p.raise_error("Expected a number of rows")
        assert tok is not None
        spec.max_rows = int(tok.text)
        p._advance()
    if p._curr and p._curr.token_type != TokenType.SEMICOLON:
        p.raise_error("Unexpected text after VIOLATIONS TABLE")
    return _stmt("start_violations" if start else "stop_violations", spec)


def _object_names(p: CreateParser) -> tuple[list[str] | None, TableName | None]:
    """The objects of a SET … mode statement: ``FOR table`` or a list of names."""
    if p._word() == "FOR":
        p._advance()
        return None, p._table_name()
    names = [p._name()]
    while p._match(TokenType.COMMA):
        names.append(p._name())
    return names, None


@dataclass
class ObjectModesSpec:
    """SET CONSTRAINTS, INDEXES, TRIGGERS FOR table mode: each kind's own statement."""

    parts: list[tuple[str, ConstraintModeSpec]]


def parse_set_modes(p: CreateParser) -> exp.Expr:
    """The table format with several object types (Guide to SQL: Syntax, SET Database
    Object Mode, ids_sqs_1099: "In table format, you can change the modes of more than one
    database object type with a single statement", ``SET CONSTRAINTS, INDEXES, TRIGGERS FOR
    cust_subset ENABLED``), positioned on the first type. Each type once; the mode must suit
    every type named (DEFERRED / IMMEDIATE are constraints' only, FILTERING not triggers')."""
    kinds: list[str] = []
    while True:
        w = p._word()
        if w not in ("CONSTRAINTS", "INDEXES", "TRIGGERS") or w in kinds:
            p.raise_error("Expected CONSTRAINTS, INDEXES or TRIGGERS")
        kinds.append(w)
        p._advance()
        if not p._match(TokenType.COMMA):
            break
    p._expect_word("FOR")
    table = p._table_name()
    mode = p._word()
    allowed = {"ENABLED", "DISABLED"} | (set() if "TRIGGERS" in kinds else {"FILTERING"})
    if mode not in allowed:
        p.raise_error("Expected an object mode")
    p._advance()
    with_error = _filtering_option(p) if mode == "FILTERING" else False
    names = {"CONSTRAINTS": "set_constraints", "INDEXES": "set_indexes",
             "TRIGGERS": "set_triggers"}
    return _stmt("set_modes", ObjectModesSpec([
        (names[k], ConstraintModeSpec(None, mode, table, with_error)) for k in kinds]))


def parse_set_object_mode(p: CreateParser, objects: str) -> exp.Expr:
    """SET TRIGGERS / SET INDEXES {name[, …] | FOR table} mode (after the keyword): the other
    forms of the SET Database Object Mode statement (Guide to SQL: Syntax 14.10, "SET
    Database Object Mode statement"). A trigger is ENABLED or DISABLED (DEFERRED and
    IMMEDIATE are constraint modes only: -201); an index may also be FILTERING [WITH[OUT]
    ERROR] (a unique one only: features/object_modes.py checks that)."""
    names, table = _object_names(p)
    mode = p._word()
    allowed = ("ENABLED", "DISABLED") if objects == "TRIGGERS" else (
        "ENABLED", "DISABLED", "FILTERING")
    if mode not in allowed:
        p.raise_error("Expected an object mode")
    p._advance()
    with_error = _filtering_option(p) if mode == "FILTERING" else False
    kind = "set_triggers" if objects == "TRIGGERS" else "set_indexes"
    return _stmt(kind, ConstraintModeSpec(names, mode, table, with_error))
