#!/usr/bin/env bash
# `make bench`: installs what the benchmark suite needs into .venv (as scripts/test.sh does),
# fetches the IBM JDBC 15.0.0.1 jar (Maven Central, cached, never committed) and runs
# bench/run.py with the given arguments, e.g.:
#   scripts/bench.sh                   # the full suite (~16 min on 2 busy cores, then lob_stream)
#   scripts/bench.sh --smoke           # under a minute
#   scripts/bench.sh --only 'select_scaling*' --drivers ifxwire informix-driver
# Results: bench/results/latest.{json,md,png}; logs in bench/results/raw/.
# JDBC is skipped (and reported as absent) when Maven or a JDK is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv.sh
. scripts/venv.sh
echo "== installing ifxwire, informix-driver 2026.9.3 and matplotlib"
python -m pip install -q -e ".[test]" "matplotlib>=3.7"

echo "== fetching the IBM JDBC jar (Maven Central, cached, never committed)"
if ! bash scripts/fetch_jdbc.sh 15.0.0.1 >/dev/null; then
  echo "   (could not fetch the JDBC jar: the JDBC column will be reported as absent)" >&2
fi

echo "== bench/run.py $*"
exec python bench/run.py "$@"
