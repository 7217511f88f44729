#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tpu_lite_requant in its iCE40 form (TPU_ICE40_DSP: the 16x16 product on an SB_MAC16;
# TPU_ICE40_CARRY: the magnitudes in carry cells, tpu_magnitude):
# synthesized with synth_ice40, one SB_MAC16 and no multiplier in logic, and the netlist
# simulated with Yosys's own models of the iCE40 cells against the plain RTL on the same
# operands (lite_requant/tb_lite_requant.v).
# usage: test_ice40_requant.sh SOURCE_DIR WORKDIR
set -uo pipefail
src=$1 work=$2
mkdir -p "$work"
models=$(dirname "$(readlink -f "$(command -v yosys)")")/../share/yosys/ice40  # Yosys's cell models
# (not synth_ice40 -dsp: Yosys 0.23 then remaps instantiated SB_MAC16s)
rtl="$src/rtl/tpu_lite_requant.v $src/rtl/tpu_magnitude.v"
yosys -q -l "$work/synth.log" -p "read_verilog -DTPU_ICE40_DSP -DTPU_ICE40_CARRY $rtl;
  synth_ice40 -top tpu_lite_requant; rename tpu_lite_requant tpu_lite_requant_ice40;
  tee -q -o $work/stat.txt stat; write_verilog -noattr $work/requant_ice40.v" > /dev/null ||
  { echo "FAIL: synthesis (see $work/synth.log)"; exit 1; }
macs=$(awk '$1 == "SB_MAC16" {print $2}' "$work/stat.txt")
echo "ice40 lite requant: ${macs:-0} SB_MAC16, $(awk '$1 == "SB_LUT4" {print $2}' "$work/stat.txt") LUT4"
[ "${macs:-0}" = 1 ] || { echo "FAIL: ${macs:-0} SB_MAC16, not 1"; exit 1; }
iverilog -g2012 -DNO_ICE40_DEFAULT_ASSIGNMENTS -o "$work/tb" "$src/tests/fpga/lite_requant/tb_lite_requant.v" \
  $rtl "$work/requant_ice40.v" "$models/cells_sim.v" \
  2> "$work/iverilog.log" || { echo "FAIL: iverilog (see $work/iverilog.log)"; exit 1; }
vvp -n "$work/tb" || { echo "FAIL: the synthesized requantization differs from the RTL"; exit 1; }
