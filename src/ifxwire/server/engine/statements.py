"""Informix statement syntax: DDL, DATABASE, transactions, SET …; and the ``parse`` entry point.

Queries and DML (SELECT, INSERT, UPDATE, DELETE, WITH) are parsed by sqlglot with the
expression-level dialect of ``dialect.py``. Everything else Informix-specific is parsed here into
an ``IfxStatement`` node whose ``meta["spec"]`` is one of the dataclasses below, so the DDL
executor reads plain fields instead of re-walking syntax.
"""

from __future__ import annotations

import typing as t
from dataclasses import dataclass, field

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect, NormalizationStrategy
from sqlglot.errors import ErrorLevel, ParseError, TokenError
from sqlglot.tokenizer_core import TokenType

from ...protocol.codes import StmtType, TypeCode
from . import sqlcodes as sc
from . import statements_ext as ext
from .dialect import (
    _TYPE_WORDS,
    IfxDelimidentTokenizer,
    IfxExprParser,
    IfxParseError,
    IfxTokenizer,
    ifx_type_node,
)
from .errors import EngineError, not_implemented
from .ifxtypes import IfxType
from .shape import balance_chains, check_nesting


@dataclass
class TableName:
    name: str
    owner: str | None = None
    database: str | None = None
    offset: int = 0


@dataclass
class DefaultSpec:
    kind: str  # L literal, N null, U user, T today, C current, S dbservername
    value: exp.Expr | None = None
    ifx: IfxType | None = None
    text: str = ""


@dataclass
class ConstraintSpec:
    kind: str  # P primary key, U unique, C check, R references, N not null
    columns: list[str]
    name: str | None = None
    check: exp.Expr | None = None
    check_text: str = ""
    ref_table: TableName | None = None
    ref_columns: list[str] = field(default_factory=list)
    cascade: bool = False
    owner: str | None = None


@dataclass
class ColumnSpec:
    name: str
    type: IfxType
    serial_start: int | None = None
    default: DefaultSpec | None = None
    constraints: list[ConstraintSpec] = field(default_factory=list)
    before: str | None = None


@dataclass
class CreateTable:
    table: TableName
    columns: list[ColumnSpec]
    constraints: list[ConstraintSpec]
    temp: bool = False
    if_not_exists: bool = False
    # PUT column IN (sbspace, ...): smart-LOB storage per column (checked by ddl.create_table)
    put: list[tuple[str, list[str]]] = field(default_factory=list)


@dataclass
class CreateTableAs:
    table: TableName
    columns: list[str]  # new names for the query's columns, or empty
    query: exp.Expr
    if_not_exists: bool = False


@dataclass
class CreateIndex:
    name: TableName
    table: TableName
    columns: list[tuple[str, bool]]  # (column, descending)
    unique: bool = False
    if_not_exists: bool = False


@dataclass
class CreateView:
    name: TableName
    columns: list[str]
    query: exp.Expr
    text: str
    if_not_exists: bool = False
    check_option: bool = False


@dataclass
class DropObject:
    kind: str  # TABLE, VIEW, INDEX, DATABASE
    name: TableName
    if_exists: bool = False


@dataclass
class AlterTable:
    table: TableName
    add: list[ColumnSpec] = field(default_factory=list)
    drop: list[str] = field(default_factory=list)
    add_constraints: list[ConstraintSpec] = field(default_factory=list)
    drop_constraints: list[str] = field(default_factory=list)
    modify: list[ColumnSpec] = field(default_factory=list)


@dataclass
class SavepointSpec:
    name: str
    unique: bool = False


@dataclass
class Rename:
    kind: str  # TABLE or COLUMN
    table: TableName
    column: str | None
    new_name: str


@dataclass
class DatabaseSpec:
    name: str
    logged: bool = False
    buffered: bool = False
    ansi: bool = False
    exclusive: bool = False


@dataclass
class SetSpec:
    what: str  # LOCK, ISOLATION, OTHER
    wait: int | None = None  # None: NOT WAIT, -1: WAIT forever, n seconds


@dataclass
class LockSpec:
    table: TableName
    lock: bool


# Built-in types dbexport writes owner-qualified ("informix".boolean): name -> type from the
# parenthesised numbers.
_OWNED_TYPES: dict[str, t.Callable[[list[int]], IfxType]] = {
    "BOOLEAN": lambda args: IfxType(TypeCode.BOOLEAN),
    "LVARCHAR": lambda args: IfxType(TypeCode.LVARCHAR, size=args[0] if args else 2048),
}
# Types a real Informix has that this server does not store: refused with -999, not -9628.
_UNSUPPORTED_TYPES = frozenset((
    "BLOB", "CLOB", "BSON", "JSON", "IDSSECURITYLABEL",
    "POINTER", "LOLIST", "IMPEXP", "IMPEXPBIN", "SENDRECV", "STAT", "CLIENTBINVAL",
    "INDEXKEYARRAY", "RTNPARAMTYPES", "CALL_TRACE", "SELFUNCARGS", "TIMESERIES",
))


