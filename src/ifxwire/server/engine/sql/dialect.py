"""The Informix SQL dialect for sqlglot: the expression-level parser.

sqlglot 30 has no Informix dialect, so this one starts from sqlglot's base ``Dialect`` (the
ANSI core, which Informix follows more closely than any shipped dialect) and adds Informix:

* comments ``{ … }`` (but ``SET{1}`` / ``LIST{…}`` / ``MULTISET{…}`` braces are collections);
  backslash escapes nothing; double quotes delimit strings unless DELIMIDENT is set;
* ``SELECT [SKIP n] [FIRST n | LIMIT n] [UNIQUE | DISTINCT]``;
* ``MATCHES`` (parsed as ``exp.Glob``; the translator rewrites the pattern);
* ``DATETIME(…) q1 TO q2`` and ``INTERVAL(…) q1(n) TO q2`` literals, ``CURRENT [q]``, ``TODAY``,
  ``USER``, ``EXTEND(x, q)``, ``n UNITS unit``;
* Informix type words in casts and DDL (``::DECIMAL(10,2)``, ``DATETIME YEAR TO SECOND``, …),
  parsed straight into ``IfxType`` and carried in the DataType node's ``meta["ifx"]``;
* ``db[@server]:owner.table`` names, ``FROM a, OUTER b`` and ``TABLE(SET{…})``.

Statement-level Informix syntax (DDL, DATABASE, BEGIN WORK, SET …) is in ``statements.py``.
The dialect is four modules (split for the ~800-line rule): the tokenizers (``tokenizer.py``),
the Informix-only nodes and the parse error (``ifxnodes.py``), the type and qualifier grammar
(``dialect_types.IfxTypeParser``, this parser's base) and the expression parser here.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp, parser
from sqlglot.helper import seq_get
from sqlglot.tokenizer_core import Token, TokenType

from ....protocol.codes import TimeUnit, TypeCode
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from .arity import counted, counted_all
from .dialect_types import IfxTypeParser
from .hooks import PARSERS
from .ifxnodes import (
    IfxCollection,
    IfxCurrent,
    IfxDateTimeLit,
    IfxExtend,
    IfxIntervalLit,
    IfxSlv,
    IfxToday,
    IfxUser,
)
from .statement_specs import IfxStatement

T = TypeCode
U = TimeUnit


def _trim_set(node: exp.Expr) -> exp.Expr:
    node.meta["trim_set"] = True
    return node


def _instr(args: list[exp.Expr]) -> exp.Expr:
    node = exp.StrPosition(this=seq_get(args, 0), substr=seq_get(args, 1),
                           position=seq_get(args, 2), occurrence=seq_get(args, 3))
    node.meta["instr"] = True
    return node


# --- parser -------------------------------------------------------------------------------------
_NUMERIC_START = (TokenType.NUMBER, TokenType.PLACEHOLDER)


def _substr(args: list[exp.Expr]) -> exp.Expr:
    node = exp.Substring(this=seq_get(args, 0), start=seq_get(args, 1),
                         length=seq_get(args, 2))
    node.meta["ifx_substr"] = True
    return node


class IfxExprParser(IfxTypeParser):
    """Expression-level Informix syntax on top of sqlglot's base parser."""

    DISTINCT_TOKENS: t.ClassVar[set[TokenType]] = {TokenType.DISTINCT, TokenType.UNIQUE}
    FUNCTION_PARSERS: t.ClassVar[dict[str, t.Callable[..., exp.Expr]]] = {
        **parser.Parser.FUNCTION_PARSERS,
        "EXTEND": lambda self: self._parse_extend(),
        "MULTISET": lambda self: self._parse_collection_subquery(),
        # One argument ("INITCAP Function"); sqlglot's reading takes a second, a set of
        # delimiters, that was ignored (arity.py).
        "INITCAP": lambda self: counted("INITCAP", lambda args: exp.Initcap(this=args[0]))(
            self._parse_function_args()),
    }
    # sqlglot reads CHAR_LENGTH as LENGTH; Informix's counts trailing blanks, LENGTH does not.
    FUNCTIONS: t.ClassVar[dict[str, t.Callable[..., exp.Expr]]] = {
        **parser.Parser.FUNCTIONS,
        "CHAR_LENGTH": lambda args: exp.Anonymous(this="CHAR_LENGTH", expressions=args),
        # SUBSTR and SUBSTRING differ on a start at or before 0 (functions_sql.py).
        "SUBSTR": lambda args: _substr(args),
        "CHARACTER_LENGTH": lambda args: exp.Anonymous(this="CHAR_LENGTH", expressions=args),
        # INSTR has NULL rules of its own that CHARINDEX (also a StrPosition) lacks.
        # LTRIM/RTRIM take a set of characters, TRIM ... FROM a single one (functions_sql).
        "LTRIM": lambda args: _trim_set(parser.Parser.FUNCTIONS["LTRIM"](args)),
        "RTRIM": lambda args: _trim_set(parser.Parser.FUNCTIONS["RTRIM"](args)),
        "INSTR": lambda args: _instr(args),
        # NVL stays told apart from COALESCE (refusals.py refuses parameters in COALESCE only).
        # Keyword synonyms of the Syntax guide (ids_sqs_2587, ids_sqs_2591, ids_sqs_2595).
        "DENSERANK": lambda args: exp.DenseRank(),
        "ROWNUMBER": lambda args: exp.RowNumber(),
        "RATIOTOREPORT": lambda args: exp.Anonymous(this="RATIO_TO_REPORT", expressions=args),
        # The population aliases of the 14.10 Tutorial (ids_sqt_118: STDEV_POP, STDDEV,
        # STDDEV_POP; ids_sqt_119: VARIANCE_POP); sqlglot's sample-statistics names, which no
        # Informix page lists, stay unknown routines (-674), as VAR_POP does.
        "STDEV_POP": lambda args: exp.Stddev(this=seq_get(args, 0)),
        "STDDEV_POP": lambda args: exp.Stddev(this=seq_get(args, 0)),
        "VARIANCE_POP": lambda args: exp.Variance(this=seq_get(args, 0)),
        **{name: (lambda n: lambda args: exp.Anonymous(this=n, expressions=args))(name)
           for name in ("VAR_POP", "VAR_SAMP", "VARIANCE_SAMP", "STDDEV_SAMP")},
        "NVL": lambda args: exp.Coalesce(this=seq_get(args, 0), expressions=args[1:],
                                         is_nvl=True),
    }
    FUNCTIONS.update(counted_all(FUNCTIONS))

    def parse_set_operation(self, this: exp.Expr | None, consume_pipe: bool = False,
                            intersect_only: bool = False) -> exp.SetOperation | None:
        """Only UNION takes ALL: the grammar of the set operators has ``UNION [ALL]``,
        ``INTERSECT``, ``MINUS`` and ``EXCEPT`` (Syntax, "Set operators in combined queries",
        ids_sqs_1822), and "MINUS does not support the ALL keyword" (ids_sqs_1836), so
        INTERSECT ALL, MINUS ALL and EXCEPT ALL are syntax errors, -201 near ALL (the code is
        inferred: the message catalogue has none of its own for them; sqlglot reads them as
        the standard's multiset operators, which were -999)."""
        nxt = self._next
        if (self._curr is not None and nxt is not None
                and self._curr.token_type in (TokenType.INTERSECT, TokenType.EXCEPT)
                and nxt.token_type == TokenType.ALL):
            raise EngineError(sc.SYNTAX, near=nxt.text.lower())
        return super().parse_set_operation(this, consume_pipe, intersect_only)

    # ORDER SIBLINGS BY of a hierarchical query (Syntax: "Hierarchical Clause").
    QUERY_MODIFIER_PARSERS: t.ClassVar[dict[TokenType, t.Callable[..., t.Any]]] = {
        **parser.Parser.QUERY_MODIFIER_PARSERS,
        TokenType.ORDER_SIBLINGS_BY: lambda self: ("order", self._parse_order()),
    }
    PRIMARY_PARSERS: t.ClassVar[dict[TokenType, t.Callable[..., exp.Expr]]] = {
        **parser.Parser.PRIMARY_PARSERS,
        TokenType.PLACEHOLDER: lambda self, token: self._parse_ifx_placeholder(token),
    }

    # ---- placeholders: remember the token index so parameters number in text order
    def _parse_ifx_placeholder(self, token: Token) -> exp.Expr:
        node = exp.Placeholder()
        node.meta["pos"] = token.start
        return node

    # ---- SELECT [SKIP n] [FIRST n | LIMIT n]
    def _parse_lambda(self, alias: bool = False) -> exp.Expr | None:
        """A function argument; ``name # type`` declares a statement-local variable (Guide
        to SQL: Syntax, "Statement-Local Variable Declaration").

        sqlglot's fast path reads a lone word before ``)`` as a column, so ``DAY(TODAY)``
        and ``MONTH(CURRENT)`` would name columns; those niladic operators take the full
        path (which reaches ``_parse_type``). ``COUNT(UNIQUE x)``: UNIQUE is Informix's
        synonym of DISTINCT in an aggregate (Guide to SQL: Syntax, "Aggregate Expressions")."""
        tok = self._curr
        if tok is not None and tok.token_type == TokenType.UNIQUE:
            self._advance()
            return self.expression(
                exp.Distinct(expressions=self._parse_csv(self._parse_disjunction)))
        if (tok is not None and tok.token_type == TokenType.VAR
                and tok.text.upper() in ("TODAY", "CURRENT", "SYSDATE", "USER")
                and (self._next is None or self._next.token_type not in (
                    TokenType.DOT, TokenType.L_PAREN))):
            return self._parse_limit(self._parse_order(self._parse_having_max(
                self._parse_select_or_expression(alias=alias))))
        node = super()._parse_lambda(alias=alias)
        if (self._curr is not None and self._curr.token_type == TokenType.HASH
                and isinstance(node, exp.Column) and not node.table):
            self._advance()
            kind = self._parse_types()
            if not isinstance(kind, exp.DataType):
                self.raise_error("Expected a data type after #")
            return IfxSlv(this=node.this, kind=kind)
        return node

    def _parse_limit(
        self,
        this: exp.Expr | None = None,
        top: bool = False,
        skip_limit_token: bool = False,
    ) -> exp.Expr | None:
        if not top:
            return super()._parse_limit(this, top, skip_limit_token)
        skip = first = None
        if self._word() == "SKIP" and self._next and self._next.token_type in _NUMERIC_START:
            self._advance()
            skip = self._parse_primary()
        if self._word() in ("FIRST", "LIMIT") and self._next and (
            self._next.token_type in _NUMERIC_START
        ):
            self._advance()
            first = self._parse_primary()
        if skip is None and first is None:
            return None
        node = exp.Limit(expression=first, offset=skip)
        node.meta["ifx_first"] = True
        return node

    # ---- DATETIME(...) q, INTERVAL(...) q, CURRENT q, TODAY, USER
    def _parse_type(
        self, parse_interval: bool = True, fallback_to_identifier: bool = False
    ) -> exp.Expr | None:
        coll = self._parse_collection()
        if coll is not None:
            return self._parse_column_ops(coll)
        tok = self._curr
        if (  # db:routine(…), a routine named with its database (JDBC's getProcedureColumns)
            tok and tok.token_type == TokenType.VAR and self._next
            and self._next.token_type == TokenType.COLON
            and self._index + 3 < len(self._tokens)
            and self._tokens[self._index + 2].token_type == TokenType.VAR
            and self._tokens[self._index + 3].token_type == TokenType.L_PAREN
        ):
            self._advance(2)
            call = self._parse_function()
            if call is None:
                self.raise_error("Expected a routine call")
                raise AssertionError
            call.meta["ifx_db"] = tok.text.lower()
            return self._parse_column_ops(call)
        if tok and tok.token_type != TokenType.STRING:
            word = tok.text.upper()
            nxt = self._next
            next_is_paren = bool(nxt) and nxt.token_type == TokenType.L_PAREN
            if word in ("DATETIME", "INTERVAL") and next_is_paren:
                return self._parse_column_ops(self._parse_dt_literal(word))
            if tok.token_type == TokenType.VAR and not next_is_paren and (
                not nxt or nxt.token_type != TokenType.DOT
            ):
                if word == "TODAY":
                    self._advance()
                    return self._parse_column_ops(IfxToday())
                if word == "USER":
                    self._advance()
                    return self._parse_column_ops(IfxUser())
                if word in ("CURRENT", "SYSDATE"):
                    self._advance()
                    node = IfxCurrent()
                    ty = self._parse_qualifier(T.DATETIME, optional=True)
                    node.meta["ifx"] = ty or it.datetime_type(
                        U.YEAR, U.FRACTION5 if word == "SYSDATE" else U.FRACTION3
                    )
                    return self._parse_column_ops(node)
        return super()._parse_type(parse_interval, fallback_to_identifier)

    def _parse_dt_literal(self, word: str) -> exp.Expr:
        self._advance()  # DATETIME / INTERVAL
        lparen = self._curr
        self._advance()
        depth = 1
        while self._curr and depth:
            if self._curr.token_type == TokenType.L_PAREN:
                depth += 1
            elif self._curr.token_type == TokenType.R_PAREN:
                depth -= 1
                if not depth:
                    break
            self._advance()
        if not self._curr:
            self.raise_error("Expected )", lparen)
        text = self.sql[lparen.end + 1 : self._curr.start]
        self._advance()
        code = T.DATETIME if word == "DATETIME" else T.INTERVAL
        ty = self._parse_qualifier(code, optional=False)
        assert ty is not None
        node: exp.Expression
        node = IfxDateTimeLit(this=text) if code == T.DATETIME else IfxIntervalLit(this=text)
        node.meta["ifx"] = ty
        return node

    def _parse_extend(self) -> exp.Expr:
        this = self._parse_assignment()
        node = IfxExtend(this=this)
        node.meta["ifx"] = None
        if self._match(TokenType.COMMA):
            node.meta["ifx"] = self._parse_qualifier(T.DATETIME, optional=False)
        return node

    # ---- MULTISET(SELECT [ITEM] …): a collection subquery
    def _drop_item(self) -> bool:
        """``SELECT ITEM x``: drop the keyword (the projection is then the element itself);
        whether it was there."""
        if self._word(1) != "ITEM":
            return False
        del self._tokens[self._index + 1]
        self._tokens_size -= 1
        if self._index + 1 < len(self._tokens):
            self._next = self._tokens[self._index + 1]
        return True

    def _parse_collection_subquery(self) -> exp.Expr:
        """``MULTISET(SELECT …)`` (Guide to SQL: Syntax, "Collection Subquery", ids_sqs_1374)
        becomes ``(SELECT IFX_MULTISET_OF(_msN.c1, …) FROM (SELECT … AS c1, …) _msN)``: the
        subquery's rows gathered by an aggregate into one MULTISET (composite.py types it).
        With ITEM the element is the one projected value, else a ROW of the projection."""
        if self._curr is None or self._curr.token_type != TokenType.SELECT:
            self.raise_error("Expected SELECT in a collection subquery")
        item = self._drop_item()
        query = self._parse_select()
        if not isinstance(query, exp.Select):
            raise not_implemented("a set operation in a collection subquery")
        if query.args.get("order"):  # ids_sqs_1374: "Cannot contain the ORDER BY clause"
            self.raise_error("ORDER BY in a collection subquery")
        projection = query.expressions
        if any(isinstance(e, exp.Star) or (isinstance(e, exp.Column) and e.is_star)
               for e in projection):
            raise not_implemented("SELECT * in a collection subquery")
        if item and len(projection) != 1:  # ids_sqs_1374: ITEM takes one expression
            self.raise_error("SELECT ITEM takes one expression")
        names = []
        for i, e in enumerate(projection, 1):
            name = e.alias_or_name if isinstance(e, (exp.Alias, exp.Column)) else ""
            names.append(name.lower() if name else f"f{i}")
        query.set("expressions", [exp.alias_(e.this if isinstance(e, exp.Alias) else e, n)
                                  for e, n in zip(projection, names, strict=True)])
        self._ms_count = getattr(self, "_ms_count", 0) + 1
        table = f"_ms{self._ms_count}"
        marker = exp.Anonymous(this="IFX_MULTISET_OF",
                               expressions=[exp.column(n, table=table) for n in names])
        marker.meta["item"] = item
        outer = exp.select(marker).from_(exp.Subquery(
            this=query, alias=exp.TableAlias(this=exp.to_identifier(table))))
        return exp.Subquery(this=outer)

    # ---- n UNITS unit
    def _parse_factor_operand(self) -> exp.Expr | None:
        this = super()._parse_factor_operand()
        while this is not None and self._word() == "UNITS":
            self._advance()
            unit = self._parse_unit()
            if unit is None:
                self.raise_error("Expected a time unit after UNITS")
                return None
            node = IfxIntervalLit(this=this)
            u = unit[0]
            node.meta["units"] = u
            node.meta["ifx"] = it.interval_type(u, u, 9) if u <= U.SECOND else (
                it.interval_type(U.SECOND, u, 9))
            this = node
        return this

    # ---- tables: db[@server]:owner.table, TABLE(SET{...}), a, OUTER b
    def _parse_table_parts(
        self,
        schema: bool = False,
        is_db_reference: bool = False,
        wildcard: bool = False,
        fast: bool = False,
    ) -> exp.Table | exp.Dot | None:
        if fast:
            return None
        if (not schema and self._curr and self._next and self._curr.text.upper() == "ONLY"
                and self._next.token_type == TokenType.L_PAREN):
            # (not for INSERT INTO only (columns): a table named "only")
            # ONLY(supertable): its own rows, not its subtables' (Syntax guide, "The ONLY
            # Keyword", ids_sqs_1017; DELETE, ids_sqs_0676)
            self._advance(2)
            only = self._parse_table_parts(schema, is_db_reference, wildcard)
            self._match_r_paren()
            if isinstance(only, exp.Table):
                only.set("only", True)
            return only
        database: str | None = None
        if self._curr and self._next and self._curr.token_type in self.ID_VAR_TOKENS | {
            TokenType.VAR
        }:
            if self._next.token_type == TokenType.COLON:
                database = self._curr.text
                self._advance(2)
            elif (
                self._next.token_type == TokenType.PARAMETER
                and self._index + 3 < len(self._tokens)
                and self._tokens[self._index + 3].token_type == TokenType.COLON
            ):
                database = self._curr.text
                self._advance(4)
        # A quoted owner 'owner'.table is legal Informix.
        if (
            self._curr
            and self._curr.token_type == TokenType.STRING
            and self._next
            and self._next.token_type == TokenType.DOT
        ):
            owner = self._curr.text
            self._advance(2)
            table = super()._parse_table_parts(schema, is_db_reference, wildcard)
            if isinstance(table, exp.Table):
                table.set("db", exp.to_identifier(owner, quoted=True))
        else:
            table = super()._parse_table_parts(schema, is_db_reference, wildcard)
        if database is not None and isinstance(table, exp.Table):
            table.set("catalog", exp.to_identifier(database.lower()))
        return table

    def _parse_primary_or_var_call(self) -> tuple[str, str | None, list[exp.Expr]]:
        """``[owner.]name(args)`` of TABLE(FUNCTION …): the routine's name (folded as a
        name is), its owner, and its argument expressions."""
        def word() -> str:
            tok = self._curr
            if tok is None or tok.token_type in (TokenType.L_PAREN, TokenType.R_PAREN,
                                                 TokenType.STRING, TokenType.NUMBER):
                self.raise_error("Expected a function name")
                return ""
            self._advance()
            return tok.text if tok.token_type == TokenType.IDENTIFIER else tok.text.lower()

        owner = None
        name = word()
        if self._match(TokenType.DOT):
            owner, name = name, word()
        if not self._match(TokenType.L_PAREN):
            self.raise_error("Expected (")
        args: list[exp.Expr] = []
        if not self._match(TokenType.R_PAREN):
            args = self._parse_csv(self._parse_assignment)
            self._match_r_paren()
        return name, owner, args

    def _parse_table(
        self,
        schema: bool = False,
        joins: bool = False,
        alias_tokens: t.Collection[TokenType] | None = None,
        parse_bracket: bool = False,
        is_db_reference: bool = False,
        parse_partition: bool = False,
        consume_pipe: bool = False,
    ) -> exp.Expr | None:
        if (
            self._curr
            and self._curr.token_type == TokenType.TABLE
            and self._next
            and self._next.token_type == TokenType.L_PAREN
        ):
            self._advance(2)
            if self._word() in ("FUNCTION", "PROCEDURE"):
                # TABLE(FUNCTION iterator(…)): an iterator function's rows as a table
                # (Guide to SQL: Syntax, "Iterator Functions", ids_sqs_1125): a table node
                # the compiler fills from the routine's rows (Compiler.table_function)
                self._advance()
                call = self._parse_primary_or_var_call()
                self._match_r_paren()
                alias = self._parse_table_alias(
                    alias_tokens=alias_tokens or self.TABLE_ALIAS_TOKENS)
                table = exp.Table(this=exp.to_identifier("_ifx_tf"), alias=alias)
                table.meta["ifx_tf"] = call
                return table
            coll = self._parse_collection()
            if coll is None and self._word() == "MULTISET" and self._next is not None and (
                    self._next.token_type == TokenType.L_PAREN):
                # TABLE(MULTISET(SELECT …)): the subquery's rows are the table's
                self._advance(2)
                self._drop_item()  # the table's rows are the same with or without ITEM
                query = self._parse_select()
                self._match_r_paren()
                self._match_r_paren()
                alias = self._parse_table_alias(
                    alias_tokens=alias_tokens or self.TABLE_ALIAS_TOKENS)
                if alias is not None and alias.columns and isinstance(query, exp.Select):
                    if len(alias.columns) != len(query.expressions):
                        raise EngineError(sc.DERIVED_COLUMN_COUNT)
                    query.set("expressions", [
                        exp.alias_(e.this if isinstance(e, exp.Alias) else e, c.name)
                        for e, c in zip(query.expressions, alias.columns, strict=True)])
                    alias.set("columns", None)
                return exp.Subquery(this=query, alias=alias)
            if coll is None:
                # TABLE(column), TABLE((SELECT …)), TABLE(?::LIST(…)): a collection-derived
                # table over a value known per row (engine/collection_tables.py).
                value = self._parse_assignment()
                self._match_r_paren()
                node = exp.Unnest(expressions=[value], alias=self._parse_table_alias(
                    alias_tokens=alias_tokens or self.TABLE_ALIAS_TOKENS))
                node.meta["ifx_coll"] = True
                return node
            self._match_r_paren()
            alias = self._parse_table_alias(alias_tokens=alias_tokens or self.TABLE_ALIAS_TOKENS)
            if any(isinstance(e, exp.Anonymous) and str(e.this).upper() == "ROW"
                   for e in coll.expressions):
                # a literal collection of ROWs: one column per field, as for a column's
                # (Syntax, Collection-Derived Table, ids_sqs_1631: "If the underlying
                # collection is not of a ROW data type, you can specify only one derived-column
                # name"), so typed by collection_tables.py like any other collection value
                if alias is None:
                    alias = exp.TableAlias(this=exp.to_identifier("_collection"))
                if not alias.columns:  # the fields' names, f1… as ROW(…) gives them
                    first = next(e for e in coll.expressions if isinstance(e, exp.Anonymous))
                    alias.set("columns", [exp.to_identifier(f"f{i}")
                                          for i in range(1, len(first.expressions) + 1)])
                node = exp.Unnest(expressions=[coll], alias=alias)
                node.meta["ifx_coll"] = True
                return node
            # A collection-derived table is a one-column derived table of its elements; as a
            # UNION ALL of one-row SELECTs it is plain SQL every later step understands.
            colname = alias.columns[0].name if alias is not None and alias.columns else (
                "unnamed_col_1")
            if not coll.expressions:
                self.raise_error("Empty collection")
            selects = [exp.Select(expressions=[exp.alias_(e, colname)])
                       for e in coll.expressions]
            body: exp.Expr = selects[0]
            is_set = str(coll.this).upper() == "SET"  # a SET's elements are distinct
            for sel in selects[1:]:
                body = exp.Union(this=body, expression=sel, distinct=is_set)
                body.meta["ifx_collection"] = True  # not a user's UNION (refusals.py)
            name = alias.this if alias is not None and alias.this else exp.to_identifier(
                "_collection")
            return exp.Subquery(this=body, alias=exp.TableAlias(this=name))
        return super()._parse_table(schema, joins, alias_tokens, parse_bracket, is_db_reference,
                                    parse_partition, consume_pipe)

    def _parse_insert(self) -> exp.Insert | exp.MultitableInserts:
        if (self._word() == "INTO" and self._next is not None
                and self._next.token_type == TokenType.TABLE):
            # INSERT INTO TABLE(collection): a collection-derived table is read-only here

            raise EngineError(sc.READ_ONLY_COLLECTION)
        index = self._index
        while self._curr is not None and self._curr.token_type not in (
                TokenType.SEMICOLON, TokenType.VALUES, TokenType.SELECT):
            if self._word() == "EXECUTE" and self._word(1) in ("FUNCTION", "PROCEDURE"):
                # INSERT … EXECUTE FUNCTION f(…): the rows a routine returns (Guide to SQL:
                # Syntax, INSERT, "Execute Routine Clause", ids_sqs_0133)
                self._retreat(index)
                return self._parse_insert_execute()  # type: ignore[return-value]
            self._advance()
        self._retreat(index)
        return super()._parse_insert()

    def _parse_insert_execute(self) -> exp.Expr:
        """``INTO table [(columns)] EXECUTE PROCEDURE|FUNCTION name(args)``: an
        ``insert_execute`` statement (spl/insert_execute.py runs it)."""
        if self._word() != "INTO":
            self.raise_error("Expected INTO")
        self._advance()
        table = self._parse_table_parts(schema=True)
        columns: list[str] | None = None
        if self._match(TokenType.L_PAREN):
            columns = [c.name for c in self._parse_csv(self._parse_id_var) if c is not None]
            self._match_r_paren()
        node = IfxStatement(this="insert_execute")
        node.meta["spec"] = (table, columns, PARSERS.call(self))
        return node

    def _parse_in(self, this: exp.Expr | None, alias: bool = False) -> exp.In:
        """``x IN SET{…}``: a collection constructor on the right is the collection form."""
        coll = self._parse_collection()
        if coll is not None:
            return self.expression(exp.In(this=this, field=coll))
        return super()._parse_in(this, alias)

    def _parse_collection(self) -> IfxCollection | None:
        word = self._word()
        if word not in ("SET", "MULTISET", "LIST") or not (
            self._next and self._next.token_type == TokenType.L_BRACE
        ):
            return None
        self._advance(2)
        items: list[exp.Expr] = []
        if not self._match(TokenType.R_BRACE):
            items = [e for e in self._parse_csv(self._parse_assignment) if e is not None]
            if not self._match(TokenType.R_BRACE):
                self.raise_error("Expected }")
        return IfxCollection(this=word, expressions=items)

    def _parse_outer_group(self, alias_tokens: t.Collection[TokenType] | None) -> exp.Join:
        """``OUTER (b, c [, OUTER d])``: the tables in parentheses are joined among themselves
        (d again outer) and the group is outer to the rest of the FROM list; the WHERE
        conditions are placed by the translator (convert_outer_joins)."""
        first = self._parse_table(alias_tokens=alias_tokens)
        if not isinstance(first, exp.Table):
            self.raise_error("Expected a table")
            raise AssertionError
        inner: list[exp.Join] = []
        while self._match(TokenType.COMMA):
            outer = bool(self._match(TokenType.OUTER))
            if outer and self._curr is not None and self._curr.token_type == TokenType.L_PAREN \
                    and self._next is not None and self._next.token_type != TokenType.SELECT:
                self._advance()
                nested = self._parse_outer_group(alias_tokens)
                if nested.meta.get("ifx_group"):
                    raise not_implemented("an OUTER group inside an OUTER group")
                table = nested.this
            else:
                table = self._parse_table(alias_tokens=alias_tokens)
            join = exp.Join(this=table, side="LEFT") if outer else exp.Join(this=table)
            join.meta["ifx_member"] = True
            inner.append(join)
        self._match_r_paren()
        if not inner:  # ``OUTER (t)``: the one table is simply the subservient one
            join = exp.Join(this=first, side="LEFT")
            join.meta["ifx_outer"] = True
            return join
        first.set("joins", inner)
        join = exp.Join(this=exp.Subquery(this=first), side="LEFT")
        join.meta["ifx_outer"] = True
        join.meta["ifx_group"] = True
        return join

    def _parse_join(
        self,
        skip_join_token: bool = False,
        parse_bracket: bool = False,
        alias_tokens: t.Collection[TokenType] | None = None,
    ) -> exp.Join | None:
        # ``a, OUTER b`` and, as HCL's 14.10 tutorial prints it, ``a OUTER b``: the same.
        comma_outer = (
            self._curr is not None
            and self._curr.token_type == TokenType.COMMA
            and self._next is not None
            and self._next.token_type == TokenType.OUTER
        )
        bare_outer = (
            self._curr is not None
            and self._curr.token_type == TokenType.OUTER
            and self._next is not None
            and self._next.token_type != TokenType.JOIN
        )
        if comma_outer or bare_outer:
            self._advance(2 if comma_outer else 1)
            if self._match(TokenType.L_PAREN):
                return self._parse_outer_group(alias_tokens)
            table = self._parse_table(alias_tokens=alias_tokens)
            join = exp.Join(this=table, side="LEFT")
            join.meta["ifx_outer"] = True
            return join
        return super()._parse_join(skip_join_token, parse_bracket, alias_tokens)
