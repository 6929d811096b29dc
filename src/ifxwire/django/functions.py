"""Informix spellings of Django's expressions and database functions (``as_informix``).

Django looks up ``as_<vendor>`` on an expression before ``as_sql``; these are attached to
Django's classes when the backend is imported. Where Informix differs:

* a bare ``?`` is a syntax error in a projection (the server cannot type it), so a Value is
  written ``CAST(? AS type)``;
* ``LENGTH`` counts bytes and drops trailing blanks: Length is ``CHAR_LENGTH``;
* ``CONCAT``/``||`` of NULL is NULL: Concat coalesces its parts to '' as Django expects;
* ``LN`` is ``LOGN``, ``LOG(b, x)`` is ``LOGN(x) / LOGN(b)``, ``POWER`` is ``POW``, ``COT`` is
  ``1 / TAN``, ``PI()`` is a literal, ``RANDOM`` does not exist;
* ``REPEAT`` does not exist: RPAD('', n * CHAR_LENGTH(s), s).
"""

from __future__ import annotations

import math
import re
from typing import Any

from django.db import NotSupportedError
from django.db.models import aggregates
from django.db.models import functions as f
from django.db.models.expressions import Value

#: (sql, params), as Django's as_sql returns them (Django is untyped).
Compiled = Any


#: What Django casts a CharField without max_length to (operations.py).
_UNSIZED = "LVARCHAR(32739)"


def _str_cast(value: str, connection: Any) -> str:
    """An unsized string literal's type: LVARCHAR of its own bytes. LVARCHAR(32739) for
    each would make two of them in one select list (a Concat of two Values) an output row
    past 32,767 bytes, which Informix refuses at PREPARE (-528, docs/SERVER.md)."""
    encoding = getattr(connection.connection, "encoding", None) or "utf-8"
    return f"LVARCHAR({max(1, len(value.encode(encoding, 'replace')))})"


def _value(self: Value, compiler: Any, connection: Any, **kw: Any) -> Compiled:
    sql, params = self.as_sql(compiler, connection, **kw)
    if sql == "%s" and self._output_field_or_none is not None:
        db_type = self._output_field_or_none.cast_db_type(connection)
        if db_type == _UNSIZED and isinstance(self.value, str):
            db_type = _str_cast(self.value, connection)
        if db_type:
            return f"CAST(%s AS {db_type})", params
    if sql == "%s" and isinstance(self.value, str):
        return f"CAST(%s AS {_str_cast(self.value, connection)})", params
    return sql, params


#: Sized character types: CHAR(n), VARCHAR(n[, r]), LVARCHAR(n) and their N forms.
_SIZED_CHAR = re.compile(r"^\s*(?:N?CHAR|N?VARCHAR|LVARCHAR)\s*\(\s*(\d+)", re.I)


