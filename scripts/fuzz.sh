#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Coverage-guided fuzzing (`make fuzz`): builds the fuzz targets of tests/fuzz with clang,
# libFuzzer, AddressSanitizer and UBSan in BUILD, then runs each for SECONDS on a working
# corpus (BUILD/corpus/TARGET, kept between runs) started from the target's seeds
# (BUILD/fuzz/TARGET.seeds, the same that `make test` replays). An input that fails is
# left in BUILD/findings/TARGET and the run fails, naming it: fix the defect, then copy
# the input into tests/fuzz/corpus/TARGET so that `make test` keeps checking it.
# usage: fuzz.sh BUILD SECONDS [TARGET...]     targets: asm image config model npy uart
#        FUZZ_JOBS=n runs n targets side by side (default 2, one per core).
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1 secs=$2; shift 2
all=(asm image config model npy uart)
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz: unknown target '$t' (known: ${all[*]})" >&2; exit 2; }
done
[[ "$secs" =~ ^[0-9]+$ ]] && [ "$secs" -gt 0 ] || { echo "fuzz: SECONDS must be a positive integer (got '$secs')" >&2; exit 2; }

scripts/deps.sh
scripts/deps.sh fuzz
echo "fuzz: building the libFuzzer targets in $build (clang)"
mkdir -p "$build"
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESSERA_FUZZ=ON > "$build/fuzz-configure.log" 2>&1 ||
  { cat "$build/fuzz-configure.log" >&2; exit 1; }
cmake --build "$build" -j 2 --target tpu_as $(printf 'fuzz_%s ' "${targets[@]}") > "$build/fuzz-build.log" 2>&1 ||
  { tail -30 "$build/fuzz-build.log" >&2; exit 1; }
tests/fuzz/image-seeds.sh "$build/bin/tpu-as" . "$build/fuzz/image-seeds" > /dev/null

run_one() {
  local t=$1 corpus=$build/corpus/$1 findings=$build/findings/$1 dict=()
  rm -rf "$findings"   # (the last run's were reported then)
  mkdir -p "$corpus" "$findings"
  while read -r seed; do   # the seeds: files, or directories of files
    [ -z "$seed" ] && continue
    if [ -d "$seed" ]; then find "$seed" -maxdepth 1 -type f -exec cp -n {} "$corpus/" \; ; else cp -n "$seed" "$corpus/"; fi
  done < "$build/fuzz/$t.seeds"
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  "$build/fuzz/fuzz_$t" "${dict[@]}" -max_total_time="$secs" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" > "$build/fuzz-$t.log" 2>&1 || true
  local done_line; done_line=$(grep -E "^#[0-9]+[[:space:]]+DONE" "$build/fuzz-$t.log" | tail -1)
  local execs; execs=$(sed -n 's/^stat::number_of_executed_units:[[:space:]]*//p' "$build/fuzz-$t.log")
  if [ -n "$(ls "$findings")" ]; then
    printf 'fuzz: %-6s FAILED after %s inputs: %s\n' "$t" "${execs:-?}" "$(ls "$findings" | tr '\n' ' ')"
  else
    printf 'fuzz: %-6s %10s inputs in %s s, %s, corpus %s files\n' "$t" "${execs:-?}" "$secs" \
      "$(echo "$done_line" | grep -oE 'cov: [0-9]+ ft: [0-9]+' || echo 'no coverage line')" "$(ls "$corpus" | wc -l)"
  fi
}
export -f run_one
export build secs
printf '%s\n' "${targets[@]}" | xargs -P "${FUZZ_JOBS:-2}" -I{} bash -c 'run_one {}'

found=$(for t in "${targets[@]}"; do find "$build/findings/$t" -type f; done)
if [ -n "$found" ]; then
  echo "fuzz: FAIL: inputs that break a target (replay: $build/fuzz/fuzz_TARGET FILE; log: $build/fuzz-TARGET.log):" >&2
  echo "$found" | sed 's/^/    /' >&2
  exit 1
fi
echo "fuzz: no failure in ${#targets[@]} targets, $secs s each"
