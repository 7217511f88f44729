#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/fpga.sh refuses a board configuration it cannot build, before synthesis, with
# an error naming the file and the key: the PLL's clock steps, and the multiplier trades
# (board.serial_act, board.logic_rows), which the C++ parser checks for the other tools
# but fpga.sh reads itself.
# usage: test_fpga_config_errors.sh SOURCE_DIR WORK_DIR
set -uo pipefail
src=$1 work=$2
mkdir -p "$work"
failures=0
expect() {  # expect BOARD YAML-BODY MESSAGE
  local config=$work/bad.yaml
  printf '%s\n' "$2" > "$config"
  local err rc
  err=$("$src/scripts/fpga.sh" "$1" "$work/out" "$config" 2>&1 > /dev/null); rc=$?
  if [ "$rc" -ne 2 ] || ! grep -qF -- "$config: $3" <<< "$err"; then
    echo "FAIL: $1 with '$2': expected exit 2 and '$3', got exit $rc: $err"
    failures=$((failures + 1))
  fi
}
n16=$'array_size: 16\nboard:\n  clock_mhz: 60'
expect ulx3s "$n16"$'\n  logic_rows: 17' "board.logic_rows is 17, more than the array's 16 rows"
expect ulx3s "$n16"$'\n  serial_act: 2' "board.serial_act must be 0 or 1 (got 2)"
expect ulx3s "$n16"$'\n  serial_act: yes' "board.serial_act must be a number"
expect ulx3s $'array_size: 4\nboard:\n  clock_mhz: 42' "board.clock_mhz must be a multiple of 5 from 5 to 100"
expect icebreaker $'array_size: 4\nboard:\n  logic_rows: 2' "board.logic_rows is for the ULX3S's full core"
# nothing was built
[ ! -e "$work/out/report.txt" ] || { echo "FAIL: a report was written"; failures=$((failures + 1)); }
echo "fpga configuration errors: $failures failed"
[ "$failures" -eq 0 ]