def _fold(ident: exp.Expr) -> str:
    """An identifier's name as Informix keeps it: delimited ones as written, others in lower
    case."""
    if isinstance(ident, exp.Identifier) and ident.quoted:
        return ident.name
    return ident.name.lower()


class IfxStatement(exp.Expression):
    """A non-query statement: ``this`` is the kind, ``meta['spec']`` its dataclass."""

    arg_types: t.ClassVar[dict[str, bool]] = {"this": True}


def _stmt(kind: str, spec: object = None) -> IfxStatement:
    node = IfxStatement(this=kind)
    node.meta["spec"] = spec
    return node


# StmtType per statement kind (ESQL/C sqlstype.h numbering, carried in SQ_DESCRIBE).
STMT_TYPES: dict[str, int] = {
    "database": StmtType.DATABASE,
    "close_database": StmtType.CLOSE_DATABASE,
    "create_database": StmtType.CREATE_DATABASE,
    "drop_database": StmtType.DROP_DATABASE,
    "create_table": StmtType.CREATE_TABLE,
    "create_table_as": StmtType.CREATE_TABLE,
    "create_temp_table": StmtType.CREATE_TEMP_TABLE,
    "drop_table": StmtType.DROP_TABLE,
    "create_index": StmtType.CREATE_INDEX,
    "drop_index": StmtType.DROP_INDEX,
    "create_view": StmtType.CREATE_VIEW,
    "drop_view": StmtType.DROP_VIEW,
    "alter_table": StmtType.ALTER,
    "rename_table": StmtType.RENAME_TABLE,
    "rename_column": StmtType.RENAME_COLUMN,
    "begin": StmtType.BEGIN_WORK,
    "commit": StmtType.COMMIT_WORK,
    "rollback": StmtType.ROLLBACK_WORK,
    "set_lock_mode": StmtType.SET_LOCK_MODE,
    "set_isolation": StmtType.SET_ISOLATION,
    "set_other": StmtType.UNKNOWN,
    "update_statistics": StmtType.UPDATE_STATISTICS,
    "lock_table": StmtType.LOCK,
    "unlock_table": StmtType.UNLOCK,
    "grant": StmtType.GRANT,
    "revoke": StmtType.REVOKE,
    "execute_routine": StmtType.EXECUTE_PROCEDURE,
    "savepoint": StmtType.SET_SAVEPOINT,
    "release_savepoint": StmtType.RELEASE_SAVEPOINT,
    "rollback_to_savepoint": StmtType.ROLLBACK_TO_SAVEPOINT,
    "rename_index": StmtType.RENAME_INDEX,
    "create_role": StmtType.CREATE_ROLE,
    "drop_role": StmtType.DROP_ROLE,
    "set_role": StmtType.SET_ROLE,
    "create_sequence": StmtType.CREATE_SEQUENCE,
    "alter_sequence": StmtType.ALTER_SEQUENCE,
    "drop_sequence": StmtType.DROP_SEQUENCE,
    "rename_sequence": StmtType.RENAME_SEQUENCE,
    "create_synonym": StmtType.CREATE_SYNONYM,
    "drop_synonym": StmtType.DROP_SYNONYM,
    "truncate": StmtType.TRUNCATE,
    "set_constraints": StmtType.SET_CONSTRAINTS,
    "create_routine": StmtType.CREATE_PROCEDURE,
    "drop_routine": StmtType.DROP_PROCEDURE,
    "create_trigger": StmtType.CREATE_TRIGGER,
    "drop_trigger": StmtType.DROP_TRIGGER,
}


