// SPDX-License-Identifier: Apache-2.0
// The lite core's act sequencer (docs/isa.md, "act"): first the parameter block's nine
// unified-buffer rows into a memory of its own when the output rows overwrite some of
// them (otherwise each value's bias and multiplier are read from the block itself), and
// the shift row into a register, checked: a shift above 63 faults ACT_PARAM before any
// output; then each output row lane by lane, each lane the maximum over the pooling
// planes of its requantized accumulators (one at a time, tpu_lite_requant), written
// into its byte of the row the cycle after its last plane's result (ub_be_o): the act's
// writes take the unified buffer's port before anything else, so no result waits and
// no row is assembled in flip-flops.
`default_nettype none

module tpu_lite_act #(
    parameter integer ArraySize = 4,
    parameter integer UbRows    = 1024,
    parameter integer AccRows   = 512
) (
    input  wire                clk_i,
    input  wire                rst_ni,
    input  wire                start_i,     // instr_i is an act that passed its checks
    input  wire [127:0]        instr_i,     // (sampled at start_i)
    output wire                busy_o,
    output wire                fault_o,     // one cycle: ACT_PARAM (busy_o falls after it)
    // the unified buffer's port: the parameter rows' reads, the output rows' writes
    output wire                ub_req_o,
    output wire                ub_we_o,
    output wire [UbBits-1:0]   ub_addr_o,
    output wire [N*8-1:0]      ub_wdata_o,
    output wire [N-1:0]        ub_be_o,     // (with ub_we_o) the bytes written
    input  wire                ub_grant_i,  // (always, for a write)
    input  wire [N*8-1:0]      ub_rdata_i,  // the cycle after a granted read
    // the accumulators' read port
    output wire                acc_rd_o,
    output wire [AccBits-1:0]  acc_rd_addr_o,
    input  wire                acc_grant_i,  // the read is taken now (the port is shared)
    input  wire [N*32-1:0]     acc_rdata_i, // the cycle after
    // where it is (for the front end's interlocks): the next output row it writes, its
    // parameter block's first row, the first accumulator row of the output row it is on
    output wire [UbBits-1:0]   row_ub_o,
    output wire [UbBits-1:0]   params_o,
    output wire [AccBits-1:0]  row_acc_o
);
`include "tpu_isa.vh"
  localparam integer N       = ArraySize;
  localparam integer NBits   = $clog2(N);
  localparam integer UbBits  = $clog2(UbRows);
  localparam integer AccBits = $clog2(AccRows);
  localparam integer WBits   = NBits - 2;          // words of a row: N / 4
  localparam integer PBits   = 3;                  // the eight word rows of the block

  initial begin
    if (N < 4 || TPU_ACT_BIAS_ROW != 4'd0 || TPU_ACT_MULTIPLIER_ROW != 4'd4 || TPU_ACT_SHIFT_ROW != 4'd8 ||
        TPU_ACT_PARAM_ROWS != 4'd9) begin
      $display("tpu_lite_act: N >= 4, and the parameter block of bias rows 0-3, multipliers 4-7, shifts 8");
      $finish;
    end
  end

  // the operands of the next value (lane i_q, plane g_q of row r_q): SRead (its
  // accumulator row and bias row read), SBias, SMult (the multiplier's row read, then
  // taken), SHold (ready, until the requantization takes them); SLast: every value is
  // started, waiting for the last results and the last row's write
  localparam [2:0] SIdle = 3'd0, SCopy = 3'd1, SRead = 3'd2, SBias = 3'd3, SMult = 3'd4,
                   SHold = 3'd5, SLast = 3'd6, SMreq = 3'd7;
  reg [2:0]          st_q;
  reg [UbBits-1:0]   rows_m1_q, r_q, params_q;   // (below UbRows: checked)
  reg [15:0]         row_acc_q, plane_q;
  reg [3:0]          pool_m1_q, g_q, p_q;
  reg [7:0]          zp_q;
  reg                relu_q;
  reg                copied_q;            // a parameter row read last cycle (row p_q - 1)
  reg                direct_q;            // the outputs miss the parameter block: no copy
  reg [NBits-1:0]    i_q;                 // the lane
  reg [N*8-1:0]      shifts_q;
  reg [32:0]         x_q;                 // the value's acc + bias (33 bits: the requantization saturates it)
  reg [31:0]         mult_q;              // its multiplier
  reg [7:0]          best_q;
  reg                fault_q;
  // the value being requantized: its lane, whether it is its lane's last plane, its row's
  // last lane; and the lane written now (its byte: best_q) of row wr_row_q
  // (two can be in the requantization: the older at 0, whose result comes first)
  reg                rq_v0_q, rq_v1_q;
  reg [NBits+2:0]    rq_e0_q, rq_e1_q;   // {lane, first plane, last plane, last lane}
  wire [NBits-1:0]   rq_i_q     = rq_e0_q[NBits+2:3];
  wire               rq_first_q = rq_e0_q[2];
  wire               rq_lp_q    = rq_e0_q[1];
  wire               rq_ll_q    = rq_e0_q[0];
  wire               rq_on_q    = rq_v0_q || rq_v1_q;
  reg                wr_q;                // a lane's result is written now
  reg [NBits-1:0]    wr_lane_q;
  reg                wr_last_q;           // (its row's last lane: the next row after it)
  reg [15:0]         wr_row_q;

  // A lane's write goes first on the unified buffer's port; then the parameter rows
  // (copied, or without the copy the shift row, then each value's bias and multiplier
  // rows as they are needed).
  // (the rows of an act that passed its checks are below UbRows, their ends at most UbRows)
  wire [UbBits:0] i_ub      = {1'b0, instr_i[TPU_ACT_UB_LSB +: UbBits]};
  wire [UbBits:0] i_rows_m1 = {1'b0, instr_i[TPU_ACT_ROWS_LSB +: UbBits]};
  wire [UbBits:0] i_params  = {1'b0, instr_i[TPU_ACT_PARAMS_LSB +: UbBits]};
  localparam [UbBits:0] ParamRows = {{(UbBits-3){1'b0}}, TPU_ACT_PARAM_ROWS};
  wire direct_now = i_ub + i_rows_m1 + 1'b1 <= i_params || i_params + ParamRows <= i_ub;
  wire copy_read = st_q == SCopy && p_q != 4'd9;   // (no results yet: no writes)
  wire copy_take = copy_read && ub_grant_i;
  wire p_read    = direct_q && !wr_q && (st_q == SRead || st_q == SBias || st_q == SMreq);
  wire p_take    = p_read && ub_grant_i;
  wire last_lane = i_q == N[NBits-1:0] - 1'b1;
  wire last_plane = g_q == pool_m1_q;
  wire last_row  = r_q == rows_m1_q;
  // the parameter memory: the block's rows 0-7 (bias, multiplier words)
  // lane i's words: row i / (N / 4) of the four (bias rows 0-3, multiplier rows 4-7), word
  // i mod (N / 4) of the row
  wire [1:0]       quarter  = i_q[NBits-1:NBits-2];
  localparam [NBits-1:0] WordMask = (1 << WBits) - 1;
  wire [NBits-1:0] word     = i_q & WordMask;
  wire [PBits-1:0] bias_row = {1'b0, quarter};
  wire [PBits-1:0] mult_row = {1'b1, quarter};
  wire [N*8-1:0]   pm_rdata;
  tpu_small_ram #(.Width(N * 8), .Depth(8)) u_params (
      .clk_i,
      .rd_en_i((st_q == SRead && acc_grant_i) || st_q == SBias),
      .rd_addr_i(st_q == SBias ? mult_row : bias_row),
      .rd_data_o(pm_rdata),
      .wr_en_i(copied_q && p_q <= 4'd8),
      .wr_addr_i(p_q[PBits-1:0] - 1'b1),
      .wr_data_i(ub_rdata_i));
  // lane i's bias or multiplier word: from the copy, or straight from the unified buffer
  wire [N*8-1:0] p_row  = direct_q ? ub_rdata_i : pm_rdata;
  wire [31:0]    p_word = p_row[32 * word +: 32];

  // shift bytes above 63
  reg shift_bad;
  integer l;
  always @(*) begin
    shift_bad = 1'b0;
    for (l = 0; l < N; l = l + 1) shift_bad = shift_bad | |ub_rdata_i[8*l+6 +: 2];
  end

  // the value: its accumulator plus its bias (both arrive in SBias)
  wire [31:0] acc_word = acc_rdata_i[32*i_q +: 32];
  wire [32:0] x_sum    = {acc_word[31], acc_word} + {p_word[31], p_word};
  wire       rq_done;
  wire [7:0] rq_q;
  tpu_lite_requant u_requant (
      .clk_i,
      .rst_ni,
      .start_i(rq_go),
      .x_i(x_q),
      .mult_i(mult_q),
      .shift_i(shifts_q[8*i_q +: 6]),   // (i_q: the value starting)
      .zp_i(zp_q),
      .relu_i(relu_q),
      .done_o(rq_done),
      .ready_o(rq_ready),
      .q_o(rq_q));
  wire [7:0] best = (rq_first_q || $signed(rq_q) > $signed(best_q)) ? rq_q : best_q;

  // the requantization takes the held operands when it is free (or frees now)
  wire rq_ready;
  wire row_ends = last_lane && last_plane;
  wire rq_go    = st_q == SHold && rq_ready;
  wire [NBits+2:0] rq_new = {i_q, g_q == 4'd0, last_plane, last_lane};

  always @(posedge clk_i) begin
    fault_q <= 1'b0;
    if (!rst_ni) begin
      st_q      <= SIdle;
      rq_v0_q   <= 1'b0;
      rq_v1_q   <= 1'b0;
      wr_q      <= 1'b0;
    end else begin
      case (st_q)
        SIdle:  if (start_i) st_q <= SCopy;   // (without the copy: the shift row alone)
        SCopy:  if (p_q == 4'd9 && copied_q) begin   // the shift row arrives now
                  fault_q <= shift_bad;
                  st_q    <= shift_bad ? SIdle : SRead;
                end
        SRead:  if (acc_grant_i && (!direct_q || p_take)) st_q <= SBias;
        SBias:  st_q <= !direct_q || p_take ? SMult : SMreq;
        SMreq:  if (p_take) st_q <= SMult;
        SMult:  st_q <= SHold;
        SHold:  if (rq_go) st_q <= row_ends && last_row ? SLast : SRead;
        default: if (!rq_on_q && !wr_q) st_q <= SIdle;   // SLast
      endcase
      // the values in the requantization: started at the back, done from the front
      case ({rq_done, rq_go})
        2'b10: begin rq_v0_q <= rq_v1_q; rq_v1_q <= 1'b0; end
        2'b01: if (!rq_v0_q) rq_v0_q <= 1'b1; else rq_v1_q <= 1'b1;
        default: ;   // (both: as many as before; none)
      endcase
      wr_q <= rq_done && rq_lp_q;   // (a lane's last plane: its result is final)
    end
  end

  always @(posedge clk_i) begin
    if (st_q == SIdle && start_i) begin
      rows_m1_q <= instr_i[TPU_ACT_ROWS_LSB +: UbBits];
      params_q  <= instr_i[TPU_ACT_PARAMS_LSB +: UbBits];
      pool_m1_q <= instr_i[TPU_ACT_POOL_LSB +: 4];
      zp_q      <= instr_i[TPU_ACT_ZP_LSB +: 8];
      relu_q    <= instr_i[TPU_ACT_RELU_LSB];
      row_acc_q <= instr_i[TPU_ACT_ACC_LSB +: 16];
      plane_q   <= instr_i[TPU_ACT_ACC_LSB +: 16];
      r_q       <= {UbBits{1'b0}};
      g_q       <= 4'd0;
      // the copy is needed only when the output rows meet the block
      direct_q  <= direct_now;
      p_q       <= direct_now ? TPU_ACT_SHIFT_ROW : 4'd0;
      i_q       <= {NBits{1'b0}};
      wr_row_q  <= instr_i[TPU_ACT_UB_LSB +: 16];
    end
    copied_q <= copy_take;
    if (copy_take) p_q <= p_q + 4'd1;
    if (st_q == SCopy) shifts_q <= ub_rdata_i;   // (the last row copied: the shifts)
    // lane i_q, plane g_q: its accumulator and bias arrive in SBias, the multiplier in SMult
    if (st_q == SBias) x_q <= x_sum;
    // (x_q and mult_q change two cycles after a start at the earliest: the requantization
    // reads them the cycle after)
    if (st_q == SMult) mult_q <= p_word;
    // the value starts: the next one's place
    // the front entry moves up as its result comes; a new one goes behind the last
    case ({rq_done, rq_go})
      2'b10: rq_e0_q <= rq_e1_q;
      2'b01: if (!rq_v0_q) rq_e0_q <= rq_new; else rq_e1_q <= rq_new;
      2'b11: if (rq_v1_q) begin rq_e0_q <= rq_e1_q; rq_e1_q <= rq_new; end else rq_e0_q <= rq_new;
      default: ;
    endcase
    if (rq_go) begin
      if (!last_plane) begin
        g_q     <= g_q + 4'd1;
        plane_q <= plane_q + {{(16-UbBits){1'b0}}, rows_m1_q} + 16'd1;
      end else begin
        g_q     <= 4'd0;
        i_q     <= i_q + 1'b1;
        if (last_lane) begin
          r_q       <= r_q + 1'b1;
          row_acc_q <= row_acc_q + 16'd1;
          plane_q   <= row_acc_q + 16'd1;
        end else begin
          plane_q <= row_acc_q;
        end
      end
    end
    // a result: the lane's maximum so far, written the cycle after its last plane's
    if (rq_done) begin
      best_q    <= best;
      wr_lane_q <= rq_i_q;
      wr_last_q <= rq_ll_q;
    end
    if (wr_q && wr_last_q) wr_row_q <= wr_row_q + 16'd1;
  end

  // the accumulator of lane i_q, plane g_q: read with its bias
  assign acc_rd_o      = st_q == SRead;
  assign acc_rd_addr_o = plane_q[AccBits-1:0];
  assign busy_o     = st_q != SIdle || fault_q;   // (busy until the fault shows: nothing younger starts meanwhile)
  assign fault_o    = fault_q;
  wire [PBits-1:0] p_row_at = st_q == SRead ? bias_row : mult_row;
  assign ub_req_o   = copy_read || wr_q || p_read;
  assign ub_we_o    = wr_q;
  assign ub_addr_o  = wr_q ? wr_row_q[UbBits-1:0] :
                      params_q + {{(UbBits-4){1'b0}}, copy_read ? p_q : {1'b0, p_row_at}};
  assign ub_wdata_o = {N{best_q}};
  assign ub_be_o    = {{(N-1){1'b0}}, 1'b1} << wr_lane_q;
  assign row_ub_o   = wr_row_q[UbBits-1:0];
  assign params_o   = params_q;
  assign row_acc_o  = row_acc_q[AccBits-1:0];

  wire unused = ^{wr_row_q[15:UbBits], plane_q[15:AccBits]};
endmodule

`default_nettype wire
