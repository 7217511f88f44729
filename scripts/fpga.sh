#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# FPGA build of a board top: Yosys -> nextpnr -> bitstream, with a report of the
# resources used and the Fmax nextpnr achieved. Fails when the design does not fit or
# misses the board's clock.
# usage: fpga.sh BOARD OUTDIR [CONFIG.yaml]      (boards: icebreaker)
set -euo pipefail
cd "$(dirname "$0")/.."
board=$1 out=$2 config=${3:-}

case "$board" in
  icebreaker)
    family=ice40 device="--up5k --package sg48" pcf=rtl/ice40/icebreaker.pcf top=tpu_icebreaker
    clock_mhz=12 config=${config:-configs/icebreaker.yaml}
    sources="rtl/tpu_*.v rtl/ice40/tpu_icebreaker.v rtl/ice40/tpu_ice40_spram.v" ;;
  *) echo "fpga: unknown board '$board' (known: icebreaker)" >&2; exit 2 ;;
esac

# The core's parameters from the configuration (flat `key: value` YAML).
param() { sed -n "s/^$1:[[:space:]]*\([0-9]*\).*/\1/p" "$config"; }
chparams="-set ArraySize $(param array_size) -set UbRows $(param ub_rows) -set AccRows $(param acc_rows)"
chparams+=" -set WfifoDepth $(param wfifo_depth) -set DmaWidth $(param dma_width) -set DramBytes $(param dram_bytes)"

mkdir -p "$out"
report=$out/report.txt
echo "fpga: $board ($family), $config: synthesis (Yosys synth_$family)"
yosys -q -l "$out/synth.log" -p "read_verilog -Irtl $sources; chparam $chparams $top;
  synth_$family -dsp -top $top -json $out/$top.json; tee -q -o $out/synth_stat.txt stat" > /dev/null

echo "fpga: $board: place and route (nextpnr-$family at $clock_mhz MHz)"
# shellcheck disable=SC2086
if ! nextpnr-$family $device --pcf "$pcf" --json "$out/$top.json" --asc "$out/$top.asc" \
    --freq "$clock_mhz" --report "$out/pnr_report.json" --seed 1 -l "$out/pnr.log" -q > /dev/null 2>&1; then
  echo "fpga: FAIL: nextpnr-$family did not place and route $top (see $out/pnr.log):" >&2
  grep -E "ERROR|Unable to place|device only has" "$out/pnr.log" | head -5 | sed 's/^/    /' >&2
  exit 1
fi
icepack "$out/$top.asc" "$out/$top.bin"

# The report: Yosys's cell counts, nextpnr's utilization and Fmax.
cells() { awk -v p="$1" '$1 ~ p {n += $2} END {print n + 0}' "$out/synth_stat.txt"; }
fmax=$(sed -n 's/.*"achieved": *\([0-9.]*\).*/\1/p' "$out/pnr_report.json" | sort -g | head -1)
util() { sed -n "/\"$1\"/,/}/p" "$out/pnr_report.json" | sed -n 's/.*"used": *\([0-9]*\).*/\1/p' | head -1; }
avail() { sed -n "/\"$1\"/,/}/p" "$out/pnr_report.json" | sed -n 's/.*"available": *\([0-9]*\).*/\1/p' | head -1; }
{
  echo "board: $board ($family UP5K)   top: $top   config: $config"
  echo "core: N=$(param array_size) ub_rows=$(param ub_rows) acc_rows=$(param acc_rows) dma_width=$(param dma_width) dram_bytes=$(param dram_bytes)"
  echo "LUT4:  $(cells SB_LUT4)"
  echo "FF:    $(cells 'SB_DFF')"
  echo "carry: $(cells SB_CARRY)"
  echo "logic cells: $(util ICESTORM_LC) of $(avail ICESTORM_LC)"
  echo "BRAM:  $(util ICESTORM_RAM) of $(avail ICESTORM_RAM)"
  echo "SPRAM: $(util ICESTORM_SPRAM) of $(avail ICESTORM_SPRAM)"
  echo "DSP:   $(util ICESTORM_DSP) of $(avail ICESTORM_DSP)"
  echo "Fmax:  $fmax MHz (clock: $clock_mhz MHz)"
  echo "bitstream: $out/$top.bin"
} > "$report"
cat "$report"
if awk -v f="$fmax" -v c="$clock_mhz" 'BEGIN {exit !(f < c)}'; then
  echo "fpga: FAIL: timing not met: Fmax $fmax MHz < $clock_mhz MHz" >&2
  exit 1
fi
echo "fpga: OK: $out/$top.bin meets $clock_mhz MHz"