class IfxParser(IfxExprParser):
    """Statement-level Informix syntax."""

    # ---- entry
    def _parse_statement(self) -> exp.Expr | None:
        if not self._curr:
            return None
        word = self._word()
        handler = _HANDLERS.get(word)
        if handler is not None:
            index = self._index
            stmt = handler(self)
            if stmt is not None:
                return stmt
            self._retreat(index)
        if word in ("SELECT", "WITH", "(") or self._curr.token_type == TokenType.L_PAREN:
            query = super()._parse_statement()
            if self._word() == "INTO":
                if self._word(1) in ("TEMP", "SCRATCH") and query is not None:
                    self._advance(2)
                    name = self._table_name()
                    if self._word() == "WITH":
                        self._expect_word("WITH", "NO", "LOG")
                    query.meta["into_temp"] = name
                else:
                    raise not_implemented("SELECT INTO")
            return query
        return super()._parse_statement()

    def _rest(self) -> None:
        while self._curr and self._curr.token_type != TokenType.SEMICOLON:
            self._advance()

    def _name(self) -> str:
        """An identifier, folded to lower case unless it was delimited."""
        tok = self._curr
        if tok is None or tok.token_type in (TokenType.L_PAREN, TokenType.R_PAREN,
                                             TokenType.COMMA, TokenType.SEMICOLON,
                                             TokenType.STRING, TokenType.NUMBER):
            self.raise_error("Expected a name")
            raise AssertionError
        self._advance()
        return tok.text if tok.token_type == TokenType.IDENTIFIER else tok.text.lower()

    def _table_name(self) -> TableName:
        start = self._curr.start if self._curr else 0
        node = self._parse_table_parts(schema=True)
        if not isinstance(node, exp.Table):
            self.raise_error("Expected a table name")
            raise AssertionError
        owner = node.args.get("db")
        db = node.args.get("catalog")
        return TableName(_fold(node.this), _fold(owner) if owner else None,
                         db.name.lower() if db else None, start)

    def _name_list(self) -> list[str]:
        self._match_l_paren()
        names = [self._name()]
        while self._match(TokenType.COMMA):
            names.append(self._name())
        self._match_r_paren()
        return names

    def _if_exists(self, negate: bool) -> bool:
        words = ("IF", "NOT", "EXISTS") if negate else ("IF", "EXISTS")
        if all(self._word(i) == w for i, w in enumerate(words)):
            self._advance(len(words))
            return True
        return False

    # ---- CREATE
    def _parse_ifx_create(self) -> exp.Expr | None:
        self._advance()
        word = self._word()
        if word in ("TEMP", "STANDARD", "RAW", "SCRATCH"):
            self._advance()
            if self._word() != "TABLE":
                return None
            return self._create_table(temp=word in ("TEMP", "SCRATCH"))
        if word == "TABLE":
            return self._create_table(temp=False)
        if word == "DISTINCT" and self._word(1) == "TYPE":
            from .distinct import parse_create_distinct_type

            return _stmt("create_distinct_type", parse_create_distinct_type(self))
        if word == "ROW" and self._word(1) == "TYPE":
            from .composite import parse_create_row_type

            return _stmt("create_row_type", parse_create_row_type(self))
        if word in ("UNIQUE", "DISTINCT", "CLUSTER", "INDEX"):
            return self._create_index()
        if word == "VIEW":
            return self._create_view()
        if word == "DATABASE":
            return self._create_database()
        if word == "TRIGGER":
            from .triggers import parse_create_trigger

            return _stmt("create_trigger", parse_create_trigger(self))
        if word in ("ROLE", "SEQUENCE"):
            self._advance()
            return ext.parse_role(self, "create") if word == "ROLE" else (
                ext.parse_sequence(self, "create"))
        if word in ("PUBLIC", "PRIVATE", "SYNONYM"):
            if word != "SYNONYM":
                self._advance()
            self._expect_word("SYNONYM")
            return ext.parse_synonym(self, "create", public=word != "PRIVATE")
        raise not_implemented(f"CREATE {word}")

    def _create_table(self, temp: bool) -> exp.Expr:
        self._advance()  # TABLE
        if_not_exists = self._if_exists(negate=True)
        table = self._table_name()
        as_select = None if temp else self._as_select_columns()
        if as_select is not None:
            query = self._parse_select()
            if query is None:
                self.raise_error("Expected a SELECT")
                raise AssertionError
            return _stmt("create_table_as", CreateTableAs(table, as_select, query,
                                                          if_not_exists))
        columns: list[ColumnSpec] = []
        constraints: list[ConstraintSpec] = []
        self._match_l_paren()
        while True:
            cons = self._table_constraint()
            if cons is not None:
                constraints.append(cons)
            else:
                columns.append(self._column_def())
            if not self._match(TokenType.COMMA):
                break
        self._match_r_paren()
        put = self._table_options()
        spec = CreateTable(table, columns, constraints, temp, if_not_exists, put)
        return _stmt("create_temp_table" if temp else "create_table", spec)

    def _as_select_columns(self) -> list[str] | None:
        """For ``CREATE TABLE t [(a, b)] AS SELECT``: the column names (maybe none), with the
        parser past AS; None (parser unmoved) for a table defined by its columns."""
        index = self._index
        names: list[str] = []
        if self._match(TokenType.L_PAREN):
            while self._curr and self._curr.token_type not in (TokenType.L_PAREN,
                                                               TokenType.R_PAREN):
                if not self._match(TokenType.COMMA):
                    names.append(self._name())
                    if self._curr and self._curr.token_type not in (TokenType.COMMA,
                                                                    TokenType.R_PAREN):
                        break  # a type follows the name: column definitions
            if not self._match(TokenType.R_PAREN):
                self._retreat(index)
                return None
        if self._word() != "AS":
            self._retreat(index)
            return None
        self._advance()
        return names

    def _table_options(self) -> list[tuple[str, list[str]]]:
        put: list[tuple[str, list[str]]] = []
        while self._curr and self._curr.token_type != TokenType.SEMICOLON:
            w = self._word()
            if w == "PUT":
                self._advance()
                put.extend(self._put_clause())
            elif w == "WITH":
                self._advance()
                self._advance()  # NO / CRCOLS / ROWIDS / ERKEY ...
                if self._word() == "LOG":
                    self._advance()
            elif w == "IN":
                self._advance(2)
            elif w in ("EXTENT", "NEXT"):
                self._expect_word(w, "SIZE")
                self._int_arg()
            elif w == "LOCK":
                self._expect_word("LOCK", "MODE")
                self._match_l_paren() if self._curr.token_type == TokenType.L_PAREN else None
                self._advance()
                self._match(TokenType.R_PAREN)
            elif w in ("STATCHANGE", "STATLEVEL"):
                self._advance(2)
            elif w == "COMPRESSED":
                self._advance()
            else:
                self.raise_error("Unexpected table option")
        return put

    def _put_clause(self) -> list[tuple[str, list[str]]]:
        """``col IN (sbspace, ...) [(EXTENT SIZE n, [NO] LOG, ...)]``, comma-separated."""
        out: list[tuple[str, list[str]]] = []
        while True:
            column = self._name()
            self._expect_word("IN")
            spaces = self._name_list()
            if self._curr and self._curr.token_type == TokenType.L_PAREN:
                depth = 0
                while self._curr:  # storage options: accepted, not emulated
                    if self._curr.token_type == TokenType.L_PAREN:
                        depth += 1
                    elif self._curr.token_type == TokenType.R_PAREN:
                        depth -= 1
                    self._advance()
                    if depth == 0:
                        break
            out.append((column, spaces))
            if not (self._curr and self._curr.token_type == TokenType.COMMA
                    and self._next is not None and self._next.token_type != TokenType.L_PAREN):
                return out
            self._advance()

    def _owner_prefix(self) -> str | None:
        """``owner.`` before a name (owner undelimited, quoted or, with DELIMIDENT,
        delimited), as dbschema prints it: ``constraint "burnetg".n100_2``."""
        tok = self._curr
        if tok is None or self._next is None or self._next.token_type != TokenType.DOT:
            return None
        if tok.token_type not in (TokenType.STRING, TokenType.IDENTIFIER, TokenType.VAR) and (
            tok.token_type not in self.ID_VAR_TOKENS
        ):
            return None
        self._advance(2)
        return tok.text if tok.token_type in (TokenType.STRING, TokenType.IDENTIFIER) else (
            tok.text.lower())

    def _constraint_name(self, cons: ConstraintSpec) -> None:
        cons.owner = self._owner_prefix()
        cons.name = self._name()

    def _constraint_name_suffix(self, cons: ConstraintSpec) -> ConstraintSpec:
        if self._word() == "CONSTRAINT":
            self._advance()
            self._constraint_name(cons)
        return cons

    def _table_constraint(self) -> ConstraintSpec | None:
        prefix = ConstraintSpec("", [])
        index = self._index
        if self._word() == "CONSTRAINT":
            self._advance()
            self._constraint_name(prefix)
        w = self._word()
        cons: ConstraintSpec | None = None
        if self._eat("PRIMARY", "KEY"):
            cons = ConstraintSpec("P", self._name_list())
        elif w in ("UNIQUE", "DISTINCT") and self._next and (
            self._next.token_type == TokenType.L_PAREN
        ):
            self._advance()
            cons = ConstraintSpec("U", self._name_list())
        elif w == "CHECK":
            cons = self._check_constraint([])
        elif self._eat("FOREIGN", "KEY"):
            cols = self._name_list()
            cons = self._references(cols)
        if cons is None:
            self._retreat(index)
            return None
        cons.name, cons.owner = prefix.name, prefix.owner
        return self._constraint_name_suffix(cons)

    def _check_constraint(self, columns: list[str]) -> ConstraintSpec:
        self._advance()  # CHECK
        lparen = self._curr
        self._match_l_paren()
        expr = self._parse_assignment()
        rparen = self._curr
        self._match_r_paren()
        text = self.sql[lparen.end + 1 : rparen.start].strip() if rparen else ""
        return ConstraintSpec("C", columns, check=expr, check_text=text)

    def _references(self, columns: list[str]) -> ConstraintSpec:
        self._expect_word("REFERENCES")
        ref = self._table_name()
        ref_cols: list[str] = []
        if self._curr and self._curr.token_type == TokenType.L_PAREN:
            ref_cols = self._name_list()
        cascade = False
        if self._word() == "ON":
            self._expect_word("ON", "DELETE", "CASCADE")
            cascade = True
        return ConstraintSpec("R", columns, ref_table=ref, ref_columns=ref_cols, cascade=cascade)

    def _column_type(self) -> exp.DataType:
        """A column or parameter type, built-in types also owner-qualified as dbexport prints
        them (``"informix".boolean``). Types Informix has and we lack are -999; a name that is
        no type at all is -9628, as on a real server."""
        start = self._index
        owner = self._owner_prefix()
        word = self._word()
        if owner is not None and word not in _TYPE_WORDS:
            owner_type = _OWNED_TYPES.get(word)
            if owner_type is not None:
                self._advance()
                args = self._paren_ints()
                return ifx_type_node(owner_type(args))
        node = self._parse_types(schema=True) if word in _TYPE_WORDS else None
        if isinstance(node, exp.DataType) and node.meta.get("ifx") is not None:
            return node
        self._retreat(start)
        self._owner_prefix()
        if word in _UNSUPPORTED_TYPES:
            raise not_implemented(f"column type {word}")
        if self._curr is not None and self._curr.token_type in (TokenType.VAR,
                                                                  TokenType.IDENTIFIER):
            # Perhaps a named ROW type: resolved against the catalog when the DDL runs, which
            # answers -9628 if there is no such type (server/engine/composite.py).
            from .composite import named_placeholder

            self._advance()
            return ifx_type_node(named_placeholder(word.lower()))
        raise EngineError(sc.TYPE_NOT_FOUND, near=word.lower(),
                          offset=self._curr.start if self._curr else 0)

    def _column_def(self) -> ColumnSpec:
        name = self._name()
        node = self._column_type()
        col = ColumnSpec(name, node.meta["ifx"], node.meta.get("serial_start"))
        while self._curr and self._curr.token_type not in (TokenType.COMMA, TokenType.R_PAREN,
                                                           TokenType.SEMICOLON):
            w = self._word()
            prefix: str | None = None
            if w == "CONSTRAINT":
                self._advance()
                prefix = self._name()
                w = self._word()
            if w == "DEFAULT":
                self._advance()
                col.default = self._default_value()
                continue
            if self._eat("NOT", "NULL"):
                cons = ConstraintSpec("N", [name])
            elif w == "NULL":
                self._advance()
                continue
            elif self._eat("PRIMARY", "KEY"):
                cons = ConstraintSpec("P", [name])
            elif w in ("UNIQUE", "DISTINCT"):
                self._advance()
                cons = ConstraintSpec("U", [name])
            elif w == "CHECK":
                cons = self._check_constraint([name])
            elif w == "REFERENCES":
                cons = self._references([name])
            elif w == "BEFORE":
                self._advance()
                col.before = self._name()
                continue
            else:
                self.raise_error("Unexpected column attribute")
                raise AssertionError
            cons.name = prefix
            col.constraints.append(self._constraint_name_suffix(cons))
        return col

    def _default_value(self) -> DefaultSpec:
        w = self._word()
        if w == "NULL":
            self._advance()
            return DefaultSpec("N")
        if w == "USER":
            self._advance()
            return DefaultSpec("U")
        if w == "TODAY":
            self._advance()
            return DefaultSpec("T")
        if w in ("DBSERVERNAME", "SITENAME"):
            self._advance()
            return DefaultSpec("S")
        if w == "CURRENT":
            self._advance()
            return DefaultSpec("C", ifx=self._parse_qualifier(TypeCode.DATETIME, optional=True)
                               or None)
        start = self._curr.start if self._curr else 0
        value = self._parse_unary()
        end = self._prev.end if self._prev else start
        return DefaultSpec("L", value=value, text=self.sql[start : end + 1])

    def _create_index(self) -> exp.Expr:
        unique = False
        while self._word() in ("UNIQUE", "DISTINCT", "CLUSTER"):
            unique = unique or self._word() in ("UNIQUE", "DISTINCT")
            self._advance()
        self._expect_word("INDEX")
        if_not_exists = self._if_exists(negate=True)
        name = self._table_name()
        self._expect_word("ON")
        table = self._table_name()
        self._match_l_paren()
        cols: list[tuple[str, bool]] = []
        while True:
            col = self._name()
            desc = False
            if self._word() in ("ASC", "DESC"):
                desc = self._word() == "DESC"
                self._advance()
            cols.append((col, desc))
            if not self._match(TokenType.COMMA):
                break
        self._match_r_paren()
        while self._curr and self._curr.token_type != TokenType.SEMICOLON:
            w = self._word()
            if w in ("USING", "IN", "FILLFACTOR"):
                self._advance(2)
            elif w in ("ONLINE", "COMPRESSED"):
                self._advance()
            else:
                self.raise_error("Unexpected index option")
        return _stmt("create_index", CreateIndex(name, table, cols, unique, if_not_exists))

    def _create_view(self) -> exp.Expr:
        self._advance()  # VIEW
        if_not_exists = self._if_exists(negate=True)
        name = self._table_name()
        columns: list[str] = []
        if self._curr and self._curr.token_type == TokenType.L_PAREN:
            columns = self._name_list()
        self._expect_word("AS")
        start = self._curr.start if self._curr else 0
        query = self._parse_select()
        if query is None:
            self.raise_error("Expected a SELECT")
            raise AssertionError
        end = self._prev.end
        text = self.sql[start : end + 1]
        check_option = self._word() == "WITH"
        if check_option:
            self._expect_word("WITH", "CHECK", "OPTION")
        return _stmt("create_view", CreateView(name, columns, query, text, if_not_exists,
                                               check_option))

    def _create_database(self) -> exp.Expr:
        self._advance()  # DATABASE
        spec = DatabaseSpec(self._name())
        while self._curr and self._curr.token_type != TokenType.SEMICOLON:
            w = self._word()
            if w == "IN":
                self._advance(2)
            elif w == "WITH":
                self._advance()
                if self._word() == "BUFFERED":
                    self._advance()
                    spec.buffered = True
                self._expect_word("LOG")
                spec.logged = True
                if self._word() == "MODE":
                    self._expect_word("MODE", "ANSI")
                    spec.ansi = True
            elif w == "NLSCASE":
                self._advance(2)
            else:
                self.raise_error("Unexpected CREATE DATABASE option")
        return _stmt("create_database", spec)

    # ---- DROP / ALTER / RENAME
    def _parse_ifx_drop(self) -> exp.Expr | None:
        self._advance()
        kind = self._word()
        if kind in ("FUNCTION", "PROCEDURE", "ROUTINE", "SPECIFIC"):
            from .spl.parser import parse_drop

            return _stmt("drop_routine", parse_drop(self, kind))
        if kind == "TRIGGER":
            from .triggers import parse_drop_trigger

            return _stmt("drop_trigger", parse_drop_trigger(self))
        if kind in ("ROLE", "SEQUENCE", "SYNONYM"):
            self._advance()
            if kind == "ROLE":
                return ext.parse_role(self, "drop")
            if kind == "SEQUENCE":
                return ext.parse_sequence(self, "drop")
            return ext.parse_synonym(self, "drop", public=True)
        if kind == "ROW" and self._word(1) == "TYPE":
            from .composite import parse_drop_row_type

            return _stmt("drop_row_type", parse_drop_row_type(self))
        if kind == "TYPE":
            from .distinct import parse_drop_type

            return _stmt("drop_type", parse_drop_type(self))
        if kind not in ("TABLE", "VIEW", "INDEX", "DATABASE"):
            raise not_implemented(f"DROP {kind}")
        self._advance()
        if_exists = self._if_exists(negate=False)
        name = TableName(self._name()) if kind == "DATABASE" else self._table_name()
        if self._word() in ("CASCADE", "RESTRICT"):
            self._advance()
        spec = DropObject(kind, name, if_exists)
        return _stmt(f"drop_{kind.lower()}", spec)

    def _parse_ifx_alter(self) -> exp.Expr | None:
        self._advance()
        if self._word() == "SEQUENCE":
            self._advance()
            return ext.parse_sequence(self, "alter")
        if self._word() != "TABLE":
            raise not_implemented(f"ALTER {self._word()}")
        self._advance()
        spec = AlterTable(self._table_name())
        while True:
            w = self._word()
            self._advance()
            if w == "ADD" and self._word() == "CONSTRAINT":
                self._advance()
                paren = self._match(TokenType.L_PAREN)
                while True:
                    cons = self._table_constraint()
                    if cons is None:
                        self.raise_error("Expected a constraint")
                        raise AssertionError
                    spec.add_constraints.append(cons)
                    if not (paren and self._match(TokenType.COMMA)):
                        break
                if paren:
                    self._match_r_paren()
            elif w == "ADD":
                if self._match(TokenType.L_PAREN):
                    spec.add.append(self._column_def())
                    while self._match(TokenType.COMMA):
                        spec.add.append(self._column_def())
                    self._match_r_paren()
                else:
                    spec.add.append(self._column_def())
            elif w == "DROP" and self._word() == "CONSTRAINT":
                self._advance()
                if self._curr and self._curr.token_type == TokenType.L_PAREN:
                    spec.drop_constraints.extend(self._name_list())
                else:
                    spec.drop_constraints.append(self._name())
            elif w == "DROP":
                if self._curr and self._curr.token_type == TokenType.L_PAREN:
                    spec.drop.extend(self._name_list())
                else:
                    spec.drop.append(self._name())
            elif w == "MODIFY" and self._word() in ("NEXT", "EXTENT"):
                self._advance()
                self._expect_word("SIZE")
                self._int_arg()
            elif w == "MODIFY":
                if self._match(TokenType.L_PAREN):
                    spec.modify.append(self._column_def())
                    while self._match(TokenType.COMMA):
                        spec.modify.append(self._column_def())
                    self._match_r_paren()
                else:
                    spec.modify.append(self._column_def())
            elif w == "LOCK":
                self._expect_word("MODE")
                self._match(TokenType.L_PAREN)
                self._advance()
                self._match(TokenType.R_PAREN)
            else:
                raise not_implemented(f"ALTER TABLE {w}")
            if not self._match(TokenType.COMMA):
                break
        return _stmt("alter_table", spec)

    def _parse_ifx_rename(self) -> exp.Expr | None:
        self._advance()
        kind = self._word()
        self._advance()
        if kind == "TABLE":
            table = self._table_name()
            self._expect_word("TO")
            return _stmt("rename_table", Rename("TABLE", table, None, self._name()))
        if kind == "COLUMN":
            table = self._table_name()  # t.c parses as owner=t, name=c
            if table.owner is None:
                self.raise_error("Expected table.column")
            self._expect_word("TO")
            tname = TableName(table.owner or "", None, table.database, table.offset)
            return _stmt("rename_column", Rename("COLUMN", tname, table.name, self._name()))
        if kind == "SEQUENCE":
            return ext.parse_sequence(self, "rename")
        if kind == "INDEX":
            index = self._table_name()
            self._expect_word("TO")
            return _stmt("rename_index", Rename("INDEX", index, None, self._name()))
        raise not_implemented(f"RENAME {kind}")

    # ---- sessions and transactions
    def _parse_ifx_database(self) -> exp.Expr | None:
        self._advance()
        name = self._name()
        if self._curr and self._curr.token_type == TokenType.PARAMETER:
            self._advance(2)  # @server
        spec = DatabaseSpec(name)
        if self._word() == "EXCLUSIVE":
            self._advance()
            spec.exclusive = True
        return _stmt("database", spec)

    def _parse_ifx_close(self) -> exp.Expr | None:
        if self._word(1) != "DATABASE":
            return None
        self._advance(2)
        return _stmt("close_database")

    def _parse_ifx_txn(self) -> exp.Expr | None:
        word = self._word()
        self._advance()
        kind = {"BEGIN": "begin", "COMMIT": "commit", "ROLLBACK": "rollback"}[word]
        if self._word() in ("WORK", "TRANSACTION"):
            self._advance()
        if kind == "begin" and self._word() == "WITHOUT":
            self._expect_word("WITHOUT", "REPLICATION")
        if kind == "rollback" and self._word() == "TO":
            self._advance()
            if self._word() == "SAVEPOINT":
                self._advance()
            return _stmt("rollback_to_savepoint", SavepointSpec(self._name()))
        return _stmt(kind)

    def _parse_ifx_savepoint(self) -> exp.Expr | None:
        self._advance()
        name = self._name()
        unique = self._word() == "UNIQUE"
        if unique:
            self._advance()
        return _stmt("savepoint", SavepointSpec(name, unique))

    def _parse_ifx_release(self) -> exp.Expr | None:
        self._advance()
        self._expect_word("SAVEPOINT")
        return _stmt("release_savepoint", SavepointSpec(self._name()))

    def _parse_ifx_set(self) -> exp.Expr | None:
        self._advance()
        w = self._word()
        if w == "LOCK":
            self._expect_word("LOCK", "MODE", "TO")
            if self._word() == "NOT":
                self._expect_word("NOT", "WAIT")
                return _stmt("set_lock_mode", SetSpec("LOCK", None))
            self._expect_word("WAIT")
            secs = self._int_arg() if self._curr and self._curr.token_type == TokenType.NUMBER \
                else -1
            return _stmt("set_lock_mode", SetSpec("LOCK", secs))
        if w == "CONSTRAINTS":
            self._advance()
            return ext.parse_set_constraints(self)
        if w == "ROLE":
            self._advance()
            return ext.parse_set_role(self)
        if w in ("ISOLATION", "TRANSACTION"):
            self._rest()
            return _stmt("set_isolation", SetSpec("ISOLATION"))
        self._rest()
        return _stmt("set_other", SetSpec("OTHER"))

    def _parse_ifx_update(self) -> exp.Expr | None:
        if self._word(1) != "STATISTICS":
            return None
        self._rest()
        return _stmt("update_statistics")

    def _parse_ifx_lock(self) -> exp.Expr | None:
        lock = self._word() == "LOCK"
        self._advance()
        if self._word() != "TABLE":
            return None
        self._advance()
        table = self._table_name()
        if lock:
            self._expect_word("IN")
            self._advance()
            self._expect_word("MODE")
        return _stmt("lock_table" if lock else "unlock_table", LockSpec(table, lock))

    def _parse_ifx_grant(self) -> exp.Expr | None:
        return ext.parse_grant(self)

    def _parse_ifx_merge(self) -> exp.Expr | None:
        self._advance()
        return self._parse_merge()

    def _parse_ifx_truncate(self) -> exp.Expr | None:
        return ext.parse_truncate(self)

    def _parse_ifx_execute(self) -> exp.Expr | None:
        from .spl.parser import parse_call

        return _stmt("execute_routine", parse_call(self))

    def _parse_ifx_unsupported(self) -> exp.Expr | None:
        raise not_implemented(self._word())


