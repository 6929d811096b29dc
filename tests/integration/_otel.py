"""The OpenTelemetry SDK set up for tests/integration/test_otel*.py: a tracer provider with
the in-memory span exporter and a meter provider with the in-memory metric reader."""

from __future__ import annotations

from typing import Any

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import ifxwire.otel


class Telemetry:
    """An SDK tracer and meter provider with in-memory export, and what they collected."""

    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.tracer_provider = TracerProvider()
        self.tracer_provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.reader = InMemoryMetricReader()
        self.meter_provider = MeterProvider(metric_readers=[self.reader])

    def instrument(self, **options: Any) -> None:
        ifxwire.otel.instrument(
            tracer_provider=self.tracer_provider, meter_provider=self.meter_provider, **options
        )

    def spans(self) -> list[ReadableSpan]:
        return list(self.exporter.get_finished_spans())

    def clear(self) -> None:
        self.exporter.clear()

    def points(self, metric: str) -> list[Any]:
        """The data points of ``metric`` collected now."""
        data = self.reader.get_metrics_data()
        found: list[Any] = []
        if data is None:
            return found
        for rm in data.resource_metrics:
            for sm in rm.scope_metrics:
                for m in sm.metrics:
                    if m.name == metric:
                        found.extend(m.data.data_points)
        return found


def only(spans: list[ReadableSpan]) -> ReadableSpan:
    assert len(spans) == 1, [s.name for s in spans]
    return spans[0]
