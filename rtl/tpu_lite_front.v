// SPDX-License-Identifier: Apache-2.0
// The lite core's front end: it takes the instructions in program order from the fetch,
// checks each (tpu_lite_check), applies the weight-FIFO rule, runs the DMA instructions
// itself (rhm and rw through the row gather, whm), hands mmc and act to the compute
// unit and goes on while it works, and ends the run.
//
// Order with the compute unit, which holds at most the one instruction handed to it:
// an rhm whose rows that instruction reads or writes waits for it; a whm, a halt and
// the next mmc or act wait until it is done (whm: so that no older instruction can
// still fault once device memory is written). An rw waits for a free FIFO slot, which
// the compute unit frees as it loads a tile into the array. Every fault the front end
// finds is younger than the compute unit's instruction, whose own fault (ACT_PARAM)
// therefore wins; the run ends once both are idle and the bus is quiet.
`default_nettype none

module tpu_lite_front #(
    parameter integer ArraySize  = 4,
    parameter integer UbRows     = 1024,
    parameter integer AccRows    = 512,
    parameter integer WfifoDepth = 16,
    parameter integer DataBits   = 32,
    parameter integer DramBytes  = 65536
) (
    input  wire                  clk_i,
    input  wire                  rst_ni,
    input  wire                  begin_i,      // a run begins (the fetch restarts at the entry)
    output wire                  end_o,        // the run ends now
    output wire                  failed_o,     // (with end_o) in ERROR with err_code_o at err_pc_o
    output wire [3:0]            err_code_o,
    output wire [31:0]           err_pc_o,     // (with end_o) the fault's PC, or the halt's
    // the fetch
    input  wire                  f_valid_i,
    input  wire [127:0]          f_instr_i,
    input  wire [31:0]           f_pc_i,
    input  wire [3:0]            f_err_i,
    output wire                  f_take_o,
    output wire                  f_restart_o,  // after a whm: fetch again from f_restart_pc_o
    output wire [31:0]           f_restart_pc_o,
    output wire                  f_stop_o,
    // the compute unit
    output wire                  c_take_o,
    output wire [127:0]          c_instr_o,
    output wire [31:0]           c_pc_o,
    input  wire                  c_busy_i,
    input  wire                  c_fault_i,
    input  wire [31:0]           c_fault_pc_i,
    input  wire                  c_pop_i,      // a tile left the FIFO for the array
    // the bus (tpu_lite_bus, requester b) and its state
    output wire                  rd_req_o,
    output wire [31:0]           rd_addr_o,
    input  wire                  rd_grant_i,
    input  wire                  beat_i,
    input  wire [DataBits-1:0]   beat_data_i,
    input  wire                  beat_err_i,
    output wire                  beat_ready_o,
    output wire                  w_req_o,
    output wire [31:0]           w_addr_o,
    output wire [DataBits-1:0]   w_data_o,
    output wire [DataBits/8-1:0] w_strb_o,
    input  wire                  w_grant_i,
    input  wire                  w_busy_i,
    input  wire                  w_err_i,
    input  wire                  bus_busy_i,   // reads or writes in flight (the fetch's too)
    // the unified buffer's port (after the compute unit's)
    output wire                  ub_req_o,
    output wire                  ub_we_o,
    output wire [UbBits-1:0]     ub_addr_o,
    output wire [N*8-1:0]        ub_wdata_o,
    input  wire                  ub_grant_i,
    input  wire [N*8-1:0]        ub_rdata_i,
    // the weight FIFO's write port
    output wire                  wf_we_o,
    output wire [WfBits-1:0]     wf_addr_o,
    output wire [N*8-1:0]        wf_wdata_o,
    // counter events
    output wire                  retire_o,     // an instruction is done (or handed over)
    output wire [6:0]            read_bytes_o,
    output wire [6:0]            write_bytes_o,
    output wire                  tile_o,       // an rw tile is in the FIFO
    output wire                  wait_o,       // the next instruction waits for the compute unit
    output wire [1:0]            dbg_busy_o    // {whm, rhm or rw} running
);
`include "tpu_isa.vh"
  localparam integer N        = ArraySize;
  localparam integer NBits    = $clog2(N);
  localparam integer UbBits   = $clog2(UbRows);
  localparam integer SlotBits = (WfifoDepth > 1) ? $clog2(WfifoDepth) : 1;
  localparam integer WfBits   = SlotBits + NBits;
  localparam integer CntBits  = $clog2(WfifoDepth + 1);
  localparam [CntBits-1:0] Depth = WfifoDepth[CntBits-1:0];

  localparam [3:0] SIdle = 4'd0, SNext = 4'd1, SCheck = 4'd2, SDecide = 4'd3, SRhm = 4'd4,
                   SRwTile = 4'd5, SRw = 4'd6, SWhm = 4'd7, SHand = 4'd8, SHalt = 4'd9,
                   SStop = 4'd10;
  reg [3:0] st_q;

  wire [127:0] in = f_instr_i;
  wire [3:0]   op = in[3:0];

  // ---- the checks ----------------------------------------------------------------------------
  wire        ck_done;
  wire [3:0]  ck_err;
  wire [16:0] ck_ub_end;
  wire        unused_ck_busy;
  tpu_lite_check #(.ArraySize(N), .UbRows(UbRows), .AccRows(AccRows), .DramBytes(DramBytes)) u_check (
      .clk_i,
      .rst_ni,
      .start_i(st_q == SNext && f_valid_i && f_err_i == TPU_ERR_NONE),
      .instr_i(in),
      .busy_o(unused_ck_busy),
      .done_o(ck_done),
      .err_o(ck_err),
      .ub_end_o(ck_ub_end));
  reg [3:0]  err_now_q;    // the check's result, kept
  reg [16:0] ub_end_q;

  // ---- the weight FIFO: the rule in program order, and the slots ------------------------------
  reg  [CntBits-1:0]  tiles_q;   // tiles rw loaded and no switch took yet (program order)
  reg                 active_q;  // a tile was switched in this run
  reg  [CntBits-1:0]  phys_q;    // tiles in the FIFO's memory (the compute unit pops them)
  reg  [SlotBits-1:0] tail_q;
  wire        sw         = in[TPU_MMC_SWITCH_LSB];
  wire [4:0]  mmc_tiles  = {1'b0, in[TPU_MMC_TILES_LSB +: 4]} + 5'd1;
  wire        mmc_wf_bad = sw ? {{(5-CntBits){1'b0}}, tiles_q} < mmc_tiles : !active_q;

  // ---- the compute unit's instruction: its unified-buffer rows -------------------------------
  // mmc: reads [lo1, hi1); act: writes [lo1, hi1), reads its parameters [lo2, hi2)
  reg [16:0] lo1_q, hi1_q, lo2_q, hi2_q;
  wire [16:0] ub17 = {1'b0, in[TPU_MMC_UB_LSB +: 16]};
  function automatic overlap(input [16:0] alo, input [16:0] ahi, input [16:0] blo, input [16:0] bhi);
    overlap = alo < bhi && blo < ahi;
  endfunction
  wire rhm_waits = c_busy_i && (overlap(ub17, ub_end_q, lo1_q, hi1_q) || overlap(ub17, ub_end_q, lo2_q, hi2_q));

  // ---- the DMA instructions: the row gather (rhm, rw) and whm ---------------------------------
  reg  [127:0] x_q;              // the DMA instruction being run
  reg  [31:0]  x_pc_q;
  reg  [3:0]   rw_left_q;        // its tiles after this one
  reg  [31:0]  tile_addr_q;
  reg  [15:0]  ub_row_q;         // rhm: the next row's place
  reg  [NBits-1:0] wrow_q;       // rw: the tile row
  wire        x_transpose = x_q[TPU_RW_TRANSPOSE_LSB];
  wire [5:0]  x_k_m1 = x_q[TPU_RW_K_LSB +: 6];
  wire [5:0]  x_n_m1 = x_q[TPU_RW_N_LSB +: 6];
  localparam integer NM1 = N - 1;

  wire        g_start = (st_q == SDecide && op == TPU_OP_RHM && err_now_q == TPU_ERR_NONE && !rhm_waits) ||
                        (st_q == SRwTile && tiles_q != Depth && phys_q != Depth);
  wire        g_is_rw = st_q == SRwTile;
  wire        g_busy, g_row_valid, g_err;
  wire [N*8-1:0] g_row;
  wire [6:0]  g_bytes;
  wire        g_row_ready;
  // rhm: its rows as they are; an rw tile: N rows, the first k from memory (one segment
  // of n bytes each, or with transpose n one-byte segments, stride apart), the rest zero
  tpu_lite_gather #(.ArraySize(N), .DataBits(DataBits)) u_gather (
      .clk_i,
      .rst_ni,
      .start_i(g_start),
      .rows_m1_i(g_is_rw ? NM1[15:0] : in[TPU_RHM_ROWS_LSB +: 16]),
      .seg_rows_m1_i(g_is_rw ? {10'd0, x_k_m1} : in[TPU_RHM_ROWS_LSB +: 16]),
      .base_i(g_is_rw ? tile_addr_q : in[TPU_RHM_ADDR_LSB +: 32]),
      .rstride_i(g_is_rw ? (x_transpose ? 16'd1 : x_q[TPU_RW_STRIDE_LSB +: 16]) : in[TPU_RHM_STRIDE_LSB +: 16]),
      .segs_m1_i(g_is_rw ? (x_transpose ? x_n_m1 : 6'd0) : in[TPU_RHM_SEGS_LSB +: 6]),
      .segstride_i(g_is_rw ? x_q[TPU_RW_STRIDE_LSB +: 16] : in[TPU_RHM_SEGSTRIDE_LSB +: 16]),
      .seglen_m1_i(g_is_rw ? (x_transpose ? 6'd0 : x_n_m1) : in[TPU_RHM_SEGLEN_LSB +: 6]),
      .busy_o(g_busy),
      .req_o(rd_req_o),
      .addr_o(rd_addr_o),
      .grant_i(rd_grant_i),
      .beat_i,
      .data_i(beat_data_i),
      .beat_err_i,
      .ready_o(beat_ready_o),
      .row_valid_o(g_row_valid),
      .row_o(g_row),
      .row_ready_i(g_row_ready),
      .err_o(g_err),
      .bytes_o(g_bytes));
  // rhm rows go to the unified buffer (when its port grants), rw rows to the FIFO
  wire rhm_row = st_q == SRhm && g_row_valid;
  assign g_row_ready = st_q == SRw ? 1'b1 : ub_grant_i && !whm_ub_req;

  wire        h_start = st_q == SDecide && op == TPU_OP_WHM && err_now_q == TPU_ERR_NONE && !c_busy_i;
  wire        h_busy, h_err, whm_ub_req;
  wire [UbBits-1:0] h_ub_addr;
  tpu_lite_whm #(.ArraySize(N), .DataBits(DataBits), .UbRows(UbRows)) u_whm (
      .clk_i,
      .rst_ni,
      .start_i(h_start),
      .instr_i(in),
      .busy_o(h_busy),
      .err_o(h_err),
      .ub_req_o(whm_ub_req),
      .ub_addr_o(h_ub_addr),
      .ub_grant_i,
      .ub_rdata_i,
      .w_req_o,
      .w_addr_o,
      .w_data_o,
      .w_strb_o,
      .w_grant_i,
      .w_busy_i,
      .w_err_i,
      .bytes_o(write_bytes_o));

  // ---- the run's end: the first fault in program order --------------------------------------
  reg        fault_q, c_fault_q;     // a fault is kept (c_fault_q: the compute unit's)
  reg [3:0]  code_q;
  reg [31:0] fpc_q;
  wire       my_fault_now;           // (combinational) the front end faults now ...
  reg  [3:0] my_code;                // ... with this code
  wire       idle_all = !c_busy_i && !g_busy && !h_busy && !bus_busy_i;

  wire fetch_bad  = st_q == SNext && f_valid_i && f_err_i != TPU_ERR_NONE;
  wire decided    = st_q == SDecide;
  wire static_bad = decided && err_now_q != TPU_ERR_NONE;
  wire rw_full    = st_q == SRwTile && tiles_q == Depth;
  wire mmc_bad    = decided && err_now_q == TPU_ERR_NONE && op == TPU_OP_MMC && mmc_wf_bad;
  wire rhm_done   = st_q == SRhm && !g_busy;
  wire tile_done  = st_q == SRw && !g_busy;
  wire whm_done   = st_q == SWhm && !h_busy;
  assign my_fault_now = fetch_bad || static_bad || rw_full || mmc_bad || (rhm_done && g_err) ||
                        (tile_done && g_err) || (whm_done && h_err);
  always @(*) begin
    my_code = TPU_ERR_BUS_ERROR;
    if (fetch_bad) my_code = f_err_i;
    else if (static_bad) my_code = err_now_q;
    else if (rw_full || mmc_bad) my_code = TPU_ERR_WEIGHT_FIFO;
  end
  wire hand_go = st_q == SHand && !c_busy_i;
  wire simple  = decided && err_now_q == TPU_ERR_NONE && (op == TPU_OP_NOP || op == TPU_OP_SYNC);

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q      <= SIdle;
      fault_q   <= 1'b0;
      c_fault_q <= 1'b0;
    end else if (begin_i) begin
      st_q      <= SNext;
      fault_q   <= 1'b0;
      c_fault_q <= 1'b0;
    end else begin
      // the compute unit's fault is older than anything the front end is at
      if (c_fault_i && !c_fault_q) begin
        c_fault_q <= 1'b1;
        fault_q   <= 1'b1;
        code_q    <= TPU_ERR_ACT_PARAM;
        fpc_q     <= c_fault_pc_i;
      end else if (my_fault_now && !fault_q) begin
        fault_q <= 1'b1;
        code_q  <= my_code;
        fpc_q   <= fetch_bad || decided ? f_pc_i : x_pc_q;
      end else if (decided && op == TPU_OP_HALT && !fault_q) begin
        fpc_q   <= f_pc_i;   // (a run that ends DONE shows the halt's PC)
      end
      case (st_q)
        SIdle: ;
        SNext: if (c_fault_q || fault_q) st_q <= SStop;
               else if (fetch_bad) st_q <= SStop;
               else if (f_valid_i) st_q <= SCheck;
        SCheck: if (ck_done) st_q <= SDecide;
        SDecide: begin
          if (static_bad || mmc_bad) st_q <= SStop;
          else case (op)
            TPU_OP_NOP, TPU_OP_SYNC: st_q <= SNext;
            TPU_OP_HALT: st_q <= SHalt;
            TPU_OP_RHM: if (!rhm_waits) st_q <= SRhm;
            TPU_OP_RW:  st_q <= SRwTile;
            TPU_OP_WHM: if (!c_busy_i) st_q <= SWhm;
            default:    st_q <= SHand;   // mmc, act
          endcase
        end
        SRhm:    if (!g_busy) st_q <= g_err ? SStop : SNext;
        SRwTile: if (rw_full) st_q <= SStop;
                 else if (g_start) st_q <= SRw;
        SRw:     if (!g_busy) st_q <= g_err ? SStop : rw_left_q == 4'd0 ? SNext : SRwTile;
        SWhm:    if (!h_busy) st_q <= h_err ? SStop : SNext;
        SHand:   if (!c_busy_i) st_q <= SNext;
        SHalt:   if (!c_busy_i) st_q <= SStop;
        SStop:   if (idle_all) st_q <= SIdle;
        default: st_q <= SIdle;
      endcase
      if (c_fault_i && st_q != SIdle && st_q != SStop) st_q <= SStop;
    end
  end

  // the instruction's own registers
  always @(posedge clk_i) begin
    if (ck_done) begin
      err_now_q <= ck_err;
      ub_end_q  <= ck_ub_end;
    end
    if (decided) begin
      x_q         <= in;
      x_pc_q      <= f_pc_i;
      rw_left_q   <= in[TPU_RW_TILES_LSB +: 4];
      tile_addr_q <= in[TPU_RW_ADDR_LSB +: 32];
      ub_row_q    <= in[TPU_RHM_UB_LSB +: 16];
      wrow_q      <= {NBits{1'b0}};
    end
    if (rhm_row && g_row_ready) ub_row_q <= ub_row_q + 16'd1;
    if (st_q == SRw && g_row_valid) wrow_q <= wrow_q + 1'b1;
    if (tile_done && !g_err) begin
      rw_left_q   <= rw_left_q - 4'd1;
      tile_addr_q <= tile_addr_q + x_q[TPU_RW_TSTRIDE_LSB +: 32];
    end
    if (hand_go) begin   // the compute unit's rows, for the rhm that may come
      lo1_q <= ub17;
      hi1_q <= ub_end_q;
      lo2_q <= op == TPU_OP_ACT ? {1'b0, in[TPU_ACT_PARAMS_LSB +: 16]} : 17'd0;
      hi2_q <= op == TPU_OP_ACT ? {1'b0, in[TPU_ACT_PARAMS_LSB +: 16]} + {13'd0, TPU_ACT_PARAM_ROWS} : 17'd0;
    end
  end

  // the weight FIFO's counts
  wire tile_in = tile_done && !g_err;
  wire sw_go   = hand_go && op == TPU_OP_MMC && sw;
  always @(posedge clk_i) begin
    if (!rst_ni || begin_i) begin
      tiles_q  <= {CntBits{1'b0}};
      active_q <= 1'b0;
    end else begin
      if (tile_in) tiles_q <= tiles_q + 1'b1;
      if (sw_go) begin
        tiles_q  <= tiles_q - mmc_tiles[CntBits-1:0];
        active_q <= 1'b1;
      end
    end
    if (!rst_ni) begin
      phys_q <= {CntBits{1'b0}};
      tail_q <= {SlotBits{1'b0}};
    end else begin
      phys_q <= phys_q + {{(CntBits-1){1'b0}}, tile_in} - {{(CntBits-1){1'b0}}, c_pop_i};
      if (tile_in) tail_q <= tail_q == WfifoDepth[SlotBits-1:0] - 1'b1 ? {SlotBits{1'b0}} : tail_q + 1'b1;
    end
  end

  assign end_o          = st_q == SStop && idle_all;
  assign failed_o       = fault_q;
  assign err_code_o     = code_q;
  assign err_pc_o       = fpc_q;
  // The fetch holds the instruction until the front end is done with it: when it moves
  // on from the decision (the DMA instructions keep what they need), or hands it over.
  wire leaves = decided && err_now_q == TPU_ERR_NONE && !mmc_bad &&
                (simple || op == TPU_OP_HALT || (op == TPU_OP_RHM && !rhm_waits) || op == TPU_OP_RW ||
                 (op == TPU_OP_WHM && !c_busy_i));
  assign f_take_o       = leaves || hand_go;
  assign f_restart_o    = begin_i || (whm_done && !h_err);
  assign f_restart_pc_o = x_pc_q + 32'd16;
  assign f_stop_o       = st_q == SStop || st_q == SIdle;
  assign c_take_o       = hand_go;
  assign c_instr_o      = in;
  assign c_pc_o         = f_pc_i;
  assign ub_req_o       = rhm_row || whm_ub_req;
  assign ub_we_o        = !whm_ub_req;
  assign ub_addr_o      = whm_ub_req ? h_ub_addr : ub_row_q[UbBits-1:0];
  assign ub_wdata_o     = g_row;
  assign wf_we_o        = st_q == SRw && g_row_valid;
  assign wf_addr_o      = {tail_q, wrow_q};
  assign wf_wdata_o     = g_row;
  assign retire_o       = simple || (rhm_done && !g_err) || (st_q == SRw && tile_done && !g_err && rw_left_q == 4'd0) ||
                          (whm_done && !h_err) || hand_go || (st_q == SHalt && !c_busy_i);
  assign read_bytes_o   = g_bytes;
  assign tile_o         = tile_in;
  assign dbg_busy_o     = {h_busy, g_busy};
  assign wait_o         = (st_q == SHand || st_q == SHalt || (decided && op == TPU_OP_WHM)) && c_busy_i ||
                          (decided && op == TPU_OP_RHM && rhm_waits);
endmodule

`default_nettype wire