def _cast(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
    """Cast to a CharField without max_length: LVARCHAR of the source column's size when it
    is a sized character column, else 255 bytes (the text of any number, date, time or
    interval fits). LVARCHAR(32739), Django's generic choice, and the rest of the row make
    an output row past 32,767 bytes (-528 at PREPARE, docs/SERVER.md)."""
    target = self.output_field
    if target.get_internal_type() == "CharField" and target.max_length is None:
        (source,) = self.get_source_expressions()
        size = 255
        src_field = getattr(source, "_output_field_or_none", None)
        if isinstance(source, Value) and isinstance(source.value, str):
            size = max(1, len(source.value.encode("utf-8")))
        elif src_field is not None:
            try:
                m = _SIZED_CHAR.match(src_field.db_type(connection) or "")
            except TypeError:  # a CharField without max_length has no column type
                m = None
            if m:
                size = int(m.group(1))
        return self.as_sql(compiler, connection,
                           template=f"%(function)s(%(expressions)s AS LVARCHAR({size}))", **kw)
    return self.as_sql(compiler, connection, **kw)


def _length(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
    return self.as_sql(compiler, connection, function="CHAR_LENGTH", **kw)


def _concat_pair(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
    coalesced = self.coalesce()
    return super(f.ConcatPair, coalesced).as_sql(
        compiler, connection, template="(%(expressions)s)", arg_joiner=" || ", **kw)


def _func(name: str) -> Any:
    def as_informix(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
        return self.as_sql(compiler, connection, function=name, **kw)
    return as_informix


def _template(template: str) -> Any:
    def as_informix(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
        return self.as_sql(compiler, connection, template=template, **kw)
    return as_informix


def _log(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
    base, x = self.get_source_expressions()
    base_sql, base_params = compiler.compile(base)
    x_sql, x_params = compiler.compile(x)
    return f"(LOGN({x_sql}) / LOGN({base_sql}))", (*x_params, *base_params)


def _mod(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
    """Informix's MOD takes the integer parts of its operands and returns an INT (Guide to SQL:
    Syntax, MOD function, ids_sqs_1476); Django's Mod of decimals and floats is C's fmod, the
    remainder of the truncated quotient, which this spells out. Integers keep MOD."""
    if self.output_field.get_internal_type() not in ("DecimalField", "FloatField"):
        return self.as_sql(compiler, connection, **kw)
    x, y = self.get_source_expressions()
    x_sql, x_params = compiler.compile(x)
    y_sql, y_params = compiler.compile(y)
    return (f"(({x_sql}) - TRUNC(({x_sql}) / ({y_sql})) * ({y_sql}))",
            (*x_params, *x_params, *y_params, *y_params))


def _repeat(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
    text, number = self.get_source_expressions()
    t_sql, t_params = compiler.compile(text)
    n_sql, n_params = compiler.compile(number)
    return (f"CASE WHEN {n_sql} IS NULL THEN NULL ELSE "
            f"RPAD('', {n_sql} * CHAR_LENGTH({t_sql}), {t_sql}) END",
            (*n_params, *n_params, *t_params, *t_params))


def _coalesce(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
    """Informix takes no parameter among COALESCE's arguments, not even cast (Hibernate's
    InformixDialect writes them inline for that reason; docs/SERVER.md): nested NVL, which
    takes them, means the same."""
    parts = [compiler.compile(e) for e in self.get_source_expressions()]
    sql, params = parts[-1]
    params = list(params)
    for part_sql, part_params in reversed(parts[:-1]):
        sql, params = f"NVL({part_sql}, {sql})", [*part_params, *params]
    return sql, params


def _extreme(op: str) -> Any:
    """GREATEST/LEAST are not Informix functions: a CASE that is NULL when any argument is
    (as Django's Greatest and Least are on PostgreSQL-free backends)."""
    def as_informix(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
        parts = [compiler.compile(e) for e in self.get_source_expressions()]
        sql, params = parts[0]
        params = list(params)
        for part_sql, part_params in parts[1:]:
            sql, params = (
                f"CASE WHEN ({sql}) IS NULL OR ({part_sql}) IS NULL THEN NULL "
                f"WHEN ({sql}) {op} ({part_sql}) THEN ({sql}) ELSE ({part_sql}) END",
                [*params, *part_params, *params, *part_params, *params, *part_params])
        return sql, params
    return as_informix


def _statistic(kind: str) -> Any:
    """Informix's STDEV and VARIANCE are the population statistics (divided by N: the results
    the Guide to SQL: Syntax prints, ids_sqs_1594, and the Tutorial's "without Bessel
    correction", ids_sqt_118/119); the sample ones are derived: VARIANCE(x) * COUNT(x) /
    (COUNT(x) - 1), and its square root, NULL for fewer than two values as on PostgreSQL."""
    def as_informix(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
        if not self.function.endswith("_SAMP"):
            return self.as_sql(compiler, connection,
                               function="STDEV" if kind == "stddev" else "VARIANCE", **kw)
        x = "%(distinct)s%(expressions)s"
        sample = (f"CASE WHEN COUNT({x}) > 1 THEN "
                  f"VARIANCE({x}) * COUNT({x}) / (COUNT({x}) - 1) END")
        template = f"SQRT({sample})" if kind == "stddev" else sample
        sql, params = self.as_sql(compiler, connection, template=template, **kw)
        return sql, (*params, *params, *params, *params)
    return as_informix


def _unsupported(what: str) -> Any:
    def as_informix(self: Any, compiler: Any, connection: Any, **kw: Any) -> Compiled:
        raise NotSupportedError(f"{what} is not available on Informix")
    return as_informix


def install() -> None:
    """Attach the Informix spellings to Django's expression classes (idempotent)."""
    Value.as_informix = _value
    f.Cast.as_informix = _cast
    f.Length.as_informix = _length
    f.ConcatPair.as_informix = _concat_pair
    f.Ln.as_informix = _func("LOGN")
    f.Log.as_informix = _log
    f.Power.as_informix = _func("POW")
    f.Mod.as_informix = _mod
    f.Cot.as_informix = _template("(1 / TAN(%(expressions)s))")
    f.Pi.as_informix = _template(repr(math.pi))
    f.Ord.as_informix = _func("ASCII")
    f.Repeat.as_informix = _repeat
    f.Random.as_informix = _unsupported("RANDOM()")
    f.MD5.as_informix = _unsupported("MD5()")
    for cls in (f.SHA1, f.SHA224, f.SHA256, f.SHA384, f.SHA512):
        cls.as_informix = _unsupported(cls.__name__ + "()")
    f.Coalesce.as_informix = _coalesce
    f.Greatest.as_informix = _extreme(">=")
    f.Least.as_informix = _extreme("<=")
    aggregates.StdDev.as_informix = _statistic("stddev")
    aggregates.Variance.as_informix = _statistic("variance")
    f.Now.as_informix = _template("CURRENT YEAR TO FRACTION(5)")
