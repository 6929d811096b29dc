#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs every check:
# ruff, mypy (strict), the whole pytest suite (unit, integration, interop with IBM JDBC
# 15.0.0.1 and 4.50.10 and informix-driver 2026.9.3) once with the pure-Python codecs and
# once with the accelerator when it is built, and the benchmark smoke run.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv.sh
. scripts/venv.sh
echo "== installing ifxwire and test dependencies"
python -m pip install -q -e ".[test]"

echo "== fetching the IBM JDBC jars (Maven Central, cached, never committed)"
bash scripts/fetch_jdbc.sh 15.0.0.1 4.50.10

echo "== ruff"
ruff check src tests bench examples
echo "== mypy --strict"
mypy

run_pytest() {
  local label=$1; shift
  echo "== pytest ($label)"
  set +e
  python -m pytest -q -p no:cacheprovider "$@"
  local rc=$?
  set -e
  if [ "$rc" -eq 5 ]; then
    echo "pytest ($label) collected no tests: the suite is broken" >&2
    return 1
  fi
  return "$rc"
}

IFXWIRE_PURE=1 run_pytest "pure Python" tests
if python -c "import ifxwire; raise SystemExit(0 if ifxwire.accelerator_available() else 1)"; then
  # The interop suites exercise the server, which does not use the accelerator.
  IFXWIRE_PURE=0 run_pytest "accelerated" tests/unit tests/integration
else
  echo "== the C accelerator was not built on this machine (no compiler?): pure run only"
fi
if [ -f bench/run.py ]; then
  echo "== benchmark smoke run"
  python bench/run.py --smoke
  python bench/session_bench.py --smoke
fi
echo "== all checks passed"
