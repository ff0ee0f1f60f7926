#!/usr/bin/env bash
# Fetch axe-core (the accessibility engine the browser tests run, MPL-2.0) from the npm
# registry into tests/data/axe/: axe.min.js and its LICENCE. The tests read the copy in the
# tree and need no network; run this only to move to another version (and set AXE_VERSION
# in tests/browser/conftest.py to match).
set -euo pipefail
version="${1:-4.14.1}"
here="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "axe-core@$version" >/dev/null && tar xzf "axe-core-$version.tgz")
mkdir -p "$here/tests/data/axe"
cp "$tmp/package/axe.min.js" "$tmp/package/LICENSE" "$here/tests/data/axe/"
echo "axe-core $version -> tests/data/axe/"
