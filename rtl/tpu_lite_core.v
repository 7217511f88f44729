// SPDX-License-Identifier: Apache-2.0
// The lite core: the same instruction set, registers, error codes and bus ports as
// tpu_core, bit-exact with the same golden model, with a weight-stationary N x N array
// in a few thousand logic cells, for FPGAs like the iCE40 UP5K (docs/architecture.md,
// "The lite core").
//
//   fetch (tpu_lite_fetch)      instruction words read ahead into a ring in block RAM
//   front end (tpu_lite_front)  checks, the weight-FIFO rule, rhm / rw / whm, hand-over
//   compute (tpu_lite_compute)  mmc (the array, a row a cycle) and act, side by side
//   bus (tpu_lite_bus)          single-word AXI4 reads and writes, several in flight (the
//                               DMA's reads before the fetch's, unless it runs dry)
//
// Memories: the unified buffer (tpu_lite_ub, single-port: scrubbing, then the compute
// unit, then the front end), the weight FIFO (written by rw, read as tiles enter the
// array), the accumulators (inside the compute unit), the fetch ring.
`default_nettype none
`include "tpu_geometry.vh"

module tpu_lite_core #(
    `TPU_GEOMETRY_PARAMS(4, 1024, 512, 32, 65536),
    parameter integer RingWords = 256   // the fetch ring: 64 instructions of 32-bit words
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,
`include "tpu_bus_ports.vh"
    output wire                    irq_o,
    // observation, as on tpu_core (one scoreboard slot)
    output wire                    trace_issue_o,
    output wire [31:0]             trace_pc_o,
    output wire [3:0]              trace_op_o,
    output wire [0:0]              trace_slot_o,
    output wire [0:0]              trace_retire_o,
    output wire [3:0]              dbg_unit_busy_o,   // DMA-in, matrix, activation, DMA-out
    output wire [4*8-1:0]          dbg_queue_count_o
);
`include "tpu_isa.vh"
  localparam integer N        = ArraySize;
  localparam integer NBits    = $clog2(N);
  localparam integer UbBits   = $clog2(UbRows);
  localparam integer Counters = TPU_COUNTERS;
  localparam integer SlotBits = (WfifoDepth > 1) ? $clog2(WfifoDepth) : 1;
  localparam integer WfBits   = SlotBits + NBits;
  // PCs inside the core: at most DramBytes (an entry beyond it: pc_q, entry_far_q)
  localparam integer PcBits   = $clog2(DramBytes) + 1;
  initial begin
    if (PcBits > 31) begin
      $display("tpu_lite_core: DramBytes at most 2^30");
      $finish;
    end
  end

  // ---- registers and run control ---------------------------------------------------------
  wire        start, soft_reset;
  wire [31:0] entry;
  wire [1:0]  run_state;
  wire        running, begin_run, scrub_go;
  wire        run_end, run_failed;
  wire [3:0]  end_code;
  wire [PcBits-1:0] end_pc;
  reg  [3:0]  err_code_q;
  reg  [31:0] pc_q;          // PC: the run's entry, then where it ended (an entry far out stays)
  reg         entry_far_q;   // the entry leaves no instruction in device memory: the run faults there
  wire        cnt_rd, cnt_valid;
  wire [4:0]  cnt_index;
  wire [63:0] cnt_value;
  tpu_csr #(`TPU_GEOMETRY_PASS, .Counters(Counters), .CountersHold(1)) u_csr (
      .clk_i,
      .rst_ni,
`include "tpu_csr_bus.vh"
      .start_o(start),
      .soft_reset_o(soft_reset),
      .entry_o(entry),
      .state_i(run_state),
      .error_i(run_state == TPU_STATE_ERROR ? err_code_q : TPU_ERR_NONE),
      .pc_i(pc_q),
      .run_end_i(running && run_end),
      .cnt_rd_o(cnt_rd),
      .cnt_index_o(cnt_index),
      .cnt_valid_i(cnt_valid),
      .cnt_value_i(cnt_value),
      .irq_o(irq_o));

  // Soft reset returns everything but the registers to the reset state (as on tpu_core).
  wire rst_n = rst_ni && !soft_reset;
  wire scrub_busy_ub, scrub_busy_acc;
  tpu_run_ctl u_run (
      .clk_i,
      .rst_ni(rst_n),
      .start_i(start),
      .scrub_busy_i(scrub_busy_ub || scrub_busy_acc),
      .end_i(run_end),
      .failed_i(run_failed),
      .state_o(run_state),
      .running_o(running),
      .begin_o(begin_run),
      .scrub_o(scrub_go));
  localparam [31:0] LastInstr = DramBytes - 16;
  wire entry_far = {entry[31:4], 4'd0} > LastInstr;
  always @(posedge clk_i) begin
    if (begin_run) begin
      pc_q        <= {entry[31:4], 4'd0};
      entry_far_q <= entry_far;
    end
    if (running && run_end) begin
      if (!entry_far_q) pc_q <= {{(32-PcBits){1'b0}}, end_pc};
      err_code_q <= end_code;
    end
  end

  // ---- the bus -------------------------------------------------------------------------------
  wire                  f_req, f_urgent, f_grant, f_beat, d_req, d_grant, d_beat, d_ready, rerr, rd_busy;
  wire [31:0]           f_addr, d_addr;
  wire [DmaWidth-1:0]   rdata;
  wire                  w_req, w_grant, w_busy, w_err;
  wire [31:0]           w_addr;
  wire [DmaWidth-1:0]   w_data;
  wire [DmaWidth/8-1:0] w_strb;
  tpu_lite_bus #(.DataBits(DmaWidth)) u_bus (
      .clk_i,
      .rst_ni(rst_n),
      .a_req_i(f_req),
      .a_urgent_i(f_urgent),
      .a_addr_i(f_addr),
      .a_grant_o(f_grant),
      .b_req_i(d_req),
      .b_addr_i(d_addr),
      .b_grant_o(d_grant),
      .a_beat_o(f_beat),
      .b_beat_o(d_beat),
      .b_ready_i(d_ready),
      .rdata_o(rdata),
      .rerr_o(rerr),
      .rd_busy_o(rd_busy),
      .w_req_i(w_req),
      .w_addr_i(w_addr),
      .w_data_i(w_data),
      .w_strb_i(w_strb),
      .w_grant_o(w_grant),
      .w_busy_o(w_busy),
      .w_err_o(w_err),
`include "tpu_axi_rd_connect.vh"
`include "tpu_axi_wr_connect.vh"
      );

  // ---- fetch -----------------------------------------------------------------------------------
  wire         fi_valid, fi_take, fi_restart, fi_stop, unused_fetch_busy;
  wire [127:0] fi_instr;
  wire [PcBits-1:0] fi_pc;
  localparam [PcBits-1:0] DramEnd = DramBytes[PcBits-1:0];
  wire [3:0]   fi_err;
  tpu_lite_fetch #(.DataBits(DmaWidth), .DramBytes(DramBytes), .RingWords(RingWords), .PcBits(PcBits)) u_fetch (
      .clk_i,
      .rst_ni(rst_n),
      .restart_i(fi_restart),
      .pc_i(entry_far ? DramEnd : {entry[PcBits-1:4], 4'd0}),   // (the fetch restarts only when a run begins)
      .stop_i(fi_stop),
      .req_o(f_req),
      .urgent_o(f_urgent),
      .addr_o(f_addr),
      .grant_i(f_grant),
      .beat_i(f_beat),
      .data_i(rdata),
      .beat_err_i(rerr),
      .busy_o(unused_fetch_busy),
      .valid_o(fi_valid),
      .instr_o(fi_instr),
      .pc_o(fi_pc),
      .err_o(fi_err),
      .take_i(fi_take));

  // ---- the unified buffer's port and the weight FIFO ---------------------------------------------
  wire              c_ub_req, c_ub_we, fe_ub_req, fe_ub_we, fe_ub_row;
  wire [UbBits-1:0] c_ub_addr, fe_ub_addr;
  wire [N*8-1:0]    c_ub_wdata, fe_ub_wdata, ub_rdata;
  wire [N-1:0]      c_ub_be;
  wire              ub_scrubbing;
  wire [UbBits-1:0] ub_scrub_row;
  tpu_scrub #(.Rows(UbRows)) u_ub_scrub (
      .clk_i,
      .rst_ni(rst_n),
      .start_i(scrub_go),
      .active_o(ub_scrubbing),
      .row_o(ub_scrub_row));
  assign scrub_busy_ub = ub_scrubbing;
  // The port: the scrub, then the act's writes (never held), a DMA-in row, the compute
  // unit's reads, a whm's reads. (A DMA-in row's grant reads registers only: the act's
  // write flag and the row's own; it comes before the compute unit's requests, whose
  // logic would otherwise run on through the gather's readiness into the bus.)
  wire fe_row_grant = !ub_scrubbing && !c_ub_we;
  wire c_ub_grant   = !ub_scrubbing && c_ub_req && (c_ub_we || !fe_ub_row);
  wire fe_ub_grant  = fe_ub_row ? fe_row_grant : !ub_scrubbing && !c_ub_req && fe_ub_req;
  // the bytes written: every byte of a scrubbed row or the front end's, the act's one lane
  wire [N-1:0] ub_we = ub_scrubbing ? {N{1'b1}} : c_ub_grant ? (c_ub_we ? c_ub_be : {N{1'b0}}) :
                       {N{fe_ub_we}};
  tpu_lite_ub #(.Width(N * 8), .Rows(UbRows)) u_ub (
      .clk_i,
      .en_i(ub_scrubbing || c_ub_grant || fe_ub_grant),
      .we_i(ub_we),
      .addr_i(ub_scrubbing ? ub_scrub_row : c_ub_grant ? c_ub_addr : fe_ub_addr),
      .wdata_i(ub_scrubbing ? {N*8{1'b0}} : c_ub_grant ? c_ub_wdata : fe_ub_wdata),
      .rdata_o(ub_rdata));

  wire              wf_we, wf_rd, wf_pop;
  wire [WfBits-1:0] wf_waddr, wf_raddr;
  wire [N*8-1:0]    wf_wdata, wf_rdata;
  tpu_small_ram #(.Width(N * 8), .Depth((1 << SlotBits) * N)) u_wfifo (
      .clk_i,
      .rd_en_i(wf_rd),
      .rd_addr_i(wf_raddr),
      .rd_data_o(wf_rdata),
      .wr_en_i(wf_we),
      .wr_addr_i(wf_waddr),
      .wr_data_i(wf_wdata));

  // ---- front end and compute unit ---------------------------------------------------------------
  wire         c_take, c_mbusy, c_abusy, c_drain, c_fault, c_row, c_avail, c_abort;
  wire [127:0] c_instr;
  wire [PcBits-1:0] c_pc, c_fault_pc;
  wire         retire, tile, waits;
  wire [UbBits-1:0] c_m_row, c_a_row, c_a_params;
  wire [$clog2(AccRows)-1:0] c_a_acc;
  wire [6:0]   read_bytes, write_bytes;
  wire [1:0]   fe_dbg, c_dbg;
  tpu_lite_front #(.ArraySize(N), .UbRows(UbRows), .AccRows(AccRows), .WfifoDepth(WfifoDepth),
                   .DataBits(DmaWidth), .DramBytes(DramBytes), .PcBits(PcBits)) u_front (
      .clk_i,
      .rst_ni(rst_n),
      .begin_i(begin_run),
      .end_o(run_end),
      .failed_o(run_failed),
      .err_code_o(end_code),
      .err_pc_o(end_pc),
      .f_valid_i(fi_valid),
      .f_instr_i(fi_instr),
      .f_pc_i(fi_pc),
      .f_err_i(fi_err),
      .f_take_o(fi_take),
      .f_restart_o(fi_restart),
      .f_stop_o(fi_stop),
      .c_take_o(c_take),
      .c_instr_o(c_instr),
      .c_pc_o(c_pc),
      .c_mbusy_i(c_mbusy),
      .c_abusy_i(c_abusy),
      .c_drain_i(c_drain),
      .c_fault_i(c_fault),
      .c_fault_pc_i(c_fault_pc),
      .c_pop_i(wf_pop),
      .c_m_row_i(c_m_row),
      .c_a_row_i(c_a_row),
      .c_a_params_i(c_a_params),
      .c_a_acc_i(c_a_acc),
      .c_avail_o(c_avail),
      .c_abort_o(c_abort),
      .rd_req_o(d_req),
      .rd_addr_o(d_addr),
      .rd_grant_i(d_grant),
      .beat_i(d_beat),
      .beat_data_i(rdata),
      .beat_err_i(rerr),
      .beat_ready_o(d_ready),
      .w_req_o(w_req),
      .w_addr_o(w_addr),
      .w_data_o(w_data),
      .w_strb_o(w_strb),
      .w_grant_i(w_grant),
      .w_busy_i(w_busy),
      .w_err_i(w_err),
      .bus_busy_i(rd_busy || w_busy),
      .ub_req_o(fe_ub_req),
      .ub_we_o(fe_ub_we),
      .ub_addr_o(fe_ub_addr),
      .ub_wdata_o(fe_ub_wdata),
      .ub_grant_i(fe_ub_grant),
      .ub_row_o(fe_ub_row),
      .ub_row_grant_i(fe_row_grant),
      .ub_rdata_i(ub_rdata),
      .wf_we_o(wf_we),
      .wf_addr_o(wf_waddr),
      .wf_wdata_o(wf_wdata),
      .retire_o(retire),
      .read_bytes_o(read_bytes),
      .write_bytes_o(write_bytes),
      .tile_o(tile),
      .wait_o(waits),
      .dbg_busy_o(fe_dbg));

  tpu_lite_compute #(.ArraySize(N), .UbRows(UbRows), .AccRows(AccRows), .WfifoDepth(WfifoDepth),
                     .PcBits(PcBits)) u_compute (
      .clk_i,
      .rst_ni(rst_n),
      .take_i(c_take),
      .instr_i(c_instr),
      .pc_i(c_pc),
      .mmc_busy_o(c_mbusy),
      .act_busy_o(c_abusy),
      .drain_o(c_drain),
      .fault_o(c_fault),
      .fault_pc_o(c_fault_pc),
      .ub_req_o(c_ub_req),
      .ub_we_o(c_ub_we),
      .ub_addr_o(c_ub_addr),
      .ub_wdata_o(c_ub_wdata),
      .ub_be_o(c_ub_be),
      .ub_grant_i(c_ub_grant),
      .ub_rdata_i(ub_rdata),
      .wf_rd_o(wf_rd),
      .wf_addr_o(wf_raddr),
      .wf_rdata_i(wf_rdata),
      .wf_pop_o(wf_pop),
      .wf_avail_i(c_avail),
      .abort_i(c_abort),
      .scrub_i(scrub_go),
      .scrub_busy_o(scrub_busy_acc),
      .row_o(c_row),
      .m_row_o(c_m_row),
      .a_row_o(c_a_row),
      .a_params_o(c_a_params),
      .a_acc_o(c_a_acc),
      .dbg_busy_o(c_dbg));

  // ---- performance counters (in block RAM: tpu_counters_ram) --------------------------------------
  // Steps: bytes at most N a cycle (a segment's or a row's); a row entering the array is
  // one event that counts N * N MACs (Scaled, 2^MacShift).
  localparam integer StepBits = $clog2(N + 1);
  localparam integer MacShift = 2 * NBits;
  wire [Counters*StepBits-1:0] steps;
  assign steps[StepBits*TPU_CNT_CYCLES +: StepBits]           = {{(StepBits-1){1'b0}}, 1'b1};
  assign steps[StepBits*TPU_CNT_INSTRUCTIONS +: StepBits]     = {{(StepBits-1){1'b0}}, retire};
  assign steps[StepBits*TPU_CNT_MACS +: StepBits]             = {{(StepBits-1){1'b0}}, c_row};
  assign steps[StepBits*TPU_CNT_DRAM_READ_BYTES +: StepBits]  = read_bytes[StepBits-1:0];
  assign steps[StepBits*TPU_CNT_DRAM_WRITE_BYTES +: StepBits] = write_bytes[StepBits-1:0];
  assign steps[StepBits*TPU_CNT_WEIGHT_TILES +: StepBits]     = {{(StepBits-1){1'b0}}, tile};
  assign steps[StepBits*TPU_CNT_MATRIX_ACTIVE +: StepBits]    = {{(StepBits-1){1'b0}}, c_row};
  assign steps[StepBits*TPU_CNT_RAW_STALL +: StepBits]        = {{(StepBits-1){1'b0}}, waits};
  assign steps[StepBits*TPU_CNT_DMA_WAIT +: StepBits]         = {{(StepBits-1){1'b0}}, d_ready && !d_beat};
  // a switch never waits for an rw here (the front end runs rw before what follows it)
  localparam [Counters-1:0] NoStalls = (1 << TPU_CNT_WEIGHT_STALL) | (1 << TPU_CNT_WEIGHT_SHIFT);
  assign steps[StepBits*TPU_CNT_WEIGHT_STALL +: StepBits] = {StepBits{1'b0}};
  assign steps[StepBits*TPU_CNT_WEIGHT_SHIFT +: StepBits] = {StepBits{1'b0}};
  localparam [Counters-1:0] Macs   = 1 << TPU_CNT_MACS;
  localparam [Counters-1:0] Single = (1 << TPU_CNT_CYCLES) | (1 << TPU_CNT_INSTRUCTIONS) | (1 << TPU_CNT_WEIGHT_TILES) |
                                     (1 << TPU_CNT_MATRIX_ACTIVE) | (1 << TPU_CNT_RAW_STALL) | (1 << TPU_CNT_DMA_WAIT) | Macs;
  // instructions a failed run retired: those before its fault (none when it began far)
  wire [PcBits-1:0] run_instrs = entry_far_q ? {PcBits{1'b0}} : (end_pc - pc_q[PcBits-1:0]) >> 4;   // (pc_q: the entry until the run ends)
  tpu_counters_ram #(.Counters(Counters), .StepBits(StepBits), .Zero(NoStalls), .OneBit(Single), .Scaled(Macs),
                     .OneShift(MacShift)) u_counters (
      .clk_i,
      .rst_ni      (rst_n),
      .clear_i     (begin_run),
      .counting_i  (running),
      .step_i      (steps),
      .load_i      (running && run_end && run_failed),
      .load_value_i({{(64-PcBits){1'b0}}, run_instrs}),
      .rd_i        (cnt_rd),
      .rd_index_i  (cnt_index),
      .rd_valid_o  (cnt_valid),
      .rd_value_o  (cnt_value));

  // ---- observation ----------------------------------------------------------------------------------
  assign trace_issue_o     = fi_take;
  assign trace_pc_o        = entry_far_q ? pc_q : {{(32-PcBits){1'b0}}, fi_pc};
  assign trace_op_o        = fi_instr[3:0];
  assign trace_slot_o      = 1'b0;
  assign trace_retire_o    = retire;
  assign dbg_unit_busy_o   = {fe_dbg[1], c_dbg[1], c_dbg[0], fe_dbg[0]};
  assign dbg_queue_count_o = 32'd0;

  wire unused = ^{entry[3:0], unused_fetch_busy, read_bytes[6:StepBits], write_bytes[6:StepBits]};   // (bytes <= N)
endmodule

`default_nettype wire
