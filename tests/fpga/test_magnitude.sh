#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tpu_magnitude in its iCE40 form (TPU_ICE40_CARRY: a carry cell and a LUT4 a bit),
# synthesized with synth_ice40 and proven equal, for every input, to its plain form
# ("sat ? the largest magnitude of the sign : neg ? -x : x") with Yosys's own models of the
# two cells (a miter and a SAT proof), at the widths the lite core uses; and its size:
# one LUT4 a bit.
# usage: test_magnitude.sh SOURCE_DIR WORKDIR
set -uo pipefail
src=$1 work=$2
. "$(dirname "$0")/prove_equal.sh"
mkdir -p "$work"
models=$(dirname "$(readlink -f "$(command -v yosys)")")/../share/yosys/ice40  # Yosys's cell models
# the two cells' models alone (the whole file takes minutes to prepare)
{ echo '`define ICE40_DEFAULT_ASSIGNMENT_0'
  awk '/^module SB_LUT4|^module SB_CARRY/ {p = 1} p {print} /^endmodule/ {p = 0}' "$models/cells_sim.v"
} > "$work/cells.v"
grep -q "^module SB_CARRY" "$work/cells.v" && grep -q "^module SB_LUT4" "$work/cells.v" ||
  { echo "FAIL: no SB_CARRY / SB_LUT4 model in $models/cells_sim.v"; exit 1; }
failures=0
for width in 11 32; do
  if ! yosys -q -l "$work/synth$width.log" -p "read_verilog -DTPU_ICE40_CARRY $src/rtl/tpu_magnitude.v;
      chparam -set Width $width tpu_magnitude; synth_ice40 -top tpu_magnitude; rename tpu_magnitude magnitude_ice40;
      tee -q -o $work/stat$width.txt stat; write_verilog -noattr $work/magnitude_ice40_$width.v" > /dev/null; then
    echo "FAIL: synthesis at Width = $width (see $work/synth$width.log)"; failures=$((failures + 1)); continue
  fi
  luts=$(awk '$1 == "SB_LUT4" {print $2}' "$work/stat$width.txt")
  if [ "${luts:-0}" -gt "$width" ]; then
    echo "FAIL: ${luts} LUT4 at Width = $width (at most one a bit)"; failures=$((failures + 1))
  fi
  if ! prove_equal "$work/sat$width.log" "read_verilog $work/cells.v $work/magnitude_ice40_$width.v;
      read_verilog $src/rtl/tpu_magnitude.v; chparam -set Width $width tpu_magnitude" tpu_magnitude magnitude_ice40; then
    echo "FAIL: the iCE40 form differs from the plain form at Width = $width (see $work/sat$width.log)"
    failures=$((failures + 1))
  else
    echo "tpu_magnitude, iCE40 form, Width = $width: ${luts} LUT4, equal to the plain form (proven)"
  fi
done
[ "$failures" -eq 0 ]
