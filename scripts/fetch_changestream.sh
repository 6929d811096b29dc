#!/usr/bin/env bash
# Fetch IBM's Informix change-stream client (com.ibm.informix:ifx-changestream-client) and the
# jars it declares (IBM JDBC 4.50.12, slf4j-api 2.0.16) from Maven Central into a local cache,
# for tests/interop/test_cdc_interop.py.  Proprietary IBM artefacts: downloaded on demand, NEVER
# committed to this repository.
#
# Usage:   scripts/fetch_changestream.sh
# Cache:   ${IFXWIRE_CACHE:-$HOME/.cache/ifxwire}/changestream/*.jar
# Output:  the classpath (absolute jar paths joined by ':') on stdout; diagnostics on stderr.
#          Idempotent: jars already cached are not fetched again.
set -euo pipefail

DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.6.1"
ARTIFACTS=(
    "com.ibm.informix:ifx-changestream-client:1.1.5"
    "com.ibm.informix:jdbc:4.50.12"
    "org.slf4j:slf4j-api:2.0.16"
)

cache_root="${IFXWIRE_CACHE:-$HOME/.cache/ifxwire}"
dir="$cache_root/changestream"
mkdir -p "$dir"

if ! command -v mvn >/dev/null 2>&1; then
    echo "fetch_changestream.sh: 'mvn' (Apache Maven) is not on PATH" >&2
    exit 2
fi

paths=()
for coords in "${ARTIFACTS[@]}"; do
    IFS=: read -r _group artifact version <<<"$coords"
    jar="$dir/$artifact-$version.jar"
    if [ ! -s "$jar" ] || ! unzip -tqq "$jar" >/dev/null 2>&1; then
        echo "fetch_changestream.sh: fetching $coords" >&2
        tmp="$(mktemp -d "$dir/.fetch.XXXXXX")"
        if ! mvn -B -Dstyle.color=never "$DEP_PLUGIN:copy" -Dartifact="$coords:jar" \
                -DoutputDirectory="$tmp" -Dmdep.overWriteReleases=true >"$tmp/mvn.log" 2>&1 \
                || [ ! -s "$tmp/$artifact-$version.jar" ]; then
            cat "$tmp/mvn.log" >&2
            rm -rf "$tmp"
            echo "fetch_changestream.sh: maven could not fetch $coords" >&2
            exit 1
        fi
        mv -f "$tmp/$artifact-$version.jar" "$jar"
        rm -rf "$tmp"
    fi
    paths+=("$(cd "$dir" && printf '%s/%s' "$PWD" "$artifact-$version.jar")")
done
(IFS=:; printf '%s\n' "${paths[*]}")
