# Sourced by scripts/test.sh, bench.sh and demo.sh (from the repository root): creates the
# virtualenv if it is missing ($IFXWIRE_VENV, default .venv, made with $PYTHON or python3),
# activates it and upgrades pip, so the three commands set a fresh machine up the same way.
PY=${PYTHON:-python3}
VENV=${IFXWIRE_VENV:-$(pwd)/.venv}
if [ ! -x "$VENV/bin/python" ]; then
  echo "== creating $VENV"
  "$PY" -m venv "$VENV"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
python -m pip install -q --upgrade pip >/dev/null
