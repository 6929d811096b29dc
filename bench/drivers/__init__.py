"""Driver adapters: one small class per Python driver under test, with a common interface.

The bench bodies (bench/worker.py) only call what :class:`base.Adapter` defines, so every
driver runs the same SQL through the same PEP 249 calls. IBM JDBC is not an adapter: it runs
in its own JVM (bench/jdbc/BenchJdbc.java) and speaks the same worker line protocol.
"""

from __future__ import annotations

from .base import Adapter, DriverUnavailable


def load(name: str) -> Adapter:
    """The adapter for driver ``name`` (``ifxwire``, ``ifxwire-accel``, ``informix-driver``)."""
    if name in ("ifxwire", "ifxwire-accel"):
        from .ifxwire_driver import IfxwireAdapter

        return IfxwireAdapter(accelerated=name == "ifxwire-accel")
    if name == "informix-driver":
        from .informix_db_driver import InformixDbAdapter

        return InformixDbAdapter()
    raise DriverUnavailable(f"no Python adapter named {name!r}")


__all__ = ["Adapter", "DriverUnavailable", "load"]
