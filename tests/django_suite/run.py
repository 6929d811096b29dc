"""Runs Django's own test suite (the tests/ of the Django sdist) against ifxwire-server.

    python tests/django_suite/run.py [app ...]      (default: APPS below)

Django's test suite is not installed with Django: the sdist of the installed version is
downloaded with pip into ~/.cache/ifxwire/django-sdist (never committed) and extracted
there. An ifxwire-server is started on a free 127.0.0.1 port (its own process, in-memory
data), ``runtests.py --settings=settings_ifxwire`` runs the apps against it, and each test's
outcome is read from the verbose output. Failures listed in known_failures.txt (a test id
prefix, " | ", the reason) are expected; any other failure fails the run, and a listed test
that passes is reported so its line can go. The last line is the figure docs/DJANGO.md
quotes: passed of enabled (failed = known + new), skipped (disabled by feature flags).
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("IFXWIRE_CACHE", Path.home() / ".cache" / "ifxwire")) / "django-sdist"
KNOWN = HERE / "known_failures.txt"
#: The database-facing apps the run covers: issue 28's whole list (docs/DJANGO.md).
APPS = [
    "basic", "model_fields", "queries", "lookup", "aggregation", "annotations",
    "expressions", "ordering", "transactions", "schema", "introspection", "inspectdb",
    "bulk_create", "update", "delete", "select_related", "prefetch_related", "many_to_one",
    "many_to_many", "one_to_one", "get_or_create", "custom_pk", "null_fk", "dates",
    "datetimes", "db_functions", "timezones", "backends", "migrations",
]
#: The headings of unittest's failure report: "ERROR: test_x (app.module.Class.test_x)", a
#: subtest's with its parameters after the id.
_FAILED = re.compile(r"^(?P<outcome>FAIL|ERROR): \w+ \((?P<id>[\w.]+)\)", re.M)
_RAN = re.compile(r"^Ran (\d+) tests? in", re.M)
_SKIPS = re.compile(r"(skipped|expected failures)=(\d+)")


def django_tests() -> Path:
    """The extracted tests/ of the installed Django's sdist (downloaded once)."""
    import django

    version = django.__version__
    root = CACHE / f"django-{version}"
    if not (root / ".extracted").exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=CACHE) as work:
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                            "--no-binary", ":all:", "-d", work, f"Django=={version}"],
                           check=True)
            sdist = next(Path(work).glob("[dD]jango-*.tar.gz"))
            with tarfile.open(sdist) as tar:
                tar.extractall(CACHE, filter="data")
        (root / ".extracted").write_text(version)
    return root / "tests"


def start_server(data: str) -> tuple[subprocess.Popen[str], int]:
    log = open(Path(data) / "server.log", "w+")  # noqa: SIM115 (read while it runs)
    proc = subprocess.Popen([sys.executable, "-m", "ifxwire.server", "--host", "127.0.0.1",
                             "--port", "0", "--data", data], stdout=log,
                            stderr=subprocess.STDOUT, text=True)
    for _ in range(300):
        log.seek(0)
        m = re.search(r"listening on [^ ]*:(\d+)", log.read())
        if m:
            return proc, int(m.group(1))
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    log.seek(0)
    raise SystemExit(f"ifxwire-server did not start:\n{log.read()}")


def known_failures() -> list[tuple[str, str]]:
    rows = []
    for line in KNOWN.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            prefix, _, reason = line.partition(" | ")
            rows.append((prefix.strip(), reason.strip()))
    return rows


def main(argv: list[str]) -> int:
    apps = argv or APPS
    tests = django_tests()
    with tempfile.TemporaryDirectory() as data:
        server, port = start_server(data)
        try:
            env = {**os.environ, "IFXWIRE_DJANGO_PORT": str(port),
                   "IFXWIRE_DJANGO_HOST": "127.0.0.1",
                   "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
            started = time.monotonic()
            run = subprocess.run(
                [sys.executable, "runtests.py", "--settings=settings_ifxwire", "--parallel",
                 "1", "--noinput", "-v", "2", *apps],
                cwd=tests, env=env, capture_output=True, text=True)
            elapsed = time.monotonic() - started
        finally:
            server.terminate()
            server.wait(10)
    output = run.stdout + run.stderr
    if os.environ.get("IFXWIRE_DJANGO_LOG"):
        Path(os.environ["IFXWIRE_DJANGO_LOG"]).write_text(output, encoding="utf-8")
    ran = _RAN.search(output)
    if ran is None:
        sys.stdout.write(output[-5000:])
        print("Django suite: no result line (the run broke)")
        return 1
    tail = output[ran.end():]
    counts = {k: int(v) for k, v in _SKIPS.findall(tail)}
    failed = sorted({m.group("id") for m in _FAILED.finditer(output)})
    skipped = counts.get("skipped", 0) + counts.get("expected failures", 0)
    passed_count = int(ran.group(1)) - skipped - len(failed)
    known = known_failures()

    def reason(test_id: str) -> str | None:
        return next((r for p, r in known if test_id.startswith(p)), None)

    # a listed test that no longer fails: its line can go (only whole test ids are checked)
    listed = {p for p, _ in known}
    ran_ids = set(re.findall(r"^\w+ \(([\w.]+)\)", output, re.M))
    now_passing = sorted(p for p in listed if p in ran_ids and p not in failed)
    new = [t for t in failed if reason(t) is None]
    for t in new:
        print(f"NEW FAILURE: {t}")
    for t in sorted(now_passing):
        print(f"now passing (remove from known_failures.txt): {t}")
    if new:
        # the tracebacks of the new failures, for the log
        for t in new:
            m = re.search(rf"^(?:FAIL|ERROR): \w+ \({re.escape(t)}\)\n-+\n(.*?)\n\n", output,
                          re.M | re.S)
            if m:
                print(f"--- {t}\n{m.group(1)[-1500:]}")
    # the CPU the server and Django used: the wall time of a machine with nothing else to do
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    enabled = passed_count + len(failed)
    share = 100.0 * passed_count / enabled if enabled else 0.0
    print(f"Django suite: {passed_count} passed of {enabled} enabled ({share:.1f}%), "
          f"{len(failed)} failed ({len(failed) - len(new)} known, {len(new)} new), "
          f"{skipped} skipped by feature flags; {len(apps)} apps in {elapsed:.0f} s "
          f"({cpu:.0f} s of CPU)")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
