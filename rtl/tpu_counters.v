// SPDX-License-Identifier: Apache-2.0
// The performance counters (docs/isa.md, tpu_isa.vh TPU_CNT_*), for every core: 64 bits
// each, cleared when a run begins, counting while it runs; a failed run's instruction
// count replaced by the instructions before the fault. Each counter adds its event's
// step; the core says what the events are. The register block reads one through
// rd_*: here the value at once (tpu_counters_ram keeps them in block RAM and answers
// later).
`default_nettype none
`include "tpu_counter_ports.vh"

module tpu_counters #(
    parameter integer Counters   = 11,
    parameter integer StepBits   = 16,  // the widest step an event adds in a cycle
    // 1: the steps go through a register before the add (the add of 64 bits and the
    // event's own logic a cycle each; a run's last events land the cycle after it ends)
    parameter integer Registered = 1,
    parameter [Counters-1:0] Zero = {Counters{1'b0}}  // counters a core never moves (no logic)
) (
    `TPU_COUNTER_PORTS
);
`include "tpu_isa.vh"
  initial begin
    if (Counters != TPU_COUNTERS) begin
      $display("tpu_counters: Counters must be TPU_COUNTERS (tpu_isa.vh)");
      $finish;
    end
  end

  wire [Counters*64-1:0] counters;
  genvar c;
  generate
    for (c = 0; c < Counters; c = c + 1) begin : g_count
      if (Zero[c]) begin : g_zero
        assign counters[64*c +: 64] = 64'd0;
        wire unused = ^{step_i[StepBits*c +: StepBits]};
      end else begin : g_live
        wire [StepBits-1:0] step = counting_i ? step_i[StepBits*c +: StepBits] : {StepBits{1'b0}};
        wire [StepBits-1:0] add;
        if (Registered != 0) begin : g_reg
          reg [StepBits-1:0] step_q;
          always @(posedge clk_i) step_q <= rst_ni ? step : {StepBits{1'b0}};
          assign add = step_q;
        end else begin : g_direct
          assign add = step;
        end
        reg [63:0] count_q;
        always @(posedge clk_i) begin
          if (!rst_ni || clear_i) count_q <= 64'd0;
          else if (c == TPU_CNT_INSTRUCTIONS && load_i) count_q <= load_value_i;
          else count_q <= count_q + {{(64-StepBits){1'b0}}, add};
        end
        assign counters[64*c +: 64] = count_q;
      end
    end
  endgenerate

  // (the register block asks only for counters that exist)
  assign rd_valid_o = rd_i;
  assign rd_value_o = counters[64*rd_index_i +: 64];
endmodule

`default_nettype wire
