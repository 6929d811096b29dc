"""The adapter registry: which Python value a result column becomes, how a parameter is bound.

Three levels, each a copy-on-write child of the one above, as in psycopg 3:

* ``ifxwire.adapters``: the global map, holding the built-in loaders and dumpers;
* ``conn.adapters``: a snapshot of the global map taken when the connection opens;
* ``cursor.adapters``: a snapshot of its connection's map taken on first use.

A registration changes only its own map and maps created from it afterwards.

**Loaders** (Informix → Python) are keyed by the Informix base type code as the cursor's
``description`` reports it (``TypeCode.DECIMAL`` = 5, ``TypeCode.BOOLEAN`` = 45, ...) or by a
type name (``"decimal"``, ``"boolean"``, ``"lvarchar"``, ...). A loader receives the value the
built-in codec decoded (``Decimal``, ``datetime``, ``str``, ...; never ``None``: NULL stays
``None``) and returns the application's value. The built-in loader of every type is the
compiled row decoder itself (registered as :data:`BUILTIN`); a result whose columns all use
built-in loaders is decoded by the cached decoder unchanged, so the registry costs nothing on
the hot path. A loader that raises makes the fetch fail with ``DataError``.

**Dumpers** (Python → bind) are keyed by Python class and found along the value's MRO, so a
dumper for a base class (``enum.Enum``) serves its subclasses. A dumper returns either a value
the built-in binder takes (``int``, ``str``, ``Decimal``, ...), which is then bound as that
value, or a :class:`BindItem` with the exact wire type, ``prec`` and data bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from struct import Struct
from typing import Any, NamedTuple

from ..protocol.codes import NAMED_IN_BIND, TypeCode
from .bind import BUILTIN_ENCODERS, encode_bind_value
from .errors import CodecDataError
from .rowcodec import RowDecoder

__all__ = [
    "BUILTIN",
    "AdaptersMap",
    "BindItem",
    "Dumper",
    "Loader",
    "global_adapters",
]

Loader = Callable[[Any], Any]
Dumper = Callable[[Any], Any]

_HEAD = Struct(">hhh")  # type, indicator 0, prec
_U16 = Struct(">H")
_I16 = Struct(">h")


def BUILTIN(value: Any) -> Any:
    """The built-in loader/dumper marker: the compiled codecs handle the value."""
    return value


class BindItem(NamedTuple):
    """An exact SQ_BIND item a dumper may return (docs/TYPES.md §4 for the layout).

    ``data`` is the type's bind data as the wire carries it (for example ``u16 length + bytes``
    for CHAR, the 4-byte value for INTEGER); it is padded to an even length here. Types above
    18 (other than 52/53) also carry ``type_name`` (the owner is always empty).
    """

    type_code: int
    prec: int
    data: bytes
    type_name: str = ""

    def encode(self, encoding: str) -> bytes:
        data = self.data + b"\x00" if len(self.data) & 1 else self.data
        code = self.type_code
        if (code & 0xFF) in NAMED_IN_BIND:
            name = self.type_name.encode(encoding)
            pad = b"\x00" if len(name) & 1 else b""
            return (
                _I16.pack(code)
                + b"\x00\x00"  # owner: empty CHARSTR
                + _U16.pack(len(name))
                + name
                + pad
                + _I16.pack(0)
                + _I16.pack(self.prec)
                + data
            )
        return _HEAD.pack(code, 0, self.prec) + data


#: Type names accepted by ``register_loader``: every TypeCode name, lower case.
_NAMES: dict[str, int] = {t.name.lower(): int(t) for t in TypeCode}

_MAX_WRAPPED = 256


def _type_key(name: str) -> str:
    """ROW/collection type names compare without case or blanks."""
    return "".join(name.split()).lower()


def _loader_key(key: int | str) -> int:
    if isinstance(key, str):
        try:
            return _NAMES[key.strip().lower()]
        except KeyError:
            raise ValueError(f"unknown Informix type name {key!r}") from None
    if isinstance(key, int) and not isinstance(key, bool):
        return int(key)
    raise TypeError(f"a loader is keyed by a type code or name, not {type(key).__name__}")


class AdaptersMap:
    """Loaders and dumpers for one scope (global, connection or cursor); see the module doc."""

    _own: bool  # the dicts are this map's own (not shared with a template or a child)

    def __init__(self, template: AdaptersMap | None = None) -> None:
        self._loaders: dict[int, Loader]
        self._dumpers: dict[type, Dumper]
        if template is None:
            self._loaders = dict.fromkeys(map(int, TypeCode), BUILTIN)
            self._dumpers = dict.fromkeys(BUILTIN_ENCODERS, BUILTIN)
            self._user_loaders = 0
            self._user_dumpers = 0
            self._named: dict[str, Loader] = {}
        else:
            # Share the template's dicts until either side writes (both copy first).
            template._own = False
            self._loaders = template._loaders
            self._dumpers = template._dumpers
            self._user_loaders = template._user_loaders
            self._user_dumpers = template._user_dumpers
            self._named = template._named
        self._own = False
        self._dumper_cache: dict[type, Dumper | None] = {}
        self._wrapped: dict[int, tuple[RowDecoder, tuple[int, ...], RowDecoder]] = {}

    def _write(self) -> None:
        if not self._own:
            self._loaders = dict(self._loaders)
            self._dumpers = dict(self._dumpers)
            self._named = dict(self._named)
            self._own = True
        self._dumper_cache.clear()
        self._wrapped.clear()

    # ------------------------------------------------------------------ registration

    def register_loader(self, key: int | str, fn: Loader) -> None:
        """Turn the built-in value of Informix type ``key`` into ``fn(value)`` in results."""
        code = _loader_key(key)
        if not callable(fn):
            raise TypeError("a loader must be callable")
        self._write()
        self._loaders[code] = fn
        self._count_loaders()

    def register_type_loader(self, type_name: str, fn: Loader) -> None:
        """Like register_loader, for the ROW/collection columns whose type ``description``
        names ``type_name`` (a named row type such as ``"address_t"``, or a text such as
        ``"ROW(x integer, y integer)"``; case and blanks do not matter). ``fn`` gets the
        column's ``Row``/``Set``/``Multiset``/``List``; it wins over a loader for the code."""
        if not callable(fn):
            raise TypeError("a loader must be callable")
        self._write()
        self._named[_type_key(type_name)] = fn
        self._count_loaders()

    def _count_loaders(self) -> None:
        self._user_loaders = sum(f is not BUILTIN for f in self._loaders.values()) + len(
            self._named)

    def register_row_type(self, type_name: str, cls: type) -> None:
        """Map a ROW type to an application class both ways: fetched values of ``type_name``
        become ``cls(*fields)``, and ``cls`` instances (a dataclass, a NamedTuple, or anything
        with ``__dataclass_fields__`` / ``_fields``) bind as that ROW."""
        import dataclasses

        from .compositevalues import Row

        if dataclasses.is_dataclass(cls):
            names = tuple(f.name for f in dataclasses.fields(cls))

            def fields_of(obj: Any) -> tuple[Any, ...]:
                return tuple(getattr(obj, n) for n in names)
        elif hasattr(cls, "_fields"):
            names = tuple(cls._fields)

            def fields_of(obj: Any) -> tuple[Any, ...]:
                return tuple(obj)
        else:
            raise TypeError(f"{cls.__name__} is neither a dataclass nor a NamedTuple")
        named = "" if type_name.strip().lower().startswith("row(") else type_name
        self.register_type_loader(type_name, lambda row: cls(*row))
        self.register_dumper(cls, lambda obj: Row(fields_of(obj), names, named))

    def register_dumper(self, cls: type, fn: Dumper) -> None:
        """Bind instances of ``cls`` (and subclasses) as ``fn(value)``; see the module doc."""
        if not isinstance(cls, type):
            raise TypeError(f"a dumper is keyed by a class, not {cls!r}")
        if not callable(fn):
            raise TypeError("a dumper must be callable")
        self._write()
        self._dumpers[cls] = fn
        self._user_dumpers = sum(f is not BUILTIN for f in self._dumpers.values())

    def reset_loader(self, key: int | str) -> None:
        """Go back to the built-in loader for ``key``."""
        self.register_loader(key, BUILTIN)

    def reset_dumper(self, cls: type) -> None:
        """Go back to the built-in binding for ``cls`` (or remove a dumper for a new class)."""
        self._write()
        if cls in BUILTIN_ENCODERS:
            self._dumpers[cls] = BUILTIN
        else:
            self._dumpers.pop(cls, None)
        self._user_dumpers = sum(f is not BUILTIN for f in self._dumpers.values())

    # ------------------------------------------------------------------ lookup

    @property
    def has_user_loaders(self) -> bool:
        return self._user_loaders > 0

    @property
    def has_user_dumpers(self) -> bool:
        return self._user_dumpers > 0

    def get_loader(self, code: int | str) -> Loader:
        """The loader of a type (``BUILTIN`` when no user loader is registered)."""
        return self._loaders.get(_loader_key(code), BUILTIN)

    def get_dumper(self, cls: type) -> Dumper | None:
        """The dumper for ``cls`` along its MRO; ``BUILTIN`` or None means the built-in binder."""
        try:
            return self._dumper_cache[cls]
        except KeyError:
            pass
        found: Dumper | None = None
        for klass in cls.__mro__:
            fn = self._dumpers.get(klass)
            if fn is not None:
                found = fn
                break
        self._dumper_cache[cls] = found
        return found

    # ------------------------------------------------------------------ use

    def dump(self, value: object, encoding: str) -> bytes:
        """The SQ_BIND item for ``value``: a user dumper's result, or the built-in encoding."""
        if value is None:
            return encode_bind_value(None, encoding)
        fn = self.get_dumper(type(value))
        if fn is None or fn is BUILTIN:
            return encode_bind_value(value, encoding)
        out = fn(value)
        if isinstance(out, BindItem):
            return out.encode(encoding)
        # Bound by the built-in codecs only: a dumper result never loops through dumpers.
        return encode_bind_value(out, encoding)

    def user_loader(self, code: int) -> Loader | None:
        """The user's loader for a type code, or None when the built-in value stands."""
        fn = self._loaders.get(code, BUILTIN) if self._user_loaders else BUILTIN
        return None if fn is BUILTIN else fn

    def row_decoder(self, decoder: RowDecoder, codes: Sequence[int]) -> RowDecoder:
        """``decoder`` itself when every column uses built-in loaders, else a wrapper.

        ``codes`` are the columns' type codes as ``description`` reports them. Wrappers are
        cached per decoder until the next registration.
        """
        if not self._user_loaders:
            return decoder
        key = tuple(codes)
        hit = self._wrapped.get(id(decoder))
        if hit is not None and hit[0] is decoder and hit[1] == key:
            return hit[2]
        loaders = self._loaders
        named = self._named
        apply = [
            (i, fn)
            for i, fn in enumerate(
                (named.get(_type_key(c.type_name)) if named and hasattr(c, "type_name") else None)
                or loaders.get(c, BUILTIN)
                for c in key
            )
            if fn is not BUILTIN
        ]
        wrapped = decoder if not apply else _wrap(decoder, apply)
        if len(self._wrapped) >= _MAX_WRAPPED:
            self._wrapped.clear()
        self._wrapped[id(decoder)] = (decoder, key, wrapped)
        return wrapped


def _wrap(decoder: RowDecoder, apply: list[tuple[int, Loader]]) -> RowDecoder:
    def decode_row(buf: Any, offset: int, size: int) -> tuple[Any, ...]:
        row = decoder(buf, offset, size)
        values = list(row)
        for i, fn in apply:
            v = values[i]
            if v is not None:
                try:
                    values[i] = fn(v)
                except Exception as exc:
                    raise CodecDataError(
                        f"loader {getattr(fn, '__name__', fn)!s} failed on column {i + 1} "
                        f"value {v!r:.60}: {type(exc).__name__}: {exc}"
                    ) from exc
        return tuple(values)

    return decode_row


#: The global map (``ifxwire.adapters``): built-ins plus whatever the application registers.
global_adapters = AdaptersMap()
