#!/usr/bin/env bash
# Fetch the IBM Informix JDBC driver jars (com.ibm.informix:jdbc) from Maven Central into a
# local cache, for the interop tests in tests/interop/.  The jars are proprietary IBM
# artefacts: they are downloaded on demand and must NEVER be committed to this repository.
#
# Usage:   scripts/fetch_jdbc.sh [VERSION...]        (default: 15.0.0.1 4.50.10)
# Cache:   ${IFXWIRE_CACHE:-$HOME/.cache/ifxwire}/jdbc/jdbc-<VERSION>.jar
# Output:  one absolute jar path per line on stdout, in argument order.  Diagnostics go to
#          stderr.  Idempotent: a jar already in the cache is not fetched again.
#
# Only the driver jar is fetched (no transitive dependencies).  Both POMs declare
# org.mongodb:bson:3.8.0, but the driver references org.bson only from its BSON/JSON UDT and
# TimeSeries classes, which the JVM loads lazily; plain SQL (everything the checks in
# tests/interop/jdbc/IfxCheck.java do) runs without it.
set -euo pipefail

DEFAULT_VERSIONS=(15.0.0.1 4.50.10)
DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.6.1"

cache_root="${IFXWIRE_CACHE:-$HOME/.cache/ifxwire}"
jar_dir="$cache_root/jdbc"

if [ "$#" -gt 0 ]; then
    versions=("$@")
else
    versions=("${DEFAULT_VERSIONS[@]}")
fi

if ! command -v mvn >/dev/null 2>&1; then
    echo "fetch_jdbc.sh: 'mvn' (Apache Maven) is not on PATH; install Maven 3.8+ and a JDK 17" >&2
    exit 2
fi

mkdir -p "$jar_dir"

# A cached jar counts only if it is a readable zip (guards against a truncated download).
jar_ok() {
    if command -v unzip >/dev/null 2>&1; then
        unzip -tqq "$1" >/dev/null 2>&1
    else
        python3 -c 'import sys, zipfile; sys.exit(zipfile.ZipFile(sys.argv[1]).testzip() is not None)' \
            "$1" >/dev/null 2>&1
    fi
}

for version in "${versions[@]}"; do
    case "$version" in
        *[!0-9A-Za-z.-]* | "") echo "fetch_jdbc.sh: bad version '$version'" >&2; exit 2 ;;
    esac
    jar="$jar_dir/jdbc-$version.jar"
    if [ ! -s "$jar" ] || ! jar_ok "$jar"; then
        echo "fetch_jdbc.sh: fetching com.ibm.informix:jdbc:$version" >&2
        tmp="$(mktemp -d "$jar_dir/.fetch.XXXXXX")"
        # dependency:copy resolves through the local repository (~/.m2), so a jar Maven has
        # already downloaded is reused without network access.
        if ! mvn -B -Dstyle.color=never "$DEP_PLUGIN:copy" \
                -Dartifact="com.ibm.informix:jdbc:$version:jar" \
                -DoutputDirectory="$tmp" -Dmdep.overWriteReleases=true >"$tmp/mvn.log" 2>&1; then
            cat "$tmp/mvn.log" >&2
            rm -rf "$tmp"
            echo "fetch_jdbc.sh: maven could not fetch com.ibm.informix:jdbc:$version" >&2
            exit 1
        fi
        if [ ! -s "$tmp/jdbc-$version.jar" ]; then
            rm -rf "$tmp"
            echo "fetch_jdbc.sh: maven reported success but jdbc-$version.jar is missing" >&2
            exit 1
        fi
        mv -f "$tmp/jdbc-$version.jar" "$jar"
        rm -rf "$tmp"
    fi
    (cd "$jar_dir" && printf '%s\n' "$PWD/jdbc-$version.jar")
done
