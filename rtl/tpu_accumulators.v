// SPDX-License-Identifier: Apache-2.0
// The accumulators: Rows rows of N int32 lanes. Each matrix-unit result row either
// overwrites its accumulator row or is added to it with int32 saturation. The add is a
// read-modify-write in which no cycle holds both a memory read and a 32-bit add: the
// old row is read as the result comes in, registered once more (the block RAM's output
// register) while the result waits in stage 1, added in stage 2 and written from a
// register in stage 3 (the memory's write data is then a flip-flop, not the adder's
// carry chain). The results of the second and third rows before are forwarded, so a
// row may be accumulated two cycles after the row it adds to; one cycle after, it may
// not (the matrix sequencer leaves a cycle between them): the add's operands are then
// chosen from registers, and no result loops back into its own cycle's add. A row is
// in memory at the end of the third cycle after it came in. A second, synchronous read
// port serves the activation unit.
//
// A read of the row written in the same cycle is undefined, as on block RAM without
// bypass logic (no_rw_check: the RAM's read data goes straight into a register, which
// the ECP5 flow moves into the RAM's output register, scripts/ecp5-pack-regs.py). No such
// value is used: the read-modify-write forwards the three rows before, and the activation
// port reads a row only after its writer has stored it (chaining) and before a younger
// writer may write it (WAR). Simulation returns a poison value for it instead, so that
// a use would show as a mismatch with the golden model.
// Scrubbing (scrub_i, tpu_scrub) writes zero rows through the same pipeline for Rows
// cycles, in place of results (none come then).
`default_nettype none

module tpu_accumulators #(
    parameter integer ArraySize = 4,   // N: lanes per row
    parameter integer Rows      = 512  // rows (a power of two)
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,
    input  wire                    scrub_i,       // start clearing every row
    output wire                    scrubbing_o,
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

  (* no_rw_check *) reg [N*32-1:0] mem_q [0:Rows-1];
  reg [N*32-1:0] old_q, old2_q, rd_data_q;  // (old2_q: the memory's output register)

  // Stage 1: the incoming row waits while its old value is read.
  reg                s1_valid_q, s1_accumulate_q;
  reg [AddrBits-1:0] s1_addr_q;
  reg [N*32-1:0]     s1_data_q;
  // Stage 2: the old value registered; the sum is formed and written.
  reg                s2_valid_q;
  reg [AddrBits-1:0] s2_addr_q;
  reg [N*32-1:0]     s2_data_q;
  // The value stage 2 adds to: the newest result for its row wins over memory (which
  // does not have the last two yet), and a row that overwrites adds zero. Only memory's
  // row is chosen in stage 2 itself; the results two and three rows before, and zero, a
  // stage earlier (s2_fwd_q).
  reg                s2_usemem_q;  // accumulates onto memory's row (no result for it in flight)
  reg [N*32-1:0]     s2_fwd_q;     // else: the result two or three rows before, or zero
  // Stage 3: the result, written to memory. It and the row before it (in memory, or
  // being written) are forwarded.
  reg                s3_valid_q;
  reg [AddrBits-1:0] s3_addr_q;
  reg [N*32-1:0]     s3_data_q, s4_data_q;

  // The incoming row: a result, or the scrub's zero row (an overwrite).
  wire [AddrBits-1:0] scrub_row;
  tpu_scrub #(.Rows(Rows)) u_scrub (
      .clk_i,
      .rst_ni,
      .start_i(scrub_i),
      .active_o(scrubbing_o),
      .row_o(scrub_row));
  wire                in_valid      = scrubbing_o || in_valid_i;
  wire                in_accumulate = !scrubbing_o && in_accumulate_i;
  wire [AddrBits-1:0] in_addr       = scrubbing_o ? scrub_row : in_addr_i;
  wire [N*32-1:0]     in_data       = scrubbing_o ? {N*32{1'b0}} : in_data_i;

  wire [N*32-1:0] s2_old = s2_usemem_q ? old2_q : s2_fwd_q;
  wire [N*32-1:0] s2_sum;
  genvar i;
  generate
    for (i = 0; i < N; i = i + 1) begin : g_lane
      tpu_sat_add32 u_add (
          .a_i  (s2_old[32*i +: 32]),
          .b_i  (s2_data_q[32*i +: 32]),
          .sum_o(s2_sum[32*i +: 32]));
    end
  endgenerate
  wire [N*32-1:0] s2_result = s2_sum;   // (an overwrite adds zero: no overflow)

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
      s2_valid_q <= 1'b0;
      s3_valid_q <= 1'b0;
    end else begin
      s1_valid_q <= in_valid;
      s2_valid_q <= s1_valid_q;
      s3_valid_q <= s2_valid_q;
    end
  end

`ifdef SYNTHESIS
  wire [N*32-1:0] old_seen = old_q, rd_seen = rd_data_q;
`else
  localparam [31:0] Poison = 32'h5EA5_0BAD;
  reg old_clash_q, rd_clash_q;
  always @(posedge clk_i) begin
    old_clash_q <= s3_valid_q && s3_addr_q == in_addr;
    if (rd_en_i) rd_clash_q <= s3_valid_q && s3_addr_q == rd_addr_i;
  end
  wire [N*32-1:0] old_seen = old_clash_q ? {N{Poison}} : old_q;
  wire [N*32-1:0] rd_seen  = rd_clash_q ? {N{Poison}} : rd_data_q;
`endif

  // Stage 1's row against the results 1, 2 and 3 rows before it: stage 2's, stage 3's
  // and the one stage 3 wrote last (next cycle stage 3's, stage 4's and the one in memory).
  // Compared as the row comes in, against the rows a stage ahead of those, into
  // registers: the forward's choice over all N lanes starts at flip-flops.
  reg  s1_hit3, s1_hit4, s1_hit5;
  always @(posedge clk_i) begin
    s1_hit3 <= s1_valid_q && s1_addr_q == in_addr;
    s1_hit4 <= s2_valid_q && s2_addr_q == in_addr;
    s1_hit5 <= s3_valid_q && s3_addr_q == in_addr;
  end
  // An accumulate onto the row one before it, which the add cannot see: poison in
  // simulation, so that a use shows as a mismatch with the golden model.
`ifdef SYNTHESIS
  wire [N*32-1:0] fwd_none = {N*32{1'b0}};
`else
  wire [N*32-1:0] fwd_none = {N{Poison}};
`endif

  always @(posedge clk_i) begin
    old_q           <= mem_q[in_addr];
    old2_q          <= old_seen;
    s1_accumulate_q <= in_accumulate;
    s1_addr_q       <= in_addr;
    s1_data_q       <= in_data;
    s2_addr_q       <= s1_addr_q;
    s2_data_q       <= s1_data_q;
    s2_usemem_q     <= s1_accumulate_q && !s1_hit3 && !s1_hit4 && !s1_hit5;
    s2_fwd_q        <= !s1_accumulate_q ? {N*32{1'b0}} : s1_hit3 ? fwd_none :
                       s1_hit4 ? s3_data_q : s1_hit5 ? s4_data_q : {N*32{1'b0}};
    s3_addr_q       <= s2_addr_q;
    s3_data_q       <= s2_result;
    s4_data_q       <= s3_data_q;
    if (s3_valid_q) mem_q[s3_addr_q] <= s3_data_q;
    if (rd_en_i) rd_data_q <= mem_q[rd_addr_i];
  end

  assign rd_data_o = rd_seen;
endmodule

`default_nettype wire
