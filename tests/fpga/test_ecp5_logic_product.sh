#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The PE's product in logic as the ECP5 builds make it (tpu_pe LogicProduct with
# TPU_ECP5_CARRY: the ANDs inside the carry cells, rtl/tpu_mul8x2.v), synthesized with
# synth_ecp5 and the netlist simulated with Yosys's own models of the ECP5 cells
# (cells_sim.v) over every int8 pair (logic_product/tb_pe.v); and its size: the ANDs
# must not come back as LUT4s (74 a PE without the carry-cell form, Yosys 0.23).
# usage: test_ecp5_logic_product.sh SOURCE_DIR WORKDIR
set -uo pipefail
src=$1 work=$2
mkdir -p "$work"
models=$(dirname "$(readlink -f "$(command -v yosys)")")/../share/yosys/ecp5  # Yosys's cell models
yosys -q -l "$work/synth.log" -p "read_verilog -DTPU_ECP5_CARRY -I$src/rtl $src/rtl/tpu_pe.v $src/rtl/tpu_mul8x2.v;
  chparam -set LogicProduct 1 -set PsumBits 20 tpu_pe; synth_ecp5 -top tpu_pe;
  tee -q -o $work/stat.txt stat; write_verilog -noattr $work/pe_ecp5.v" > /dev/null ||
  { echo "FAIL: synthesis of the PE (see $work/synth.log)"; exit 1; }
luts=$(awk '$1 == "LUT4" {print $2}' "$work/stat.txt")
carries=$(awk '$1 == "CCU2C" {print $2}' "$work/stat.txt")
echo "ecp5 logic product: a PE is ${luts:-0} LUT4 and ${carries:-0} CCU2C"
failures=0
if [ "${luts:-0}" -gt 16 ]; then
  echo "FAIL: ${luts} LUT4 in the PE (at most 16: the partial products' ANDs are back in LUT4s)"
  failures=$((failures + 1))
fi
iverilog -g2005 -I"$models" -o "$work/tb_pe" "$src/tests/fpga/logic_product/tb_pe.v" "$work/pe_ecp5.v" \
  "$models/cells_sim.v" 2> "$work/iverilog.log" ||
  { echo "FAIL: iverilog (see $work/iverilog.log)"; exit 1; }
if ! vvp -n "$work/tb_pe"; then
  echo "FAIL: the synthesized PE's sums"; failures=$((failures + 1))
fi
[ "$failures" -eq 0 ]
