// SPDX-License-Identifier: Apache-2.0
// The accumulators: Rows rows of N int32 lanes. Each matrix-unit result row either
// overwrites its accumulator row or is added to it with int32 saturation. The add is
// a read-modify-write over two cycles; a result for the row written in the cycle
// before is forwarded, so the same row may be accumulated on consecutive cycles.
// A second, synchronous read port serves the activation unit.
`default_nettype none

module tpu_accumulators #(
    parameter integer ArraySize = 4,   // N: lanes per row
    parameter integer Rows      = 512  // rows (a power of two)
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,
    // results from the matrix unit, one row per cycle
    input  wire                    in_valid_i,
    input  wire                    in_accumulate_i,
    input  wire [AddrBits-1:0]     in_addr_i,
    input  wire [ArraySize*32-1:0] in_data_i,
    // activation read port: data the cycle after rd_en_i
    input  wire                    rd_en_i,
    input  wire [AddrBits-1:0]     rd_addr_i,
    output wire [ArraySize*32-1:0] rd_data_o
);
  localparam integer N        = ArraySize;
  localparam integer AddrBits = $clog2(Rows);

  reg [N*32-1:0] mem_q [0:Rows-1];
  reg [N*32-1:0] old_q, rd_data_q;

  // Stage 1: the incoming row waits one cycle while its old value is read.
  reg                s1_valid_q, s1_accumulate_q;
  reg [AddrBits-1:0] s1_addr_q;
  reg [N*32-1:0]     s1_data_q;
  // Stage 2 (the write) of the previous row, for forwarding.
  reg                s2_valid_q;
  reg [AddrBits-1:0] s2_addr_q;
  reg [N*32-1:0]     s2_data_q;

  // The value stage 1 adds to: the row being written this cycle wins over memory.
  wire           s1_hit    = s2_valid_q && (s2_addr_q == s1_addr_q);
  wire [N*32-1:0] s1_old   = s1_hit ? s2_data_q : old_q;
  wire [N*32-1:0] s1_sum;
  genvar i;
  generate
    for (i = 0; i < N; i = i + 1) begin : g_lane
      tpu_sat_add32 u_add (
          .a_i  (s1_old[32*i +: 32]),
          .b_i  (s1_data_q[32*i +: 32]),
          .sum_o(s1_sum[32*i +: 32]));
    end
  endgenerate
  wire [N*32-1:0] s1_result = s1_accumulate_q ? s1_sum : s1_data_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
      s2_valid_q <= 1'b0;
    end else begin
      s1_valid_q <= in_valid_i;
      s2_valid_q <= s1_valid_q;
    end
  end

  always @(posedge clk_i) begin
    old_q           <= mem_q[in_addr_i];
    s1_accumulate_q <= in_accumulate_i;
    s1_addr_q       <= in_addr_i;
    s1_data_q       <= in_data_i;
    s2_addr_q       <= s1_addr_q;
    s2_data_q       <= s1_result;
    if (s1_valid_q) mem_q[s1_addr_q] <= s1_result;
    if (rd_en_i) rd_data_q <= mem_q[rd_addr_i];
  end

  assign rd_data_o = rd_data_q;
endmodule

`default_nettype wire
