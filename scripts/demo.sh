#!/usr/bin/env bash
# One command to try ifxwire: installs it (with the server extra) into .venv, starts the
# embedded Informix-compatible server on a free port and runs examples/demo.py against it.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${IFXWIRE_VENV:-$(pwd)/.venv}
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
# shellcheck disable=SC1091
. "$VENV/bin/activate"
python -m pip install -q --upgrade pip >/dev/null
python -m pip install -q -e ".[server]"
exec python examples/demo.py "$@"
