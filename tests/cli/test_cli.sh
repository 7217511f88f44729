#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The command-line tools as a user runs them: exit codes and what they print.
# usage: test_cli.sh BIN_DIR SOURCE_DIR
set -uo pipefail
bin=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 passes=0

check() {  # check NAME COMMAND...: the command must succeed
  if "${@:2}" >"$work/out" 2>&1; then passes=$((passes + 1)); else
    echo "FAIL: $1"; sed 's/^/    /' "$work/out"; failures=$((failures + 1)); fi
}
expect_fail() {  # expect_fail NAME PATTERN COMMAND...: exit 1 and output matching PATTERN
  "${@:3}" >"$work/out" 2>&1
  local rc=$?
  if [ $rc -eq 1 ] && grep -Eq "$2" "$work/out"; then passes=$((passes + 1)); else
    echo "FAIL: $1 (exit $rc, wanted 1 and /$2/)"; sed 's/^/    /' "$work/out"; failures=$((failures + 1)); fi
}

# Assemble and run the GEMM example: a successful summary.
check "tpu-as gemm64" "$bin/tpu-as" "$src/firmware/examples/gemm64.s" -o "$work/g.img"
check "tpu-run gemm64" "$bin/tpu-run" "$work/g.img"
grep -q "^tpu-run: OK: DONE after 46 instructions, 262144 MACs" "$work/out" || { echo "FAIL: summary"; cat "$work/out"; failures=$((failures + 1)); }

# A broken source: one file:line:col error per mistake, exit 1.
expect_fail "broken source" "broken.s:3:9: error: missing operand 'acc' for mmc" "$bin/tpu-as" "$src/tests/cli/broken.s" -o "$work/b.img"
for want in "broken.s:4:9: error: unknown instruction 'frobnicate'" \
            "broken.s:5:24: error: value 70000 for 'ub' is out of range" \
            "broken.s:8:21: error: value 300 does not fit in 1 byte" "tpu-as: 4 errors"; do
  grep -q "$want" "$work/out" || { echo "FAIL: broken source lacks: $want"; failures=$((failures + 1)); }
done
expect_fail "source is a directory" "cannot open source file \(not a regular file\)" "$bin/tpu-as" "$work" -o "$work/d.img"
expect_fail "missing source" "cannot open source file \(no such file\)" "$bin/tpu-as" "$work/none.s" -o "$work/d.img"
[ ! -e "$work/b.img" ] && [ ! -e "$work/d.img" ] || { echo "FAIL: an image was written for a broken source"; failures=$((failures + 1)); }

# Inputs and outputs by symbol, raw and .npy; errors from the run are exit 1.
head -c 4096 /dev/zero | tr '\0' '\001' > "$work/ones.bin"
check "tpu-run --in/--out" "$bin/tpu-run" "$work/g.img" --in "a=$work/ones.bin" --in "b=$work/ones.bin" --out "c=$work/c.npy" --quiet
python3 - "$work/c.npy" <<'PY' || { echo "FAIL: output .npy"; failures=$((failures + 1)); }
import sys; d = open(sys.argv[1], 'rb').read()
assert d[:6] == b'\x93NUMPY' and d[-4096:] == bytes([0]) * 4096, "64/1024 rounds to 0"
PY
expect_fail "bus error" "FAILED: BUS_ERROR \(device-memory bus error\) at pc 0x00000010: rhm" \
  "$bin/tpu-run" "$work/g.img" --bus-error 0x300:0x340
expect_fail "unaligned bus error" "multiples of 64 bytes" "$bin/tpu-run" "$work/g.img" --bus-error 0x301:0x340
expect_fail "run limit" "FAILED: run limit of 5 reached" "$bin/tpu-run" "$work/g.img" --max-cycles 5
for bad in -5 " 5" +5 5x 99999999999999999999; do  # (stoull alone would skip the space and take the sign)
  expect_fail "run limit '$bad'" "max-cycles must be a non-negative number, got '" "$bin/tpu-run" "$work/g.img" --max-cycles "$bad"
