"""A trigger as the catalogue keeps it: its systriggers row and its CREATE text.

The catalogue (this layer) loads every trigger of a database into ``Schema.triggers``
(through the slot ``FEATURES.triggers`` that features/triggers.py fills), and the features
read them back from there to fire them. The class lives here, below the features, so that the
catalogue names what it stores without importing the layer above it (docs/ARCHITECTURE.md,
"The engine's layers"); parsing the text and firing the trigger stay in features/triggers.py
(``trigger_body``), which keeps the parse in ``parsed``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(eq=False)
class Trigger:
    trigid: int
    name: str
    owner: str
    table: str
    event: str  # I, U, D, S; lower case for INSTEAD OF
    columns: list[str]
    old: str | None
    new: str | None
    text: str
    enabled: bool = True
    delimident: bool = False
    #: the parsed body (features/triggers.py's TriggerBody), kept with the trigger so that it
    #: is parsed once per schema; the catalogue only stores it, so it names no feature type
    parsed: object = field(default=None, repr=False)

    def meta(self) -> str:
        return json.dumps({"name": self.name, "owner": self.owner, "table": self.table,
                           "event": self.event, "columns": self.columns, "old": self.old,
                           "new": self.new, "enabled": self.enabled,
                           "delimident": self.delimident})

    @classmethod
    def from_meta(cls, trigid: int, meta: str, text: str) -> Trigger:
        m = json.loads(meta)
        return cls(trigid, m["name"], m["owner"], m["table"], m["event"], list(m["columns"]),
                   m.get("old"), m.get("new"), text, bool(m.get("enabled", True)),
                   bool(m.get("delimident")))
