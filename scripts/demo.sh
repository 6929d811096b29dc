#!/usr/bin/env bash
# One command to try ifxwire: installs it (with the server extra) into .venv, starts the
# embedded Informix-compatible server on a free port and runs examples/demo.py against it.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv.sh
. scripts/venv.sh
python -m pip install -q -e ".[server]"
exec python examples/demo.py "$@"
