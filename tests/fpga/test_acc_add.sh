#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tpu_lite_acc_add (the lite core's accumulator write lane) proven equal, for every input,
# to its definition: y, or tpu_sat_add32 of the accumulator word and y sign-extended
# (Yosys: a miter of the two and a SAT proof), at the sums' widths of N = 4, 8 and 16.
# usage: test_acc_add.sh SOURCE_DIR WORKDIR
set -uo pipefail
src=$1 work=$2
. "$(dirname "$0")/prove_equal.sh"
mkdir -p "$work"
cat > "$work/acc_add_ref.v" <<'REF'
module acc_add_ref #(parameter integer SumBits = 18) (
    input wire [31:0] acc_i, input wire [SumBits-1:0] y_i, input wire add_i, output wire [31:0] sum_o);
  wire [31:0] y = {{(32-SumBits){y_i[SumBits-1]}}, y_i};
  wire [31:0] added;
  tpu_sat_add32 u_add (.a_i(acc_i), .b_i(y), .sum_o(added));
  assign sum_o = add_i ? added : y;
endmodule
REF
failures=0
for bits in 18 19 20; do
  reads="read_verilog $src/rtl/tpu_lite_acc_add.v $src/rtl/tpu_sat_add32.v $work/acc_add_ref.v"
  if ! prove_equal "$work/sat$bits.log" "$reads; chparam -set SumBits $bits tpu_lite_acc_add acc_add_ref" \
      acc_add_ref tpu_lite_acc_add; then
    echo "FAIL: tpu_lite_acc_add differs from its definition at SumBits = $bits (see $work/sat$bits.log)"
    failures=$((failures + 1))
  else
    echo "tpu_lite_acc_add = y or sat(acc + y) at SumBits = $bits: proven"
  fi
done
[ "$failures" -eq 0 ]
