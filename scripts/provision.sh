#!/usr/bin/env bash
# What the test suite needs from Debian besides Python: Chromium and the CJK fonts for the
# browser tests (tests/browser), plus any packages named as arguments (.ci/run adds
# postgresql). Called by `make test` and by .ci/run, so both provision the same way.
#
# Missing packages are installed with apt-get when running as root; otherwise the script
# prints the one apt-get line to run and exits 1. Installed packages are left alone.
set -euo pipefail
packages=(chromium fonts-noto-cjk fonts-hanazono "$@")
need=()
for pkg in "${packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
[ ${#need[@]} -eq 0 ] && exit 0
line="apt-get update && apt-get install -y --no-install-recommends ${need[*]}"
if [ "$(id -u)" != 0 ]; then
  echo "missing Debian packages for the tests; run as root: $line" >&2
  exit 1
fi
echo "installing ${need[*]} (apt-get)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
