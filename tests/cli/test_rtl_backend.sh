#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tpu-run --backend rtl (or systemc) against --backend model: the firmware examples
# give identical outputs and summaries; an injected bus error, an illegal instruction
# and an address out of range end with the same error, code and PC, and exit 1; waves
# and the trace are written and readable.
# usage: test_rtl_backend.sh BIN_DIR SOURCE_DIR [rtl|systemc]
set -uo pipefail
bin=$1 src=$2 rtl=${3:-rtl}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 passes=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Deterministic pseudo-random input bytes.
bytes() { python3 -c "import random,sys; r=random.Random($2); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range($1)))"; }

same_run() {  # same_run NAME EXPECTED_EXIT TPU-RUN-ARGS...: both backends agree
  local name=$1 want=$2; shift 2
  "$bin/tpu-run" --backend model --quiet "$@" > "$work/model.out" 2>&1; local rm=$?
  "$bin/tpu-run" --backend $rtl --quiet "$@" > "$work/rtl.out" 2>&1; local rr=$?
  if [ $rm -ne "$want" ] || [ $rr -ne "$want" ]; then
    fail "$name: exit codes model $rm, $rtl $rr, wanted $want"; sed 's/^/    /' "$work/model.out" "$work/rtl.out"; return
  fi
  if ! diff <(grep '^tpu-run:' "$work/model.out") <(grep '^tpu-run:' "$work/rtl.out") > "$work/diff"; then
    fail "$name: summaries differ"; sed 's/^/    /' "$work/diff"; return
  fi
  passes=$((passes + 1))
}

# Firmware examples with random inputs: same summary, same output bytes.
"$bin/tpu-as" "$src/firmware/examples/gemm64.s" -o "$work/g.img" || fail "assemble gemm64"
bytes 4096 1 > "$work/a.bin"; bytes 4096 2 > "$work/b.bin"
for be in model $rtl; do
  "$bin/tpu-run" --backend $be --quiet "$work/g.img" --in "a=$work/a.bin" --in "b=$work/b.bin" \
    --out "c=$work/c.$be" > "$work/$be.out" 2>&1 || fail "gemm64 on $be"
done
cmp -s "$work/c.model" "$work/c.$rtl" && passes=$((passes + 1)) || fail "gemm64: outputs differ"
diff <(grep '^tpu-run:' "$work/model.out") <(grep '^tpu-run:' "$work/$rtl.out") > /dev/null \
  && passes=$((passes + 1)) || fail "gemm64: summaries differ"

"$bin/tpu-as" "$src/firmware/examples/dense_relu.s" -o "$work/d.img" || fail "assemble dense_relu"
bytes 1024 3 > "$work/x.bin"; bytes 2048 4 > "$work/w.bin"
for be in model $rtl; do
  "$bin/tpu-run" --backend $be --quiet "$work/d.img" --in "x=$work/x.bin" --in "w=$work/w.bin" \
    --out "y=$work/y.$be" > "$work/$be.out" 2>&1 || fail "dense_relu on $be"
done
cmp -s "$work/y.model" "$work/y.$rtl" && passes=$((passes + 1)) || fail "dense_relu: outputs differ"

# Errors: same code and PC on both backends, exit 1.
same_run "bus error" 1 "$work/g.img" --bus-error 0x300:0x340
printf '        nop\n        .word 8, 0, 0, 0   ; opcode 8 is reserved\n        halt\n' > "$work/illegal.s"
"$bin/tpu-as" "$work/illegal.s" -o "$work/illegal.img" || fail "assemble illegal.s"
same_run "illegal instruction" 1 "$work/illegal.img"
grep -q "FAILED: ILLEGAL .* at pc 0x00000010" "$work/rtl.out" || fail "illegal: message"
# rhm ub=0, rows=1, addr=0xffffff00 encoded by hand: the assembler would refuse it.
printf '        nop\n        nop\n        .word 3, 0xff000000, 0x0000ffff, 0\n        halt\n' > "$work/range.s"
"$bin/tpu-as" "$work/range.s" -o "$work/range.img" || fail "assemble range.s"
same_run "address out of range" 1 "$work/range.img"
grep -q "FAILED: DRAM_RANGE .* at pc 0x00000020" "$work/rtl.out" || fail "range: message"

