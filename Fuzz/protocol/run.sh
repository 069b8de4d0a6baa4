#!/usr/bin/env bash
# Differential fuzzing of the protocol's JSON parser against Foundation's JSONSerialization, and of the request
# and server-message decoders, with libFuzzer. Not part of the test suite. Usage (from anywhere):
#   Fuzz/protocol/run.sh                      # build, then fuzz for $FUZZ_SECONDS (default 600) seconds
#   FUZZ_SECONDS=60 Fuzz/protocol/run.sh      # a short run
#   Fuzz/protocol/run.sh FILE...              # build, then run the target once on each FILE (to replay a finding)
#   FUZZ_REV=HEAD Fuzz/protocol/run.sh        # fuzz the protocol code as committed at a revision, not the working tree
#   FUZZ_KEEP_GOING=1 Fuzz/protocol/run.sh    # fork mode: record each finding and go on instead of stopping
# Findings land in Fuzz/build/protocol/findings/; the grown corpus in Fuzz/build/protocol/corpus/.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$here")")
build="$root/Fuzz/build/protocol"
seconds=${FUZZ_SECONDS:-600}
mkdir -p "$build/corpus" "$build/findings"

echo "== building $build/fuzz-protocol"
# Compile from a snapshot of the sources so edits made meanwhile cannot break the build half-way.
snapshot="$build/src"
rm -rf "$snapshot" && mkdir -p "$snapshot"
if [ -n "${FUZZ_REV:-}" ]; then
    git -C "$root" archive "$FUZZ_REV" Sources/HotStringsProtocol | tar -x -C "$snapshot" --strip-components=2
    echo "   HotStringsProtocol as of $(git -C "$root" rev-parse --short "$FUZZ_REV")"
else
    cp "$root"/Sources/HotStringsProtocol/*.swift "$snapshot"/
fi
# The protocol reads and writes JSON with StringsFormat's one reader and writer: compile them into the same
# module, without the import.
json_files="JSONScanner.swift JSONValue.swift JSONValue+Parsing.swift JSONWriter.swift JSONWriter+Text.swift"
for file in $json_files; do
    if [ -n "${FUZZ_REV:-}" ]; then
        git -C "$root" show "$FUZZ_REV:Sources/StringsFormat/$file" >"$snapshot/$file" 2>/dev/null \
            || rm -f "$snapshot/$file"
    else
        cp "$root/Sources/StringsFormat/$file" "$snapshot"/
    fi
done
sed -i '/^import StringsFormat$/d' "$snapshot"/*.swift
sed -i 's/^package typealias JSONSyntaxError = StringsFormat.JSONSyntaxError$//' "$snapshot"/*.swift
cp "$here"/*.swift "$snapshot"/
cp "$root"/Fuzz/shared/*.swift "$snapshot"/
linker=()
if command -v ld.lld >/dev/null 2>&1; then linker=(-use-ld=lld); fi
swiftc -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 "${linker[@]}" \
    "$snapshot"/*.swift -o "$build/fuzz-protocol"

export SWIFT_BACKTRACE=enable=no  # the Swift backtracer and ASan fight over a crash; let ASan report
# Foundation leaks its NSError whenever JSONSerialization fails; leak checking would stop every run at once.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

if [ "$#" -gt 0 ]; then
    HOTSTRINGS_FUZZ_EXPLAIN=1 "$build/fuzz-protocol" "$@"
    exit
fi

echo "== seeds: $(ls "$here/seeds" | wc -l) request, response and event lines and JSON edge cases"
log="$build/fuzz.log"
echo "== fuzzing for $seconds s (log: $log)"
keep_going=()
if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then keep_going=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1); fi
set +e
"$build/fuzz-protocol" "${keep_going[@]}" \
    -max_total_time="$seconds" -timeout=10 -max_len=4096 -rss_limit_mb=4096 -detect_leaks=0 \
    -dict="$here/json.dict" -artifact_prefix="$build/findings/" -print_final_stats=1 \
    "$build/corpus" "$here/seeds" 2>&1 | tee "$log" \
    | grep --line-buffered -E "^#[0-9]+(.*pulse|: cov)|HotStrings protocol fuzz finding|Test unit written|^CRASH"
status=${PIPESTATUS[0]}
set -e

echo "== result (exit status $status)"
grep -E "^#[0-9]+" "$log" | tail -1
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" "$log" || true
grep -E "HotStrings protocol fuzz finding|ERROR: (AddressSanitizer|libFuzzer)|SUMMARY|Test unit written" "$log" || true
findings=$(find "$build/findings" -type f | wc -l)
echo "findings: $findings file(s) in $build/findings"
find "$build/findings" -type f -newer "$build/fuzz-protocol" -printf '  %p\n'
exit "$status"
