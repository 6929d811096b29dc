"""Fixtures for interop tests: clients we did not write, run against our server.

IBM JDBC (``com.ibm.informix:jdbc``): ``scripts/fetch_jdbc.sh`` downloads the driver jars from
Maven Central into ``${IFXWIRE_CACHE:-~/.cache/ifxwire}/jdbc/`` (never into the repository),
``tests/interop/jdbc/IfxCheck.java`` is compiled once per jar into that cache, and the program
is run once per (driver version, locale mode) against one in-process ``ifxwire.server.Server``.
Its ``CHECK <name> PASS|FAIL <reason>`` lines become one pytest test each (see test_jdbc.py).

Environment knobs:

* ``IFXWIRE_CACHE``: cache root (default ``~/.cache/ifxwire``).
* ``IFXWIRE_JDBC_TIMEOUT``: seconds allowed for one Java run (default 300).
* ``IFXWIRE_JDBC_CHECK_TIMEOUT``: seconds allowed for one check inside it (default 30).
* ``IFXWIRE_INTEROP_SERVER=host:port:servername`` (+ ``IFXWIRE_INTEROP_USER`` /
  ``IFXWIRE_INTEROP_PASSWORD``): run the checks against that server instead of starting ours,
  e.g. a real Informix, to validate the checks themselves.

Missing Java 17+ or Maven is a test failure, not a skip: the interop suite is expected to run.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
FETCH_SCRIPT = REPO / "scripts" / "fetch_jdbc.sh"
IFXCHECK_SOURCE = Path(__file__).resolve().parent / "jdbc" / "IfxCheck.java"
# Compiled together with IfxCheck.java (it registers their checks).
IFXCHECK_SOURCES = (IFXCHECK_SOURCE, IFXCHECK_SOURCE.with_name("LobChecks.java"))

JDBC_VERSIONS: tuple[str, ...] = ("15.0.0.1", "4.50.10")
# Locale modes.  "default": no locale properties; the driver sends CLIENT_LOCALE=en_US.8859-1
# and DBDATE=Y4MD- (because of the en_US JVM locale, see JAVA_OPTS) and runs its GL_COLLATE
# locale query after DBOPEN.  "db_locale": DB_LOCALE given, which suppresses that query and
# also stops the driver from sending CLIENT_LOCALE/DBDATE, so DBDATE is given explicitly to
# keep the checks' date literals ('2024-02-29') valid.  Every check runs in both modes.
LOCALE_MODES: dict[str, str] = {"default": "", "db_locale": "DB_LOCALE=en_US.819;DBDATE=Y4MD-"}
# Deterministic client environment (see "default" above).
JAVA_OPTS: tuple[str, ...] = ("-Duser.language=en", "-Duser.country=US", "-Dfile.encoding=UTF-8")

CHECK_LINE = re.compile(r"^CHECK (\S+) (PASS|FAIL)(?: (.*))?$")


def cache_root() -> Path:
    return Path(os.environ.get("IFXWIRE_CACHE", Path.home() / ".cache" / "ifxwire"))


def compile_java_check(javac: str, jar: Path, sources: list[Path], tag: str) -> str:
    """Compile a check's Java sources against one JDBC jar, once per content (cached under
    cache_root()/jdbc/build), and return its class path (the classes, then the jar)."""
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources) + jar.read_bytes())
    build = cache_root() / "jdbc" / "build" / f"{tag}-{digest.hexdigest()[:16]}"
    first_class = build / (sources[0].stem + ".class")
    if not first_class.is_file():
        tmp = build.with_name(build.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        proc = subprocess.run([javac, "-cp", str(jar), "-d", str(tmp), *map(str, sources)],
                              capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            pytest.fail(f"javac {sources[0].name} against {jar.name} failed:\n{proc.stderr}",
                        pytrace=False)
        shutil.rmtree(build, ignore_errors=True)
        tmp.rename(build)
    return os.pathsep.join([str(build), str(jar)])


def compile_for_each_jar(
    java_tools: dict[str, str], jdbc_jars: dict[str, Path], source: Path, tag: str
) -> dict[str, str]:
    """Driver version -> class path with one check's source compiled against that jar: the
    fixtures of the JDBC check modules share this rather than each spelling the loop out."""
    return {version: compile_java_check(java_tools["javac"], jar, [source], f"{tag}-{version}")
            for version, jar in jdbc_jars.items()}


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


# --------------------------------------------------------------------------------------------
# Tools, jars, compiled checker
# --------------------------------------------------------------------------------------------


def _java_major(tool: str) -> int:
    out = subprocess.run([tool, "-version"], capture_output=True, text=True, timeout=60)
    text = out.stderr + out.stdout
    m = re.search(r'version "(\d+)(?:\.(\d+))?', text) or re.search(r"\b(\d+)(?:\.(\d+))?", text)
    if not m:
        return 0
    major = int(m.group(1))
    return int(m.group(2) or 0) if major == 1 else major


@pytest.fixture(scope="session")
def java_tools() -> dict[str, str]:
    """Absolute paths of java, javac and mvn; fails (never skips) when one is missing."""
    tools: dict[str, str] = {}
    missing = []
    for name in ("java", "javac", "mvn"):
        path = shutil.which(name)
        if path is None:
            missing.append(name)
        else:
            tools[name] = path
    if missing:
        pytest.fail(
            f"JDBC interop tests need a JDK 17+ (java, javac) and Maven 3.8+ (mvn); "
            f"not on PATH: {', '.join(missing)}",
            pytrace=False,
        )
    for name in ("java", "javac"):
        major = _java_major(tools[name])
        if major < 17:
            pytest.fail(f"{tools[name]} is Java {major}; JDBC checks need Java 17+", pytrace=False)
    return tools


@pytest.fixture(scope="session")
def jdbc_jars(java_tools: dict[str, str]) -> dict[str, Path]:
    """Driver version -> cached jar path, fetched once by scripts/fetch_jdbc.sh."""
    proc = subprocess.run(
        ["bash", str(FETCH_SCRIPT), *JDBC_VERSIONS],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "IFXWIRE_CACHE": str(cache_root())},
    )
    if proc.returncode != 0:
        pytest.fail(
            f"{FETCH_SCRIPT.name} failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}",
            pytrace=False,
        )
    paths = [Path(line) for line in proc.stdout.splitlines() if line.strip()]
    if len(paths) != len(JDBC_VERSIONS) or not all(p.is_file() for p in paths):
        pytest.fail(f"{FETCH_SCRIPT.name} printed unexpected paths: {proc.stdout!r}", pytrace=False)
    return dict(zip(JDBC_VERSIONS, paths, strict=True))


@pytest.fixture(scope="session")
def ifxcheck_classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    """Driver version -> class path running IfxCheck; compiled once per (source, jar)."""
    source = b"".join(src.read_bytes() for src in IFXCHECK_SOURCES)
    classpaths: dict[str, str] = {}
    for version, jar in jdbc_jars.items():
        digest = hashlib.sha256(source + jar.read_bytes()).hexdigest()[:16]
        build = cache_root() / "jdbc" / "build" / f"{version}-{digest}"
        if not (build / "IfxCheck.class").is_file():
            tmp = build.with_name(build.name + f".tmp{os.getpid()}")
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            proc = subprocess.run(
                [java_tools["javac"], "-cp", str(jar), "-d", str(tmp),
                 *map(str, IFXCHECK_SOURCES)],
                capture_output=True,
                text=True,
                timeout=300,
            )
            if proc.returncode != 0:
                shutil.rmtree(tmp, ignore_errors=True)
                pytest.fail(
                    f"javac IfxCheck.java against jdbc-{version}.jar failed:\n"
                    f"{proc.stdout}{proc.stderr}",
                    pytrace=False,
                )
            shutil.rmtree(build, ignore_errors=True)
            tmp.rename(build)
        classpaths[version] = os.pathsep.join([str(build), str(jar)])
    return classpaths


# --------------------------------------------------------------------------------------------
# The server under test
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """Where the Java checks connect."""

    host: str
    port: int
    server_name: str
    user: str
    password: str


def _import_server() -> Any:
    try:
        from ifxwire.server import Server
    except ModuleNotFoundError as exc:
        if exc.name not in ("ifxwire", "ifxwire.server"):
            raise
        # Not installed (e.g. a bare checkout): use the source tree.
        sys.path.insert(0, str(REPO / "src"))
        from ifxwire.server import Server
    return Server


@pytest.fixture(scope="session")
def interop_target() -> Iterator[Target]:
    """Our server (in-process, in-memory), or IFXWIRE_INTEROP_SERVER when set."""
    external = os.environ.get("IFXWIRE_INTEROP_SERVER", "").strip()
    if external:
        host, port, name = external.split(":")
        yield Target(
            host,
            int(port),
            name,
            os.environ.get("IFXWIRE_INTEROP_USER", "informix"),
            os.environ.get("IFXWIRE_INTEROP_PASSWORD", "in4mix"),
        )
        return
    server_cls = _import_server()
    with server_cls(port=0, data=":memory:") as srv:
        user = "informix"
        yield Target(srv.host, srv.port, srv.server_name, user, srv.users[user])


# --------------------------------------------------------------------------------------------
# Running IfxCheck
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    passed: bool
    reason: str


@dataclass
class JdbcRun:
    """The outcome of one IfxCheck run."""

    version: str
    mode: str
    command: list[str]
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    log_path: Path
    results: dict[str, CheckResult] = field(default_factory=dict)
    duplicates: list[str] = field(default_factory=list)
    done: bool = False

    def diagnostics(self) -> str:
        """Why a check line may be missing: exit status, timeout, tail of the output."""
        status = "timed out" if self.timed_out else f"exit {self.returncode}"
        tail_out = "\n".join(self.stdout.splitlines()[-5:])
        tail_err = "\n".join(self.stderr.splitlines()[-15:])
        done = "yes" if self.done else "no"
        return (
            f"java run ({self.version}, {self.mode}) {status}, DONE={done}, "
            f"full log {self.log_path}\nstdout tail:\n{tail_out}\nstderr tail:\n{tail_err}"
        )


def parse_check_output(run: JdbcRun) -> None:
    for line in run.stdout.splitlines():
        line = line.rstrip("\r")
        if line == "DONE":
            run.done = True
            continue
        m = CHECK_LINE.match(line)
        if not m:
            continue
        name, status, reason = m.group(1), m.group(2), m.group(3) or ""
        if name in run.results:
            run.duplicates.append(name)
        run.results[name] = CheckResult(status == "PASS", reason)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``jdbc_variant`` (version, locale mode) and ``jdbc_version`` fixtures."""
    if "jdbc_variant" in metafunc.fixturenames:
        variants = [(v, m) for v in JDBC_VERSIONS for m in LOCALE_MODES]
        metafunc.parametrize("jdbc_variant", variants, ids=[f"{v}-{m}" for v, m in variants])
    if "jdbc_version" in metafunc.fixturenames:
        metafunc.parametrize("jdbc_version", JDBC_VERSIONS, ids=list(JDBC_VERSIONS))


