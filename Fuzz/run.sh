#!/usr/bin/env bash
# Differential fuzzing of StringsFile.parse against Foundation's PropertyListSerialization with libFuzzer.
# Not part of the test suite. Usage (from anywhere):
#   Fuzz/run.sh                      # build, then fuzz for $FUZZ_SECONDS (default 600) seconds
#   FUZZ_SECONDS=60 Fuzz/run.sh      # a short run
#   Fuzz/run.sh FILE...              # build, then run the target once on each FILE (to replay a finding)
#   FUZZ_REV=HEAD Fuzz/run.sh        # fuzz the parser as committed at a revision, not the working tree
#   FUZZ_KEEP_GOING=1 Fuzz/run.sh    # fork mode: record each finding and go on instead of stopping at the first
# Findings (crash-*, timeout-*, oom-*, leak-*) land in Fuzz/build/findings/; the grown corpus in Fuzz/build/corpus/.
set -euo pipefail

fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$fuzz_dir")
build="$fuzz_dir/build"
seconds=${FUZZ_SECONDS:-600}
corpus_root=${HOTSTRINGS_CORPUS:-$root/../shared/corpus}
mkdir -p "$build/corpus" "$build/findings" "$build/small-corpus"

echo "== building $build/fuzz-strings"
# Compile from a snapshot of the sources so edits made meanwhile cannot break the build half-way.
snapshot="$build/src"
rm -rf "$snapshot" && mkdir -p "$snapshot"
if [ -n "${FUZZ_REV:-}" ]; then
    git -C "$root" archive "$FUZZ_REV" Sources/StringsFormat | tar -x -C "$snapshot" --strip-components=2
    echo "   StringsFormat as of $(git -C "$root" rev-parse --short "$FUZZ_REV")"
else
    cp "$root"/Sources/StringsFormat/*.swift "$snapshot"/
fi
cp "$fuzz_dir"/*.swift "$snapshot"/
cp "$root"/Fuzz/shared/*.swift "$snapshot"/
linker=()
if command -v ld.lld >/dev/null 2>&1; then linker=(-use-ld=lld); fi
swiftc -sanitize=fuzzer,address -parse-as-library -O "${linker[@]}" "$snapshot"/*.swift -o "$build/fuzz-strings"

# Foundation leaks a CFError whenever PropertyListSerialization fails (LeakSanitizer reports it at once), so
# leak checking is off, also in fork mode's child processes, which do not inherit -detect_leaks.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export SWIFT_BACKTRACE=enable=no  # the Swift backtracer and ASan fight over a crash; let ASan report

if [ "$#" -gt 0 ]; then
    HOTSTRINGS_FUZZ_EXPLAIN=1 "$build/fuzz-strings" "$@"
    exit
fi

# Seed: the hand-written grammar seeds plus every corpus .strings file under 4 KB (flattened, named by hash).
seed_count=0
if [ -d "$corpus_root" ]; then
    while IFS= read -r -d '' file; do
        cp "$file" "$build/small-corpus/$(sha1sum "$file" | cut -c1-16).strings"
        seed_count=$((seed_count + 1))
    done < <(find "$corpus_root" -name '*.strings' -size -4k -print0)
else
    echo "note: $corpus_root not found; seeding from Fuzz/seeds only"
fi
echo "== seeds: $(ls "$fuzz_dir/seeds" | wc -l) grammar seeds, $seed_count corpus files under 4 KB"

log="$build/fuzz.log"
echo "== fuzzing for $seconds s (log: $log)"
keep_going=()
if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then keep_going=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1); fi
set +e
"$build/fuzz-strings" "${keep_going[@]}" \
    -max_total_time="$seconds" -timeout=10 -max_len=4096 -rss_limit_mb=4096 -detect_leaks=0 \
    -dict="$fuzz_dir/strings.dict" -artifact_prefix="$build/findings/" -print_final_stats=1 \
    "$build/corpus" "$fuzz_dir/seeds" "$build/small-corpus" 2>&1 | tee "$log" \
    | grep --line-buffered -E "^#[0-9]+(.*pulse|: cov)|HotStrings differential finding|Test unit written|^CRASH"
status=${PIPESTATUS[0]}
set -e

echo "== result (exit status $status)"
grep -E "^#[0-9]+" "$log" | tail -1
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" "$log" || true
grep -E "HotStrings differential finding|ERROR: (AddressSanitizer|libFuzzer)|SUMMARY|Test unit written" "$log" || true
findings=$(find "$build/findings" -type f | wc -l)
echo "findings: $findings file(s) in $build/findings"
find "$build/findings" -type f -newer "$build/fuzz-strings" -printf '  %p\n'
exit "$status"
