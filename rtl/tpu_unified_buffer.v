// SPDX-License-Identifier: Apache-2.0
// The unified buffer: Rows rows of N int8 lanes in four banks (row mod 4), each a
// one-read, one-write memory with a synchronous read (one cycle), so each bank maps onto
// FPGA block RAM. Two read ports: A (matrix unit) always gets its row; B (activation
// parameters, DMA-out) gets its row in the same cycle when it is in another bank
// (b_ok_o). With four banks, two ports that stream consecutive rows collide at most once
// and then stay a bank apart, so B streams at a row per cycle beside A (with two banks it
// got every other cycle). Read data is valid two cycles after the read: each bank's read
// goes through a register of its own (on the ECP5 the block RAM's output register, which
// scripts/ecp5-pack-regs.py fills: without it the RAM's read data arrives late in the
// cycle, and the bank select and every reader sit behind it). Two write ports,
// one per bank and cycle: port 1 (activation results) always writes; port 2 (rhm rows)
// writes in the same cycle when its row is in another bank, which the writer checks
// (port 1 wins a bank both ask for). A read of the row being written in the same cycle
// is undefined, as on block RAM without bypass logic (no_rw_check), and simulation
// returns a poison value (0xA5 bytes) for it: the hazard rules never read a row in the
// cycle it is written (docs/architecture.md), and a use would show as a mismatch.
// Scrubbing (scrub_i, tpu_scrub) takes write port 1 for Rows cycles and writes zeros.
`default_nettype none

module tpu_unified_buffer #(
    parameter integer ArraySize = 4,    // N: bytes per row
    parameter integer Rows      = 1024  // rows (a power of two, at least 4)
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    input  wire                   scrub_i,     // start clearing every row (port 1 is taken)
    output wire                   scrubbing_o,
    input  wire                   a_en_i,
    input  wire [AddrBits-1:0]    a_addr_i,
    output wire [ArraySize*8-1:0] a_data_o,    // valid two cycles after a_en_i
    input  wire                   b_en_i,
    input  wire [AddrBits-1:0]    b_addr_i,
    output wire                   b_ok_o,      // port B is served this cycle
    output wire [ArraySize*8-1:0] b_data_o,    // valid two cycles after b_en_i && b_ok_o
    input  wire                   wr_en_i,
    input  wire [AddrBits-1:0]    wr_addr_i,
    input  wire [ArraySize*8-1:0] wr_data_i,
    input  wire                   w2_en_i,
    input  wire [AddrBits-1:0]    w2_addr_i,
    input  wire [ArraySize*8-1:0] w2_data_i
);
  localparam integer AddrBits = $clog2(Rows);
  localparam integer W        = ArraySize * 8;

  assign b_ok_o = !a_en_i || a_addr_i[1:0] != b_addr_i[1:0];

  // Write port 1: the activation unit's rows, or the scrub's zeros.
  wire [AddrBits-1:0] scrub_row;
  tpu_scrub #(.Rows(Rows)) u_scrub (
      .clk_i,
      .rst_ni,
      .start_i(scrub_i),
      .active_o(scrubbing_o),
      .row_o(scrub_row));
  wire                w1_en   = scrubbing_o || wr_en_i;
  wire [AddrBits-1:0] w1_addr = scrubbing_o ? scrub_row : wr_addr_i;
  wire [W-1:0]        w1_data = scrubbing_o ? {W{1'b0}} : wr_data_i;

  wire [4*W-1:0] bank_data;
  genvar k;
  generate
    for (k = 0; k < 4; k = k + 1) begin : g_bank
      (* no_rw_check *) reg [W-1:0] mem_q [0:Rows/4-1];
      reg [W-1:0] rd_q, out_q;
      wire a_here  = a_en_i && a_addr_i[1:0] == k;
      wire b_here  = b_en_i && b_ok_o && b_addr_i[1:0] == k;
      wire w1_here = w1_en && w1_addr[1:0] == k;
      wire w2_here = w2_en_i && w2_addr_i[1:0] == k && !w1_here;
      wire [AddrBits-3:0] rd_row = a_here ? a_addr_i[AddrBits-1:2] : b_addr_i[AddrBits-1:2];
      wire [AddrBits-3:0] wr_row = w1_here ? w1_addr[AddrBits-1:2] : w2_addr_i[AddrBits-1:2];
      always @(posedge clk_i) begin
        if (w1_here || w2_here) mem_q[wr_row] <= w1_here ? w1_data : w2_data_i;
        if (a_here || b_here) rd_q <= mem_q[rd_row];
        out_q <= rd_q;
      end
`ifdef SYNTHESIS
      assign bank_data[W*k +: W] = out_q;
`else
      reg clash_q, clash2_q;
      always @(posedge clk_i) begin
        if (a_here || b_here) clash_q <= (w1_here || w2_here) && rd_row == wr_row;
        clash2_q <= clash_q;
      end
      assign bank_data[W*k +: W] = clash2_q ? {ArraySize{8'hA5}} : out_q;
`endif
    end
  endgenerate

  // Which bank each port read two cycles ago (the banks keep their output register's
  // data until their next read).
  reg [1:0] a_bank_q, b_bank_q, a_bank2_q, b_bank2_q;
  always @(posedge clk_i) begin
    if (a_en_i) a_bank_q <= a_addr_i[1:0];
    if (b_en_i && b_ok_o) b_bank_q <= b_addr_i[1:0];
    a_bank2_q <= a_bank_q;
    b_bank2_q <= b_bank_q;
  end
  assign a_data_o = bank_data[W*a_bank2_q +: W];
  assign b_data_o = bank_data[W*b_bank2_q +: W];
endmodule

`default_nettype wire
