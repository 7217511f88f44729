// SPDX-License-Identifier: Apache-2.0
// A small synchronous FIFO with valid/ready on both sides (registers, not RAM): the
// instruction buffer and the per-unit instruction queues. Output data comes straight
// from the head slot, so it holds while valid && !ready.
`default_nettype none

module tpu_fifo #(
    parameter integer Width = 8,  // bits per entry
    parameter integer Depth = 4,  // entries, a power of two >= 2
    // 1: the head comes from a register of its own, loaded as the head leaves (from the
    // entry behind it, or the input), so that a consumer's logic on the head data starts
    // at a flip-flop, not at the entries' multiplexer (Width more flip-flops)
    parameter integer OutReg = 0
) (
    input  wire             clk_i,
    input  wire             rst_ni,
    input  wire             clear_i,     // drop every entry (synchronous)
    input  wire             in_valid_i,
    output wire             in_ready_o,
    input  wire [Width-1:0] in_data_i,
    output wire             out_valid_o,
    input  wire             out_ready_i,
    output wire [Width-1:0] out_data_o,
    output wire [PtrBits:0] count_o
);
  localparam integer PtrBits = $clog2(Depth);

  reg [Width-1:0]   mem_q [0:Depth-1];
  reg [PtrBits-1:0] wr_q, rd_q;
  reg [PtrBits:0]   count_q;
  // Full and non-empty are registers of their own, so that in_ready_o, out_valid_o and
  // the entries' write enables are flip-flops, not a subtraction and a comparison.
  reg               full_q, nonempty_q;
  // (the updates below run only while clear_i is low, so push leaves it out: a flush
  // reaches the pointers through their reset term, not through push's logic too)
  wire              push  = in_valid_i && !full_q;
  wire              pop   = out_valid_o && out_ready_i;
  wire [PtrBits-1:0] wr_next = wr_q + 1'b1, rd_next = rd_q + 1'b1;
  wire [PtrBits:0]   count_up = count_q + 1'b1, count_down = count_q - 1'b1;

  always @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      wr_q       <= {PtrBits{1'b0}};
      rd_q       <= {PtrBits{1'b0}};
      count_q    <= {(PtrBits + 1){1'b0}};
      full_q     <= 1'b0;
      nonempty_q <= 1'b0;
    end else begin
      // (the sums come from registers only; push and pop just pick one)
      if (push) wr_q <= wr_next;
      if (pop)  rd_q <= rd_next;
      if (push != pop) count_q <= push ? count_up : count_down;
      // (a full FIFO takes nothing, so only a push without a pop fills it)
      full_q     <= (full_q && !pop) || (push && !pop && count_q == Depth[PtrBits:0] - 1'b1);
      nonempty_q <= push || (nonempty_q && !(pop && count_q == {{PtrBits{1'b0}}, 1'b1}));
    end
  end
  // The free entry at wr_q takes the input whether or not it is pushed: nothing reads it
  // before the push that makes it valid, and the write enable then depends on full_q only.
  always @(posedge clk_i) if (!full_q) mem_q[wr_q] <= in_data_i;

  assign in_ready_o  = !full_q && !clear_i;
  assign out_valid_o = nonempty_q;
  generate
    if (OutReg != 0) begin : g_out_reg
      reg [Width-1:0] head_q;
      always @(posedge clk_i) begin
        if (pop && count_q != {{PtrBits{1'b0}}, 1'b1}) head_q <= mem_q[rd_next];   // (2 or more)
        else if (pop || !nonempty_q)                    head_q <= in_data_i;       // (0 or 1 left)
      end
      assign out_data_o = head_q;
    end else begin : g_out_mem
      assign out_data_o = mem_q[rd_q];
    end
  endgenerate
  assign count_o     = count_q;

`ifdef FORMAL
  // Proven by `make formal`: never more than Depth entries; a stalled output keeps its
  // data; entries leave in the order they came.
  `include "tpu_formal.vh"
  `TPU_F_PREAMBLE
  wire [PtrBits:0] f_span = {1'b0, wr_q - rd_q};   // entries by the pointers
  always @(*) if (f_past_valid && rst_ni) begin
    assert (count_q <= Depth[PtrBits:0]);
    assert (full_q == (count_q == Depth[PtrBits:0]));
    assert (nonempty_q == (count_q != {(PtrBits + 1){1'b0}}));
    assert (f_span == (full_q ? {(PtrBits + 1){1'b0}} : count_q));
    if (nonempty_q) assert (out_data_o == mem_q[rd_q]);   // (OutReg: the head register too)
  end
  `TPU_F_HOLD(u_f_out, Width, 0, clear_i, out_valid_o, out_ready_i, out_data_o)
  always @(posedge clk_i) begin
    if (f_run && !$past(clear_i) && $past(count_q) == Depth[PtrBits:0]) assert (wr_q == $past(wr_q));
  end
`endif
endmodule

`default_nettype wire
