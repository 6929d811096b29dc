#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine (the [test] extra brings SQLAlchemy,
# Alembic, pandas, prompt_toolkit, Pygments and pexpect), then runs every check: ruff, mypy
# (strict), the whole pytest suite (unit, integration, ecosystem, shell, interop with IBM JDBC
# 15.0.0.1 and 4.50.10, informix-driver 2026.9.3, nmap's Informix scripts, and Hibernate ORM
# and Flyway whose Maven dependencies tests/interop/maven_apps.py fetches into
# ~/.cache/ifxwire/maven) once with the pure-Python codecs and once with the accelerator when
# it is built, informix-driver's own integration suite (from its sdist, fetched into
# ~/.cache/ifxwire by scripts/fetch_rival_suite.sh) against ifxwire-server, SQLAlchemy's
# dialect compliance suite, Django's own test suite for the ifxwire.django backend, and the
# benchmark smoke run, in two lanes at once (see below). It ends with one line per suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv.sh
. scripts/venv.sh
echo "== installing ifxwire and test dependencies"
# the django extra: Django 5.2 LTS for the backend's tests and Django's own suite below
python -m pip install -q -e ".[test,django]"

echo "== fetching the IBM JDBC jars (Maven Central, cached, never committed)"
bash scripts/fetch_jdbc.sh 15.0.0.1 4.50.10

# nmap's Informix scripts are interop clients (tests/interop/test_nmap.py); without nmap those
# tests fail unless IFXWIRE_SKIP_NMAP=1 says to skip them.
if ! command -v nmap > /dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null 2>&1; then
    echo "== installing nmap (apt-get)"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y nmap
  else
    echo "== nmap is missing and cannot be installed here (not root or no apt-get):" \
      "tests/interop/test_nmap.py will fail unless IFXWIRE_SKIP_NMAP=1" >&2
  fi
fi

echo "== ruff"
ruff check src tests bench examples

# The suites run in two lanes at once, one per core of the 2-core machines we and CI run on:
# each lane is one Python process with its in-process server at a time (the GIL keeps it to
# about one core), so the wall time is the longer lane's, not the sum (27.5 min one after the
# other on a fresh clone: pure run 10.7, accelerated 6.9, Django 6.5, the rest about 3 in
# all). Lane A, in the foreground: mypy and the pure-Python run of every test; then, once
# lane B has ended (see there why), informix-driver's suite, SQLAlchemy's compliance suite and
# the benchmark smokes. Lane B, in the background, its output shown when it ends: the
# accelerated run and Django's suite. The suites share nothing but the machine: every server
# listens on a port of its own (port 0) over data of its own, and pytest's temporary
# directories are per run. Every suite runs even when an earlier one failed; the summary says
# which failed and the command then fails.
LOGS=$(mktemp -d)
# Every test server keeps its databases in a temporary directory (Server(data=":memory:"),
# run.py's and informix-driver's servers), SQLite files with synchronous=FULL for logged
# databases: on this machine's disk each commit's fsync costs milliseconds, most of the wall
# time of a write-heavy test. On tmpfs the same code runs (the same pragmas and fsync calls;
# a killed process loses nothing on it either) at memory speed, so the test runs keep their
# temporary files (TMPDIR, which pytest, tempfile and mktemp follow) there when the machine
# has a tmpfs /dev/shm with room (a full run keeps about 1 GiB there at most).
TEST_TMP=""
if [ -d /dev/shm ] && [ -w /dev/shm ] \
    && [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -ge $((4 * 1024 * 1024)) ]; then
  TEST_TMP=$(mktemp -d /dev/shm/ifxwire-test.XXXXXX)
  export TMPDIR=$TEST_TMP
fi
SIDE_PID=""
RIVAL_PID=""
RIVAL_DATA=""
cleanup() {
  if [ -n "$RIVAL_PID" ]; then kill "$RIVAL_PID" 2>/dev/null || true; fi
  # lane B runs in a process group of its own (set -m below): end it with all it started
  if [ -n "$SIDE_PID" ]; then kill -- "-$SIDE_PID" 2>/dev/null || true; fi
  rm -rf "$LOGS" ${RIVAL_DATA:+"$RIVAL_DATA"} ${TEST_TMP:+"$TEST_TMP"}
}
trap cleanup EXIT
trap 'exit 130' INT TERM
FAILED=()

