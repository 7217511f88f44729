// SPDX-License-Identifier: Apache-2.0
// A register slice for a valid/ready stream: out_valid_o, out_data_o and in_ready_o
// all come from registers, and a beat can pass every cycle (a skid buffer: a beat that
// arrives while the output is stalled parks in a second register). It cuts a stream's
// combinational paths in both directions at the cost of a cycle of latency, e.g. a
// block RAM's slow output on its way into logic (docs/fpga.md).
`default_nettype none

module tpu_reg_slice #(
    parameter integer Width = 8  // bits per beat
) (
    input  wire             clk_i,
    input  wire             rst_ni,
    input  wire             in_valid_i,
    output wire             in_ready_o,
    input  wire [Width-1:0] in_data_i,
    output wire             out_valid_o,
    input  wire             out_ready_i,
    output wire [Width-1:0] out_data_o
);
  reg             out_valid_q, skid_valid_q;
  reg [Width-1:0] out_q, skid_q;
  wire            in_fire  = in_valid_i && !skid_valid_q;
  wire            out_free = !out_valid_q || out_ready_i;   // the output register can load

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_q  <= 1'b0;
      skid_valid_q <= 1'b0;
    end else if (out_free) begin
      out_valid_q  <= skid_valid_q || in_fire;
      skid_valid_q <= 1'b0;
    end else if (in_fire) begin
      skid_valid_q <= 1'b1;
    end
  end
  always @(posedge clk_i) begin
    if (out_free) out_q <= skid_valid_q ? skid_q : in_data_i;
    // the skid loads whenever it is empty (it only counts once skid_valid_q is set), so
    // that its enable is a register, not the consumer's late ready
    if (!skid_valid_q) skid_q <= in_data_i;
  end

  assign in_ready_o  = !skid_valid_q;
  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_q;

`ifdef FORMAL
  // Proven by `make formal`: the output holds while stalled, and beats leave in the
  // order they came, none lost or doubled (an arbitrary beat is followed through).
  `include "tpu_formal.vh"
  `TPU_F_PREAMBLE
  always @(*) if (f_past_valid && rst_ni && skid_valid_q) assert (out_valid_q);
  `TPU_F_HOLD(u_f_out, Width, 0, 1'b0, out_valid_o, out_ready_i, out_data_o)
  // beats in and out counted: at most two inside, and the count matches the registers
  reg [1:0] f_inside = 2'd0;
  always @(posedge clk_i)
    if (!rst_ni) f_inside <= 2'd0;
    else f_inside <= f_inside + {1'b0, in_valid_i && in_ready_o} - {1'b0, out_valid_o && out_ready_i};
  always @(*) if (f_past_valid && rst_ni) assert (f_inside == {1'b0, out_valid_q} + {1'b0, skid_valid_q});
  // order: an arbitrary beat f_a that enters an empty slice leaves first, and f_b,
  // entering right after it, leaves next
  (* anyconst *) reg [Width-1:0] f_a, f_b;
  reg [1:0] f_seen = 2'd0;   // 1: f_a on the output; 2: and f_b in the skid; 3: f_b on the output
  wire f_in = in_valid_i && in_ready_o, f_out = out_valid_o && out_ready_i;
  always @(posedge clk_i) begin
    if (!rst_ni) f_seen <= 2'd0;
    else case (f_seen)
      2'd0: if (f_in && in_data_i == f_a && !out_valid_q) f_seen <= 2'd1;
      2'd1: if (f_in && in_data_i == f_b) f_seen <= f_out ? 2'd3 : 2'd2;
            else if (f_out) f_seen <= 2'd0;
      2'd2: if (f_out) f_seen <= 2'd3;
      2'd3: if (f_out) f_seen <= 2'd0;
    endcase
  end
  always @(*) begin
    if (f_past_valid && rst_ni && f_seen[1] == 1'b0 && f_seen[0]) assert (out_valid_q && out_q == f_a);
    if (f_past_valid && rst_ni && f_seen == 2'd2) assert (out_valid_q && out_q == f_a && skid_valid_q && skid_q == f_b);
    if (f_past_valid && rst_ni && f_seen == 2'd3) assert (out_valid_q && out_q == f_b);
  end
`endif
endmodule

`default_nettype wire
