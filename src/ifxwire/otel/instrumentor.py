"""``IfxwireInstrumentor``: what ``opentelemetry-instrument`` loads (entry point group
``opentelemetry_instrumentor``, name ``ifxwire``), for zero-code instrumentation:

    opentelemetry-instrument python app.py

It needs opentelemetry-instrumentation, which ships that command; ``ifxwire.otel.instrument()``
needs only opentelemetry-api. The auto-instrumentation loader instantiates the class and calls
``instrument(**kwargs)`` on it; BaseInstrumentor keeps it a singleton and passes our keywords
(``tracer_provider``, ``meter_provider``, ``capture_parameters``, ``query_text``) through.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from opentelemetry.instrumentation.instrumentor import (  # type: ignore[attr-defined]
    BaseInstrumentor,
)

from . import instrument, uninstrument

__all__ = ["IfxwireInstrumentor"]

_OPTIONS = ("tracer_provider", "meter_provider", "capture_parameters", "query_text")


class IfxwireInstrumentor(BaseInstrumentor):
    """``IfxwireInstrumentor().instrument()`` is ``ifxwire.otel.instrument()``."""

    def instrumentation_dependencies(self) -> Collection[str]:
        # The instrumented library is this package itself: nothing to check.
        return ()

    def _instrument(self, **kwargs: Any) -> None:
        instrument(**{k: v for k, v in kwargs.items() if k in _OPTIONS})

    def _uninstrument(self, **kwargs: Any) -> None:
        uninstrument()
