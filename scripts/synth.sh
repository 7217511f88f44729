#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generic Yosys synthesis of tpu_core (`synth`, no FPGA mapping) for the given array
# sizes: fails on any latch, on any Yosys warning (multiple drivers, combinational
# loops, undriven nets are all warnings of `check`) and prints the cell count.
# Memories are kept at the configuration minimum (64 rows): they become flip-flops in
# generic synthesis, and their size does not change the logic being checked.
# usage: synth.sh WORKDIR N...
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1; shift
mkdir -p "$work"
failures=0
for n in "$@"; do
  width=$((n * 8 < 128 ? n * 8 : 128))
  log="$work/synth_n$n.log"
  if ! yosys -q -l "$log" -p "read_verilog -Irtl rtl/tpu_*.v;
      chparam -set ArraySize $n -set UbRows 64 -set AccRows 64 -set DmaWidth $width tpu_core;
      synth -top tpu_core; check -assert;
      select -assert-none t:\$dlatch t:\$sr t:\$dlatchsr t:\$_DLATCH_* t:\$_SR_*; stat" > /dev/null 2>&1; then
    echo "synth: FAIL: tpu_core N=$n (see $log)"; grep -E "ERROR|Warning" "$log" | head -20 | sed 's/^/    /'
    failures=$((failures + 1)); continue
  fi
  if grep -q "Warning" "$log"; then
    echo "synth: FAIL: tpu_core N=$n has warnings:"; grep "Warning" "$log" | head -20 | sed 's/^/    /'
    failures=$((failures + 1)); continue
  fi
  cells=$(grep "Number of cells" "$log" | tail -1 | awk '{print $4}')
  echo "synth: tpu_core N=$n: no latches, no warnings, $cells cells"
done
[ "$failures" -eq 0 ]
