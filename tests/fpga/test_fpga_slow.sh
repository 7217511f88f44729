#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/fpga-slow.py on hand-made nextpnr reports in both forms it reads (nextpnr-ecp5
# 0.11: an endpoint's arrival as [min, max]; Debian's nextpnr-ice40 0.4: one number):
# the endpoints beyond the period, grouped by register with the board's hierarchy and
# the packer's suffixes dropped, worst first; and the line for a report that meets it.
# usage: test_fpga_slow.sh SOURCE_DIR WORK_DIR
set -uo pipefail
src=$1 work=$2
mkdir -p "$work"
cat > "$work/report.json" <<'JSON'
{"detailed_net_timings": [
  {"net": "a", "endpoints": [
    {"cell": "u_soc.g_full.u_core.u_dma_out.left_q_TRELLIS_FF_Q_3", "port": "DI", "delay": [1.0, 11.0], "budget": 0},
    {"cell": "u_soc.g_full.u_core.u_dma_out.left_q_TRELLIS_FF_Q_4", "port": "DI", "delay": [1.0, 10.5], "budget": 0},
    {"cell": "u_soc.g_full.u_core.u_csr.rdata_q_TRELLIS_FF_Q", "port": "DI", "delay": [1.0, 9.0], "budget": 0}]},
  {"net": "b", "endpoints": [
    {"cell": "u_soc.g_small.g_lite.u_core.u_front.u_gather.rq_row_q_SB_DFFE_Q_2_DFFLC", "port": "I0", "delay": 12.5, "budget": 0},
    {"cell": "u_soc.g_small.g_lite.u_core.u_fetch.held_q_SB_DFF_Q_DFFLC", "port": "I1", "delay": 10.0, "budget": 0}]}]}
JSON
expect="3 endpoints in 2 registers miss 100.0 MHz (10.00 ns); worst first:
   12.50 ns   80.0 MHz      1  u_front.u_gather.rq_row_q
   11.00 ns   90.9 MHz      2  u_dma_out.left_q"
got=$(python3 "$src/scripts/fpga-slow.py" "$work/report.json" 100) || { echo "FAIL: fpga-slow.py failed"; exit 1; }
[ "$got" = "$expect" ] || { printf 'FAIL: expected\n%s\ngot\n%s\n' "$expect" "$got"; exit 1; }
got=$(python3 "$src/scripts/fpga-slow.py" "$work/report.json" 75) || { echo "FAIL: fpga-slow.py failed"; exit 1; }
[ "$got" = "every endpoint meets 75.0 MHz (13.33 ns)" ] || { printf 'FAIL: at 75 MHz got\n%s\n' "$got"; exit 1; }
echo "fpga_slow: both report forms grouped and ranked as expected"