done
expect_fail "input is a directory" "cannot open \(not a regular file\)" "$bin/tpu-run" "$work/g.img" --in "a=$work"
# (a small symbol: the bytes fit the stream's buffer and fail only when it is flushed)
check "tpu-as dense_relu" "$bin/tpu-as" "$src/firmware/examples/dense_relu.s" -o "$work/dr.img"
expect_fail "output to a full device" "cannot write '/dev/full'" "$bin/tpu-run" "$work/dr.img" --out "y=/dev/full"
# (the image and the listing fit a buffer too: they failed only in a destructor, unseen)
expect_fail "image to a full device" "/dev/full: cannot write \(No space left on device\)" \
  "$bin/tpu-as" "$src/firmware/examples/dense_relu.s" -o /dev/full
expect_fail "listing to a full device" "tpu-objdump: error: cannot write the standard output" \
  bash -c '"$0" "$1" > /dev/full' "$bin/tpu-objdump" "$work/dr.img"
expect_fail "generated header to a full device" "tpu-isa-gen: error: cannot write the standard output" \
  bash -c '"$0" --verilog > /dev/full' "$bin/tpu-isa-gen"
expect_fail "unknown symbol" "no symbol 'zz' in the image" "$bin/tpu-run" "$work/g.img" --in "zz=$work/ones.bin"
expect_fail "wrong config" "image was built for another configuration" "$bin/tpu-run" --config "$src/configs/n4.yaml" "$work/g.img"
expect_fail "unknown backend" "unknown backend 'gpu'" "$bin/tpu-run" --backend gpu "$work/g.img"
head -c 100 "$work/g.img" > "$work/trunc.img"
expect_fail "truncated image" "truncated image" "$bin/tpu-run" "$work/trunc.img"
printf 'garbage' > "$work/junk.img"
expect_fail "not an image" "bad magic" "$bin/tpu-run" "$work/junk.img"
expect_fail "missing image" "cannot open image file \(no such file\)" "$bin/tpu-run" "$work/none.img"
expect_fail "bad option" "unknown option '--frob'" "$bin/tpu-run" --frob "$work/g.img"

# objdump: a listing, and source that reassembles to the same bytes.
check "tpu-objdump" "$bin/tpu-objdump" "$work/g.img"
grep -q "mmc switch, ub=0, rows=64, acc=0" "$work/out" || { echo "FAIL: listing"; failures=$((failures + 1)); }
"$bin/tpu-objdump" --source "$work/g.img" > "$work/again.s"
check "reassemble" "$bin/tpu-as" "$work/again.s" -o "$work/again.img"
check "identical image" cmp "$work/g.img" "$work/again.img"

# tpu-bench: bad arguments are an error before anything runs.
expect_fail "tpu-bench size" "tpu-bench: error: --gemm 16 SIZE: SIZE is one of 16, 32, 64, 128, 256, not '100'" \
  "$bin/tpu-bench" --out "$work/bench" --gemm 16 100
expect_fail "tpu-bench N" "tpu-bench: error: --gemm N SIZE: N is 8 or 16, not '4'" "$bin/tpu-bench" --gemm 4 32
expect_fail "tpu-bench argument" "tpu-bench: error: unknown argument '--gemm'" "$bin/tpu-bench" --gemm 16
[ ! -e "$work/bench" ] || { echo "FAIL: tpu-bench wrote output for bad arguments"; failures=$((failures + 1)); }
# tpu-regress: a core that does not exist, or one not built for the configuration.
expect_fail "tpu-regress core" "tpu-regress: error: --core must be full, small, lite or serial-act, not 'tiny'" \
  "$bin/tpu-regress" --core tiny
expect_fail "tpu-regress small core config" \
  "tpu-regress: error: --core small is built for configs/icebreaker.yaml only, not N=16" \
  "$bin/tpu-regress" --core small --seeds 1

echo "cli: $passes passed, $failures failed"
[ $failures -eq 0 ]