_HANDLERS: dict[str, t.Callable[[IfxParser], exp.Expr | None]] = {
    "CREATE": IfxParser._parse_ifx_create,
    "DROP": IfxParser._parse_ifx_drop,
    "ALTER": IfxParser._parse_ifx_alter,
    "RENAME": IfxParser._parse_ifx_rename,
    "DATABASE": IfxParser._parse_ifx_database,
    "CLOSE": IfxParser._parse_ifx_close,
    "BEGIN": IfxParser._parse_ifx_txn,
    "COMMIT": IfxParser._parse_ifx_txn,
    "ROLLBACK": IfxParser._parse_ifx_txn,
    "SET": IfxParser._parse_ifx_set,
    "UPDATE": IfxParser._parse_ifx_update,
    "LOCK": IfxParser._parse_ifx_lock,
    "UNLOCK": IfxParser._parse_ifx_lock,
    "GRANT": IfxParser._parse_ifx_grant,
    "REVOKE": IfxParser._parse_ifx_grant,
    "EXECUTE": IfxParser._parse_ifx_execute,
    "SAVEPOINT": IfxParser._parse_ifx_savepoint,
    "RELEASE": IfxParser._parse_ifx_release,
    "LOAD": IfxParser._parse_ifx_unsupported,
    "UNLOAD": IfxParser._parse_ifx_unsupported,
    "MERGE": IfxParser._parse_ifx_merge,
    "TRUNCATE": IfxParser._parse_ifx_truncate,
}


