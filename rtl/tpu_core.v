// SPDX-License-Identifier: Apache-2.0
// Tessera core top: the CSR block, the controller with fetch and the four unit
// sequencers, the memories, the matrix unit and the activation unit, and the DMA
// engines on one AXI4 master. Parameters come from the YAML configuration
// (docs/config.md); the build passes them as -G flags.
//
// Shared ports, arbitrated here by fixed priority:
//   unified-buffer read:  activation parameters > whm rows > mmc input rows
//   unified-buffer write: scrubbing (idle only) > activation results on port 1; rhm rows
//                         on port 2, beside port 1 when in the other bank
//   AXI read engine:      instruction fetch > rhm/rw spans (several spans in flight)
`default_nettype none
`include "tpu_geometry.vh"

module tpu_core #(
    `TPU_GEOMETRY_PARAMS(16, 4096, 2048, 128, 1048576),
    parameter integer Slots      = 8,    // instructions in flight (scoreboard slots)
    parameter integer QueueDepth = 4,    // per-unit instruction queue
    parameter integer MaxBeats   = 16,   // longest AXI burst
    parameter integer ReadBursts = 32,   // AXI read bursts in flight (one-beat rows: covers the memory latency)
    parameter integer SerialAct  = 0,    // 1: one requantization lane serves all N (small FPGAs)
    parameter integer LogicRows  = 0,    // the matrix unit's last rows multiply in logic (FPGAs short of multipliers)
    parameter integer GatherSegs = 3     // DMA window gather of rows of up to this many segments (0: off)
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,
`include "tpu_bus_ports.vh"
    output wire                    irq_o,
    // observation for testbench monitors and watchdogs (no effect on the core)
    output wire                    trace_issue_o,     // an instruction left decode ...
    output wire [31:0]             trace_pc_o,        // ... at this address
    output wire [3:0]              trace_op_o,
    output wire [SlotBits-1:0]     trace_slot_o,      // its scoreboard slot (unit instructions)
    output wire [Slots-1:0]        trace_retire_o,    // unit instructions retiring
    output wire [3:0]              dbg_unit_busy_o,   // DMA-in, matrix, activation, DMA-out
    output wire [4*8-1:0]          dbg_queue_count_o  // entries in each unit's queue
);
`include "tpu_isa.vh"
  localparam integer N         = ArraySize;
  localparam integer Counters  = TPU_COUNTERS;
  localparam integer SlotBits  = (Slots > 1) ? $clog2(Slots) : 1;
  localparam integer UbBits    = $clog2(UbRows);
  localparam integer AccBits   = $clog2(AccRows);
  localparam integer LaneBits  = $clog2(DmaWidth / 8);
  localparam integer RowBits   = (N > 1) ? $clog2(N) : 1;
  localparam integer TileBits  = $clog2(WfifoDepth + 1);
  localparam integer QBits     = $clog2(QueueDepth);
  localparam integer QWidth    = 128 + 32 + SlotBits;

  // ---- registers -------------------------------------------------------------------
  wire        start, soft_reset;
  wire [31:0] entry;
  wire [1:0]  run_state;
  wire [3:0]  run_error;
  wire [31:0] run_pc;
  wire        run_end;
  wire        cnt_rd, cnt_valid;
  wire [4:0]  cnt_index;
  wire [63:0] cnt_value;
  tpu_csr #(`TPU_GEOMETRY_PASS, .Counters(Counters)) u_csr (
      .clk_i,
      .rst_ni,
`include "tpu_csr_bus.vh"
      .start_o(start),
      .soft_reset_o(soft_reset),
      .entry_o(entry),
      .state_i(run_state),
      .error_i(run_error),
      .pc_i(run_pc),
      .run_end_i(run_end),
      .cnt_rd_o(cnt_rd),
      .cnt_index_o(cnt_index),
      .cnt_valid_i(cnt_valid),
      .cnt_value_i(cnt_value),
      .irq_o(irq_o));

  // Soft reset returns everything but the registers to the reset state. It abandons
  // bus transfers in flight, so the host issues it only with the DMA idle (docs).
  // (A register: the units' synchronous resets and the controller's flush start at a
  // flip-flop, not at the AND of the two; a reset then starts and ends a cycle later.)
  reg  rst_n_q;
  always @(posedge clk_i) rst_n_q <= rst_ni && !soft_reset;
  wire rst_n = rst_n_q;

  // ---- controller and fetch -----------------------------------------------------------
  wire         fetch_start, fetch_stop, fetch_busy;
  wire         f_valid, f_ready;
  wire         d_pop;        // an instruction (or a tile of one) left decode (issued, or retired at once)
  wire [127:0] f_instr;
  wire [31:0]  f_pc;
  wire [3:0]   f_fault;
  wire [3:0]   q_push, q_ready, unit_idle;
  wire [SlotBits-1:0] whm_head_slot;   // the whm at the DMA-out queue head ...
  wire                whm_hold;        // ... waits for its fence (tpu_controller)
  wire [127:0] q_instr;
  wire [31:0]  q_pc;
  wire [SlotBits-1:0] q_slot;
  wire [Slots-1:0] retire_in, retire_mmc, retire_act, retire_out;
  wire         fault_in, fault_act, fault_out;
  wire [31:0]  fault_pc_in, fault_pc_act, fault_pc_out;
  wire         err_valid, clear;
  wire [31:0]  err_pc;
  wire         scrub, ub_scrubbing, acc_scrubbing;
  wire         ev_row, ev_wstall, ev_wshift, ev_dma_wait, ev_tile;
  wire [6:0]   read_bytes, write_bytes;
  // chaining: the activation unit reads accumulator rows as the matrix unit writes them,
  // the DMA-out unit UB rows as the activation unit writes them (tpu_chain_track)
  wire                accw_valid, acc_wait, ub_wait, acc_wait_next, ub_wait_next;
  wire [AccBits-1:0]  acc_chk, acc_chk_next;   // chaining: the readers' next rows
  wire [UbBits-1:0]   ub_chk, ub_chk_alt, ub_chk_next;
  wire                ub_chk_use_alt;
  wire [SlotBits-1:0] accw_slot, act_slot;
  wire [AccBits-1:0]  accw_addr;
  wire [AccBits-1:0]  acc_ra;           // the activation unit's next accumulator read
  wire [UbBits-1:0]   ubr_addr_out;     // the DMA-out unit's next UB read
  wire                ubw_act;          // the activation unit's UB writes
  wire [UbBits-1:0]   ubw_addr_act;
  wire                act_chain_valid;  // ... each a cycle ahead, for chaining
  wire [UbBits-1:0]   act_chain_addr;
  wire [Slots-1:0]    act_checked;

  tpu_controller #(.ArraySize(N), .UbRows(UbRows), .AccRows(AccRows), .WfifoDepth(WfifoDepth),
                   .DramBytes(DramBytes), .Slots(Slots), .Counters(Counters)) u_controller (
      .clk_i,
      .rst_ni(rst_n),
      .start_i(start),
      .entry_i(entry),
      .fetch_start_o(fetch_start),
      .fetch_stop_o(fetch_stop),
      .fetch_busy_i(fetch_busy),
      .f_valid_i(f_valid),
      .f_ready_o(f_ready),
      .f_instr_i(f_instr),
      .f_pc_i(f_pc),
      .f_fault_i(f_fault),
      .q_valid_o(q_push),
      .q_ready_i(q_ready),
      .q_instr_o(q_instr),
      .q_pc_o(q_pc),
      .q_slot_o(q_slot),
      .pop_o(d_pop),
      .unit_idle_i(unit_idle),
      .whm_slot_i(whm_head_slot),
      .whm_hold_o(whm_hold),
      .retire_i(retire_in | retire_mmc | retire_act | retire_out),
      .fault_i({fault_out, fault_act, fault_in}),
      .fault_code_i({TPU_ERR_BUS_ERROR, TPU_ERR_ACT_PARAM, TPU_ERR_BUS_ERROR}),
      .fault_pc_i({fault_pc_out, fault_pc_act, fault_pc_in}),
      .err_valid_o(err_valid),
      .err_pc_o(err_pc),
      .clear_o(clear),
      .scrub_o(scrub),
      .scrub_busy_i(ub_scrubbing || acc_scrubbing),
      .ev_row_i(ev_row),
      .ev_weight_stall_i(ev_wstall),
      .ev_weight_shift_i(ev_wshift),
      .ev_dma_wait_i(ev_dma_wait),
      .read_bytes_i(read_bytes),
      .write_bytes_i(write_bytes),
      .tile_i(ev_tile),
      .accw_valid_i(accw_valid),
      .accw_slot_i(accw_slot),
      .accw_addr_i(accw_addr),
      .acc_chk_i(acc_chk),
      .acc_chk_next_i(acc_chk_next),
      .acc_wait_o(acc_wait),
      .acc_wait_next_o(acc_wait_next),
      .ubw_valid_i(act_chain_valid),
      .ubw_slot_i(act_slot),
      .ubw_addr_i(act_chain_addr),
      .ub_chk_i(ub_chk),
      .ub_chk_alt_i(ub_chk_alt),
      .ub_chk_use_alt_i(ub_chk_use_alt),
      .ub_chk_next_i(ub_chk_next),
      .ub_wait_o(ub_wait),
      .ub_wait_next_o(ub_wait_next),
      .act_checked_i(act_checked),
      .state_o(run_state),
      .error_o(run_error),
      .pc_o(run_pc),
      .run_end_o(run_end),
      .cnt_rd_i(cnt_rd),
      .cnt_index_i(cnt_index),
      .cnt_valid_o(cnt_valid),
      .cnt_value_o(cnt_value));

  // The read engine, shared by fetch and DMA-in: spans are taken one at a time (fetch
  // first) and several are in flight; each returning beat carries its span's tag.
  wire                 rd_cmd_valid, rd_cmd_ready, rd_out_valid, rd_out_ready;
  wire [31:0]          rd_cmd_addr;
  wire [11:0]          rd_cmd_len;
  wire [DmaWidth-1:0]  rd_data;
  wire [LaneBits:0]    rd_lo, rd_hi;
  wire [DmaWidth/8-1:0] rd_fill;
  wire                 rd_last, rd_error, rd_tag, rd_busy;   // tag 0: fetch, 1: DMA-in
  wire                 fq_valid, dq_valid, fb_ready, db_ready;
  wire [31:0]          fq_addr, dq_addr;
  wire [11:0]          fq_len, dq_len;
  wire                 pick_dma = !fq_valid;
  assign rd_cmd_valid = fq_valid || dq_valid;
  assign rd_cmd_addr  = pick_dma ? dq_addr : fq_addr;
  assign rd_cmd_len   = pick_dma ? dq_len : fq_len;
  assign rd_out_ready = rd_tag ? db_ready : fb_ready;
  assign ev_dma_wait  = rd_busy && !rd_out_valid;

  tpu_axi_read #(.DataBits(DmaWidth), .MaxBeats(MaxBeats), .Bursts(ReadBursts)) u_axi_read (
      .clk_i,
      .rst_ni(rst_n),
      .cmd_valid_i(rd_cmd_valid),
      .cmd_ready_o(rd_cmd_ready),
      .cmd_addr_i(rd_cmd_addr),
      .cmd_len_i(rd_cmd_len),
      .cmd_tag_i(pick_dma),
`include "tpu_axi_rd_connect.vh"
      .out_valid_o(rd_out_valid),
      .out_ready_i(rd_out_ready),
      .out_data_o(rd_data),
      .out_lo_o(rd_lo),
      .out_hi_o(rd_hi),
      .out_fill_o(rd_fill),
      .out_last_o(rd_last),
      .out_error_o(rd_error),
      .out_tag_o(rd_tag),
      .busy_o(rd_busy));

  tpu_fetch #(.DataBits(DmaWidth), .DramBytes(DramBytes)) u_fetch (
      .clk_i,
      .rst_ni(rst_n),
      .start_i(fetch_start),
      .entry_i({entry[31:4], 4'd0}),
      .stop_i(fetch_stop),
      .busy_o(fetch_busy),
      .req_valid_o(fq_valid),
      .req_ready_i(rd_cmd_ready && !pick_dma),
      .req_addr_o(fq_addr),
      .req_len_o(fq_len),
      .beat_valid_i(rd_out_valid && !rd_tag),
      .beat_ready_o(fb_ready),
      .beat_data_i(rd_data),
      .beat_lo_i(rd_lo),
      .beat_hi_i(rd_hi),
      .beat_last_i(rd_last),
      .beat_error_i(rd_error),
      .out_valid_o(f_valid),
      .out_ready_i(f_ready),
      .out_instr_o(f_instr),
      .out_pc_o(f_pc),
      .out_fault_o(f_fault));

  // ---- per-unit queues ------------------------------------------------------------------
  wire [3:0]        qh_valid, qh_ready;
  wire [QWidth-1:0] qh_data [0:3];
  genvar u;
  generate
    for (u = 0; u < 4; u = u + 1) begin : g_queue
      wire [QBits:0] count;
      // (DMA-out's head goes into its chaining check's comparison as it is taken: from a
      // register of its own)
      tpu_fifo #(.Width(QWidth), .Depth(QueueDepth), .OutReg(u == 3 ? 1 : 0)) u_queue (
          .clk_i,
          .rst_ni(rst_n),
          .clear_i(1'b0),
          .in_valid_i(q_push[u]),
          .in_ready_o(q_ready[u]),
          .in_data_i({q_pc, q_slot, q_instr}),
          .out_valid_o(qh_valid[u]),
          .out_ready_i(qh_ready[u]),
          .out_data_o(qh_data[u]),
          .count_o(count));
      assign dbg_queue_count_o[8*u +: 8] = {{(7 - QBits){1'b0}}, count};
    end
  endgenerate
  assign whm_head_slot = qh_data[3][128 +: SlotBits];
  wire unit_busy_in, unit_busy_mmc, unit_busy_act, unit_busy_out;
  assign unit_idle = ~(qh_valid | {unit_busy_out, unit_busy_act, unit_busy_mmc, unit_busy_in});
  assign dbg_unit_busy_o = {unit_busy_out, unit_busy_act, unit_busy_mmc, unit_busy_in};
  assign trace_issue_o   = d_pop;
  assign trace_pc_o      = q_pc;
  assign trace_op_o      = q_instr[3:0];
  assign trace_slot_o    = q_slot;
  assign trace_retire_o  = retire_in | retire_mmc | retire_act | retire_out;

  // ---- memories ---------------------------------------------------------------------------
  wire                ubr_act, ubr_out, ubr_mmc;
  wire [UbBits-1:0]   ubr_addr_act, ubr_addr_mmc;
  // Read port A: matrix rows, every cycle; port B: activation parameters before DMA-out
  // rows, served whenever they are in the other bank than port A's row (so loading an
  // act's parameters never stalls the array).
  wire                ub_b_ok;
  wire                grant_act = ubr_act && ub_b_ok;
  wire                grant_mmc = ubr_mmc;
  // (DMA-out is served only when the activation unit does not read: its own row's bank,
  // not port B's address multiplexer, goes into the check)
  wire                grant_out = ubr_out && !ubr_act &&
                                  (!ubr_mmc || ubr_addr_mmc[1:0] != ubr_addr_out[1:0]);
  wire [N*8-1:0]      ub_rd_data, ub_out_data;
  wire                ubw_in;
  wire [UbBits-1:0]   ubw_addr_in;
  wire [N*8-1:0]      ubw_data_in, act_out;
  wire                ubw_in_ready = !ub_scrubbing && (!ubw_act || ubw_addr_act[1:0] != ubw_addr_in[1:0]);
  wire                ub_we2 = ubw_in && ubw_in_ready;   // port 2
  tpu_unified_buffer #(.ArraySize(N), .Rows(UbRows)) u_ub (
      .clk_i,
      .rst_ni(rst_n),
      .scrub_i(scrub),
      .scrubbing_o(ub_scrubbing),
      .a_en_i(ubr_mmc),
      .a_addr_i(ubr_addr_mmc),
      .a_data_o(ub_rd_data),
      .b_en_i(ubr_act || ubr_out),
      .b_addr_i(ubr_act ? ubr_addr_act : ubr_addr_out),
      .b_ok_o(ub_b_ok),
      .b_data_o(ub_out_data),
      .wr_en_i(ubw_act),
      .wr_addr_i(ubw_addr_act),
      .wr_data_i(act_out),
      .w2_en_i(ub_we2),
      .w2_addr_i(ubw_addr_in),
      .w2_data_i(ubw_data_in));

  wire                acc_we, acc_accumulate;
  wire [AccBits-1:0]  acc_wa;
  wire [N*32-1:0]     mx_out;
  wire                acc_rd;
  wire [N*32-1:0]     acc_rd_data;
  tpu_accumulators #(.ArraySize(N), .Rows(AccRows)) u_acc (
      .clk_i,
      .rst_ni(rst_n),
      .scrub_i(scrub),
      .scrubbing_o(acc_scrubbing),
      .in_valid_i(acc_we),
      .in_accumulate_i(acc_accumulate),
      .in_addr_i(acc_wa),
      .in_data_i(mx_out),
      .rd_en_i(acc_rd),
      .rd_addr_i(acc_ra),
      .rd_data_o(acc_rd_data));

  // ---- weight FIFO and matrix unit ------------------------------------------------------
  wire                wf_wvalid, wf_wready, wf_rvalid, wf_rready;
  wire [N*8-1:0]      wf_wdata, wf_rdata;
  wire [TileBits-1:0] unused_tiles;   // (the count is for the FIFO's own checks; the loader needs tile)
  wire                tile;
  localparam integer WfFreeBits = $clog2(N * WfifoDepth) + 1;
  wire [WfFreeBits-1:0] wf_free;
  wire                w_we;
  wire [RowBits-1:0]  w_row;
  tpu_weight_fifo #(.ArraySize(N), .DepthTiles(WfifoDepth)) u_wfifo (
      .clk_i,
      .rst_ni(rst_n && !clear),
      .wr_valid_i(wf_wvalid),
      .wr_ready_o(wf_wready),
      .wr_data_i(wf_wdata),
      .rd_valid_o(wf_rvalid),
      .rd_ready_i(wf_rready),
      .rd_data_o(wf_rdata),
      .tiles_o(unused_tiles),
      .tile_o(tile),
      .free_o(wf_free));
  wire unused_wf = wf_rvalid;  // the loader starts only on a whole tile

  wire mx_valid, mx_switch, mx_out_valid;
  tpu_matrix_unit #(.ArraySize(N), .LogicRows(LogicRows)) u_matrix (
      .clk_i,
      .rst_ni(rst_n),
      .in_valid_i(mx_valid),
      .in_switch_i(mx_switch),
      .in_data_i(ub_rd_data),
      .w_we_i(w_we),
      .w_row_i(w_row),
      .w_data_i(wf_rdata),
      .out_valid_o(mx_out_valid),
      .out_data_o(mx_out));
  wire unused_mx = mx_out_valid;  // the tags carry the same timing

  // ---- activation unit ------------------------------------------------------------------
  wire       param_we, shift_error, relu, act_in_valid, act_first, act_last, act_out_valid, act_out_soon;
  wire       act_accept;
  wire [3:0] param_row;
  wire [7:0] zp;
  tpu_activation #(.ArraySize(N), .Serial(SerialAct)) u_activation (
      .clk_i,
      .rst_ni(rst_n),
      .param_we_i(param_we),
      .param_row_i(param_row),
      .param_data_i(ub_out_data),
      .shift_error_o(shift_error),
      .zp_i(zp),
      .relu_i(relu),
      .in_valid_i(act_in_valid),
      .in_first_i(act_first),
      .in_last_i(act_last),
      .in_data_i(acc_rd_data),
      .accept_next_o(act_accept),
      .out_valid_o(act_out_valid),
      .out_soon_o(act_out_soon),
      .out_data_o(act_out));

  // ---- unit sequencers -------------------------------------------------------------------
  tpu_dma_in #(.ArraySize(N), .DataBits(DmaWidth), .UbRows(UbRows), .Slots(Slots),
               .WfFreeBits(WfFreeBits), .GatherSegs(GatherSegs), .PcBits($clog2(DramBytes))) u_dma_in (
      .clk_i,
      .rst_ni(rst_n),
      .q_valid_i(qh_valid[0]),
      .q_ready_o(qh_ready[0]),
      .q_instr_i(qh_data[0][127:0]),
      .q_pc_i(qh_data[0][QWidth-1 -: 32]),
      .q_slot_i(qh_data[0][128 +: SlotBits]),
      .err_valid_i(err_valid),
      .err_pc_i(err_pc),
      .busy_o(unit_busy_in),
      .req_valid_o(dq_valid),
      .req_ready_i(rd_cmd_ready && pick_dma),
      .req_addr_o(dq_addr),
      .req_len_o(dq_len),
      .beat_valid_i(rd_out_valid && rd_tag),
      .beat_ready_o(db_ready),
      .beat_data_i(rd_data),
      .beat_lo_i(rd_lo),
      .beat_hi_i(rd_hi),
      .beat_fill_i(rd_fill),
      .beat_last_i(rd_last),
      .beat_error_i(rd_error),
      .ubw_valid_o(ubw_in),
      .ubw_ready_i(ubw_in_ready),
      .ubw_addr_o(ubw_addr_in),
      .ubw_data_o(ubw_data_in),
      .wf_valid_o(wf_wvalid),
      .wf_ready_i(wf_wready),
      .wf_free_i(wf_free),
      .wf_data_o(wf_wdata),
      .retire_o(retire_in),
      .fault_o(fault_in),
      .fault_pc_o(fault_pc_in),
      .read_bytes_o(read_bytes),
      .tile_o(ev_tile));

  tpu_mmc_seq #(.ArraySize(N), .UbRows(UbRows), .AccRows(AccRows),
                .Slots(Slots), .PcBits($clog2(DramBytes))) u_mmc_seq (
      .clk_i,
      .rst_ni(rst_n),
      .clear_i(clear),
      .q_valid_i(qh_valid[1]),
      .q_ready_o(qh_ready[1]),
      .q_instr_i(qh_data[1][127:0]),
      .q_pc_i(qh_data[1][QWidth-1 -: 32]),
      .q_slot_i(qh_data[1][128 +: SlotBits]),
      .err_valid_i(err_valid),
      .err_pc_i(err_pc),
      .busy_o(unit_busy_mmc),
      .tile_i(tile),
      .wf_ready_o(wf_rready),
      .w_we_o(w_we),
      .w_row_o(w_row),
      .ubr_valid_o(ubr_mmc),
      .ubr_grant_i(grant_mmc),
      .ubr_addr_o(ubr_addr_mmc),
      .mx_valid_o(mx_valid),
      .mx_switch_o(mx_switch),
      .acc_we_o(acc_we),
      .acc_accumulate_o(acc_accumulate),
      .acc_addr_o(acc_wa),
      .retire_o(retire_mmc),
      .ev_row_o(ev_row),
      .ev_weight_stall_o(ev_wstall),
      .ev_weight_shift_o(ev_wshift),
      .accw_valid_o(accw_valid),
      .accw_slot_o(accw_slot),
      .accw_addr_o(accw_addr));

  tpu_act_seq #(.UbRows(UbRows), .AccRows(AccRows), .Slots(Slots), .PcBits($clog2(DramBytes))) u_act_seq (
      .clk_i,
      .rst_ni(rst_n),
      .q_valid_i(qh_valid[2]),
      .q_ready_o(qh_ready[2]),
      .q_instr_i(qh_data[2][127:0]),
      .q_pc_i(qh_data[2][QWidth-1 -: 32]),
      .q_slot_i(qh_data[2][128 +: SlotBits]),
      .err_valid_i(err_valid),
      .err_pc_i(err_pc),
      .busy_o(unit_busy_act),
      .ubr_valid_o(ubr_act),
      .ubr_grant_i(grant_act),
      .ubr_addr_o(ubr_addr_act),
      .param_we_o(param_we),
      .param_row_o(param_row),
      .shift_error_i(shift_error),
      .zp_o(zp),
      .relu_o(relu),
      .in_valid_o(act_in_valid),
      .in_first_o(act_first),
      .in_last_o(act_last),
      .act_accept_i(act_accept),
      .acc_chk_o(acc_chk),
      .acc_chk_next_o(acc_chk_next),
      .acc_wait_i(acc_wait),
      .acc_wait_next_i(acc_wait_next),
      .out_valid_i(act_out_valid),
      .out_soon_i(act_out_soon),
      .acc_rd_o(acc_rd),
      .acc_addr_o(acc_ra),
      .ubw_valid_o(ubw_act),
      .ubw_addr_o(ubw_addr_act),
      .slot_o(act_slot),
      .chain_valid_o(act_chain_valid),
      .chain_addr_o(act_chain_addr),
      .scrub_i(scrub),
      .ub_we_i(ubw_act),
      .ub_wa_i(ubw_addr_act),
      .ub_we2_i(ub_we2),
      .ub_wa2_i(ubw_addr_in),
      .retire_o(retire_act),
      .checked_o(act_checked),
      .fault_o(fault_act),
      .fault_pc_o(fault_pc_act));

  wire                wr_cmd_valid, wr_cmd_ready, wr_rsp_valid, wr_rsp_ready, wr_rsp_error;
  wire [31:0]         wr_cmd_addr;
  wire [RowBits:0]    wr_cmd_len;
  wire [N*8-1:0]      wr_cmd_data;
  tpu_dma_out #(.ArraySize(N), .UbRows(UbRows), .Slots(Slots), .PcBits($clog2(DramBytes))) u_dma_out (
      .clk_i,
      .rst_ni(rst_n),
      .q_valid_i(qh_valid[3]),
      .q_ready_o(qh_ready[3]),
      .q_instr_i(qh_data[3][127:0]),
      .q_pc_i(qh_data[3][QWidth-1 -: 32]),
      .q_slot_i(qh_data[3][128 +: SlotBits]),
      .hold_i(whm_hold),
      .err_valid_i(err_valid),
      .err_pc_i(err_pc),
      .busy_o(unit_busy_out),
      .ubr_valid_o(ubr_out),
      .ubr_grant_i(grant_out),
      .ubr_addr_o(ubr_addr_out),
      .ubr_data_i(ub_out_data),
      .ub_chk_o(ub_chk),
      .ub_chk_alt_o(ub_chk_alt),
      .ub_chk_use_alt_o(ub_chk_use_alt),
      .ub_chk_next_o(ub_chk_next),
      .ub_wait_i(ub_wait),
      .ub_wait_next_i(ub_wait_next),
      .cmd_valid_o(wr_cmd_valid),
      .cmd_ready_i(wr_cmd_ready),
      .cmd_addr_o(wr_cmd_addr),
      .cmd_len_o(wr_cmd_len),
      .cmd_data_o(wr_cmd_data),
      .rsp_valid_i(wr_rsp_valid),
      .rsp_ready_o(wr_rsp_ready),
      .rsp_error_i(wr_rsp_error),
      .retire_o(retire_out),
      .fault_o(fault_out),
      .fault_pc_o(fault_pc_out),
      .write_bytes_o(write_bytes));

  tpu_axi_write #(.DataBits(DmaWidth), .SpanBytes(N)) u_axi_write (
      .clk_i,
      .rst_ni(rst_n),
      .cmd_valid_i(wr_cmd_valid),
      .cmd_ready_o(wr_cmd_ready),
      .cmd_addr_i(wr_cmd_addr),
      .cmd_len_i(wr_cmd_len),
      .cmd_data_i(wr_cmd_data),
      .rsp_valid_o(wr_rsp_valid),
      .rsp_ready_i(wr_rsp_ready),
      .rsp_error_o(wr_rsp_error),
`include "tpu_axi_wr_connect.vh"
      );
endmodule

`default_nettype wire
