// SPDX-License-Identifier: Apache-2.0
// The matrix unit: input skew, the N x N systolic array, output deskew.
//
// One input row (N int8 lanes) may enter per cycle; its N int32 dot products leave
// together Latency = 2N+2 cycles later (docs/architecture.md, "Matrix unit timing"):
// the inputs (rows and weight writes alike) are registered twice first, so that a
// memory's read data reaches no multiplier in the same cycle or the next, and each PE
// registers its product.
// Inside, data is valid-only: the controller only issues rows it has room for.
//
// Weights: w_we_i writes row w_row_i of the shadow tile (W[k][n] for k = w_row_i,
// n = lane). A row entering with in_switch_i starts using the shadow tile. Contract
// (kept by the controller): a tile's rows are written on consecutive cycles in order
// 0..N-1; the write of row 0 starts at least N-1 cycles after the previous switch row
// entered, and the next switch row enters at least one cycle after row 0 was written.
`default_nettype none

module tpu_matrix_unit #(
    parameter integer ArraySize = 4,  // N: lanes per row, PEs per side
    parameter integer LogicRows = 0   // the array's last rows whose products are in logic (tpu_pe)
) (
    input  wire                          clk_i,
    input  wire                          rst_ni,
    input  wire                          in_valid_i,
    input  wire                          in_switch_i,
    input  wire [ArraySize*8-1:0]        in_data_i,
    input  wire                          w_we_i,
    input  wire [RowBits-1:0]            w_row_i,
    input  wire [ArraySize*8-1:0]        w_data_i,
    output wire                          out_valid_o,
    output wire [ArraySize*32-1:0]       out_data_o
);
  localparam integer N = ArraySize;
  localparam integer RowBits = (N > 1) ? $clog2(N) : 1;  // width of a row index

  // The port register: everything entering the unit waits a cycle here first, so that
  // the unified buffer's bank multiplexer ends at a register beside it, not at the first
  // PE's multiplier (on the ECP5 the input register below is copied into PE[0][0]'s
  // MULT18X18D: the N = 8 build's path from the block RAM there was 10.3 ns). All inputs
  // alike, so the contract above holds at the ports unchanged.
  reg               in_valid_p, in_switch_p, w_we_p;
  reg [RowBits-1:0] w_row_p;
  reg [N*8-1:0]     in_data_p, w_data_p;
  always @(posedge clk_i) begin
    in_valid_p  <= rst_ni && in_valid_i;
    in_switch_p <= rst_ni && in_switch_i;
    w_we_p      <= rst_ni && w_we_i;
    w_row_p     <= w_row_i;
    in_data_p   <= in_data_i;
    w_data_p    <= w_data_i;
  end

  // The input register: rows and weight writes, so the weight contract above holds
  // unchanged inside.
  // The weight write is registered as the row's enable (one-hot), so the PEs' shadow
  // and first-column bypass multiplexers start at a register, not at a row decoder.
  reg [N-1:0]       w_row_we_q;
  reg [N*8-1:0]     in_data_q, w_data_q;
  genvar k;
  generate
    for (k = 0; k < N; k = k + 1) begin : g_row_we
      always @(posedge clk_i) w_row_we_q[k] <= rst_ni && w_we_p && w_row_p == k[RowBits-1:0];
    end
  endgenerate
  always @(posedge clk_i) begin
    in_data_q <= in_data_p;
    w_data_q  <= w_data_p;
  end

  // Skew: lane k (and its row's valid/switch) enters array row k after k cycles. The
  // flags are skewed from before the input register (ctrl_early), so that each row's
  // first PE sees a switch a cycle ahead (tpu_pe chooses its weight then).
  wire [N*8-1:0] x_skewed;
  wire [N*2-1:0] ctrl_early;
  reg  [N*2-1:0] ctrl_skewed;
  tpu_skew #(.Lanes(N), .Width(8), .Reverse(0), .Reset(0)) u_skew_data (
      .clk_i(clk_i),
      .rst_ni(rst_ni),
      .d_i(in_data_q),
      .q_o(x_skewed));
  tpu_skew #(.Lanes(N), .Width(2), .Reverse(0), .Reset(1)) u_skew_ctrl (
      .clk_i(clk_i),
      .rst_ni(rst_ni),
      .d_i({N{in_switch_p, in_valid_p}}),
      .q_o(ctrl_early));
  always @(posedge clk_i) ctrl_skewed <= rst_ni ? ctrl_early : {N*2{1'b0}};

  wire [N-1:0] x_valid, x_switch, x_switch_next;
  generate
    for (k = 0; k < N; k = k + 1) begin : g_lane
      assign x_valid[k]  = ctrl_skewed[2*k];
      assign x_switch[k] = ctrl_skewed[2*k+1];
      assign x_switch_next[k] = ctrl_early[2*k] & ctrl_early[2*k+1];
    end
  endgenerate

  wire [N*32-1:0] psum;
  wire            psum_valid;
  tpu_systolic_array #(.ArraySize(N), .LogicRows(LogicRows)) u_array (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .x_i       (x_skewed),
      .x_valid_i (x_valid),
      .x_switch_i(x_switch),
      .x_switch_next_i(x_switch_next),
      .w_row_we_i(w_row_we_q),
      .w_row_i   (w_data_q),
      .psum_o    (psum),
      .valid_o   (psum_valid)
  );

  // Deskew: column c finishes c cycles after column 0; delay it N-1-c to line up.
  tpu_skew #(.Lanes(N), .Width(32), .Reverse(1), .Reset(0)) u_deskew (
      .clk_i(clk_i),
      .rst_ni(rst_ni),
      .d_i(psum),
      .q_o(out_data_o));
  tpu_delay #(.Width(1), .Delay(N - 1), .Reset(1)) u_valid_delay (
      .clk_i(clk_i),
      .rst_ni(rst_ni),
      .d_i(psum_valid),
      .q_o(out_valid_o));
endmodule

`default_nettype wire
