#!/usr/bin/env bash
# Fetch informix-driver's source distribution (its own test suite is in it) from PyPI into a
# local cache and extract it, for scripts/test.sh, which runs that suite's integration tests
# against ifxwire-server. informix-driver is someone else's project: its sdist is downloaded on
# demand and must NEVER be committed to this repository.
#
# Usage:   scripts/fetch_rival_suite.sh [VERSION]        (default: 2026.9.3, the version the
#          [test] extra pins)
# Cache:   ${IFXWIRE_CACHE:-$HOME/.cache/ifxwire}/informix-driver/informix_driver-<VERSION>/
# Output:  the extracted directory on stdout; diagnostics on stderr. Idempotent: a complete
#          extraction already in the cache is not fetched again.
set -euo pipefail

version="${1:-2026.9.3}"
case "$version" in
    *[!0-9A-Za-z.]* | "") echo "fetch_rival_suite.sh: bad version '$version'" >&2; exit 2 ;;
esac
cache_root="${IFXWIRE_CACHE:-$HOME/.cache/ifxwire}/informix-driver"
dir="$cache_root/informix_driver-$version"
python="${PYTHON:-python}"

# An extraction counts once it is complete: the marker is written last.
if [ ! -f "$dir/.extracted" ]; then
    mkdir -p "$cache_root"
    work=$(mktemp -d "$cache_root/.fetch.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    echo "fetch_rival_suite.sh: downloading informix-driver $version (sdist) from PyPI" >&2
    "$python" -m pip download -q --no-deps --no-binary informix-driver \
        -d "$work" "informix-driver==$version" >&2
    sdist=$(find "$work" -maxdepth 1 -name "informix_driver-$version.tar.gz" | head -1)
    if [ -z "$sdist" ]; then
        echo "fetch_rival_suite.sh: pip left no informix_driver-$version.tar.gz" >&2
        exit 1
    fi
    "$python" - "$sdist" "$work/x" <<'EOF'
import sys
import tarfile

with tarfile.open(sys.argv[1]) as tar:
    if hasattr(tarfile, "data_filter"):
        tar.extractall(sys.argv[2], filter="data")
    else:  # Python before 3.10.12/3.11.4: refuse members that would leave the folder
        for member in tar.getmembers():
            if member.name.startswith("/") or ".." in member.name.split("/") or (
                    member.issym() or member.islnk()):
                raise SystemExit(f"unsafe member in the sdist: {member.name}")
        tar.extractall(sys.argv[2])
EOF
    rm -rf "$dir"
    mv "$work/x/informix_driver-$version" "$dir"
    touch "$dir/.extracted"
fi
echo "$dir"
