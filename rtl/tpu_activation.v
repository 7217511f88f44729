// SPDX-License-Identifier: Apache-2.0
// The activation unit: N requantization lanes plus max pooling across planes.
//
// Before an `act`, the sequencer writes the parameter block (docs/isa.md; its rows are
// TPU_ACT_*: four of int32 biases, four of int32 multipliers, one of shifts) row by row
// through param_we_i/param_row_i/param_data_i (a row takes effect two cycles after
// it is given: a row streamed in the cycle after the last parameter row would not see
// it). It then streams accumulator rows in plane order (for each output row: planes
// 0..P-1), marking the first and last plane of each output row. One int8 row leaves for
// every `last` row, 12 cycles after that row entered (11 requant stages and the pooling
// register). shift_error_o is high while any lane's shift byte is above 63, from the
// cycle after the shift row is given (the sequencer reports ACT_PARAM instead of streaming).
//
// Serial = 1 (small FPGAs): one requantization lane serves the N lanes in turn, a row
// every N + 2 cycles; accept_next_o tells the sequencer whether a row given in the next
// cycle will be taken (always, with N lanes). The results are the same.
`default_nettype none

module tpu_activation #(
    parameter integer ArraySize = 4,  // N: lanes
    parameter integer Serial    = 0   // 1: one requantization lane for all N
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,
    input  wire                    param_we_i,
    input  wire [3:0]              param_row_i,   // 0 .. TPU_ACT_PARAM_ROWS-1
    input  wire [ArraySize*8-1:0]  param_data_i,
    output wire                    shift_error_o,
    input  wire [7:0]              zp_i,          // held for the whole instruction
    input  wire                    relu_i,
    input  wire                    in_valid_i,
    input  wire                    in_first_i,    // first plane of an output row
    input  wire                    in_last_i,     // last plane of an output row
    input  wire [ArraySize*32-1:0] in_data_i,
    output wire                    accept_next_o,
    output wire                    out_valid_o,
    output wire                    out_soon_o,    // out_valid_o will be high next cycle
    output wire [ArraySize*8-1:0]  out_data_o
);
`include "tpu_isa.vh"
  localparam integer N = ArraySize;
  localparam integer RequantStages = 11;  // tpu_requant's pipeline depth
  localparam [3:0]   Bias = TPU_ACT_BIAS_ROW, Mult = TPU_ACT_MULTIPLIER_ROW, Shift = TPU_ACT_SHIFT_ROW;

  // Parameter block, one register file row per UB row (bias/multiplier lanes packed
  // little-endian over 4 rows: lane i is bytes 4i..4i+3 of the 4 rows concatenated).
  // A row is written a cycle after it arrives: it comes straight off block RAM, and the
  // register file's write decode would otherwise sit behind the RAM's output.
  reg [N*8-1:0] prm_q [0:TPU_ACT_PARAM_ROWS-1];
  reg           param_we_q;
  reg [3:0]     param_row_q;
  reg [N*8-1:0] param_data_q;
  always @(posedge clk_i) begin
    if (!rst_ni) param_we_q <= 1'b0;
    else         param_we_q <= param_we_i;
    param_row_q  <= param_row_i;
    param_data_q <= param_data_i;
  end
  // Serial: the lane being requantized takes its parameters from lane 0's place, and
  // the rows rotate by a lane at each step (N steps a row: back in place after each row;
  // the parameters are written only while no row is in the lane).
  wire rotate;
  wire [4*N*8-1:0] bias_rot, mult_rot;
  wire [N*8-1:0]   shift_rot;
  always @(posedge clk_i) begin
    if (param_we_q) prm_q[param_row_q] <= param_data_q;
    else if (rotate) begin
      {prm_q[Bias+3], prm_q[Bias+2], prm_q[Bias+1], prm_q[Bias]} <= bias_rot;
      {prm_q[Mult+3], prm_q[Mult+2], prm_q[Mult+1], prm_q[Mult]} <= mult_rot;
      prm_q[Shift] <= shift_rot;
    end
  end
  wire [4*N*8-1:0] bias_flat = {prm_q[Bias+3], prm_q[Bias+2], prm_q[Bias+1], prm_q[Bias]};
  wire [4*N*8-1:0] mult_flat = {prm_q[Mult+3], prm_q[Mult+2], prm_q[Mult+1], prm_q[Mult]};
  wire [N*8-1:0]   shifts    = prm_q[Shift];
  assign bias_rot  = {bias_flat[31:0], bias_flat[4*N*8-1:32]};
  assign mult_rot  = {mult_flat[31:0], mult_flat[4*N*8-1:32]};
  assign shift_rot = {shifts[7:0], shifts[N*8-1:8]};
  // (the check sees the shift row as it will be once a write in flight lands)
  wire             shifts_new = param_we_q && param_row_q == TPU_ACT_SHIFT_ROW;

  // Running maximum over the planes of one output row (signed int8): the first plane
  // starts it, every later plane raises it.
  function automatic [7:0] pooled(input first, input [7:0] v, input [7:0] cur);
    pooled = (first || $signed(v) > $signed(cur)) ? v : cur;
  endfunction

  wire [N-1:0] lane_bad_shift;
  reg  [N*8-1:0] max_q;
  reg            out_valid_q;
  wire           out_valid_d;   // (the registered output's next value)
  genvar i;
  generate
    for (i = 0; i < N; i = i + 1) begin : g_shift
      assign lane_bad_shift[i] = |(shifts_new ? param_data_q[8*i+6 +: 2] : shifts[8*i+6 +: 2]);
    end

    if (Serial == 0) begin : g_parallel
      // first/last travel with the data through the lanes' three stages.
      wire [1:0] tag;
      tpu_delay #(.Width(2), .Delay(RequantStages), .Reset(1)) u_tag (
          .clk_i(clk_i),
          .rst_ni(rst_ni),
          .d_i({in_first_i, in_last_i}),
          .q_o(tag));

      wire [N-1:0]   lane_valid;
      wire [N*8-1:0] lane_out;
      wire [N*8-1:0] max_d;
      for (i = 0; i < N; i = i + 1) begin : g_lane
        tpu_requant u_requant (
            .clk_i      (clk_i),
            .rst_ni     (rst_ni),
            .in_valid_i (in_valid_i),
            .acc_i      (in_data_i[32*i +: 32]),
            .bias_i     (bias_flat[32*i +: 32]),
            .mult_i     (mult_flat[32*i +: 32]),
            .shift_i    (shifts[8*i +: 6]),
            .zp_i       (zp_i),
            .relu_i     (relu_i),
            .out_valid_o(lane_valid[i]),
            .out_o      (lane_out[8*i +: 8]));
        assign max_d[8*i +: 8] = pooled(tag[1], lane_out[8*i +: 8], max_q[8*i +: 8]);
      end

      always @(posedge clk_i) begin
        if (lane_valid[0]) max_q <= max_d;
      end
      always @(posedge clk_i) begin
        if (!rst_ni) out_valid_q <= 1'b0;
        else         out_valid_q <= out_valid_d;
      end
      assign out_valid_d   = lane_valid[0] && tag[0];
      assign accept_next_o = 1'b1;
      assign rotate        = 1'b0;
      wire unused_lanes = ^lane_valid[N-1:0];  // all lanes run in lockstep; lane 0 speaks for them

    end else begin : g_serial
      // The lanes go through one tpu_requant in order, each from lane 0's place: the row,
      // the parameters (above) and the pooled maximum rotate by a lane at each step, so
      // that no lane is picked by a multiplexer.
      localparam integer LaneBits = (N > 1) ? $clog2(N) : 1;
      reg  [N*32-1:0]     row_q;    // the row being requantized, its next lane at the bottom
      reg                 first_q, last_q, busy_q;
      reg  [LaneBits-1:0] lane_q;
      wire [LaneBits-1:0] lane_end = N[LaneBits-1:0] - 1'b1;
      always @(posedge clk_i) begin
        if (!rst_ni) begin
          busy_q <= 1'b0;
        end else if (in_valid_i) begin  // the sequencer gives a row only when accept_next_o was high
          busy_q <= 1'b1;
        end else if (busy_q && lane_q == lane_end) begin
          busy_q <= 1'b0;
        end
      end
      always @(posedge clk_i) begin
        if (in_valid_i) begin
          row_q   <= in_data_i;
          first_q <= in_first_i;
          last_q  <= in_last_i;
          lane_q  <= {LaneBits{1'b0}};
        end else if (busy_q) begin
          row_q   <= {32'd0, row_q[N*32-1:32]};
          lane_q  <= lane_q + 1'b1;
        end
      end

      // Lane number, first and last travel with the value through the requant stages.
      wire                lane_valid;
      wire [7:0]          lane_out;
      wire [LaneBits+1:0] tag;
      tpu_delay #(.Width(LaneBits + 2), .Delay(RequantStages), .Reset(1)) u_tag (
          .clk_i(clk_i),
          .rst_ni(rst_ni),
          .d_i({lane_q, first_q, last_q}),
          .q_o(tag));
      tpu_requant u_requant (
          .clk_i      (clk_i),
          .rst_ni     (rst_ni),
          .in_valid_i (busy_q),
          .acc_i      (row_q[31:0]),
          .bias_i     (bias_flat[31:0]),
          .mult_i     (mult_flat[31:0]),
          .shift_i    (shifts[5:0]),
          .zp_i       (zp_i),
          .relu_i     (relu_i),
          .out_valid_o(lane_valid),
          .out_o      (lane_out));
      wire [LaneBits-1:0] out_lane = tag[LaneBits+1:2];
      // (the lanes leave in order: lane i is at the bottom when it comes, and after the
      // row's last lane every lane is back in its place)
      always @(posedge clk_i) begin
        if (lane_valid) max_q <= {pooled(tag[1], lane_out, max_q[7:0]), max_q[N*8-1:8]};
      end
      always @(posedge clk_i) begin
        if (!rst_ni) out_valid_q <= 1'b0;
        else         out_valid_q <= out_valid_d;
      end
      assign out_valid_d   = lane_valid && tag[0] && out_lane == lane_end;
      assign accept_next_o = !busy_q && !in_valid_i;
      assign rotate        = busy_q;
    end
  endgenerate

  assign shift_error_o = |lane_bad_shift;
  assign out_valid_o   = out_valid_q;
  assign out_soon_o    = rst_ni && out_valid_d;
  assign out_data_o    = max_q;
endmodule

`default_nettype wire
