"""The undo log's before-image text (features/locks/undo.py): ``encode`` calls json's C
encoder made once instead of json.dumps; the text must stay exactly what json.dumps wrote
(images already in a file from an earlier server are decoded by the same ``decode``)."""

from __future__ import annotations

import json
import math

import pytest

from ifxwire.server.engine.features.locks import undo


def _dumps(values: tuple[object, ...]) -> str:
    return json.dumps([{"b": v.hex()} if isinstance(v, bytes) else v for v in values])


IMAGES: list[tuple[object, ...]] = [
    (),
    (1, "a", None),
    (1.5, 0.1 + 0.2, 1e300, -0.0, float("inf"), -float("inf")),
    ("é\u2028\x00\"\\ ☃", b"\x00\xff", b"", 2**70, -(2**63), True),
    (None, None, b"\x01" * 40, "x" * 300),
]


@pytest.mark.parametrize("image", IMAGES)
def test_same_text_as_json_dumps_and_round_trips(image: tuple[object, ...]) -> None:
    text = undo.encode(image)
    assert text == _dumps(image)
    assert undo.decode(text) == list(image)


def test_nan_is_written_as_json_dumps_writes_it() -> None:
    text = undo.encode((float("nan"), 1))
    assert text == _dumps((float("nan"), 1)) == "[NaN, 1]"
    back = undo.decode(text)
    assert math.isnan(back[0]) and back[1] == 1  # type: ignore[arg-type]


def test_a_value_json_cannot_write_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        undo.encode((object(),))
