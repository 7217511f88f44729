#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The FPGA flow in CI: the ULX3S board top at N = 4 through Yosys synth_ecp5, nextpnr-ecp5
# and ecppack (scripts/fpga.sh), so a change that breaks synthesis, placement or timing
# at the board clock cannot land. Checks the report: a bitstream, the multipliers in DSP
# blocks, block RAM for the memories, Fmax at or above the core clock.
# usage: test_fpga_flow.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$1 build=$2
cd "$src"
scripts/deps.sh fpga "$build" || exit 1
out=$build/fpga-ci/ulx3s-n4
YOWASP=$build/yowasp/bin scripts/fpga.sh ulx3s "$out" configs/ulx3s_n4.yaml || exit 1
report=$out/report.txt
failures=0
check() { if ! eval "$2"; then echo "FAIL: $1"; failures=$((failures + 1)); fi; }
value() { sed -n "s/^$1:[[:space:]]*\([0-9.]*\).*/\1/p" "$report"; }
check "bitstream written" '[ -s "$out/tpu_ulx3s.bit" ]'
check "multipliers in DSP blocks (16 PEs + requantization)" '[ "$(value DSP)" -ge 16 ]'
check "memories in block RAM" '[ "$(value BRAM)" -ge 8 ]'
check "Fmax >= core clock" "awk -v f=\"$(value Fmax)\" 'BEGIN {exit !(f >= 15.0)}'"
echo "fpga flow: $failures failed"
[ "$failures" -eq 0 ]
