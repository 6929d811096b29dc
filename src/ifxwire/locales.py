"""Informix locale names to Python codecs.

The connection's CLIENT_LOCALE decides the code set of everything that crosses the wire: SQL
text, column names, character data, error parameters. Informix names code sets by number
(``en_US.819``) or by name (``en_US.8859-1``, ``en_US.utf8``); both spellings are accepted.
An unknown code set is refused at connect time rather than guessed, because a wrong guess
corrupts data silently.

One module for the driver and the embedded server: the server once had a smaller table of its
own that fell back to Latin-1 for every name it did not know; it now refuses such a locale at
login with -23101, as Informix does when it cannot load a locale (docs/SERVER.md, "Locales").
"""

from __future__ import annotations

import codecs
from functools import lru_cache

from .errors import InterfaceError

__all__ = ["DEFAULT_LOCALE", "codec_for_locale"]

#: The locale of a client that names none: Informix's default en_US.819 (GLS User's Guide,
#: "The default locale"), Latin-1.
DEFAULT_LOCALE = "en_US.819"

_CODESETS: dict[str, str] = {
    "8859-1": "iso-8859-1",
    "819": "iso-8859-1",
    "8859-2": "iso-8859-2",
    "912": "iso-8859-2",
    "8859-5": "iso-8859-5",
    "915": "iso-8859-5",
    "8859-7": "iso-8859-7",
    "813": "iso-8859-7",
    "8859-9": "iso-8859-9",
    "920": "iso-8859-9",
    "8859-15": "iso-8859-15",
    "923": "iso-8859-15",
    "utf8": "utf-8",
    "utf-8": "utf-8",
    "57372": "utf-8",
    "cp1250": "cp1250",
    "1250": "cp1250",
    "cp1251": "cp1251",
    "1251": "cp1251",
    "cp1252": "cp1252",
    "1252": "cp1252",
    "pc-latin-1": "cp850",
    "850": "cp850",
    "437": "cp437",
    "ascii": "ascii",
    "sjis-s": "shift_jis",
    "932": "cp932",
    "gb18030-2000": "gb18030",
    "5488": "gb18030",
    "big5": "big5",
    "ksc5601": "euc_kr",
    "ujis": "euc_jp",
}


@lru_cache(maxsize=64)
def codec_for_locale(locale: str) -> str:
    """Python codec name for an Informix locale such as ``en_US.8859-1`` or ``de_DE.utf8``."""
    codeset = locale.rsplit(".", 1)[-1].strip().lower().replace("_", "-")
    name = _CODESETS.get(codeset)
    if name is None:
        try:
            name = codecs.lookup(codeset).name
        except LookupError:
            raise InterfaceError(
                f"unknown code set {codeset!r} in locale {locale!r}; "
                "use a name such as en_US.8859-1, en_US.819 or en_US.utf8"
            ) from None
    return name
