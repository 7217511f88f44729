// SPDX-License-Identifier: Apache-2.0
// The lite core's front end: two instructions in program order, the one the fetch
// presents (K: checked by tpu_lite_check where it is, in the fetch ring's read
// register, while D's waits) and the decode register's (D). D's applies the
// weight-FIFO rule and is dispatched: rhm, rw and whm to the DMA engine (the row gather, tpu_lite_gather, and tpu_lite_whm), mmc and act
// to the compute unit, whose mmc and act run side by side; each runs on while the
// next instructions are fetched and checked.
//
// Order between them (each unit holds one instruction; program order is address order):
//   rhm            waits for the DMA engine, and for the compute unit's mmc or act
//                  when that one reads or writes the rows the rhm writes;
//   rw             waits for the DMA engine; its tiles go into FIFO slots as these free
//                  up, and an mmc that needs a tile waits for it whole (tpu_lite_mmc);
//   mmc            waits for the mmc before it, for the DMA engine unless it runs an
//                  rw (an rhm writes rows it reads), and for an act whose accumulator
//                  rows it would write or whose output rows it reads;
//   act            waits for the compute unit (the mmcs that sum its rows, their sums
//                  written) and for the DMA engine unless it runs an rw;
//   whm, halt      wait until all are idle (a whm then writes nothing an older
//                  instruction could still fault before). The fetch is not ordered
//                  against a whm: a program does not overwrite its own later
//                  instructions (docs/isa.md).
// The first fault in program order ends the run: the DMA engine's and the compute
// unit's faults (BUS_ERROR, WEIGHT_FIFO after an rw's tiles, ACT_PARAM) can come after
// a younger instruction's, so the oldest fault is kept (by order of dispatch). Dispatch
// stops at the first; the run ends once everything is idle (an mmc waiting for tiles
// that will not come is dropped). PCs are PcBits wide (the fetch's: at most DramBytes).
`default_nettype none

module tpu_lite_front #(
    parameter integer ArraySize  = 4,
    parameter integer UbRows     = 1024,
    parameter integer AccRows    = 512,
    parameter integer WfifoDepth = 16,
    parameter integer DataBits   = 32,
    parameter integer DramBytes  = 65536,
    parameter integer PcBits     = $clog2(DramBytes) + 1
) (
    input  wire                  clk_i,
    input  wire                  rst_ni,
    input  wire                  begin_i,      // a run begins (the fetch restarts at the entry)
    output wire                  end_o,        // the run ends now
    output wire                  failed_o,     // (with end_o) in ERROR with err_code_o at err_pc_o
    output wire [3:0]            err_code_o,
    output wire [PcBits-1:0]     err_pc_o,     // (with end_o) the fault's PC, or the halt's
    // the fetch
    input  wire                  f_valid_i,
    input  wire [127:0]          f_instr_i,
    input  wire [PcBits-1:0]     f_pc_i,
    input  wire [3:0]            f_err_i,
    output wire                  f_take_o,
    output wire                  f_restart_o,  // (a run begins: the fetch starts at the entry)
    output wire                  f_stop_o,
    // the compute unit
    output wire                  c_take_o,
    output wire [127:0]          c_instr_o,
    output wire [PcBits-1:0]     c_pc_o,
    input  wire                  c_mbusy_i,    // the compute unit's mmc, act are busy
    input  wire                  c_abusy_i,
    input  wire                  c_drain_i,    // mmc sums on their way to the accumulators
    input  wire                  c_fault_i,
    input  wire [PcBits-1:0]     c_fault_pc_i,
    input  wire                  c_pop_i,      // a tile left the FIFO for the array
    input  wire [UbBits-1:0]     c_m_row_i,    // the compute unit's next rows (tpu_lite_compute)
    input  wire [UbBits-1:0]     c_a_row_i,
    input  wire [UbBits-1:0]     c_a_params_i,
    input  wire [$clog2(AccRows)-1:0] c_a_acc_i,
    output wire                  c_avail_o,    // the FIFO holds a whole tile
    output wire                  c_abort_o,    // the run failed: drop an mmc waiting for tiles
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
    // the unified buffer's port (a DMA-in row before the compute unit's reads, after its
    // writes; a whm read after both)
    output wire                  ub_req_o,
    output wire                  ub_we_o,
    output wire [UbBits-1:0]     ub_addr_o,
    output wire [N*8-1:0]        ub_wdata_o,
    input  wire                  ub_grant_i,
    output wire                  ub_row_o,        // the request is a DMA-in row (from registers)
    input  wire                  ub_row_grant_i,  // such a row would be granted (from registers)
    input  wire [N*8-1:0]        ub_rdata_i,
    // the weight FIFO's write port
    output wire                  wf_we_o,
    output wire [WfBits-1:0]     wf_addr_o,
    output wire [N*8-1:0]        wf_wdata_o,
    // counter events
    output wire                  retire_o,     // an instruction is dispatched (or done)
    output wire [6:0]            read_bytes_o,
    output wire [6:0]            write_bytes_o,
    output wire                  tile_o,       // an rw tile is in the FIFO
    output wire                  wait_o,       // the decoded instruction waits for a unit
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
  localparam integer NM1 = N - 1;
  localparam integer AddrBits = PcBits - 1;   // a device-memory byte's address
  localparam integer AccBits  = $clog2(AccRows);
  localparam integer UbE      = UbBits + 1;    // a row range's ends
  localparam integer AccE     = AccBits + 1;
  localparam [UbE-1:0] ParamRows = {{(UbE-4){1'b0}}, TPU_ACT_PARAM_ROWS};

  // ---- K: the instruction the fetch presents, after D's, checked while D's waits ---------------------
  wire         ck_done;
  wire [3:0]   ck_err;
  wire [UbE-1:0]  ck_ub_end;
  wire [AccE-1:0] ck_acc_end;
  wire         ck_busy;
  // (K is the instruction the fetch presents, in its ring's read register: checked where
  // it is, taken when it moves to D; the fetch presents the next one the cycle after)
  reg          k_started_q, k_checked_q;
  // (the check's results stay on its outputs until its next start, after K moves to D)
  wire         restart;
  wire         load_d;                    // K's instruction moves to D
  wire         k_ready = f_valid_i && (f_err_i != TPU_ERR_NONE || k_checked_q);   // (f_err_i: nothing to check)
  wire         ck_start = f_valid_i && f_err_i == TPU_ERR_NONE && !k_started_q && !ck_busy && !restart;
  tpu_lite_check #(.ArraySize(N), .UbRows(UbRows), .AccRows(AccRows), .DramBytes(DramBytes)) u_check (
      .clk_i,
      .rst_ni(rst_ni && !restart),          // (a restart drops the instruction being checked)
      .start_i(ck_start),
      .instr_i(f_instr_i),
      .busy_o(ck_busy),
      .done_o(ck_done),
      .err_o(ck_err),
      .ub_end_o(ck_ub_end),
      .acc_end_o(ck_acc_end));
  always @(posedge clk_i) begin
    if (!rst_ni || restart || load_d) begin
      k_started_q <= 1'b0;
      k_checked_q <= 1'b0;
    end else begin
      if (ck_start) k_started_q <= 1'b1;
      if (ck_done)  k_checked_q <= 1'b1;
    end
  end

  // ---- D: the decode register: the next instruction in program order, checked ------------
  reg          d_valid_q, stop_q;
  reg  [127:0] d_q;
  reg  [PcBits-1:0] d_pc_q;
  reg  [3:0]   d_ferr_q;      // the fetch's fault at this PC
  reg  [3:0]   d_err_q;       // the check's result
  reg  [UbE-1:0]  d_ub_end_q;
  reg  [AccE-1:0] d_acc_end_q;
  wire [3:0]   op = d_q[3:0];

  // ---- the weight FIFO: the rule in program order, and the slots --------------------------------
  reg  [CntBits-1:0]  tiles_q;   // tiles rw instructions dispatched brought, no switch took yet
  // (and what the rule leaves an rw, Depth - tiles_q, with whether that is none: registers
  // of their own, so that D's rule is no subtraction deep and the next counts no chain of
  // three carries)
  reg  [CntBits-1:0]  room_q;
  reg                 room_none_q;
  reg                 active_q;  // a tile was switched in this run
  reg  [CntBits-1:0]  phys_q;    // whole tiles in the FIFO's memory (the compute unit pops them)
  reg  [SlotBits-1:0] tail_q;    // the slot the DMA engine writes
  wire        sw         = d_q[TPU_MMC_SWITCH_LSB];
  wire [4:0]  mmc_tiles  = {1'b0, d_q[TPU_MMC_TILES_LSB +: 4]} + 5'd1;
  wire [4:0]  rw_tiles   = {1'b0, d_q[TPU_RW_TILES_LSB +: 4]} + 5'd1;
  wire [4:0]  room       = {{(5-CntBits){1'b0}}, room_q};   // tiles the rule lets an rw load
  // (count < tiles_m1 + 1 as count <= tiles_m1, and tiles_m1 + 1 > room as tiles_m1 >=
  // room: a comparison, no add in front of it)
  wire        mmc_wf_bad = sw ? {{(5-CntBits){1'b0}}, tiles_q} <= {1'b0, d_q[TPU_MMC_TILES_LSB +: 4]} : !active_q;
  wire        rw_cut     = {1'b0, d_q[TPU_RW_TILES_LSB +: 4]} >= room;   // an rw faults after the tiles that fit
  wire [4:0]  rw_run     = rw_cut ? room : rw_tiles;

  // ---- the DMA engine: one rhm, rw or whm --------------------------------------------------------
  reg         x_on_q;            // a job runs
  reg  [1:0]  x_kind_q;          // 0 rhm, 1 rw, 2 whm
  reg  [PcBits-1:0] x_pc_q;
  reg         x_cut_q;           // rw: faults WEIGHT_FIFO after its tiles
  reg  [15:0] x_ub_q;            // rhm: the next row's place
  reg  [NBits-1:0] x_wrow_q;     // rw: the tile row being written
  localparam [1:0] KRhm = 2'd0, KRw = 2'd1, KWhm = 2'd2;
  wire        g_busy, g_row_valid, g_row_last, g_err, h_busy, h_err, whm_ub_req;
  wire [N*8-1:0] g_row;
  wire [UbBits-1:0] h_ub_addr;
  wire        g_row_ready;
  wire        x_busy = g_busy || h_busy;

  // ---- the compute unit's instructions: their rows ----------------------------------------------
  // the mmc reads UB [m_lo, m_hi); the act writes UB [a_lo, a_hi), reads its parameters
  // UB [p_lo, p_hi) and the accumulators [c_lo, c_hi)
  // (rows of an instruction that passed its checks: below UbRows, AccRows, ends at most
  // there, so UbBits + 1 and AccBits + 1 bits hold them)
  // (their first rows the compute unit's own counts: a range shrinks from below as its
  // rows are done with, its rows being in order)
  reg  [UbE-1:0]  m_hi_q, a_hi_q, p_hi_q;
  reg  [AccE-1:0] c_hi_q;
  wire [UbE-1:0]  m_lo = {1'b0, c_m_row_i}, a_lo = {1'b0, c_a_row_i}, p_lo = {1'b0, c_a_params_i};
  wire [AccE-1:0] c_lo = {1'b0, c_a_acc_i};
  wire [UbE-1:0]  ub_lo  = {1'b0, d_q[TPU_MMC_UB_LSB +: UbBits]};
  wire [AccE-1:0] acc_lo = {1'b0, d_q[TPU_MMC_ACC_LSB +: AccBits]};
  wire [UbE-1:0]  par_lo = {1'b0, d_q[TPU_ACT_PARAMS_LSB +: UbBits]};
  function automatic ub_overlap(input [UbE-1:0] alo, input [UbE-1:0] ahi, input [UbE-1:0] blo, input [UbE-1:0] bhi);
    ub_overlap = alo < bhi && blo < ahi;
  endfunction
  function automatic acc_overlap(input [AccE-1:0] alo, input [AccE-1:0] ahi, input [AccE-1:0] blo, input [AccE-1:0] bhi);
    acc_overlap = alo < bhi && blo < ahi;
  endfunction
  // an rhm writes rows one of them reads or the act writes; an mmc writes accumulator
  // rows the act reads, or reads rows it writes
  wire rhm_hazard = (c_mbusy_i && ub_overlap(ub_lo, d_ub_end_q, m_lo, m_hi_q)) ||
                    (c_abusy_i && (ub_overlap(ub_lo, d_ub_end_q, a_lo, a_hi_q) ||
                                   ub_overlap(ub_lo, d_ub_end_q, p_lo, p_hi_q)));
  wire mmc_hazard = c_abusy_i && (acc_overlap(acc_lo, d_acc_end_q, c_lo, c_hi_q) ||
                                  ub_overlap(ub_lo, d_ub_end_q, a_lo, a_hi_q));
  wire c_busy     = c_mbusy_i || c_abusy_i;
  // D's hazard is taken from a register, a cycle old (the comparisons were the front of
  // the iCEBreaker build's longest path, into the dispatch and all it starts): while D
  // waits nothing starts in the compute unit, its ranges only shrink and its busy flags
  // only fall, so last cycle's hazard covers this cycle's. D's first cycle has none yet.
  reg haz_q, haz_d_q;   // the hazard; it is D's (D was there the cycle before)
  always @(posedge clk_i) begin
    haz_q   <= op == TPU_OP_RHM ? rhm_hazard : mmc_hazard;
    haz_d_q <= d_valid_q && !load_d && !go;
  end

  // ---- dispatch -------------------------------------------------------------------------------------
  // (an instruction the fetch flagged never leaves: it faults; its check result is stale)
  wire d_fetch_bad = d_valid_q && !stop_q && d_ferr_q != TPU_ERR_NONE;
  wire ready     = d_valid_q && !stop_q && d_ferr_q == TPU_ERR_NONE;
  wire d_bad     = ready && (d_err_q != TPU_ERR_NONE || (op == TPU_OP_MMC && mmc_wf_bad) ||
                             (op == TPU_OP_RW && room_none_q));
  wire is_dma    = op == TPU_OP_RHM || op == TPU_OP_RW || op == TPU_OP_WHM;
  wire is_comp   = op == TPU_OP_MMC || op == TPU_OP_ACT;
  wire x_not_rw  = x_on_q && x_kind_q != KRw;
  reg  go;       // D's instruction leaves now
  always @(*) begin
    go = 1'b0;
    if (ready && !d_bad) begin
      case (op)
        TPU_OP_NOP, TPU_OP_SYNC: go = 1'b1;
        TPU_OP_HALT: go = !x_on_q && !c_busy && !c_drain_i;
        TPU_OP_RHM:  go = !x_on_q && haz_d_q && !haz_q;
        TPU_OP_RW:   go = !x_on_q;
        TPU_OP_WHM:  go = !x_on_q && !c_busy;
        TPU_OP_MMC:  go = !c_mbusy_i && !x_not_rw && haz_d_q && !haz_q;
        default:     go = !c_busy && !c_drain_i && !x_not_rw;   // act: after the mmcs that sum its rows
      endcase
    end
  end
  wire go_dma  = go && is_dma;
  wire go_comp = go && is_comp;
  wire go_halt = go && op == TPU_OP_HALT;

  // The DMA engine's job: its instruction's fields, held for the row gather and the whm
  // (one job at a time: one copy for both), and an rw's tile count.
  reg  [127:0] xi_q;
  reg  [3:0]   x_tiles_m1_q;
  wire         d_rw = op == TPU_OP_RW;
  wire [4:0]   rw_run_m1 = rw_run - 5'd1;
  // (loaded from D while no job runs, so that a dispatch moves only x_on_q, not these)
  always @(posedge clk_i) begin
    if (!x_on_q) begin
      xi_q         <= d_q;
      x_tiles_m1_q <= d_rw ? rw_run_m1[3:0] : 4'd0;
    end
  end

  // The row gather: rhm, one tile of its rows; rw, its tiles (as many as the rule lets
  // it load) of N rows, the first k from memory (one segment of n bytes each, or with
  // transpose n one-byte segments, stride apart), the rest zero.
  wire        x_rw  = x_kind_q == KRw;
  wire        rw_t  = xi_q[TPU_RW_TRANSPOSE_LSB];
  wire [5:0]  rw_k  = xi_q[TPU_RW_K_LSB +: 6];
  wire [5:0]  rw_n  = xi_q[TPU_RW_N_LSB +: 6];
  wire [15:0] rw_k16 = {10'd0, rw_k};
  wire [UbBits-1:0] rw_k_rows = rw_k16[UbBits-1:0];   // (k <= N - 1: checked)
  localparam [UbBits-1:0] NM1r = NM1[UbBits-1:0];
  tpu_lite_gather #(.ArraySize(N), .DataBits(DataBits), .AddrBits(AddrBits), .RowBits(UbBits)) u_gather (
      .clk_i,
      .rst_ni,
      .start_i(go_dma && op != TPU_OP_WHM),
      .base_i(d_q[TPU_RHM_ADDR_LSB +: AddrBits]),
      .tiles_m1_i(x_tiles_m1_q),
      .tstride_i(xi_q[TPU_RW_TSTRIDE_LSB +: AddrBits]),
      .rows_m1_i(x_rw ? NM1r : xi_q[TPU_RHM_ROWS_LSB +: UbBits]),
      .seg_rows_m1_i(x_rw ? rw_k_rows : xi_q[TPU_RHM_ROWS_LSB +: UbBits]),
      .rstride_i(x_rw ? (rw_t ? 16'd1 : xi_q[TPU_RW_STRIDE_LSB +: 16]) : xi_q[TPU_RHM_STRIDE_LSB +: 16]),
      .segs_m1_i(x_rw ? (rw_t ? rw_n : 6'd0) : xi_q[TPU_RHM_SEGS_LSB +: 6]),
      .segstride_i(x_rw ? xi_q[TPU_RW_STRIDE_LSB +: 16] : xi_q[TPU_RHM_SEGSTRIDE_LSB +: 16]),
      .seglen_m1_i(x_rw ? (rw_t ? 6'd0 : rw_n) : xi_q[TPU_RHM_SEGLEN_LSB +: 6]),
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
      .row_last_o(g_row_last),
      .row_ready_i(g_row_ready),
      .err_o(g_err),
      .bytes_o(read_bytes_o));
  // rhm rows go to the unified buffer as its port grants them, rw rows to the FIFO slot
  // being written, once it is free
  wire rhm_row  = x_on_q && !x_rw && g_row_valid;
  wire wf_write = x_on_q && x_rw && g_row_valid && phys_q != Depth;
  // (the row's grant from registers alone: the gather's readiness for the next beat
  // follows it into the bus's R channel and the board memory's read issue)
  assign g_row_ready = x_rw ? phys_q != Depth : ub_row_grant_i;
  wire tile_in  = wf_write && g_row_last;

  tpu_lite_whm #(.ArraySize(N), .DataBits(DataBits), .UbRows(UbRows), .AddrBits(AddrBits)) u_whm (
      .clk_i,
      .rst_ni,
      .start_i(go_dma && op == TPU_OP_WHM),
      .ub_i(d_q[TPU_WHM_UB_LSB +: UbBits]),
      .addr_i(d_q[TPU_WHM_ADDR_LSB +: AddrBits]),
      .rows_m1_i(xi_q[TPU_WHM_ROWS_LSB +: UbBits]),
      .groups_m1_i(xi_q[TPU_WHM_GROUPS_LSB +: 6]),
      .len_m1_i(xi_q[TPU_WHM_LEN_LSB +: NBits]),
      .stride_i(xi_q[TPU_WHM_STRIDE_LSB +: 16]),
      .gstride_i(xi_q[TPU_WHM_GSTRIDE_LSB +: 16]),
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

  // ---- faults: the oldest -------------------------------------------------------------------------
  // Dispatch stops at the first fault, so what can fault after it is older: D's instruction
  // is younger than the DMA engine's job and the compute unit's act (only those two fault
  // after dispatch), and which of those two is older is noted as the second starts.
  localparam [1:0] FD = 2'd0, FX = 2'd1, FC = 2'd2;
  reg        fault_q;
  reg [1:0]  fsrc_q;             // whose fault is kept: D's, the DMA job's, the act's
  reg        x_first_q;          // the DMA job is older than the act
  reg [3:0]  code_q;
  reg [PcBits-1:0] fpc_q;
  wire       x_done  = x_on_q && !x_busy && !go_dma;   // (the job's engine finished)
  wire       x_fault = x_done && (g_err || h_err || x_cut_q);
  wire [3:0] x_code  = x_kind_q == KWhm ? TPU_ERR_BUS_ERROR : g_err ? TPU_ERR_BUS_ERROR : TPU_ERR_WEIGHT_FIFO;
  wire       d_fault = d_fetch_bad || d_bad;
  wire [3:0] d_code  = d_fetch_bad ? d_ferr_q : d_err_q != TPU_ERR_NONE ? d_err_q : TPU_ERR_WEIGHT_FIFO;
  // (at most one of them a cycle in practice; if several, the oldest)
  reg        f_new;
  reg [1:0]  f_src;
  reg [3:0]  f_code;
  reg [PcBits-1:0] f_pc;
  always @(*) begin
    f_new = 1'b0; f_src = fsrc_q; f_code = code_q; f_pc = fpc_q;
    if (d_fault && !fault_q) begin   // (D faults only before dispatch stops)
      f_new = 1'b1; f_src = FD; f_code = d_code; f_pc = d_pc_q;
    end
    if (x_fault && (!(fault_q || f_new) || f_src == FD || (f_src == FC && x_first_q))) begin
      f_new = 1'b1; f_src = FX; f_code = x_code; f_pc = x_pc_q;
    end
    if (c_fault_i && (!(fault_q || f_new) || f_src == FD || (f_src == FX && !x_first_q))) begin
      f_new = 1'b1; f_src = FC; f_code = TPU_ERR_ACT_PARAM; f_pc = c_fault_pc_i;
    end
  end

  // ---- the run ----------------------------------------------------------------------------------------
  reg        on_q, halted_q;
  wire       idle_all = !x_on_q && !c_busy && !c_drain_i && !bus_busy_i;
  assign     restart  = begin_i;
  assign     load_d   = on_q && !stop_q && (!d_valid_q || go) && k_ready && !restart;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      on_q      <= 1'b0;
      stop_q    <= 1'b1;
      fault_q   <= 1'b0;
      halted_q  <= 1'b0;
      d_valid_q <= 1'b0;
      x_on_q    <= 1'b0;
    end else if (begin_i) begin
      on_q      <= 1'b1;
      stop_q    <= 1'b0;
      fault_q   <= 1'b0;
      halted_q  <= 1'b0;
      d_valid_q <= 1'b0;
      x_on_q    <= 1'b0;
    end else begin
      if (f_new) begin
        fault_q <= 1'b1;
        fsrc_q  <= f_src;
        code_q  <= f_code;
        fpc_q   <= f_pc;
        stop_q  <= 1'b1;
      end
      // the job or act starting now is younger than the other if that one runs
      if (go_dma) x_first_q <= !c_abusy_i;
      if (go_comp && op == TPU_OP_ACT) x_first_q <= x_on_q;
      if (go_halt) begin
        halted_q <= 1'b1;
        stop_q   <= 1'b1;
        if (!fault_q && !f_new) fpc_q <= d_pc_q;   // (a run that ends DONE shows the halt's PC)
      end
      if (load_d) d_valid_q <= 1'b1;
      else if (go) d_valid_q <= 1'b0;
      if (go_dma) x_on_q <= 1'b1;
      else if (x_done) x_on_q <= 1'b0;
      if (on_q && stop_q && idle_all) on_q <= 1'b0;
    end
  end

  always @(posedge clk_i) begin
    if (load_d) begin
      d_q         <= f_instr_i;
      d_pc_q      <= f_pc_i;
      d_ferr_q    <= f_err_i;
      d_err_q     <= ck_err;       // (stale when f_err_i flags it: D never lets it leave)
      d_ub_end_q  <= ck_ub_end;
      d_acc_end_q <= ck_acc_end;
    end
    if (!x_on_q) begin   // (D's, until a job starts: as xi_q)
      x_kind_q <= op == TPU_OP_RHM ? KRhm : op == TPU_OP_RW ? KRw : KWhm;
      x_pc_q   <= d_pc_q;
      x_cut_q  <= op == TPU_OP_RW && rw_cut;
      x_ub_q   <= d_q[TPU_RHM_UB_LSB +: 16];
      x_wrow_q <= {NBits{1'b0}};
    end
    if (rhm_row && ub_grant_i) x_ub_q <= x_ub_q + 16'd1;
    if (wf_write) x_wrow_q <= g_row_last ? {NBits{1'b0}} : x_wrow_q + 1'b1;
    if (go_comp && op == TPU_OP_MMC) begin   // the compute unit's rows, for what comes after
      m_hi_q <= d_ub_end_q;
    end
    if (go_comp && op == TPU_OP_ACT) begin
      a_hi_q <= d_ub_end_q;
      p_hi_q <= par_lo + ParamRows;
      c_hi_q <= d_acc_end_q;
    end
  end

  // the weight FIFO's counts
  wire sw_go = go_comp && op == TPU_OP_MMC && sw;
  always @(posedge clk_i) begin
    if (!rst_ni || begin_i) begin
      tiles_q     <= {CntBits{1'b0}};
      room_q      <= Depth;
      room_none_q <= Depth == {CntBits{1'b0}};
      active_q    <= 1'b0;
    end else begin
      if (go_dma && d_rw) begin   // (cut: it fills the FIFO)
        tiles_q     <= rw_cut ? Depth : tiles_q + rw_tiles[CntBits-1:0];
        room_q      <= rw_cut ? {CntBits{1'b0}} : room_q - rw_tiles[CntBits-1:0];
        room_none_q <= rw_tiles >= room;
      end
      if (sw_go) begin
        tiles_q     <= tiles_q - mmc_tiles[CntBits-1:0];
        room_q      <= room_q + mmc_tiles[CntBits-1:0];
        room_none_q <= 1'b0;
        active_q    <= 1'b1;
      end
    end
    if (!rst_ni || begin_i) begin
      phys_q <= {CntBits{1'b0}};
      tail_q <= {SlotBits{1'b0}};
    end else begin
      phys_q <= phys_q + {{(CntBits-1){1'b0}}, tile_in} - {{(CntBits-1){1'b0}}, c_pop_i};
      if (tile_in) tail_q <= tail_q == WfifoDepth[SlotBits-1:0] - 1'b1 ? {SlotBits{1'b0}} : tail_q + 1'b1;
    end
  end

  assign end_o          = on_q && stop_q && idle_all;
  assign failed_o       = fault_q;
  assign err_code_o     = code_q;
  assign err_pc_o       = fpc_q;
  assign f_take_o       = load_d;
  assign f_restart_o    = restart;
  assign f_stop_o       = stop_q;
  assign c_take_o       = go_comp;
  assign c_instr_o      = d_q;
  assign c_pc_o         = d_pc_q;
  assign c_avail_o      = phys_q != {CntBits{1'b0}};
  assign c_abort_o      = fault_q && !x_on_q;
  assign ub_req_o       = rhm_row || whm_ub_req;
  assign ub_we_o        = !whm_ub_req;
  assign ub_row_o       = rhm_row;
  assign ub_addr_o      = whm_ub_req ? h_ub_addr : x_ub_q[UbBits-1:0];
  assign ub_wdata_o     = g_row;
  assign wf_we_o        = wf_write;
  assign wf_addr_o      = {tail_q, x_wrow_q};
  assign wf_wdata_o     = g_row;
  assign retire_o       = go;
  assign tile_o         = tile_in;
  assign wait_o         = ready && !d_bad && !go;
  assign dbg_busy_o     = {h_busy, g_busy};

  wire unused = ^{halted_q, x_ub_q[15:UbBits], rw_run_m1[4], rw_k16, mmc_tiles};
endmodule

`default_nettype wire