class Informix(Dialect):
    """Informix as our server speaks it (double quotes are strings, as without DELIMIDENT)."""

    NORMALIZATION_STRATEGY = NormalizationStrategy.LOWERCASE
    NULL_ORDERING = "nulls_are_small"
    TYPED_DIVISION = False
    SAFE_DIVISION = False
    Tokenizer = IfxTokenizer
    Parser = IfxParser


class InformixDelimident(Informix):
    Tokenizer = IfxDelimidentTokenizer


_DIALECTS = {False: Informix(), True: InformixDelimident()}


def _parse_routine(sql: str, delimident: bool) -> exp.Expr:
    """CREATE FUNCTION/PROCEDURE: its body holds semicolons and SPL statements, so it is
    parsed by the SPL parser (spl/parser.py), not by sqlglot's statement splitter."""
    from .spl.catalog import CreateRoutine
    from .spl.parser import parse_routine

    header, body = parse_routine(sql, delimident)
    return _stmt("create_routine", CreateRoutine(header, body, sql.strip(), delimident))


def parse_expressions(text: str, delimident: bool = False, offset: int = 0) -> list[exp.Expr]:
    """A comma-separated expression list (a RETURN clause), as parsed expressions."""
    prefix = "SELECT "
    try:
        tree = parse(prefix + text, delimident)
    except EngineError as e:
        raise EngineError(e.sqlcode, near=e.near, offset=max(e.offset - len(prefix), 0) + offset
                          ) from None
    if not isinstance(tree, exp.Select):
        raise EngineError(sc.SYNTAX, offset=offset)
    return list(tree.expressions)


