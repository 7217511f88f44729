// SPDX-License-Identifier: Apache-2.0
// The lite core's mmc sequencer: for each tile, the next weight tile from the FIFO into
// the array (with switch; N cycles, a row a cycle), then the tile's input rows, one a
// cycle, each into the array and, three cycles later, its N sums into the accumulator
// row (written, or added with saturation: accumulate), read the cycle before.
//
// A row enters when the unified buffer's port grants its read (ub_grant_i); its x is the
// port's data the cycle after. A tile's weights load right after the last row of the
// tile before has entered, and its first row's read is granted with the last weight
// row's (the array takes a row with the weights written up to its cycle:
// tpu_mac_array), so a one-row tile takes N cycles. A row whose accumulator row is the one the row just before it
// writes waits a cycle: that row's sum is written in the cycle this one's is read.
`default_nettype none

module tpu_lite_mmc #(
    parameter integer ArraySize  = 4,
    parameter integer UbRows     = 1024,
    parameter integer AccRows    = 512,
    parameter integer WfifoDepth = 16
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    input  wire                   start_i,      // instr_i is an mmc that passed its checks
    input  wire [127:0]           instr_i,      // (sampled at start_i)
    output wire                   busy_o,       // until its last row has entered the array
    output wire                   drain_o,      // rows' sums still on their way to the accumulators
    // the unified buffer's port: a row read
    output wire                   ub_req_o,
    output wire [UbBits-1:0]      ub_addr_o,
    input  wire                   ub_grant_i,
    input  wire [N*8-1:0]         ub_rdata_i,   // the cycle after the grant
    // the weight FIFO's read port (slot head_o: the oldest tile)
    output wire                   wf_rd_o,
    output wire [WfBits-1:0]      wf_addr_o,
    input  wire [N*8-1:0]         wf_rdata_i,   // the cycle after
    output wire                   wf_pop_o,     // the oldest tile is in the array: its slot is free
    input  wire                   wf_avail_i,   // the FIFO holds a whole tile (rw may still be loading it)
    input  wire                   abort_i,      // the run failed: drop the instruction (it cannot fault)
    // the array (tpu_mac_array)
    output wire                   w_we_o,
    output wire [NBits-1:0]       w_row_o,
    output wire [N*8-1:0]         w_o,
    output wire [N*8-1:0]         x_o,
    input  wire [N*SumBits-1:0]   y_i,          // three cycles after x_o
    // the accumulators: read the cycle before the sum, written with it
    output wire                   acc_rd_o,
    output wire [AccBits-1:0]     acc_rd_addr_o,
    input  wire [N*32-1:0]        acc_rdata_i,
    output wire                   acc_wr_o,
    output wire [AccBits-1:0]     acc_wr_addr_o,
    output wire [N*32-1:0]        acc_wdata_o,
    output wire                   row_o          // a row enters the array (N * N MACs)
);
`include "tpu_isa.vh"
  localparam integer N       = ArraySize;
  localparam integer NBits   = $clog2(N);
  localparam integer SumBits = 16 + $clog2(N);
  localparam integer UbBits  = $clog2(UbRows);
  localparam integer AccBits = $clog2(AccRows);
  localparam integer SlotBits = (WfifoDepth > 1) ? $clog2(WfifoDepth) : 1;
  localparam integer WfBits  = SlotBits + NBits;

  // (the next mmc may start while the last rows' sums are on their way: a row's
  // accumulate flag and accumulator row travel with it)
  localparam [1:0] SIdle = 2'd0, SLoad = 2'd1, SRows = 2'd2;
  reg [1:0]          st_q;
  reg [UbBits-1:0]   rows_m1_q, r_q;   // (a tile's rows: below UbRows, checked)
  reg [3:0]          tiles_left_q;
  reg [15:0]         ubstride_q, accstride_q;
  reg                sw_q, accumulate_q;
  reg [15:0]         ub_base_q, acc_base_q;   // the tile's first rows
  reg [15:0]         ub_row_q, acc_row_q;     // the row's
  reg [NBits-1:0]    k_q;                     // the weight row loaded now
  reg [SlotBits-1:0] head_q;
  reg [3:0]          pipe_q;                  // a row 1, 2, 3, 4 cycles after its grant
  reg [AccBits-1:0]  pacc0_q, pacc1_q, pacc2_q, pacc3_q;   // its accumulator row
  reg [3:0]          pacc_add_q;              // it accumulates
  reg                w_we_q;
  reg [NBits-1:0]    w_row_q;

  wire last_row  = r_q == rows_m1_q;
  wire last_tile = tiles_left_q == 4'd0;
  // the row just granted writes its sum as this one reads: wait a cycle
  wire clash     = pipe_q[0] && pacc0_q == acc_row_q[AccBits-1:0];
  // a tile's load starts once the tile is whole in the FIFO
  wire load_go   = st_q == SLoad && (k_q != {NBits{1'b0}} || wf_avail_i);
  wire last_k    = load_go && k_q == N[NBits-1:0] - 1'b1;
  // (a tile's first row may enter in the cycle its last weight row is read: its x
  // reaches the array with that row)
  wire want      = (st_q == SRows || (st_q == SLoad && last_k)) && !clash;
  wire enter     = want && ub_grant_i;
  wire [1:0] next_st_rows = last_tile ? SIdle : sw_q ? SLoad : SRows;   // after a tile's last row

  always @(posedge clk_i) begin
    if (!rst_ni || abort_i) begin
      st_q <= SIdle;
    end else begin
      case (st_q)
        SIdle: if (start_i) st_q <= instr_i[TPU_MMC_SWITCH_LSB] ? SLoad : SRows;
        SLoad: if (last_k) st_q <= enter && last_row ? next_st_rows : SRows;
        SRows: if (enter && last_row) st_q <= next_st_rows;
        default: st_q <= SIdle;
      endcase
    end
  end

  always @(posedge clk_i) begin
    if (st_q == SIdle && start_i) begin
      rows_m1_q    <= instr_i[TPU_MMC_ROWS_LSB +: UbBits];
      tiles_left_q <= instr_i[TPU_MMC_TILES_LSB +: 4];
      ubstride_q   <= instr_i[TPU_MMC_UBSTRIDE_LSB +: 16];
      accstride_q  <= instr_i[TPU_MMC_ACCSTRIDE_LSB +: 16];
      sw_q         <= instr_i[TPU_MMC_SWITCH_LSB];
      accumulate_q <= instr_i[TPU_MMC_ACCUMULATE_LSB];
      ub_base_q    <= instr_i[TPU_MMC_UB_LSB +: 16] + instr_i[TPU_MMC_UBSTRIDE_LSB +: 16];
      acc_base_q   <= instr_i[TPU_MMC_ACC_LSB +: 16] + instr_i[TPU_MMC_ACCSTRIDE_LSB +: 16];
      ub_row_q     <= instr_i[TPU_MMC_UB_LSB +: 16];
      acc_row_q    <= instr_i[TPU_MMC_ACC_LSB +: 16];
      r_q          <= {UbBits{1'b0}};
      k_q          <= {NBits{1'b0}};
    end
    if (load_go) k_q <= k_q + 1'b1;
    if (enter) begin
      if (last_row) begin   // the next tile's rows (bases one stride on, for the tile after)
        r_q          <= {UbBits{1'b0}};
        tiles_left_q <= tiles_left_q - 4'd1;
        ub_row_q     <= ub_base_q;
        acc_row_q    <= acc_base_q;
        ub_base_q    <= ub_base_q + ubstride_q;
        acc_base_q   <= acc_base_q + accstride_q;
      end else begin
        r_q       <= r_q + 1'b1;
        ub_row_q  <= ub_row_q + 16'd1;
        acc_row_q <= acc_row_q + 16'd1;
      end
    end
    // the row's way to its sum
    pipe_q     <= rst_ni ? {pipe_q[2:0], enter} : 4'd0;
    pacc0_q    <= acc_row_q[AccBits-1:0];
    pacc1_q    <= pacc0_q;
    pacc2_q    <= pacc1_q;
    pacc3_q    <= pacc2_q;
    pacc_add_q <= {pacc_add_q[2:0], accumulate_q};
    // the weight rows: the FIFO's data the cycle after its read
    w_we_q  <= rst_ni && load_go;
    w_row_q <= k_q;
  end

  always @(posedge clk_i) begin
    if (!rst_ni) head_q <= {SlotBits{1'b0}};
    else if (last_k)
      head_q <= head_q == WfifoDepth[SlotBits-1:0] - 1'b1 ? {SlotBits{1'b0}} : head_q + 1'b1;
  end

  // sums: y (SumBits, signed) written, or added to the row read the cycle before with
  // int32 saturation (tpu_lite_acc_add)
  genvar n;
  generate
    for (n = 0; n < N; n = n + 1) begin : g_lane
      tpu_lite_acc_add #(.SumBits(SumBits)) u_add (
          .acc_i(acc_rdata_i[32*n +: 32]),
          .y_i(y_i[SumBits*n +: SumBits]),
          .add_i(pacc_add_q[3]),
          .sum_o(acc_wdata_o[32*n +: 32]));
    end
  endgenerate

  assign busy_o        = st_q != SIdle;
  assign drain_o       = pipe_q != 4'd0;
  assign ub_req_o      = want;
  assign ub_addr_o     = ub_row_q[UbBits-1:0];
  assign wf_rd_o       = load_go;
  assign wf_addr_o     = {head_q, k_q};
  assign wf_pop_o      = last_k;
  assign w_we_o        = w_we_q;
  assign w_row_o       = w_row_q;
  assign w_o           = wf_rdata_i;
  assign x_o           = ub_rdata_i;
  assign acc_rd_o      = pipe_q[2];
  assign acc_rd_addr_o = pacc2_q;
  assign acc_wr_o      = pipe_q[3];
  assign acc_wr_addr_o = pacc3_q;
  assign row_o         = enter;

  wire unused = ^{ub_row_q[15:UbBits], acc_row_q[15:AccBits]};
endmodule

`default_nettype wire
