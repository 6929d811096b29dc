"""``ifxwire.cdc.holds_records``: whether a read of the capture session was full, counted by
the records' sizes (docs/CDC.md "Reading ahead"). The case that matters is a read that
finishes a record the previous read cut: its first boundary is where that record ends."""

from __future__ import annotations

import struct

from ifxwire.cdc import holds_records


def _record(payload: int, hsize: int = 16) -> bytes:
    """A record of the common shape: hsize, psize, then bytes we do not look at."""
    return struct.pack(">ii", hsize, payload) + b"\x01" * (hsize - 8 + payload)


def test_whole_records_from_byte_zero() -> None:
    data = _record(4) * 3
    assert holds_records(data, len(data), b"", 3)
    assert not holds_records(data, len(data), b"", 4)


def test_a_cut_last_record_is_not_counted() -> None:
    data = _record(4) * 3
    assert not holds_records(data, len(data) - 1, b"", 3)


def test_the_rest_of_a_cut_record_comes_first() -> None:
    rec = _record(20)  # 36 bytes
    carried = rec[:10]  # the previous read ended 10 bytes into this record
    data = rec[10:] + _record(4) * 2
    # by its own bytes (counted from byte 0) the read looks like garbage: not full
    assert holds_records(data, len(data), carried, 3)
    assert not holds_records(data, len(data), carried, 4)


def test_a_carried_start_shorter_than_the_header() -> None:
    rec = _record(4)
    carried = rec[:3]  # not even the sizes came with the previous read
    data = rec[3:] + _record(4)
    assert holds_records(data, len(data), carried, 2)
    assert not holds_records(data, 2, carried, 1)  # the sizes are still incomplete


def test_sizes_that_make_no_sense_read_as_not_full() -> None:
    assert not holds_records(struct.pack(">ii", 0, 0) * 2, 16, b"", 1)
    assert not holds_records(b"\x00" * 16, 16, struct.pack(">ii", 16, -1), 1)