def parse(sql: str, delimident: bool = False) -> exp.Expr:
    """Parse one Informix statement; syntax problems raise EngineError(-201/-202/-282)."""
    dialect = _DIALECTS[delimident]
    try:
        toks = dialect.tokenize(sql)
    except TokenError as e:
        text = f"{e} {e.__cause__ or ''}"
        code = sc.UNMATCHED_QUOTE if "Missing" in text else sc.ILLEGAL_CHAR
        offset = getattr(e, "start", 0) or 0
        raise EngineError(code, offset=max(offset, 0)) from None
    check_nesting(toks)
    p = dialect.parser(error_level=ErrorLevel.IMMEDIATE)
    words = [tok.text.upper() for tok in toks[:3] if tok.token_type != TokenType.STRING]
    if words[:1] == ["CREATE"] and ("FUNCTION" in words[1:3] or "PROCEDURE" in words[1:3]):
        return _parse_routine(sql, delimident)
    try:
        trees = p.parse(toks, sql)
    except IfxParseError as e:
        raise EngineError(sc.SYNTAX, near=e.near, offset=e.offset) from None
    except ParseError:
        raise EngineError(sc.SYNTAX) from None
    stmts = [tree for tree in trees if tree is not None]
    if len(stmts) != 1:
        raise EngineError(sc.SYNTAX)
    return balance_chains(stmts[0])
