"""Builds the optional C accelerator; everything else is in pyproject.toml.

``optional=True``: when there is no compiler (or the build fails) setuptools prints a warning
and installs the pure-Python package, which selects the Python codecs at import.
"""

from setuptools import Extension, setup

#: The parts _speedups.c includes, in its order (tests/unit/test_extensions_built.py checks
#: this list against the file's includes).
SPEEDUPS_PARTS = [
    "src/ifxwire/_speedups_common.h",
    "src/ifxwire/_speedups_cells.h",
    "src/ifxwire/_speedups_rows.h",
    "src/ifxwire/_speedups_dictmaker.h",
    "src/ifxwire/_speedups_runs.h",
    "src/ifxwire/_speedups_rowtype.h",
    "src/ifxwire/_speedups_bind.h",
    "src/ifxwire/_speedups_replies.h",
    "src/ifxwire/_speedups_factories.h",
]

#: The parts _arrowdec.c includes, in its order (the same check).
ARROWDEC_PARTS = [
    "src/ifxwire/_arrowdec_common.h",
    "src/ifxwire/_arrowdec_values.h",
    "src/ifxwire/_arrowdec_columns.h",
    "src/ifxwire/_arrowdec_elements.h",
    "src/ifxwire/_arrowdec_rows.h",
    "src/ifxwire/_arrowdec_stream.h",
    "src/ifxwire/_arrowdec_textvalue.h",
]

#: The parts _tuplewriter.c includes, in its order (the same check).
TUPLEWRITER_PARTS = [
    "src/ifxwire/_tuplewriter_common.h",
    "src/ifxwire/_tuplewriter_fields.h",
    "src/ifxwire/_tuplewriter_writer.h",
    "src/ifxwire/_tuplewriter_loaders.h",
    "src/ifxwire/_tuplewriter_bind.h",
]

#: The parts _cdcspeed.c includes, in its order (the same check).
CDCSPEED_PARTS = [
    "src/ifxwire/_cdcspeed_renderer.h",
    "src/ifxwire/_cdcspeed_records.h",
    "src/ifxwire/_cdcspeed_changes.h",
]

setup(
    ext_modules=[
        # One translation unit including its parts (src/ifxwire/_speedups_*.h, one job each;
        # docs/ACCELERATOR.md "Source layout"): depends rebuilds it when a part changes and
        # puts the parts in the sdist.
        Extension(
            "ifxwire._speedups",
            ["src/ifxwire/_speedups.c"],
            depends=SPEEDUPS_PARTS,
            optional=True,
        ),
        # The server's SQ_TUPLE encoder (server/tuples.py): a module of its own so the
        # driver's accelerator and the server's evolve apart.
        Extension(
            "ifxwire._tuplewriter",
            ["src/ifxwire/_tuplewriter.c"],
            depends=TUPLEWRITER_PARTS,
            optional=True,
        ),
        # The Arrow column decoder (docs/ARROW.md): separate, so the row decoder's module
        # is not touched by it; the Arrow path works without it (pure columns).
        Extension(
            "ifxwire._arrowdec",
            ["src/ifxwire/_arrowdec.c"],
            depends=ARROWDEC_PARTS,
            optional=True,
        ),
        # Change data capture's per-event loops (issue 27): the server's CDC record renderer
        # and ifxwire.cdc's record loop; both have complete pure twins (ifxwire._cdcaccel).
        Extension(
            "ifxwire._cdcspeed",
            ["src/ifxwire/_cdcspeed.c"],
            depends=CDCSPEED_PARTS,
            optional=True,
        ),
        # A cached query's request group served in one compiled call (issue 26,
        # select_one_row; server/onestep.py): the server's, apart from the driver's module.
        Extension(
            "ifxwire._groupstep",
            ["src/ifxwire/_groupstep.c"],
            optional=True,
        ),
        # A pipelined executemany's INSERT rows decoded and converted for sqlite3 in one
        # call (issues 25/26; server/bindbatch.py holds its pure twin).
        Extension(
            "ifxwire._bindbatch",
            ["src/ifxwire/_bindbatch.c"],
            optional=True,
        ),
    ]
)
