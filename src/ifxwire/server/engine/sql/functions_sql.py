"""Informix built-in functions: their result types and how each becomes SQLite.

Unknown routine names raise -674 ("Routine (x) can not be resolved."), as Informix does; the
engine's own SQLite helpers (``ifx_*``) are not callable from SQL because only the names in this
module are accepted.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from ....protocol.codes import TimeUnit, TypeCode
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..core.ifxtypes import FLOATING, IfxType
from . import builtins, olap, udt_casts
from .aggregate_sql import _aggregate
from .exprs import ExprTranslator, common_type, func, keylit, ty, typed
from .exprtypes import dec_shape, int_result, storage_kind
from .hooks import TRANSLATION

T = TypeCode
U = TimeUnit

# DBINFO options: option -> result type.
DBINFO_TYPES: dict[str, IfxType] = {
    "sqlca.sqlerrd1": it.INTEGER,
    "sqlca.sqlerrd2": it.INTEGER,
    "sessionid": it.INTEGER,
    "dbname": it.varchar(128),
    "dbhostname": it.varchar(128),
    "dbservername": it.varchar(128),
    "version": it.varchar(128),
    "serial8": it.INT8,
    "bigserial": it.BIGINT,
    "utc_current": it.INTEGER,
    "get_tz": it.varchar(64),
    "onedb": it.varchar(128),
    # ifxwire's own, for the sysmaster:syslogs view only (catalog.VIRTUAL_TABLES): the change
    # log position split as Informix's LSN is, (log uniqid << 32) + position.
    "ifxwire_loguniq": it.INTEGER,
    "ifxwire_logpos": it.INTEGER,
    # ifxwire's own, for sysmaster:syssqlcurses.scs_lockmode: the session's SET LOCK MODE.
    "ifxwire_lockmode": it.INTEGER,
}


def _number(tx: ExprTranslator, node: exp.Expr) -> exp.Expr:
    """A character argument of a numeric function is a number, as an arithmetic operand is
    ('5' + 1 is 6): converted to DECIMAL, -1213 when it does not read as one."""
    return tx.convert(node, it.DECIMAL32) if ty(node).is_string else node


def _temporal_text(value: exp.Expr) -> exp.Expr:
    """The lengths count a DATE, DATETIME or INTERVAL in the character form it converts to
    (as CAST(d AS CHAR(10)) and UPPER(d) show it), not the day number a DATE is stored as:
    LENGTH(a DATE) is 10, not 5."""
    t = ty(value)
    if t.code not in (T.DATE, T.DATETIME, T.INTERVAL):
        return value
    return typed(func("ifx_text", value, keylit(t.nullable())), it.varchar(255))


def _int_digits(t: IfxType) -> int:
    """Digits left of the point a DECIMAL type can hold (32 for a floating DECIMAL)."""
    prec, scale = dec_shape(t)
    return 32 if scale == FLOATING or scale < 0 else prec - scale


def _arg(node: exp.Expr, key: str = "this") -> exp.Expr:
    value = node.args.get(key)
    if not isinstance(value, exp.Expr):
        raise EngineError(sc.SYNTAX)
    return value


def _date_part(tx: ExprTranslator, arg: exp.Expr, part: str) -> exp.Expr:
    new = tx.tx(arg)
    t = ty(new)
    if t.code == -1:
        new = tx.convert(new, it.DATE)
        t = it.DATE
    if t.code not in (T.DATE, T.DATETIME) and not t.is_string:
        raise EngineError(sc.NO_CONVERSION)
    return typed(func("ifx_datepart", new, keylit(t.nullable()), exp.Literal.string(part)),
                 it.SMALLINT)


def _refuse(name: str) -> Callable[[ExprTranslator, exp.Anonymous], exp.Expr]:
    """A documented built-in this server cannot compute: -999, not -674 (which says no
    such routine exists)."""
    def handler(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
        raise not_implemented(name)
    return handler


# "Encryption and decryption functions" (Guide to SQL: Syntax, ids_sqs_1499): ENCRYPT_AES,
# ENCRYPT_TDES, DECRYPT_CHAR, DECRYPT_BINARY and GETHINT are built-ins that SET ENCRYPTION
# PASSWORD (ids_sqs_1135) serves; their output is Informix's own encrypted format, which we
# cannot produce, so they are refused as not implemented. Were -674.
_ENCRYPTION = ("ENCRYPT_AES", "ENCRYPT_TDES", "DECRYPT_CHAR", "DECRYPT_BINARY", "GETHINT")


def _args(tx: ExprTranslator, node: exp.Expr) -> list[exp.Expr]:
    return [tx.tx(a) for a in node.expressions]


def _builtin(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
    """A function of builtins.FUNCTIONS: arguments converted to its parameter types; a string
    function typed by its first argument sees a CHAR value with its trailing blanks."""
    name = str(node.this).upper()
    params, result, _ = builtins.FUNCTIONS[name]
    args = list(node.expressions)
    low = builtins.MIN_ARGS.get(name, len(params) - (name in builtins.OPTIONAL_LAST))
    if not low <= len(args) <= len(params):
        raise EngineError(sc.NO_ROUTINE, near=name.lower())
    values = [tx.tx(arg) for arg in args]
    cast_back: IfxType | None = None
    # LAST_DAY of a host variable whose type is not known at prepare time: "Informix assumes
    # that the data type is DATETIME YEAR TO FRACTION(5)" (ids_sqs_1538); it was typed DATE.
    unknown = name == "LAST_DAY" and bool(values) and isinstance(
        values[0], exp.Placeholder) and ty(values[0]).code == -1
    if (name in builtins.DATETIME_FORMS and values and (
            ty(values[0]).code == T.DATETIME or unknown)) or (
            name in builtins.DATETIME_ANY_ARG and any(ty(v).code == T.DATETIME
                                                       for v in values)):
        if name == "LAST_DAY" and not unknown:
            cast_back = ty(values[0]).nullable()
        name += "_DT"
        params, result, _ = builtins.INTERNAL[name]
    new = []
    for value, ptype in zip(values, params, strict=False):
        if ptype is not None:
            if ptype.code == T.DATE and ty(value).code == T.DATETIME:
                value = tx.convert(value, it.DATE, truncate=False)
            else:
                value = tx.convert(value, ptype, truncate=False)
        elif result is None:
            value = _text(tx, value)
        new.append(value)
    if result is None:
        t = ty(values[0])
        result = t.nullable() if t.is_string else it.varchar(255)
    out = typed(func("ifx_fn", exp.Literal.string(name), *new), result)
    return tx.convert(out, cast_back) if cast_back is not None else out


def _anonymous(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
    name = str(node.this).upper()
    handler = TRANSLATION.functions.get(name) or _ANON.get(name)
    if handler is None and name in builtins.FUNCTIONS:
        return _builtin(tx, node)
    if handler is None:
        expanded = tx.routine(str(node.this).lower(), list(node.expressions))
        if expanded is None:
            raise EngineError(sc.NO_ROUTINE, near=str(node.this).lower())
        return expanded if "t" in expanded.meta else tx.tx(expanded)
    return handler(tx, node)


def _range(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
    """The RANGE aggregate: MAX(x) - MIN(x) of a numeric x (RANGE(DISTINCT x) is the same).
    Of a DATE, "the return value is the number of days between the earliest and latest
    dates in the column" (Guide to SQL: Syntax, RANGE Function, ids_sqs_1590): DATE minus
    DATE, an INTEGER. Was -1260."""
    if len(node.expressions) != 1:
        raise EngineError(sc.NO_ROUTINE, near="range")
    arg = node.expressions[0]
    if isinstance(arg, exp.Distinct):
        arg = arg.expressions[0]
    argtype = ty(tx.tx(arg.copy()))
    if not argtype.is_numeric and argtype.code != T.DATE:
        raise EngineError(sc.NO_CONVERSION)
    return tx.tx(exp.Sub(this=exp.Max(this=arg.copy()), expression=exp.Min(this=arg.copy())))


def _routine_types(returns: bool) -> Callable[[ExprTranslator, exp.Anonymous], exp.Expr]:
    """ifx_param_types(procid) / ifx_ret_types(procid): the routine's parameter (return)
    types from sysproccolumns as a comma-separated list of type names ('integer,char'),
    '' when it has none. JDBC's getProcedureColumns takes TYPE_NAME from them and splits the
    list at commas [B: IfxDatabaseMetaData.processProcName, parseTypes]."""
    attrs = (3, 5) if returns else (0, 1, 2, 4)
    name = "ifx_ret_types" if returns else "ifx_param_types"

    def handler(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
        if len(node.expressions) != 1:
            raise EngineError(sc.NO_ROUTINE, near=name)
        procid = tx.convert(tx.tx(node.expressions[0]), it.INTEGER)
        col = exp.column
        text = func("ifx_schema", exp.Literal.string("type_text"), col("paramtype"),
                    col("paramlen"), col("paramxid"))
        # a DISTINCT type is named by its own name, not its source's (as syscolumns'
        # columns of one are typed by it)
        own = (exp.select(col("name"))
               .from_(exp.Table(this=exp.to_identifier("sysxtdtypes"),
                                db=exp.to_identifier("main")))
               .where(exp.and_(exp.EQ(this=col("extended_id"), expression=col("paramxid")),
                               exp.EQ(this=col("mode"), expression=exp.Literal.string("D")))))
        text = exp.Coalesce(this=exp.Subquery(this=own), expressions=[text])
        rows = (exp.select(exp.alias_(text, "t"))
                .from_(exp.Table(this=exp.to_identifier("sysproccolumns"),
                                 db=exp.to_identifier("main")))
                .where(exp.and_(exp.EQ(this=col("procid"), expression=procid),
                                exp.In(this=col("paramattr"),
                                       expressions=[exp.Literal.number(a) for a in attrs])))
                .order_by(col("paramid")))
        joined = exp.Coalesce(this=exp.Anonymous(this="group_concat", expressions=[
            col("t"), exp.Literal.string(",")]), expressions=[exp.Literal.string("")])
        query = exp.select(joined).from_(rows.subquery("pc"))
        return typed(exp.Subquery(this=query), IfxType(T.LVARCHAR, size=2048))
    return handler


def _mdy(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
    if len(node.expressions) != 3:
        raise EngineError(sc.NO_ROUTINE, near="mdy")
    args = [tx.convert(tx.tx(a), it.INTEGER) for a in node.expressions]
    return typed(func("ifx_mdy", *args), it.DATE)


def _weekday(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
    if len(node.expressions) != 1:
        raise EngineError(sc.NO_ROUTINE, near="weekday")
    return _date_part(tx, node.expressions[0], "weekday")


def _dbinfo(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
    args = node.expressions
    if not args or not isinstance(args[0], exp.Literal) or not args[0].is_string:
        raise EngineError(sc.SYNTAX)
    option = str(args[0].this).lower()
    if len(args) > 2:
        # The DBINFO diagram has the option and at most one more argument (a 'version'
        # specifier, utc_to_datetime's seconds); a third was ignored.
        raise EngineError(sc.SYNTAX, near="dbinfo")
    if option == "utc_to_datetime" and len(args) == 2:
        # DBINFO('utc_to_datetime', seconds since 1970-01-01 00:00:00 UTC): a DATETIME
        # YEAR TO SECOND in the server's time zone (Guide to SQL: Syntax, "DBINFO Function").
        secs = tx.convert(tx.tx(args[1]), it.BIGINT)
        return typed(func("ifx_utc_to_datetime", secs), it.datetime_type(U.YEAR, U.SECOND))
    rtype = DBINFO_TYPES.get(option)
    if rtype is None:
        raise not_implemented(f"DBINFO('{option}')")
    extra = [tx.tx(a) for a in args[1:]]
    for e in extra:
        if not tx.is_const(e):
            raise EngineError(sc.SYNTAX)
    call = func("ifx_dbinfo", exp.Literal.string(option),
                *(exp.Literal.string(str(e.meta["const"])) for e in extra))
    return typed(call, rtype)


def _to_char(tx: ExprTranslator, node: exp.Expr, args: list[exp.Expr]) -> exp.Expr:
    if not args:
        raise EngineError(sc.NO_ROUTINE, near="to_char")
    first = args[0]
    fmt = args[1] if len(args) > 1 else exp.Null()
    return typed(func("ifx_to_char", first, keylit(ty(first).nullable()), fmt), it.varchar(255))


def _to_date(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
    args = _args(tx, node)
    if not 1 <= len(args) <= 2:
        raise EngineError(sc.NO_ROUTINE, near="to_date")
    fmt = args[1] if len(args) > 1 else exp.Null()
    t = it.datetime_type(U.YEAR, U.FRACTION5)
    return typed(func("ifx_to_date", args[0], fmt, keylit(t)), t)


def _numeric_fn(name: str, result: IfxType | None = None) -> Callable[
        [ExprTranslator, exp.Anonymous], exp.Expr]:
    def handler(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
        args = _args(tx, node)
        if len(args) != (2 if name == "atan2" else 1):
            # LOGN(1, 2) answered LOGN(1): the extra argument was passed on and ignored.
            raise EngineError(sc.NO_ROUTINE, near=str(node.this).lower())
        return typed(func("ifx_math", exp.Literal.string(name), *args), result or it.FLOAT)
    return handler


def _length_with_blanks(mode: int) -> Callable[[ExprTranslator, exp.Anonymous], exp.Expr]:
    """OCTET_LENGTH (bytes, mode 0) and CHAR_LENGTH (characters, mode 2) count trailing
    blanks, and a CHAR(n) value is n characters long (GLS guide, "The CHAR_LENGTH
    function": 'Ludwig' in a CHAR(15) is 15, the quoted string 'Ludwig    ' is 10)."""
    def handler(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
        args = _args(tx, node)
        if len(args) != 1:
            raise EngineError(sc.NO_ROUTINE, near=str(node.this).lower())
        arg = _temporal_text(args[0])
        t = ty(arg)
        if t.is_char:
            arg = func("ifx_pad", arg, exp.Literal.number(t.size))
        return typed(func("ifx_length", arg, exp.Literal.number(mode)), it.INTEGER)
    return handler


def _nvl2(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
    args = _args(tx, node)
    if len(args) != 3:
        raise EngineError(sc.NO_ROUTINE, near="nvl2")
    udt_casts.branches(tx.find_cast, args[1:])
    rtype = common_type(args[1:])
    case = exp.Case(ifs=[exp.If(this=exp.Not(this=exp.Is(this=args[0], expression=exp.Null())),
                                true=tx.unify(args[1], rtype))], default=tx.unify(args[2], rtype))
    return typed(case, rtype.nullable())


def _schema_fn(result: IfxType, name: str) -> Callable[[ExprTranslator, exp.Anonymous], exp.Expr]:
    """JDBC metadata helpers (informix.schema_* / get_data_type): see functions.py."""
    def handler(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
        args = _args(tx, node)
        return typed(func("ifx_schema", exp.Literal.string(name), *args), result)
    return handler


_ANON: dict[str, Callable[[ExprTranslator, exp.Anonymous], exp.Expr]] = {
    "MDY": _mdy,
    "RANGE": _range,
    "IFX_PARAM_TYPES": _routine_types(returns=False),
    "IFX_RET_TYPES": _routine_types(returns=True),
    "SITENAME": lambda tx, node: typed(func("ifx_dbinfo", exp.Literal.string("dbservername")),
                                       it.varchar(128)),
    "DBSERVERNAME": lambda tx, node: typed(func("ifx_dbinfo", exp.Literal.string(
        "dbservername")), it.varchar(128)),
    "CURRENT_ROLE": lambda tx, node: typed(func("ifx_role", exp.Literal.string("current")),
                                           it.char(32)),
    "DEFAULT_ROLE": lambda tx, node: typed(func("ifx_role", exp.Literal.string("default")),
                                           it.char(32)),
    "WEEKDAY": _weekday,
    "DBINFO": _dbinfo,
    "TO_DATE": _to_date,
    "LOGN": _numeric_fn("ln"),
    "OCTET_LENGTH": _length_with_blanks(0),
    "CHAR_LENGTH": _length_with_blanks(2),
    "NVL2": _nvl2,
    "ATAN2": _numeric_fn("atan2"),
    "ASIN": _numeric_fn("asin"),
    "ACOS": _numeric_fn("acos"),
    "ATAN": _numeric_fn("atan"),
    "GET_DATA_TYPE": _schema_fn(it.SMALLINT, "get_data_type"),
    "SCHEMA_COLTYPENAME": _schema_fn(it.varchar(128), "schema_coltypename"),
    "SCHEMA_PRECISION": _schema_fn(it.INTEGER, "schema_precision"),
    "SCHEMA_NUMSCALE": _schema_fn(it.INTEGER, "schema_numscale"),
    "SCHEMA_NUMPRECRADIX": _schema_fn(it.INTEGER, "schema_numprecradix"),
    "SCHEMA_ISNULLABLE": _schema_fn(it.INTEGER, "schema_isnullable"),
    "SCHEMA_NULLABLE": _schema_fn(it.varchar(3), "schema_nullable"),
    "SCHEMA_DATETYPE": _schema_fn(it.INTEGER, "schema_datetype"),
    "SCHEMA_CHARLEN": _schema_fn(it.INTEGER, "schema_charlen"),
    "SCHEMA_ISAUTOINCR": _schema_fn(it.varchar(3), "schema_isautoincr"),
    "SCHEMA_BUFFLEN": _schema_fn(it.INTEGER, "schema_bufflen"),
    "GET_DEFAULT_VALUE": _schema_fn(it.varchar(254), "get_default_value"),
    **{name: _refuse(name) for name in _ENCRYPTION},
}


def translate_function(tx: ExprTranslator, node: exp.Func | exp.Window) -> exp.Expr:
    """Type and rewrite one function call."""
    db = node.meta.get("ifx_db")
    if db is not None and db != tx.database:
        raise not_implemented("a routine of another database")
    if isinstance(node, exp.Anonymous):
        name = str(node.this).upper()
        if name in ("ROW", "CARDINALITY"):
            out: exp.Expr = (TRANSLATION.translate_row if name == "ROW"
                              else TRANSLATION.translate_cardinality)(tx, node)
            return out
        if name == "IFX_MULTISET_OF":  # MULTISET(SELECT …) (dialect.py)
            out = TRANSLATION.translate_multiset_of(tx, node)
            return out
        return _anonymous(tx, node)
    if isinstance(node, exp.Count):
        return _aggregate(tx, node, "count")
    for cls, kind in ((exp.Sum, "sum"), (exp.Avg, "avg"), (exp.Min, "min"), (exp.Max, "max")):
        if isinstance(node, cls):
            if node.expressions:
                raise EngineError(sc.NO_ROUTINE, near=kind)
            return _aggregate(tx, node, kind)
    if isinstance(node, exp.Coalesce):
        first = tx.tx(_arg(node))
        rest = [tx.tx(e) for e in node.expressions]
        udt_casts.branches(tx.find_cast, [first, *rest])
        rtype = common_type([first, *rest])
        node.set("this", tx.unify(first, rtype))
        node.set("expressions", [tx.unify(e, rtype) for e in rest])
        return typed(node, rtype.nullable())
    if isinstance(node, exp.DecodeCase):
        return _decode(tx, node)
    if isinstance(node, (exp.Upper, exp.Lower, exp.Initcap)):
        inner = tx.tx(_arg(node))
        t = ty(inner)
        if not t.is_string:
            inner = func("ifx_text", inner, keylit(t.nullable()))
            t = it.varchar(255)
        name = {exp.Upper: "UPPER", exp.Lower: "LOWER", exp.Initcap: "ifx_initcap"}[type(node)]
        return typed(func(name, inner), t.nullable())
    if isinstance(node, exp.Length):
        inner = _temporal_text(tx.tx(_arg(node)))
        return typed(func("ifx_length", inner, exp.Literal.number(1)), it.INTEGER)
    if isinstance(node, exp.Substring):
        inner = tx.tx(_arg(node))
        t = ty(inner)
        if not t.is_string:
            inner = func("ifx_text", inner, keylit(t.nullable()))
            t = it.varchar(255)
        start = tx.convert(tx.tx(_arg(node, "start")), it.INTEGER)
        args = [inner, start]
        if node.args.get("length") is not None:
            args.append(tx.convert(tx.tx(_arg(node, "length")), it.INTEGER))
        # SUBSTR counts a negative start back from the end and takes 0 as 1; SUBSTRING
        # counts positions before the first character, as ANSI does (Guide to SQL: Syntax,
        # "SUBSTR function", which contrasts the two).
        name = "ifx_substr" if node.meta.get("ifx_substr") else "ifx_substring"
        if name == "ifx_substr" and t.is_char and t.size:
            # SUBSTR counts a CHAR(n)'s padding, which storage drops (ifx_substr's width)
            if len(args) == 2:
                args.append(exp.Literal.string("end"))
            args.append(exp.Literal.number(t.size))
        return typed(func(name, *args), t.nullable())
    if isinstance(node, exp.Trim):
        # A DATE is trimmed in the character form it converts to, as LENGTH counts it; TRIM
        # of a DATE gave the day number it is stored as ('45321').
        inner = _temporal_text(tx.tx(_arg(node)))
        chars = node.args.get("expression")
        position = str(node.args.get("position") or "BOTH").upper()
        name = {"LEADING": "LTRIM", "TRAILING": "RTRIM"}.get(position, "TRIM")
        args = [inner]
        if isinstance(chars, exp.Expr) and node.meta.get("trim_set"):
            args.append(tx.tx(chars))  # LTRIM(s, set) / RTRIM(s, set)
        elif isinstance(chars, exp.Expr):
            args.append(func("ifx_trim_char", tx.tx(chars)))
        else:
            args.append(exp.Literal.string(" "))
        return typed(func(name, *args), _trim_type(ty(inner)))
    if isinstance(node, exp.Concat):
        parts = node.expressions
        if len(parts) < 2:
            raise EngineError(sc.NO_ROUTINE, near="concat")
        acc: exp.Expr = parts[0]
        for p in parts[1:]:
            acc = exp.DPipe(this=acc, expression=p)
        return tx.tx(acc)
    if isinstance(node, (exp.Date,)):
        if len(node.expressions) > 0:
            raise EngineError(sc.NO_ROUTINE, near="date")
        inner = tx.tx(_arg(node))
        if tx.is_const(inner) and isinstance(inner.meta["const"], int) and ty(inner).is_integer:
            return tx.convert(inner, it.DATE)
        return tx.convert(inner, it.DATE, truncate=False)
    if isinstance(node, (exp.Year, exp.Month, exp.Day)):
        part = {exp.Year: "year", exp.Month: "month", exp.Day: "day"}[type(node)]
        return _date_part(tx, _arg(node), part)
    if isinstance(node, (exp.Abs, exp.Sign)):
        inner = _number(tx, tx.tx(_arg(node)))
        t = ty(inner)
        if t.is_decimal:
            name = "abs" if isinstance(node, exp.Abs) else "sign"
            return typed(func("ifx_dop", exp.Literal.string(name), inner, exp.Null(),
                              keylit(t.nullable())), t.nullable() if name == "abs" else it.INTEGER)
        node.set("this", inner)
        return typed(node, t.nullable() if isinstance(node, exp.Abs) else it.INTEGER)
    if isinstance(node, (exp.Round, exp.Trunc)):
        inner = tx.tx(_arg(node))
        if ty(inner).code in (T.DATE, T.DATETIME):
            return _round_time(tx, node, inner)
        places = node.args.get("decimals")
        digits = tx.convert(tx.tx(places), it.INTEGER) if isinstance(places, exp.Expr) else (
            exp.Literal.number(0))
        t = ty(inner)
        res = t.nullable() if t.code in it.FLOAT_CODES else it.DECIMAL32
        if t.code == T.MONEY:
            # "If a MONEY data type is the argument ... the fractional part becomes .00 in
            # the returned value" (Guide to SQL: Syntax, "TRUNC Function"): the result stays
            # MONEY, one digit wider for ROUND's carry.
            res = IfxType(T.MONEY, prec=min(t.prec + 1, 32), scale=t.scale)
        name = "round" if isinstance(node, exp.Round) else "trunc"
        return typed(func("ifx_dop", exp.Literal.string(name), inner, digits, keylit(res)), res)
    if isinstance(node, exp.Mod):
        # "MOD ... returns the remainder from integer division of the integer part of the
        # first argument ... by the integer part of the second argument ... an INT data type
        # (or INT8 for remainders outside the range of INT)" (Guide to SQL: Syntax, "MOD
        # Function", ids_sqs_1476). A remainder is smaller than the divisor, so INT8 is
        # described when the divisor's type can pass INT's range [I].
        left = _number(tx, tx.tx(node.this))
        right = _number(tx, tx.tx(node.expression))
        lt, rt = ty(left), ty(right)
        if lt.is_integer and rt.is_integer:
            res = int_result(lt, rt)
        elif rt.code in it.FLOAT_CODES or (rt.is_decimal and _int_digits(rt) > 9):
            res = it.INT8
        else:
            res = it.INTEGER
        return typed(func("ifx_dop", exp.Literal.string("mod"), left, right, keylit(res)), res)
    if isinstance(node, (exp.Pow, exp.Sqrt, exp.Exp, exp.Ln, exp.Log, exp.Ceil, exp.Floor,
                         exp.Sin, exp.Cos, exp.Tan)):
        name = node.key
        if isinstance(node, (exp.Ceil, exp.Floor)) and (
                node.args.get("decimals") is not None or node.args.get("to") is not None):
            # One argument in the CEIL and FLOOR diagrams; a second was dropped (arity.py).
            raise EngineError(sc.SYNTAX, near=name)
        args = [tx.tx(a) for a in node.args.values() if isinstance(a, exp.Expr)]
        res = it.FLOAT
        if isinstance(node, (exp.Ceil, exp.Floor)):
            # "returns the DECIMAL(32) representation of the smallest integer ..." whatever
            # the numeric argument (Guide to SQL: Syntax, "CEIL Function", "FLOOR Function").
            res = it.DECIMAL32
        return typed(func("ifx_math", exp.Literal.string(name), *args), res)
    if isinstance(node, exp.Replace):
        args = [tx.tx(_arg(node)), tx.tx(_arg(node, "expression"))]
        repl = node.args.get("replacement")
        args.append(tx.tx(repl) if isinstance(repl, exp.Expr) else exp.Literal.string(""))
        src = ty(args[0])
        res = _replace_type(tx, src, args[1], args[2] if isinstance(repl, exp.Expr) else None)
        return typed(func("REPLACE", *(_text(tx, a) for a in args)), res)
    if isinstance(node, exp.Pad):
        args = [tx.tx(_arg(node)), tx.convert(tx.tx(_arg(node, "expression")), it.INTEGER)]
        fill = node.args.get("fill_pattern")
        args.append(tx.tx(fill) if isinstance(fill, exp.Expr) else exp.Literal.string(" "))
        # A CHAR(n) source is n characters: "Because the source string has a length of 15
        # characters (sname is defined as CHAR(15)), the LPAD function pads the first six
        # positions" of LPAD(sname, 21, "-") (Tutorial, "The LPAD function", ids_sqt_141).
        # It was padded from the value without its blanks (eleven dashes for California).
        text = [_text(tx, args[0]), args[1], _text(tx, args[2])]
        side = "l" if node.args.get("is_left") else "r"
        # The result holds `length` characters: past 255 (no VARCHAR can) it is described
        # as an LVARCHAR of that size, so LPAD('a', 300, 'x') is sent whole, not refused.
        width = args[1].meta.get("const") if tx.is_const(args[1]) else None
        res = it.varchar(255)
        if isinstance(width, int) and width > 255:
            res = IfxType(T.LVARCHAR, size=min(width, 32739))
        src = ty(args[0])
        if src.is_string and src.size > 255 and src.size > res.size:
            res = IfxType(T.LVARCHAR, size=min(src.size, 32739))
        if any(ty(a).code in (T.NCHAR, T.NVARCHAR) for a in (args[0], args[2])):
            # "The return data type is based on the three arguments, using the return type
            # promotion rules" of CONCAT (ids_sqs_1563, ids_sqs_2001): an NCHAR or NVARCHAR
            # source or pad makes an NVARCHAR (an NCHAR past 255); it was a VARCHAR.
            res = (IfxType(T.NVARCHAR, size=res.size) if res.size <= 255
                   else IfxType(T.NCHAR, size=min(res.size, 32767)))
        return typed(func("ifx_pad2", exp.Literal.string(side), *text), res)
    if isinstance(node, exp.StrPosition):  # INSTR(s, sub [, from [, n]]), CHARINDEX(sub, s …)
        args = [_text(tx, tx.tx(_arg(node))), _text(tx, tx.tx(_arg(node, "substr")))]
        for key in ("position", "occurrence"):
            extra = node.args.get(key)
            args.append(tx.convert(tx.tx(extra), it.INTEGER) if isinstance(extra, exp.Expr)
                        else exp.Literal.number(1))
        name = "INSTR_IFX" if node.meta.get("instr") else "INSTR_AT"
        return typed(func("ifx_fn", exp.Literal.string(name), *args), it.INTEGER)
    if isinstance(node, exp.Nullif):
        left = tx.tx(node.this)
        right = tx.tx(node.expression)
        left, right, _ = tx.compare(left, right)
        node.set("this", left)
        node.set("expression", right)
        return typed(node, ty(left).nullable())
    if isinstance(node, exp.ToChar):
        args = [tx.tx(_arg(node))]
        fmt = node.args.get("format")
        if isinstance(fmt, exp.Expr):
            args.append(tx.tx(fmt))
        return _to_char(tx, node, args)
    if isinstance(node, exp.Chr):
        if len(node.expressions) != 1:
            raise EngineError(sc.NO_ROUTINE, near="chr")
        code = tx.convert(tx.tx(node.expressions[0]), it.INTEGER)
        # VARCHAR(1) per the Informix manual; 128-255 take two bytes in a UTF-8 code set.
        size = 2 if tx.ctx.encoding == "utf-8" else 1
        return typed(func("ifx_chr", code), it.varchar(size))
    if isinstance(node, exp.Hex):
        return _hex(tx, tx.tx(_arg(node)))
    if isinstance(node, exp.Ascii):
        return typed(func("UNICODE", tx.tx(_arg(node))), it.INTEGER)
    if isinstance(node, (exp.Stddev, exp.Variance)):
        inner = tx.tx(_arg(node))
        name = "stdev" if isinstance(node, exp.Stddev) else "variance"
        # "You can apply the VARIANCE function only to numeric columns" (ids_sqs_1592);
        # STDEV: "You cannot use this function on columns of type DATE" (ids_sqs_1591). A
        # DATE gave the variance of its day numbers. The code is RANGE's for a non-number
        # [inference: the pages name none].
        if not ty(inner).is_numeric:
            raise EngineError(sc.NO_CONVERSION)
        return typed(func(f"ifx_{name}", inner), it.FLOAT)
    if isinstance(node, exp.Window):
        return olap.window(tx, node)
    if isinstance(node, (exp.RowNumber, exp.Rank, exp.DenseRank, exp.Ntile)):
        if isinstance(node, exp.Ntile):
            node.set("this", tx.convert(tx.tx(_arg(node)), it.INTEGER))
        return typed(node, it.INT8)
    if isinstance(node, (exp.CumeDist, exp.PercentRank)):
        return typed(node, it.FLOAT)
    if isinstance(node, (exp.Lag, exp.Lead, exp.FirstValue, exp.LastValue)):
        return olap.offset_fn(tx, node)
    if isinstance(node, exp.CurrentTimestamp):
        t = it.datetime_type(U.YEAR, U.FRACTION3)
        return typed(func("ifx_current", keylit(t)), t)
    # sqlglot has its own node for some functions Informix has under the same name (NVL2,
    # ASIN, …): as an anonymous call, in argument order, they reach the handlers above.
    name = node.sql_name().upper()
    if name in _ANON or name in TRANSLATION.functions or name in builtins.FUNCTIONS:
        args = [v for k in node.arg_types for v in _flat(node.args.get(k))]
        return _anonymous(tx, exp.Anonymous(this=name, expressions=args))
    raise EngineError(sc.NO_ROUTINE, near=node.sql_name().lower())


def _trim_type(t: IfxType) -> IfxType:
    """TRIM's result (ids_sqs_1556; the GLS guide's table, "The TRIM function", ids_gug_245):
    an argument longer than 255 bytes gives an LVARCHAR; of 255 or fewer, a CHAR or VARCHAR
    gives a VARCHAR, an NCHAR or NVARCHAR an NVARCHAR, an LVARCHAR an LVARCHAR. An LVARCHAR
    argument was a VARCHAR, a national one a VARCHAR, a CHAR(300) a CHAR. LTRIM and RTRIM,
    the same node here, are typed alike [inference: their pages give no type]."""
    if not t.is_string:
        return it.varchar(255)
    if t.size > 255 or t.code == T.LVARCHAR:
        return IfxType(T.LVARCHAR, size=min(t.size or 255, 32739))
    if t.code in (T.NCHAR, T.NVARCHAR):
        return IfxType(T.NVARCHAR, size=t.size or 255)
    return it.varchar(t.size or 255)


def _replace_type(tx: ExprTranslator, src: IfxType, old: exp.Expr,
                  new: exp.Expr | None) -> IfxType:
    """REPLACE: "The return data type is its source_string argument" (ids_sqs_1562; the
    tutorial's REPLACE(unit, "each", "item") of stores_demo's CHAR(4) unit, ids_sqt_137).
    The length is the source's unless the replacement is longer than what it replaces,
    then the most the value can grow to (every old_string replaced), or 255 at least when
    either is not a constant [inference: the page gives no length]; a VARCHAR or NVARCHAR
    past 255 is an LVARCHAR. It was a VARCHAR(255) whatever the source (and a CHAR source
    was searched without its trailing blanks)."""
    if not src.is_string:
        return it.varchar(255)
    size = src.size
    old_len = len(str(old.meta["const"])) if tx.is_const(old) else None
    new_len = 0 if new is None else (
        len(str(new.meta["const"])) if tx.is_const(new) else None)
    if old_len and new_len is not None:
        if new_len > old_len:
            size = size // old_len * new_len + size % old_len
    else:
        size = max(size, 255)
    if src.code in (T.CHAR, T.NCHAR):
        return IfxType(src.code, size=min(size, 32767))
    if size > 255 or src.code == T.LVARCHAR:
        return IfxType(T.LVARCHAR, size=min(size, 32739))
    return IfxType(src.code, size=size)


def _text(tx: ExprTranslator, value: exp.Expr) -> exp.Expr:
    """A string argument as the text Informix sees: a CHAR(n) with its trailing blanks, a
    non-string in its display form."""
    t = ty(value)
    if not t.is_string:
        return func("ifx_text", value, keylit(t.nullable()))
    if t.is_char and not (t.size <= 1 and isinstance(value, exp.Literal)
                          and value.is_string and value.this == ""):
        # The literal '' is typed CHAR(1) (no CHAR(0) exists) but holds no blank: RPAD('', 8,
        # 'ab') is 'abababab' (Django's Repeat is built on it), not ' abababa'.
        return func("ifx_pad", value, exp.Literal.number(t.size))
    return value


def _flat(value: object) -> list[exp.Expr]:
    if isinstance(value, exp.Expr):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, exp.Expr)]
    return []


def _round_time(tx: ExprTranslator, node: exp.Round | exp.Trunc, value: exp.Expr) -> exp.Expr:
    """ROUND/TRUNC(date_or_datetime [, 'YEAR'|'MONTH'|'DAY'|'DD'|'HH'|'MI']): the value at
    that precision, of the argument's type (builtins.round_dt). A DATE without a format is
    itself (it is whole days); a DATETIME's default format is 'DD'."""
    t = ty(value)
    fmt_node = node.args.get("decimals") or node.args.get("expression")
    if fmt_node is None and t.code == T.DATE:
        return value
    fmt = tx.tx(fmt_node if isinstance(fmt_node, exp.Expr) else exp.Literal.string("DD"))
    if not ty(fmt).is_string:
        raise EngineError(sc.BAD_FUNCTION_ARG, near=node.sql_name().lower())
    trunc = exp.Literal.number(1 if isinstance(node, exp.Trunc) else 0)
    if t.code == T.DATE:
        return typed(func("ifx_fn", exp.Literal.string("ROUND_DATE"), value, fmt, trunc),
                     it.DATE)
    full = tx.convert(value, builtins.Y2F5, truncate=False)
    out = typed(func("ifx_fn", exp.Literal.string("ROUND_DT"), full, fmt, trunc),
                builtins.Y2F5)
    return tx.convert(out, t.nullable())


def _hex(tx: ExprTranslator, arg: exp.Expr) -> exp.Expr:
    """HEX(n): the two's-complement hexadecimal form of an integer, '0x' and 8 digits (16 for
    a value beyond INTEGER), as Informix prints it: HEX(255) is 0x000000FF."""
    t = ty(arg)
    wide = t.code in (T.INT8, T.SERIAL8, T.BIGINT, T.BIGSERIAL) or t.is_decimal
    arg = tx.convert(arg, it.BIGINT if wide or not t.is_integer else it.INTEGER)
    return typed(func("ifx_hex", arg), it.char(18))


def _decode(tx: ExprTranslator, node: exp.DecodeCase) -> exp.Expr:
    args = node.expressions
    if len(args) < 3:
        raise EngineError(sc.NO_ROUTINE, near="decode")
    subject = tx.tx(args[0])
    pairs = args[1:]
    default = pairs.pop() if len(pairs) % 2 else None
    ifs = []
    results: list[exp.Expr] = []
    for i in range(0, len(pairs), 2):
        probe = tx.tx(pairs[i])
        _, probe = udt_casts.operands(tx.find_cast, node, subject, probe)  # as CASE's WHEN
        s, probe, dec = tx.compare(subject.copy(), probe)
        left = exp.Collate(this=s, expression=exp.Var(this="IFXDEC")) if dec else s
        if probe.meta.get("null"):
            cond: exp.Expr = exp.Is(this=left, expression=exp.Null())
        else:
            cond = exp.EQ(this=left, expression=probe)
        res = tx.tx(pairs[i + 1])
        results.append(res)
        ifs.append(exp.If(this=cond, true=res))
    d = tx.tx(default) if default is not None else None
    udt_casts.branches(tx.find_cast, results + ([d] if d is not None else []))
    rtype = common_type(results + ([d] if d is not None else []))
    for i, res in enumerate(results):
        ifs[i].set("true", tx.unify(res, rtype))
    case = exp.Case(ifs=ifs, default=tx.unify(d, rtype) if d is not None else None)
    return typed(case, rtype.nullable())


def is_aggregate(node: exp.Expr) -> bool:
    return isinstance(node, (exp.Count, exp.Sum, exp.Avg, exp.Min, exp.Max, exp.Stddev,
                             exp.Variance)) or (
        isinstance(node, exp.Anonymous) and str(node.this).upper() == "RANGE")


def result_name(node: exp.Expr) -> str:
    """The name Informix gives an unnamed projection: (constant), (count(*)), (sum), …"""
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, (exp.Literal, exp.Null, exp.Boolean)) or (
        isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal)
    ):
        return "(constant)"
    if isinstance(node, exp.Window):
        # An OLAP expression is named after its function: IBM's OLAP slides print
        # "(count(*))" for COUNT(*) OVER (...), ids_sqs_2590 "(ntile)" for NTILE(5) OVER (...).
        inner = node.this
        if isinstance(inner, (exp.IgnoreNulls, exp.RespectNulls)):
            inner = inner.this
        if is_aggregate(inner):
            return result_name(inner)
        if isinstance(inner, exp.Anonymous):
            return f"({str(inner.this).lower()})"
        if isinstance(inner, exp.Func):
            return f"({inner.sql_name().lower()})"
    if isinstance(node, exp.Count):
        return "(count(*))" if isinstance(node.this, exp.Star) else "(count)"
    for cls, name in ((exp.Sum, "(sum)"), (exp.Avg, "(avg)"), (exp.Min, "(min)"),
                      (exp.Max, "(max)")):
        if isinstance(node, cls):
            return name
    if isinstance(node, exp.Anonymous) and str(node.this).upper() == "RANGE":
        return "(range)"
    if isinstance(node, exp.Column):
        return node.name
    if isinstance(node, exp.Anonymous) and node.meta.get("ifx_whole_row"):
        return str(node.meta["ifx_whole_row"])  # a table's row by its name (whole_rows.py)
    if isinstance(node, exp.Dot):  # a nested ROW field (r.n.x) is named as the field, as r.n is
        return str(node.expression.name)
    return "(expression)"


__all__ = ["is_aggregate", "result_name", "storage_kind", "translate_function"]