def _selected_checks(session: pytest.Session, variant: tuple[str, str]) -> list[str] | None:
    """Check names the collected tests need for this run; None means all of them."""
    names: list[str] = []
    for item in session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if params.get("jdbc_variant") != variant:
            continue
        if "check" not in params:
            return None  # a whole-run test (e.g. test_jdbc_run_completed) needs every check
        names.append(str(params["check"]))
    return names or None


IfxCheckRunner = Callable[..., JdbcRun]


@pytest.fixture(scope="session")
def ifxcheck(
    java_tools: dict[str, str],
    ifxcheck_classpaths: dict[str, str],
    interop_target: Target,
) -> IfxCheckRunner:
    """``ifxcheck(version, mode, checks, database=..., create=True, label=...)`` runs IfxCheck.

    The building block for JDBC tests: ``checks`` is a list of check names (empty = all),
    ``database`` the database the checks use (default: a fresh random name), ``create=False``
    skips create_database for a database someone else prepared (e.g. cross-client checks where
    our Python driver writes and JDBC reads).  Output is kept in the cache's jdbc/runs/ dir.
    """
    run_timeout = _env_int("IFXWIRE_JDBC_TIMEOUT", 300)
    check_timeout = _env_int("IFXWIRE_JDBC_CHECK_TIMEOUT", 30)
    log_dir = cache_root() / "jdbc" / "runs"
    log_dir.mkdir(parents=True, exist_ok=True)

    def run_checks(
        version: str,
        mode: str,
        checks: list[str] | tuple[str, ...] = (),
        *,
        database: str | None = None,
        create: bool = True,
        label: str | None = None,
        target: Target | None = None,
        props: str | None = None,
    ) -> JdbcRun:
        t = interop_target if target is None else target
        if database is None:
            tag = re.sub(r"\W", "_", version)
            database = f"ifxcheck_{tag}_{mode}_{secrets.token_hex(3)}"
        cmd = [
            java_tools["java"],
            *JAVA_OPTS,
            "-cp",
            ifxcheck_classpaths[version],
            "IfxCheck",
            f"host={t.host}",
            f"port={t.port}",
            f"server={t.server_name}",
            f"database={database}",
            f"user={t.user}",
            f"password={t.password}",
            f"timeout={check_timeout}",
        ]
        props = LOCALE_MODES[mode] if props is None else props
        if props:
            cmd.append(f"props={props}")
        if not create:
            cmd.append("create=no")
        cmd += list(checks)
        timed_out = False
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=run_timeout)
            returncode: int | None = proc.returncode
            stdout, stderr = proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as exc:
            timed_out = True
            returncode = None
            stdout = _text(exc.stdout)
            stderr = _text(exc.stderr) + f"\n[killed after {run_timeout} s]"
        log_path = log_dir / f"{label or f'{version}-{mode}'}.log"
        log_path.write_text(
            f"$ {' '.join(cmd)}\n--- stdout\n{stdout}\n--- stderr\n{stderr}\n", encoding="utf-8"
        )
        run = JdbcRun(version, mode, cmd, returncode, stdout, stderr, timed_out, log_path)
        parse_check_output(run)
        return run

    return run_checks


@pytest.fixture(scope="session")
def jdbc_run(
    request: pytest.FixtureRequest, ifxcheck: IfxCheckRunner
) -> Callable[[str, str], JdbcRun]:
    """``jdbc_run(version, mode)``: the suite's run for (version, mode), executed once and cached.

    Only the checks of the collected tests are run (all of them for a full session).
    """
    runs: dict[tuple[str, str], JdbcRun] = {}

    def get(version: str, mode: str) -> JdbcRun:
        key = (version, mode)
        if key not in runs:
            runs[key] = ifxcheck(version, mode, _selected_checks(request.session, key) or [])
        return runs[key]

    return get


def _text(data: bytes | str | None) -> str:
    if data is None:
        return ""
    return data if isinstance(data, str) else data.decode("utf-8", "replace")