# run_pytest LABEL LOG ARGS...: pytest's output to the terminal (or lane B's log) and to LOG.
run_pytest() {
  local label=$1 log=$2; shift 2
  echo "== pytest ($label)"
  set +e
  python -m pytest -q -p no:cacheprovider "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  set -e
  if [ "$rc" -eq 5 ]; then
    echo "pytest ($label) collected no tests: the suite is broken" >&2
    return 1
  fi
  return "$rc"
}

# Lane B. It records the suites that failed in $LOGS/side.failed, one a line.
side_lane() {
  if python -c "import ifxwire; raise SystemExit(0 if ifxwire.accelerator_available() else 1)"
  then
    # The interop suites run in the pure-Python run only.
    IFXWIRE_PURE=0 run_pytest "accelerated" "$LOGS/accelerated.log" tests/unit tests/integration \
      || echo "accelerated" >> "$LOGS/side.failed"
  else
    echo "== the C accelerator was not built on this machine (no compiler?): pure run only"
  fi
  # Django's own test suite (its sdist's tests/, fetched into ~/.cache/ifxwire/django-sdist,
  # never committed) for the database-facing apps against an ifxwire-server of its own; see
  # docs/DJANGO.md. Known failures are listed with their reasons in
  # tests/django_suite/known_failures.txt; any other failure fails the run.
  echo "== Django's test suite (tests/django_suite/run.py)"
  local rc=0
  IFXWIRE_PURE=0 python tests/django_suite/run.py 2>&1 | tee "$LOGS/django.log" || rc=$?
  [ "$rc" -eq 0 ] || echo "Django suite" >> "$LOGS/side.failed"
}
set -m
side_lane < /dev/null > "$LOGS/side.out" 2>&1 &
SIDE_PID=$!
set +m

echo "== mypy --strict"
mypy || FAILED+=("mypy")
IFXWIRE_PURE=1 run_pytest "pure Python" "$LOGS/pure.log" tests || FAILED+=("pure Python")

# Lane B ends before informix-driver's suite: its test_closing_a_connection_stops_its_thread
# races its own asyncio executor, which loses more often with another suite on the other CPU.
echo "== waiting for lane B (accelerated run, Django's suite)"
SIDE_RC=0
wait "$SIDE_PID" || SIDE_RC=$?
SIDE_PID=""
cat "$LOGS/side.out"
if [ -f "$LOGS/side.failed" ]; then
  while IFS= read -r name; do FAILED+=("$name"); done < "$LOGS/side.failed"
elif [ "$SIDE_RC" -ne 0 ]; then
  FAILED+=("lane B (exit $SIDE_RC)")
fi

# informix-driver's own integration suite (its sdist, fetched into the cache by
# scripts/fetch_rival_suite.sh, never committed) against ifxwire-server in a process of its
# own, as that suite meets a real server: its benchmarks are left out (timings, not checks).
RIVAL=$(PYTHON=python bash scripts/fetch_rival_suite.sh)
RIVAL_DATA=$(mktemp -d)
RIVAL_LOG="$LOGS/rival-server.log"
ifxwire-server --port 0 --data "$RIVAL_DATA" > "$RIVAL_LOG" 2>&1 &
RIVAL_PID=$!
RIVAL_PORT=""
for _ in $(seq 100); do
  RIVAL_PORT=$(sed -nE 's/^ifxwire-server listening on [^ ]*:([0-9]+)$/\1/p' "$RIVAL_LOG")
  [ -n "$RIVAL_PORT" ] && break
  kill -0 "$RIVAL_PID" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$RIVAL_PORT" ]; then
  cat "$RIVAL_LOG"
  echo "ifxwire-server did not start for informix-driver's suite" >&2
  exit 1
fi
# Its Unicode round trip runs only when given a UTF-8 database (IFX_UTF8_DATABASE).
python -c "import ifxwire, sys; ifxwire.connect(host='127.0.0.1', port=int(sys.argv[1]),
    user='informix', password='in4mix', db_locale='en_US.utf8', client_locale='en_US.utf8',
    autocommit=True).cursor().execute('CREATE DATABASE rival_utf8 WITH LOG')" "$RIVAL_PORT"
