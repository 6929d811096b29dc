"""Check that a C extension split into parts is the original text, moved (no code changed).

A module such as ``src/ifxwire/_arrowdec.c`` is one translation unit that includes its parts
(``_arrowdec_*.h``, docs/ACCELERATOR.md "Source layout"). This rebuilds the one-file text from
the split files and compares it with the file as it was at a git revision:

* in the main ``.c``, the block the split added (from the line that starts ``/* Source layout``
  through the last ``#include "_<name>_*.h"`` line and the blank line after it) is replaced by
  the parts, in include order;
* from each part, its opening comment (the part's own note, through the first line that ends
  ``*/``) and the blank line after it are dropped.

Usage: python scripts/c_split_check.py src/ifxwire/_arrowdec.c bc084553
Exit 0 and "identical" when the texts are equal; 1 and a unified diff otherwise.
"""

from __future__ import annotations

import difflib
import re
import subprocess
import sys
from pathlib import Path


def _part_body(text: str) -> str:
    lines = text.splitlines(keepends=True)
    end = next(i for i, line in enumerate(lines) if line.rstrip().endswith("*/"))
    rest = lines[end + 1:]
    if rest and rest[0].strip() == "":
        rest = rest[1:]
    return "".join(rest)


def rebuild(main: Path) -> str:
    """The one-file text the split files stand for."""
    name = main.stem
    lines = main.read_text().splitlines(keepends=True)
    inc = re.compile(rf'^#include "({re.escape(name)}_\w+\.h)"$')
    start = next(i for i, line in enumerate(lines) if line.startswith("/* Source layout"))
    last = max(i for i, line in enumerate(lines) if inc.match(line.rstrip("\n")))
    parts = [m.group(1) for line in lines[start:last + 1] if (m := inc.match(line.rstrip("\n")))]
    stop = last + 1
    if stop < len(lines) and lines[stop].strip() == "":
        stop += 1
    body = "".join(_part_body((main.parent / p).read_text()) for p in parts)
    return "".join(lines[:start]) + body + "".join(lines[stop:])


def main(argv: list[str]) -> int:
    path, rev = Path(argv[1]), argv[2]
    old = subprocess.run(["git", "show", f"{rev}:{path.as_posix()}"], check=True,
                         capture_output=True, text=True).stdout
    new = rebuild(path)
    if new == old:
        print(f"{path}: identical to {rev} ({len(old.splitlines())} lines)")
        return 0
    sys.stdout.writelines(difflib.unified_diff(old.splitlines(keepends=True),
                                               new.splitlines(keepends=True), rev, "rebuilt"))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
