"""The worker line protocol, shared by the Python workers and BenchJdbc.java.

The orchestrator writes one command per line: an operation name, then ``key=value`` words whose
values are percent-encoded (UTF-8), e.g. ``setup kind=query sql=SELECT%201 inner=200``. The
worker answers every command with one JSON object on one line; ``"ok": false`` carries
``"error"``. Anything else a worker prints goes to stderr.
"""

from __future__ import annotations

from urllib.parse import quote, unquote


def encode(op: str, **fields: object) -> str:
    words = [op]
    for key, value in fields.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = int(value)
        elif isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        words.append(f"{key}={quote(str(value), safe='')}")
    return " ".join(words)


def decode(line: str) -> tuple[str, dict[str, str]]:
    words = line.split()
    if not words:
        return "", {}
    fields: dict[str, str] = {}
    for word in words[1:]:
        key, _, value = word.partition("=")
        fields[key] = unquote(value)
    return words[0], fields