# Waves and trace.
if [ "$rtl" = rtl ]; then
  "$bin/tpu-run" --backend rtl --quiet "$work/g.img" --wave "$work/g.fst" --wave-from 100 --wave-to 3000 \
    --trace "$work/g.json" > "$work/out" 2>&1 || fail "waves and trace"
  "$src/scripts/make-gtkw.sh" "$work/g.fst" > "$work/g.gtkw" && passes=$((passes + 1)) || fail "waves lack signals of the save file"
  cmp -s "$work/g.gtkw" "$src/sim/waves/core_n16.gtkw" && passes=$((passes + 1)) \
    || fail "sim/waves/core_n16.gtkw is out of date (scripts/make-gtkw.sh)"
  # The small core's waves (tpu-regress --core small) and its save file.
  "$bin/tpu-regress" --config "$src/configs/icebreaker.yaml" --core small --seed 5 --wave "$work/s.fst" \
    > "$work/out" 2>&1 || fail "small core waves"
  "$src/scripts/make-gtkw.sh" "$work/s.fst" > "$work/s.gtkw" && passes=$((passes + 1)) \
    || fail "small core waves lack signals of the save file"
  cmp -s "$work/s.gtkw" "$src/sim/waves/small_core.gtkw" && passes=$((passes + 1)) \
    || fail "sim/waves/small_core.gtkw is out of date (scripts/make-gtkw.sh)"
else
  "$bin/tpu-run" --backend $rtl --quiet "$work/g.img" --wave "$work/g.fst" \
    --trace "$work/g.json" > "$work/out" 2>&1 || fail "waves and trace"
  "$src/scripts/make-gtkw.sh" "$work/g.fst" > "$work/g.gtkw" && grep -q '^tb.core.tpu_core.u_mmc_seq' "$work/g.gtkw" \
    && passes=$((passes + 1)) || fail "FST of the SystemC run lacks signals of the save file"
  "$bin/tpu-run" --backend $rtl "$work/g.img" --wave "$work/w.fst" --wave-from 5 > "$work/out" 2>&1
  [ $? -eq 1 ] && grep -q "need --backend rtl" "$work/out" && passes=$((passes + 1)) || fail "--wave-from on systemc"
fi
python3 - "$work/g.json" <<'PY' && passes=$((passes + 1)) || fail "trace JSON"
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
slices = [e for e in ev if e["ph"] == "X"]
counters = {e["name"]: e["args"]["value"] for e in ev if e["ph"] == "C"}
assert len(slices) == counters["instructions"] == 46, (len(slices), counters.get("instructions"))
assert {1, 2, 4} <= {e["tid"] for e in slices}, "DMA-in, matrix and DMA-out tracks"
assert all(e["dur"] >= 1 and e["ts"] >= 0 for e in slices)
assert counters["macs"] == 262144
PY
expect_msg() { grep -q "$1" "$work/out" || fail "$2"; }
"$bin/tpu-run" --backend model "$work/g.img" --wave "$work/x.fst" > "$work/out" 2>&1
[ $? -eq 1 ] && expect_msg "need an RTL backend" "--wave on the model is an error"
printf 'halt\n' > "$work/odd.s"   # (an image for that configuration: a mismatched one is refused first)
"$bin/tpu-as" --config "$src/tests/cli/odd.yaml" "$work/odd.s" -o "$work/odd.img" > /dev/null
"$bin/tpu-run" --backend $rtl --config "$src/tests/cli/odd.yaml" "$work/odd.img" > "$work/out" 2>&1
[ $? -eq 1 ] && expect_msg "no Verilated core is built with the parameters of .*odd.yaml (-GArraySize=" "an unbuilt configuration is an error"

# A rejected image: the error, exit 1, and no sanitizer report (the SystemC backend's
# stack switching made an exception thrown after it started an AddressSanitizer abort).
"$bin/tpu-run" --backend $rtl --config "$src/configs/n4.yaml" "$work/g.img" > "$work/out" 2>&1
[ $? -eq 1 ] && expect_msg "g.img: image was built for another configuration" "a rejected image is an error" &&
  ! grep -q "Sanitizer" "$work/out" && passes=$((passes + 1)) || { fail "rejected image"; sed 's/^/    /' "$work/out"; }
if [ "$rtl" = rtl ]; then  # (on SystemC an exception after the run is that false report still)
  "$bin/tpu-run" --backend rtl --quiet "$work/g.img" --trace /dev/full > "$work/out" 2>&1
  [ $? -eq 1 ] && expect_msg "cannot write the trace to /dev/full" "a failed trace write is an error" && passes=$((passes + 1))
fi

echo "$rtl backend: $passes passed, $failures failed"
[ $failures -eq 0 ]
