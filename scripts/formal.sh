#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Formal proofs of the RTL's `ifdef FORMAL` promises with Yosys and yosys-smtbmc (z3):
# a bounded model check from reset, then k-induction, for each task below.
# usage: formal.sh [WORKDIR]
set -uo pipefail
cd "$(dirname "$0")/.."
work=${1:-build/formal}
mkdir -p "$work"
depth=12
failures=0 proofs=0

# task name | module | parameters (name value ...)
tasks=(
  "weight_fifo_n4_d2|tpu_weight_fifo|ArraySize 4 DepthTiles 2"
  "weight_fifo_n4_d4|tpu_weight_fifo|ArraySize 4 DepthTiles 4"
  "weight_fifo_n8_d1|tpu_weight_fifo|ArraySize 8 DepthTiles 1"
)

for t in "${tasks[@]}"; do
  IFS='|' read -r name top params <<< "$t"
  chparam=""
  set -- $params
  while [ $# -gt 1 ]; do chparam="$chparam -set $1 $2"; shift 2; done
  smt="$work/$name.smt2"
  if ! yosys -q -l "$work/$name.yosys.log" -p "read_verilog -formal rtl/$top.v; chparam $chparam $top;
      prep -top $top; async2sync; dffunmap; write_smt2 -wires $smt" > /dev/null; then
    echo "formal: FAIL: $name (yosys, see $work/$name.yosys.log)"; failures=$((failures + 1)); continue
  fi
  for mode in bmc induction; do
    flags=(--presat -t "$depth"); [ "$mode" = induction ] && flags=(-i -t "$depth")
    proofs=$((proofs + 1))
    if yosys-smtbmc -s z3 "${flags[@]}" --dump-vcd "$work/$name.$mode.vcd" "$smt" > "$work/$name.$mode.log" 2>&1 &&
       grep -q "Status: PASSED" "$work/$name.$mode.log"; then
      echo "formal: $name $mode (depth $depth): PASSED"
    else
      echo "formal: FAIL: $name $mode: counterexample in $work/$name.$mode.vcd"
      grep -E "Assert failed|Status" "$work/$name.$mode.log" | sed 's/^/    /'
      failures=$((failures + 1))
    fi
  done
done
echo "formal: $((proofs - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
