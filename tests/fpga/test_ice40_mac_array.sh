#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tpu_mac_array, the array without skew for the iCE40 core: the plain RTL at N = 3, 4
# and 8 (Icarus), and the iCE40 form (TPU_ICE40_DSP: eight SB_MAC16 in their two-8x8
# mode, or seven and two products from tables in eight block RAMs with FreeDsp = 1,
# tpu_nibble_mul) synthesized with synth_ice40 and the netlist simulated with Yosys's
# own models of the iCE40 cells; all against sums computed from the operands
# (mac_array/tb_mac_array.v).
# usage: test_ice40_mac_array.sh SOURCE_DIR WORKDIR
set -uo pipefail
src=$1 work=$2
mkdir -p "$work"
models=$(dirname "$(readlink -f "$(command -v yosys)")")/../share/yosys/ice40  # Yosys's cell models
tb=$src/tests/fpga/mac_array/tb_mac_array.v
failures=0
for n in 3 4 8; do
  if ! iverilog -g2005 -Ptb_mac_array.N=$n -o "$work/rtl_n$n" "$tb" "$src/rtl/tpu_mac_array.v" \
         "$src/rtl/tpu_sum_tree.v" || ! vvp -n "$work/rtl_n$n"; then
    echo "FAIL: the plain RTL at N = $n"; failures=$((failures + 1))
  fi
done
# (not synth_ice40 -dsp: Yosys 0.23 then remaps instantiated SB_MAC16s into other modes)
# FreeDsp = 1 (the lite core's): the last block's two products from tables, seven SB_MAC16.
for free in 0 1; do
  want=$((8 - free))
  yosys -q -l "$work/synth$free.log" -p "read_verilog -DTPU_ICE40_DSP $src/rtl/tpu_mac_array.v $src/rtl/tpu_sum_tree.v $src/rtl/tpu_nibble_mul.v;
    chparam -set FreeDsp $free tpu_mac_array;
    synth_ice40 -top tpu_mac_array; tee -q -o $work/stat$free.txt stat; write_verilog -noattr $work/array_ice40_$free.v" > /dev/null ||
    { echo "FAIL: synthesis, FreeDsp = $free (see $work/synth$free.log)"; exit 1; }
  macs=$(awk '$1 == "SB_MAC16" {print $2}' "$work/stat$free.txt")
  brams=$(awk '$1 == "SB_RAM40_4K" {print $2}' "$work/stat$free.txt")
  echo "ice40 mac array, FreeDsp = $free: ${macs:-0} SB_MAC16, ${brams:-0} SB_RAM40_4K, $(awk '$1 == "SB_LUT4" {print $2}' "$work/stat$free.txt") LUT4"
  [ "${macs:-0}" = "$want" ] || { echo "FAIL: ${macs:-0} SB_MAC16, not $want"; failures=$((failures + 1)); }
  [ "${brams:-0}" = "$((8 * free))" ] || { echo "FAIL: ${brams:-0} SB_RAM40_4K, not $((8 * free)) (the tables)"; failures=$((failures + 1)); }
  if ! iverilog -g2012 -DNO_ICE40_DEFAULT_ASSIGNMENTS -o "$work/ice40_$free" "$tb" "$work/array_ice40_$free.v" \
         "$models/cells_sim.v" 2> "$work/iverilog$free.log" || ! vvp -n "$work/ice40_$free"; then
    echo "FAIL: the synthesized iCE40 array, FreeDsp = $free (see $work/iverilog$free.log)"; failures=$((failures + 1))
  fi
done
[ "$failures" -eq 0 ]
