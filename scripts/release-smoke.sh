#!/usr/bin/env bash
# The suite runs debug builds; users run release ones. This builds `hotstrings` in release and drives the
# code whose optimized build once crashed while the debug suite passed (SHA-512 and Ed25519): a key pair, a
# signed publish of sample-bundle, minisign's check of that signature (when minisign is installed), and a pull
# that trusts the key from a local HTTP server (python3). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product hotstrings 2>&1 | tail -n 3
bin="$(swift build -c release --show-bin-path)/hotstrings"
work="$(mktemp -d)"
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

"$bin" keygen "$work/key.pub" "$work/key.sec"
cp -R sample-bundle "$work/bundle"
"$bin" publish "$work/bundle" "$work/out" --sign "$work/key.sec" --expires-in 1d
if command -v minisign >/dev/null 2>&1; then
    minisign -Vm "$work/out/manifest.json" -p "$work/key.pub"
else
    echo "note: minisign is not installed; its check of the signature is skipped"
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "note: python3 is not installed; the trusted pull is skipped"
    exit 0
fi
python3 -m http.server 0 --bind 127.0.0.1 --directory "$work/out" > "$work/http.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 100); do
    port="$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$work/http.log" | head -n 1)"
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "error: the local HTTP server did not start" >&2; cat "$work/http.log" >&2; exit 1; }
mkdir "$work/installed"
"$bin" pull "http://127.0.0.1:$port/" "$work/installed" --trusted-key "$work/key.pub"
cmp "$work/bundle/en.lproj/Localizable.strings" "$work/installed/en.lproj/Localizable.strings"
echo "release smoke: keygen, publish --sign, minisign -V and pull --trusted-key passed"
