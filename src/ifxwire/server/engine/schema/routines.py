"""Stored routines as the catalog knows them: signature, return types, text, and the parse.

A ``Routine`` is what ``sysprocedures`` describes (name, owner, specific name, parameters,
return types) plus the CREATE text ``sysprocbody`` holds; the body is parsed from that text
the first time a session runs the routine (``spl/parser.py``) and interpreted by
``spl/interp.py``. Routines are overloaded by signature: the schema maps a name to every
routine of that name.

A function whose whole body is one ``RETURN`` of expressions over its parameters is also
expanded inline where a query calls it (``expand``): the same result as running it, without
a call per row.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..core.ifxtypes import IfxType, from_key


@dataclass(eq=False)
class Routine:
    procid: int
    name: str
    owner: str
    function: bool
    params: list[tuple[str, IfxType]]
    returns: list[IfxType]
    text: str = ""  # the CREATE statement, as sysprocbody stores it
    specific: str | None = None
    defaults: list[str | None] = field(default_factory=list)  # DEFAULT text per parameter
    modes: list[str] = field(default_factory=list)  # IN / OUT / INOUT per parameter
    return_names: list[str | None] = field(default_factory=list)
    mode: str = "O"  # sysprocedures.mode: O owner, D DBA, T trigger procedure
    iterator: bool = False  # contains RETURN … WITH RESUME
    inline: str = ""  # the RETURN expressions of a one-RETURN function ('' otherwise)
    trigger_table: str | None = None
    referencing: dict[str, str] = field(default_factory=dict)
    delimident: bool = False
    #: the parsed body (features/spl/ast.py's RoutineBody), kept with the routine so that it is
    #: parsed once per schema (spl/interp.py ``Interp.body``); the catalogue only stores it,
    #: so it names no feature type
    parsed: object = field(default=None, repr=False)

    @property
    def kind(self) -> str:
        return "function" if self.function else "procedure"

    def signature(self) -> str:
        """``name(type, …)`` as Informix prints routine signatures in messages."""
        return f"{self.name}({', '.join(t.sql().lower() for _, t in self.params)})"

    def outputs(self) -> list[int]:
        """Positions of the OUT and INOUT parameters (their values come back to the caller's
        variables when the routine ends)."""
        return [i for i, m in enumerate(self.modes) if m != "IN"]

    def required(self) -> int:
        """How many leading arguments a call must give (the rest have defaults)."""
        n = len(self.params)
        while n and n <= len(self.defaults) and self.defaults[n - 1] is not None:
            n -= 1
        return n

    def meta(self) -> str:
        return json.dumps({
            "name": self.name, "owner": self.owner, "function": self.function,
            "params": [[n, t.key] for n, t in self.params], "defaults": self.defaults,
            "modes": self.modes, "returns": [t.key for t in self.returns],
            "return_names": self.return_names, "specific": self.specific, "mode": self.mode,
            "iterator": self.iterator, "inline": self.inline,
            "trigger_table": self.trigger_table, "referencing": self.referencing,
            "delimident": self.delimident,
        })

    @classmethod
    def from_meta(cls, procid: int, meta: str, text: str) -> Routine:
        m = json.loads(meta)
        return cls(
            procid, m["name"], m["owner"], bool(m["function"]),
            [(n, from_key(k)) for n, k in m["params"]], [from_key(k) for k in m["returns"]],
            text, m.get("specific"), list(m.get("defaults", [])), list(m.get("modes", [])),
            list(m.get("return_names", [])), m.get("mode", "O"), bool(m.get("iterator")),
            m.get("inline", ""), m.get("trigger_table"), dict(m.get("referencing", {})),
            bool(m.get("delimident")))
