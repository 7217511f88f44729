#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The FPGA flow in CI, so that a change that breaks synthesis, placement or timing at the
# board clock cannot land (scripts/fpga.sh fails on any of them):
#   icebreaker  the iCEBreaker top (small core, N = 4): Yosys synth_ice40, nextpnr-ice40, icepack
#   ulx3s       the ULX3S top at N = 4: Yosys synth_ecp5, nextpnr-ecp5 and ecppack (YoWASP)
# Checks the report: a bitstream, the multipliers in DSP blocks, block RAM for the
# memories (and SPRAM for the iCEBreaker's device memory), Fmax at or above the core clock.
# usage: test_fpga_flow.sh SOURCE_DIR BUILD_DIR BOARD
set -uo pipefail
src=$1 build=$2 board=$3
cd "$src"
scripts/deps.sh fpga "$build" || exit 1
out=$build/fpga-ci/$board
case "$board" in
  icebreaker) config=configs/icebreaker.yaml bitstream=tpu_icebreaker.bin dsps=1 brams=20 ;;
  ulx3s) config=configs/ulx3s_n4.yaml bitstream=tpu_ulx3s.bit dsps=16 brams=8 ;;
  *) echo "test_fpga_flow: unknown board '$board'" >&2; exit 2 ;;
esac
# the core clock the configuration asks for (board: clock_mhz)
clock=$(sed -n "s/^[[:space:]]\{1,\}clock_mhz:[[:space:]]*\([0-9]*\).*/\1/p" "$config")
YOWASP=$build/yowasp/bin scripts/fpga.sh "$board" "$out" "$config" || exit 1
report=$out/report.txt
failures=0
check() { if ! eval "$2"; then echo "FAIL: $1"; failures=$((failures + 1)); fi; }
value() { sed -n "s/^$1:[[:space:]]*\([0-9.]*\).*/\1/p" "$report"; }
check "bitstream written" '[ -s "$out/$bitstream" ]'
check "multipliers in DSP blocks (at least $dsps)" '[ "$(value DSP)" -ge "$dsps" ]'
check "memories in block RAM (at least $brams)" '[ "$(value BRAM)" -ge "$brams" ]'
[ "$board" = icebreaker ] && check "device memory in SPRAM" '[ "$(value SPRAM)" -ge 2 ]'
core=$(sed -n 's/.*(core clock: \([0-9.]*\) MHz.*/\1/p' "$report")
check "the core clock is the configuration's ($clock MHz; report: $core)" "awk -v a=\"$core\" -v b=\"$clock\" 'BEGIN {exit !(a == b)}'"
check "Fmax >= core clock" "awk -v f=\"$(value Fmax)\" -v c=\"$clock\" 'BEGIN {exit !(f >= c)}'"
echo "fpga flow ($board): $failures failed"
[ "$failures" -eq 0 ]