# One of its tests races its own client, not the server: test_closing_a_connection_stops_its
# _thread counts threads after five back-to-back asyncio connects, and asyncio's default
# executor starts a second worker when a connect is submitted before the previous worker has
# marked itself idle (reproduced with no server at all: five to_thread(time.sleep, 0.002)
# calls leave two workers in 4 of 10 runs; with pytest pinned to one CPU it failed 8 of 8
# here). That assertion alone may be retried; any other failure fails the run.
IFX_PORT=$RIVAL_PORT IFX_HOST=127.0.0.1 IFX_UTF8_DATABASE=rival_utf8 \
  run_pytest "informix-driver suite" "$LOGS/rival.log" \
  -c "$RIVAL/pyproject.toml" --rootdir "$RIVAL" -m integration "$RIVAL/tests" \
  --ignore="$RIVAL/tests/benchmarks" \
  --reruns 4 --only-rerun "connection threads outlived their connections" \
  || FAILED+=("informix-driver suite")
kill "$RIVAL_PID"
wait "$RIVAL_PID" 2>/dev/null || true
RIVAL_PID=""
# SQLAlchemy's own third-party dialect suite, with its own pytest configuration (test.cfg
# names the requirements class); see docs/SQLALCHEMY.md.
run_pytest "SQLAlchemy compliance" "$LOGS/sqla.log" -c tests/sqla_suite/pytest.ini \
  --rootdir tests/sqla_suite tests/sqla_suite || FAILED+=("SQLAlchemy compliance")
BENCH=""
if [ -f bench/run.py ]; then
  echo "== benchmark smoke run (tables in bench/results/smoke.md)"
  if ! python bench/run.py --smoke > "$LOGS/bench.log" 2>&1; then
    cat "$LOGS/bench.log"
    echo "benchmark smoke run failed" >&2
    FAILED+=("bench smoke")
  fi
  if ! python bench/session_bench.py --smoke > "$LOGS/session_bench.log" 2>&1; then
    cat "$LOGS/session_bench.log"
    echo "session benchmark smoke run failed" >&2
    FAILED+=("session bench smoke")
  fi
  BENCH=1
fi

SUMMARY=()
declare -A TOTALS=()
# summarize LABEL LOG: pytest's closing line ("N passed, M skipped in Xs") and any line a
# suite adds for the summary (the compliance suite prints its figures).
summarize() {
  local label=$1 log=$2 counts word n line
  [ -f "$log" ] || return 0
  counts=$(grep -E "^(=+ )?[0-9]+ (passed|failed|error)" "$log" | tail -1 | sed -E 's/^=+ //; s/ =+$//' || true)
  SUMMARY+=("$(printf '%-22s %s' "$label:" "${counts:-no result line}")")
  for word in passed failed skipped xfailed; do
    n=$(grep -oE "[0-9]+ $word" <<< "$counts" | grep -oE "^[0-9]+" || true)
    TOTALS[$word]=$(( ${TOTALS[$word]:-0} + ${n:-0} ))
  done
  while IFS= read -r line; do SUMMARY+=("$(printf '%-22s %s' "" "$line")"); done \
    < <(grep -E "^SQLAlchemy compliance:" "$log" | sed "s/^SQLAlchemy compliance: //" || true)
}
summarize "pure Python" "$LOGS/pure.log"
summarize "accelerated" "$LOGS/accelerated.log"
summarize "informix-driver suite" "$LOGS/rival.log"
summarize "SQLAlchemy compliance" "$LOGS/sqla.log"
SUMMARY+=("$(printf '%-22s %s' "Django suite:" "$(sed -nE 's/^Django suite: //p' "$LOGS/django.log" 2>/dev/null | tail -1)")")
if [ -n "$BENCH" ]; then
  SUMMARY+=("$(printf '%-22s %s' "bench smoke:" "ok, $(grep -c '  done in' "$LOGS/bench.log") scenarios ran (bench/results/smoke.md)")")
  SUMMARY+=("$(printf '%-22s %s' "session bench smoke:" "ok (cancel latency, scroll, aio pool)")")
fi
echo "== summary"
printf '%s\n' "${SUMMARY[@]}"
if [ "${#FAILED[@]}" -gt 0 ]; then
  printf 'failed: %s\n' "${FAILED[@]}" >&2
  [[ " ${FAILED[*]} " == *" Django suite "* ]] && echo "Django's test suite had failures not listed in tests/django_suite/known_failures.txt" >&2
  exit 1
fi
echo "total: ${TOTALS[passed]:-0} passed, ${TOTALS[failed]:-0} failed, ${TOTALS[skipped]:-0} skipped, ${TOTALS[xfailed]:-0} xfailed"
echo "== all checks passed"
