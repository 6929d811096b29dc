"""Build the Java programs that drive third-party Java clients (Hibernate ORM, Flyway).

Each program lives in ``tests/interop/<name>/`` with a ``pom.xml`` that lists its Maven
Central dependencies.  ``maven_classpath`` resolves them with ``mvn dependency:copy-dependencies``
into ``${IFXWIRE_CACHE:-~/.cache/ifxwire}/maven/<name>-<digest>/lib`` (never into the
repository; the digest of the pom names the directory, so a changed pom fetches anew and an
unchanged one is reused offline), compiles the program's ``*.java`` against those jars and the
IBM JDBC jar, and returns the class path.  ``run_checks`` runs the program and reads its
``CHECK <name> PASS|FAIL <reason>`` lines, the protocol IfxCheck.java uses too.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
# As in conftest.py (IfxCheck's protocol and the deterministic JVM locale).
CHECK_LINE = re.compile(r"^CHECK (\S+) (PASS|FAIL)(?: (.*))?$")
JAVA_OPTS: tuple[str, ...] = ("-Duser.language=en", "-Duser.country=US", "-Dfile.encoding=UTF-8")


def cache_root() -> Path:
    return Path(os.environ.get("IFXWIRE_CACHE", Path.home() / ".cache" / "ifxwire"))

DEP_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1"


class BuildError(RuntimeError):
    """Maven or javac failed; the message holds the tail of their output."""


def _fetch_dependencies(mvn: str, name: str) -> Path:
    pom = HERE / name / "pom.xml"
    digest = hashlib.sha256(pom.read_bytes()).hexdigest()[:16]
    home = cache_root() / "maven" / f"{name}-{digest}"
    lib = home / "lib"
    if (home / "complete").is_file():
        return lib
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    shutil.copy(pom, home / "pom.xml")
    proc = subprocess.run(
        [mvn, "-B", "-q", "-Dstyle.color=never", "-f", str(home / "pom.xml"),
         f"{DEP_PLUGIN}:copy-dependencies", f"-DoutputDirectory={lib}"],
        capture_output=True, text=True, timeout=900,
    )
    if proc.returncode != 0 or not any(lib.glob("*.jar")):
        raise BuildError(f"mvn copy-dependencies for {name} failed (exit {proc.returncode}):\n"
                         f"{(proc.stdout + proc.stderr)[-4000:]}")
    (home / "complete").write_text("ok\n")
    return lib


def maven_classpath(tools: dict[str, str], name: str, jdbc_jar: Path) -> str:
    """Class path of the compiled program in tests/interop/<name>/ (built once per source)."""
    lib = _fetch_dependencies(tools["mvn"], name)
    sources = sorted((HERE / name).glob("*.java"))
    jars = [*sorted(lib.glob("*.jar")), jdbc_jar]
    digest = hashlib.sha256(b"".join(s.read_bytes() for s in sources)
                            + str(jars).encode()).hexdigest()[:16]
    classes = lib.parent / f"classes-{digest}"
    if not classes.is_dir():
        tmp = classes.with_name(classes.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        proc = subprocess.run(
            [tools["javac"], "-nowarn", "-cp", os.pathsep.join(map(str, jars)), "-d", str(tmp),
             *map(str, sources)],
            capture_output=True, text=True, timeout=300,
        )
        if proc.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise BuildError(f"javac {name} failed:\n{(proc.stdout + proc.stderr)[-4000:]}")
        shutil.rmtree(classes, ignore_errors=True)
        tmp.rename(classes)
    return os.pathsep.join([str(classes), *map(str, jars)])


@dataclass
class AppRun:
    """One run of a check program: its CHECK lines and what to show when one is missing."""

    returncode: int | None
    stdout: str
    stderr: str
    results: dict[str, tuple[bool, str]] = field(default_factory=dict)
    done: bool = False

    def diagnostics(self) -> str:
        tail_out = "\n".join(self.stdout.splitlines()[-5:])
        tail_err = "\n".join(self.stderr.splitlines()[-25:])
        return f"exit {self.returncode}, DONE={self.done}\nstdout:\n{tail_out}\nstderr:\n{tail_err}"


def run_checks(tools: dict[str, str], classpath: str, main: str, args: list[str],
               timeout: float) -> AppRun:
    """Run ``main`` with ``args``; a run past ``timeout`` seconds is killed (returncode None)."""
    try:
        proc = subprocess.run([tools["java"], *JAVA_OPTS, "-cp", classpath, main, *args],
                              capture_output=True, text=True, timeout=timeout)
        run = AppRun(proc.returncode, proc.stdout, proc.stderr)
    except subprocess.TimeoutExpired as exc:
        def text(b: bytes | str | None) -> str:
            return b.decode("utf-8", "replace") if isinstance(b, bytes) else (b or "")
        run = AppRun(None, text(exc.stdout), text(exc.stderr) + f"\n[killed after {timeout} s]")
    for line in run.stdout.splitlines():
        if line.strip() == "DONE":
            run.done = True
        m = CHECK_LINE.match(line.rstrip("\r"))
        if m:
            run.results[m.group(1)] = (m.group(2) == "PASS", m.group(3) or "")
    return run
