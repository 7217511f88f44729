// SPDX-License-Identifier: Apache-2.0
// The small core: the same instruction set, registers and bus ports as tpu_core, bit-exact
// with the same golden model, in a fraction of the logic, for FPGAs like the iCE40 UP5K.
// One instruction at a time, in order; one bus access at a time (tpu_small_bus); one
// multiply-accumulate per two cycles over the weight tile (row by row, output lane by
// output lane); one requantization at a time (tpu_small_requant). Performance counters
// 7-9 (weight stall, weight shift, RAW stall) stay zero: nothing here waits for them.
//
// Memories, each a tpu_small_ram (block RAM):
//   unified buffer  UbRows rows of N bytes
//   accumulators    AccRows*N words of 32 bits (row-major: a lane per word)
//   weight tiles    WfifoDepth+1 tiles of N*N bytes: the FIFO's tiles and the active one
//   act parameters  4N words: bias, multiplier and shift per lane, copied from the UB
//                   when an act starts (its output rows may overwrite the parameter block)
`default_nettype none
`include "tpu_geometry.vh"

module tpu_small_core #(
    `TPU_GEOMETRY_PARAMS(4, 1024, 512, 32, 65536)
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
  localparam integer Counters = TPU_COUNTERS;
  localparam integer UbBits   = $clog2(UbRows);
  localparam integer AccBits  = $clog2(AccRows);
  localparam integer AccWords = AccRows * N;
  localparam integer AwBits   = AccBits + NBits;
  localparam integer TileBits = $clog2(WfifoDepth + 1);   // a tile slot
  localparam integer WBits    = TileBits + 2 * NBits;
  localparam integer Beats    = 128 / DmaWidth;            // bus words per instruction
  localparam integer BeatBits = (Beats > 1) ? $clog2(Beats) : 1;
  localparam integer ScrubRows = (UbRows > AccWords) ? UbRows : AccWords;
  localparam integer ScrubBits = $clog2(ScrubRows);
  localparam integer Slots     = WfifoDepth + 1;

  initial begin
    if (N < 4 || (1 << NBits) != N || DmaWidth < 8 || DmaWidth > 128 ||
        (UbRows & (UbRows - 1)) != 0 || (AccRows & (AccRows - 1)) != 0) begin
      $display("tpu_small_core: N a power of two >= 4, DmaWidth 8..128, power-of-two memories");
      $finish;
    end
  end
  initial begin
    if (TPU_ACT_BIAS_ROW != 4'd0 || TPU_ACT_MULTIPLIER_ROW != 4'd4 || TPU_ACT_SHIFT_ROW != 4'd8) begin
      $display("tpu_small_core: the act parameter sequence assumes bias rows 0-3, multiplier 4-7, shifts 8");
      $finish;
    end
  end

  // ---- registers -------------------------------------------------------------------
  wire        start, soft_reset;
  wire [31:0] entry;
  reg  [1:0]  run_state_q;
  reg  [3:0]  err_code_q;
  reg  [31:0] pc_q, entry_q;
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
      .state_i(run_state_q),
      .error_i(run_state_q == TPU_STATE_ERROR ? err_code_q : TPU_ERR_NONE),
      .pc_i(pc_q),
      .run_end_i(run_end),
      .cnt_rd_o(cnt_rd),
      .cnt_index_o(cnt_index),
      .cnt_valid_i(cnt_valid),
      .cnt_value_i(cnt_value),
      .irq_o(irq_o));

  // Soft reset returns everything but the registers to the reset state (as on tpu_core).
  wire rst_n = rst_ni && !soft_reset;

  // ---- device memory -----------------------------------------------------------------
  wire              bus_req, bus_we, bus_busy, bus_done, bus_err;
  reg  [31:0]       bus_addr;
  wire [7:0]        bus_rbyte;
  wire [DmaWidth-1:0] bus_rword;
  reg  [7:0]        bus_wbyte;
  tpu_small_bus #(.DmaWidth(DmaWidth)) u_bus (
      .clk_i,
      .rst_ni(rst_n),
      .req_i(bus_req),
      .we_i(bus_we),
      .addr_i(bus_addr),
      .wbyte_i(bus_wbyte),
      .busy_o(bus_busy),
      .done_o(bus_done),
      .err_o(bus_err),
      .rword_o(bus_rword),
      .rbyte_o(bus_rbyte),
`include "tpu_axi_rd_connect.vh"
`include "tpu_axi_wr_connect.vh"
      );

  // ---- sequencer state ----------------------------------------------------------------
  localparam [4:0] SScrub = 5'd0, SIdle = 5'd1, SFetch = 5'd2, SDecode = 5'd3,
                   SRhm = 5'd4, SRhmWr = 5'd5,
                   SWhmRd = 5'd6, SWhmLd = 5'd7, SWhmWr = 5'd8,
                   SRw = 5'd9,
                   SMmcX = 5'd10, SMmcXl = 5'd11, SMmcW = 5'd12, SMmcMac = 5'd13,
                   SMmcAccR = 5'd14, SMmcAccW = 5'd15,
                   SActPr = 5'd16, SActPl = 5'd17, SActPw = 5'd18,
                   SActLb = 5'd19, SActLm = 5'd20, SActLs = 5'd21, SActSh = 5'd22,
                   SActAcc = 5'd23, SActStart = 5'd24, SActQ = 5'd25, SActWr = 5'd26,
                   SCheck = 5'd27;

  reg [4:0]           st_q;
  reg                 start_pending_q;
  reg [ScrubBits-1:0] scrub_q;
  reg [127:0]         instr_q;
  reg [BeatBits-1:0]  beat_q;
  reg [15:0]          r_q;           // row of the instruction
  reg [5:0]           i_q, j_q, s_q; // lane / byte / segment counters
  reg [5:0]           lane_q;        // rhm: the lane the next byte goes to
  reg [3:0]           g_q;           // act: pooling plane
  reg [31:0]          row_addr_q, seg_addr_q;
  reg [N*8-1:0]       row_q;         // the row being assembled or written out
  wire [7:0]          row_byte = row_q[8*j_q[NBits-1:0] +: 8];   // its byte j_q
  reg [31:0]          sum_q, bias_q, mult_q;
  reg [5:0]           shift_q;
  reg [7:0]           best_q;
  reg [15:0]          plane_row_q;   // act: accumulator row of this plane
  reg                 sticky_err_q;  // whm: a byte was answered with an error
  reg [TileBits-1:0]  tiles_q, head_q, active_q;
  reg                 has_active_q;

  wire running = run_state_q == TPU_STATE_RUNNING;

  // Fields of the instruction (docs/isa.md; counts stored minus one).
  wire [3:0]  op        = instr_q[3:0];
  wire        flag4     = instr_q[4];                       // transpose / accumulate / relu
  wire        sw        = instr_q[TPU_MMC_SWITCH_LSB];
  wire [15:0] f_ub      = instr_q[TPU_MMC_UB_LSB +: 16];
  wire [15:0] f_rows_m1 = instr_q[TPU_MMC_ROWS_LSB +: 16];
  wire [15:0] f_acc     = instr_q[TPU_MMC_ACC_LSB +: 16];
  wire [31:0] f_addr    = instr_q[TPU_RHM_ADDR_LSB +: 32];
  wire [15:0] f_stride  = instr_q[TPU_RHM_STRIDE_LSB +: 16];
  wire [15:0] f_segstr  = instr_q[TPU_RHM_SEGSTRIDE_LSB +: 16];
  wire [5:0]  f_seglen_m1 = instr_q[TPU_RHM_SEGLEN_LSB +: 6];
  wire [5:0]  f_segs_m1 = instr_q[TPU_RHM_SEGS_LSB +: 6];
  wire [5:0]  f_len_m1  = instr_q[TPU_WHM_LEN_LSB +: 6];
  wire [5:0]  f_groups_m1 = instr_q[TPU_WHM_GROUPS_LSB +: 6];
  wire [15:0] f_gstride = instr_q[TPU_WHM_GSTRIDE_LSB +: 16];
  wire [5:0]  f_k_m1    = instr_q[TPU_RW_K_LSB +: 6];
  wire [5:0]  f_n_m1    = instr_q[TPU_RW_N_LSB +: 6];
  wire [15:0] f_params  = instr_q[TPU_ACT_PARAMS_LSB +: 16];
  wire [7:0]  f_zp      = instr_q[TPU_ACT_ZP_LSB +: 8];
  wire [3:0]  f_pool_m1 = instr_q[TPU_ACT_POOL_LSB +: 4];
  wire        last_row  = r_q == f_rows_m1;
  localparam integer NM1 = N - 1;
  wire [5:0]  n_m1      = NM1[5:0];

  // ---- decode: the static checks, and the weight-FIFO rule ------------------------------
  localparam integer DecBits = (UbBits > AccBits) ? UbBits : AccBits;
  wire [3:0] dec_op, dec_err;
  wire [1:0] unused_unit;
  wire [3:0] unused_en;
  wire [4*DecBits-1:0]     unused_lo;
  wire [4*(DecBits+1)-1:0] unused_hi;
  wire [31:0] unused_mem_lo;
  wire [32:0] unused_mem_hi;
  wire [127:0] unused_instr;
  tpu_decode #(.ArraySize(N), .UbRows(UbRows), .AccRows(AccRows), .DramBytes(DramBytes),
               .AddrBits(DecBits)) u_decode (
      .clk_i,
      .instr_i(instr_q),
      .load_i(1'b1),
      .instr_o(unused_instr),
      .op_o(dec_op),
      .error_o(dec_err),
      .unit_o(unused_unit),
      .en_o(unused_en),
      .lo_o(unused_lo),
      .hi_o(unused_hi),
      .mem_lo_o(unused_mem_lo),
      .mem_hi_o(unused_mem_hi));
  wire wf_bad = (op == TPU_OP_RW && tiles_q == WfifoDepth[TileBits-1:0]) ||
                (op == TPU_OP_MMC && (sw ? tiles_q == {TileBits{1'b0}} : !has_active_q));
  wire [3:0] head_err = dec_err != TPU_ERR_NONE ? dec_err :
                        wf_bad ? TPU_ERR_WEIGHT_FIFO : TPU_ERR_NONE;
  // The checks take a cycle of their own (SCheck): their adders and comparators are the
  // longest paths of the core.
  reg  [3:0] head_err_q;
  always @(posedge clk_i) head_err_q <= head_err;
  wire decode_ok = st_q == SDecode && head_err_q == TPU_ERR_NONE;

  // ---- memories ----------------------------------------------------------------------
  wire scrubbing = st_q == SScrub;

  // Unified buffer: rows written by rhm and act, read by whm, mmc and act (parameters).
  wire [UbBits-1:0] ub_row   = f_ub[UbBits-1:0] + r_q[UbBits-1:0];
  wire              ub_rd    = st_q == SWhmRd || st_q == SMmcX || st_q == SActPr;
  wire [UbBits-1:0] ub_raddr = st_q == SActPr ? f_params[UbBits-1:0] + {{(UbBits-4){1'b0}}, i_q[3:0]} : ub_row;
  wire              ub_we    = (scrubbing && {1'b0, scrub_q} < UbRows[ScrubBits:0]) ||
                               st_q == SRhmWr || st_q == SActWr;
  wire [UbBits-1:0] ub_waddr = scrubbing ? scrub_q[UbBits-1:0] : ub_row;
  wire [N*8-1:0]    ub_rdata;
  tpu_small_ram #(.Width(N * 8), .Depth(UbRows)) u_ub (
      .clk_i,
      .rd_en_i(ub_rd),
      .rd_addr_i(ub_raddr),
      .rd_data_o(ub_rdata),
      .wr_en_i(ub_we),
      .wr_addr_i(ub_waddr),
      .wr_data_i(scrubbing ? {N*8{1'b0}} : row_q));

  // Accumulators: a word per lane.
  wire [AccBits-1:0] mmc_acc_row = f_acc[AccBits-1:0] + r_q[AccBits-1:0];
  wire               acc_rd    = st_q == SMmcAccR || st_q == SActAcc;
  wire [AwBits-1:0]  acc_raddr = st_q == SActAcc ? {plane_row_q[AccBits-1:0], i_q[NBits-1:0]}
                                                 : {mmc_acc_row, i_q[NBits-1:0]};
  wire [31:0]        acc_rdata;
  wire [31:0]        acc_sat;
  tpu_sat_add32 u_acc_add (.a_i(acc_rdata), .b_i(sum_q), .sum_o(acc_sat));
  wire               acc_we    = (scrubbing && {1'b0, scrub_q} < AccWords[ScrubBits:0]) ||
                                 st_q == SMmcAccW;
  wire [AwBits-1:0]  acc_waddr = scrubbing ? scrub_q[AwBits-1:0] : {mmc_acc_row, i_q[NBits-1:0]};
  wire [31:0]        acc_wdata = scrubbing ? 32'd0 : flag4 ? acc_sat : sum_q;
  tpu_small_ram #(.Width(32), .Depth(AccWords)) u_acc (
      .clk_i,
      .rd_en_i(acc_rd),
      .rd_addr_i(acc_raddr),
      .rd_data_o(acc_rdata),
      .wr_en_i(acc_we),
      .wr_addr_i(acc_waddr),
      .wr_data_i(acc_wdata));

  // Weight tiles: slot head_q is the FIFO's oldest; the FIFO ends at head + tiles.
  // rw walks device memory row by row: row i_q, byte j_q. Without transpose that is
  // W[i][j], with transpose W[j][i].
  wire [TileBits:0]   tail_sum = {1'b0, head_q} + {1'b0, tiles_q};
  wire [TileBits-1:0] tail = tail_sum >= Slots[TileBits:0] ? tail_sum[TileBits-1:0] - Slots[TileBits-1:0]
                                                          : tail_sum[TileBits-1:0];
  wire [TileBits-1:0] head_next = head_q == WfifoDepth[TileBits-1:0] ? {TileBits{1'b0}} : head_q + 1'b1;
  wire [NBits-1:0]    wi = i_q[NBits-1:0], wj = j_q[NBits-1:0];
  wire [WBits-1:0]    w_waddr = flag4 ? {tail, wj, wi} : {tail, wi, wj};
  wire [5:0]          rw_rows_m1 = flag4 ? f_n_m1 : f_k_m1;   // memory rows of the tile
  wire [5:0]          rw_cols_m1 = flag4 ? f_k_m1 : f_n_m1;
  wire                rw_read = i_q <= rw_rows_m1 && j_q <= rw_cols_m1;
  wire                w_we    = st_q == SRw && (rw_read ? bus_done && !bus_err : 1'b1);
  wire [7:0]          w_wdata = rw_read ? bus_rbyte : 8'd0;
  // mmc: W[k][n] with k = j_q, n = i_q (output lane i_q sums over input lanes j_q).
  wire                w_rd    = st_q == SMmcW;
  wire [7:0]          w_rdata;
  tpu_small_ram #(.Width(8), .Depth(1 << WBits)) u_weights (
      .clk_i,
      .rd_en_i(w_rd),
      .rd_addr_i({active_q, wj, wi}),
      .rd_data_o(w_rdata),
      .wr_en_i(w_we),
      .wr_addr_i(w_waddr),
      .wr_data_i(w_wdata));

  // act parameters: word {0, lane} bias, {1, lane} multiplier, {2, lane} shift. The UB
  // row params+p (p < 8) holds words p*(N/4) .. p*(N/4)+N/4-1 of the bias (p < 4) or the
  // multiplier; row params+TPU_ACT_SHIFT_ROW the shift bytes (the bit tests below assume
  // the rows 0-3, 4-7 and 8 of tpu_isa.vh, checked at elaboration).
  wire [3:0]       p_row  = i_q[3:0];
  localparam integer WordsM1 = N / 4 - 1;            // parameter words per UB row, minus one
  wire [NBits-1:0] m_word = j_q[NBits-1:0] & WordsM1[NBits-1:0];
  wire [NBits-1:0] p_word = ({{(NBits-2){1'b0}}, p_row[1:0]} << (NBits - 2)) | m_word;
  wire [NBits+1:0] pm_waddr = p_row == TPU_ACT_SHIFT_ROW ? {2'd2, j_q[NBits-1:0]}
                                                      : {1'b0, p_row[2], p_word};
  wire [31:0]      pm_wdata = p_row == TPU_ACT_SHIFT_ROW ? {24'd0, row_byte}
                                                      : row_q[32*m_word +: 32];
  wire             pm_we    = st_q == SActPw;
  wire             pm_rd    = st_q == SActLb || st_q == SActLm || st_q == SActLs;
  wire [1:0]       pm_sel   = st_q == SActLb ? 2'd0 : st_q == SActLm ? 2'd1 : 2'd2;
  wire [31:0]      pm_rdata;
  tpu_small_ram #(.Width(32), .Depth(4 * N)) u_params (
      .clk_i,
      .rd_en_i(pm_rd),
      .rd_addr_i({pm_sel, i_q[NBits-1:0]}),
      .rd_data_o(pm_rdata),
      .wr_en_i(pm_we),
      .wr_addr_i(pm_waddr),
      .wr_data_i(pm_wdata));
  wire p_last_word = p_row == TPU_ACT_SHIFT_ROW ? j_q == n_m1 : j_q == n_m1 >> 2;
  wire shift_bad   = p_row == TPU_ACT_SHIFT_ROW && pm_wdata[7:6] != 2'b00;

  // Requantization of one accumulator value.
  wire       rq_start = st_q == SActStart;
  wire       rq_done;
  wire [7:0] rq_q;
  tpu_small_requant u_requant (
      .clk_i,
      .rst_ni(rst_n),
      .start_i(rq_start),
      .acc_i(acc_rdata),
      .bias_i(bias_q),
      .mult_i(mult_q),
      .shift_i(shift_q),
      .zp_i(f_zp),
      .relu_i(flag4),
      .done_o(rq_done),
      .q_o(rq_q));
  wire [7:0] best = (g_q == 4'd0 || $signed(rq_q) > $signed(best_q)) ? rq_q : best_q;

  // mmc: one product per two cycles (weight read, then multiply-add) of input lane j_q.
  wire [15:0] product = $signed(row_byte) * $signed(w_rdata);

  // ---- bus requests ---------------------------------------------------------------------
  wire [31:0] byte_addr = seg_addr_q + {26'd0, j_q};
  always @(*) begin
    bus_addr  = byte_addr;
    bus_wbyte = row_byte;
    if (st_q == SFetch) bus_addr = pc_q + {{(32-BeatBits){1'b0}}, beat_q} * (DmaWidth / 8);
  end
  wire [32:0] dram_end = {1'b0, DramBytes[31:0]};
  wire fetch_in_range = {1'b0, pc_q} + 33'd16 <= dram_end;
  assign bus_we  = st_q == SWhmWr;
  assign bus_req = !bus_busy &&
                   ((st_q == SFetch && fetch_in_range) || st_q == SRhm || st_q == SWhmWr ||
                    (st_q == SRw && rw_read));

  // ---- the sequencer ------------------------------------------------------------------------
  reg        fault;
  reg [3:0]  fault_code;
  reg        retire;      // a unit instruction completes
  reg        next_instr;  // go on with the instruction after this one
  always @(*) begin
    fault = 1'b0;
    fault_code = TPU_ERR_NONE;
    retire = 1'b0;
    next_instr = 1'b0;
    case (st_q)
      SFetch: begin
        if (!fetch_in_range) begin fault = 1'b1; fault_code = TPU_ERR_DRAM_RANGE; end
        else if (bus_done && bus_err) begin fault = 1'b1; fault_code = TPU_ERR_BUS_ERROR; end
      end
      SDecode: begin
        if (head_err_q != TPU_ERR_NONE) begin fault = 1'b1; fault_code = head_err_q; end
        else if (op == TPU_OP_NOP || op == TPU_OP_SYNC) next_instr = 1'b1;
      end
      SRhm, SRw: if (bus_done && bus_err) begin fault = 1'b1; fault_code = TPU_ERR_BUS_ERROR; end
      SActPw: if (shift_bad) begin fault = 1'b1; fault_code = TPU_ERR_ACT_PARAM; end
      default: ;
    endcase
    // A unit instruction completes with its last row (rw: its last tile byte); a whm
    // that met a bus error on the way faults instead.
    case (st_q)
      SRhmWr:   retire = last_row;
      SWhmWr:   retire = bus_done && j_q == f_len_m1 && last_row && f_groups_m1 == 6'd0 && !sticky_err_q && !bus_err;
      SRw:      retire = !fault && (!rw_read || bus_done) && i_q == n_m1 && j_q == n_m1;
      SMmcAccW: retire = i_q == n_m1 && last_row;
      SActWr:   retire = last_row;
      default: ;
    endcase
    if (st_q == SWhmWr && bus_done && j_q == f_len_m1 && last_row && f_groups_m1 == 6'd0 &&
        (sticky_err_q || bus_err)) begin
      fault = 1'b1;
      fault_code = TPU_ERR_BUS_ERROR;
    end
    if (retire && !more_tiles) next_instr = 1'b1;
  end
  // An rw or mmc of several tiles runs as that many instructions at this pc: after each
  // tile the register holds the next (its address or rows, one tile fewer) and goes
  // back to the checks (the ranges are those of the remaining tiles; the weight-FIFO
  // rule applies to each tile).
  wire [3:0] tiles_m1   = op == TPU_OP_RW  ? instr_q[TPU_RW_TILES_LSB +: 4] :
                          op == TPU_OP_MMC ? instr_q[TPU_MMC_TILES_LSB +: 4] : 4'd0;
  wire       more_tiles = tiles_m1 != 4'd0;
  // A whm of several groups runs the same way, a group at a time (after each the
  // register holds the next: its UB rows and address, one group fewer); it retires, or
  // faults for a bus error met in any group, after the last.
  wire       next_group = st_q == SWhmWr && bus_done && j_q == f_len_m1 && last_row && f_groups_m1 != 6'd0;
  wire       next_tile  = (retire && more_tiles) || next_group;
  reg        later_tile_q;  // the register holds a tile after the first (not counted again)
  wire halting   = decode_ok && op == TPU_OP_HALT;
  wire begin_run = st_q == SIdle && start_pending_q;
  assign run_end = running && (fault || halting);

  always @(posedge clk_i) begin
    if (!rst_n) begin
      st_q            <= SScrub;
      scrub_q         <= {ScrubBits{1'b0}};
      run_state_q     <= TPU_STATE_IDLE;
      start_pending_q <= 1'b0;
    end else begin
      if (start && !running) start_pending_q <= 1'b1;
      if (fault || halting) begin
        run_state_q <= fault ? TPU_STATE_ERROR : TPU_STATE_DONE;
        st_q        <= SScrub;
        scrub_q     <= {ScrubBits{1'b0}};
      end else if (next_instr) begin
        st_q <= SFetch;
      end else if (next_tile) begin
        st_q <= SCheck;
      end else begin
        case (st_q)
          SScrub: begin
            scrub_q <= scrub_q + 1'b1;
            if ({1'b0, scrub_q} == ScrubRows[ScrubBits:0] - 1'b1) st_q <= SIdle;
          end
          SIdle: if (begin_run) begin
            run_state_q     <= TPU_STATE_RUNNING;
            start_pending_q <= 1'b0;
            st_q            <= SFetch;
          end
          SFetch: if (bus_done && beat_q == Beats[BeatBits-1:0] - 1'b1) st_q <= SCheck;
          SCheck: st_q <= SDecode;
          SDecode: begin
            case (op)
              TPU_OP_RHM: st_q <= SRhm;
              TPU_OP_WHM: st_q <= SWhmRd;
              TPU_OP_RW:  st_q <= SRw;
              TPU_OP_MMC: st_q <= SMmcX;
              default:    st_q <= SActPr;   // act (nop, sync and halt end above)
            endcase
          end
          SRhm: if (bus_done && s_q == f_segs_m1 && j_q == f_seglen_m1) st_q <= SRhmWr;
          SRhmWr: st_q <= SRhm;
          SWhmRd: st_q <= SWhmLd;
          SWhmLd: st_q <= SWhmWr;
          SWhmWr: if (bus_done && j_q == f_len_m1) st_q <= SWhmRd;
          SMmcX: st_q <= SMmcXl;
          SMmcXl: st_q <= SMmcW;
          SMmcW: st_q <= SMmcMac;
          SMmcMac: st_q <= j_q == n_m1 ? SMmcAccR : SMmcW;
          SMmcAccR: st_q <= SMmcAccW;
          SMmcAccW: st_q <= i_q == n_m1 ? SMmcX : SMmcW;
          SActPr: st_q <= SActPl;
          SActPl: st_q <= SActPw;
          SActPw: if (p_last_word) st_q <= p_row == TPU_ACT_SHIFT_ROW ? SActLb : SActPr;
          SActLb: st_q <= SActLm;
          SActLm: st_q <= SActLs;
          SActLs: st_q <= SActSh;
          SActSh: st_q <= SActAcc;
          SActAcc: st_q <= SActStart;
          SActStart: st_q <= SActQ;
          SActQ: if (rq_done) st_q <= g_q == f_pool_m1 ? (i_q == n_m1 ? SActWr : SActLb) : SActAcc;
          SActWr: st_q <= SActLb;
          default: ;
        endcase
      end
    end
  end

  // Datapath registers (no reset needed: each instruction sets what it uses).
  always @(posedge clk_i) begin
    if (begin_run) begin
      entry_q      <= {entry[31:4], 4'd0};
      pc_q         <= {entry[31:4], 4'd0};
      tiles_q      <= {TileBits{1'b0}};
      head_q       <= {TileBits{1'b0}};
      has_active_q <= 1'b0;
      beat_q       <= {BeatBits{1'b0}};
    end
    if (next_instr && !fault) begin
      pc_q   <= pc_q + 32'd16;
      beat_q <= {BeatBits{1'b0}};
    end
    if (begin_run || next_instr) later_tile_q <= 1'b0;
    if (next_tile) begin
      later_tile_q <= 1'b1;
      // (rw's address and whm's share an adder, as do mmc's and whm's UB row)
      if (op == TPU_OP_RW || op == TPU_OP_WHM)
        instr_q[TPU_RW_ADDR_LSB +: 32] <= f_addr + (op == TPU_OP_WHM ? {16'd0, f_gstride}
                                                                    : instr_q[TPU_RW_TSTRIDE_LSB +: 32]);
      if (op == TPU_OP_MMC || op == TPU_OP_WHM)
        instr_q[TPU_MMC_UB_LSB +: 16] <= f_ub + (op == TPU_OP_WHM ? f_rows_m1 + 16'd1
                                                                  : instr_q[TPU_MMC_UBSTRIDE_LSB +: 16]);
      if (op == TPU_OP_RW)  instr_q[TPU_RW_TILES_LSB +: 4] <= tiles_m1 - 4'd1;
      if (op == TPU_OP_WHM) instr_q[TPU_WHM_GROUPS_LSB +: 6] <= f_groups_m1 - 6'd1;
      if (op == TPU_OP_MMC) begin
        instr_q[TPU_MMC_TILES_LSB +: 4] <= tiles_m1 - 4'd1;
        instr_q[TPU_MMC_ACC_LSB +: 16]  <= f_acc + instr_q[TPU_MMC_ACCSTRIDE_LSB +: 16];
      end
    end
    case (st_q)
      SFetch: if (bus_done) begin
        instr_q[DmaWidth*beat_q +: DmaWidth] <= bus_rword;
        beat_q <= beat_q + 1'b1;
      end
      SDecode: begin
        r_q <= 16'd0; i_q <= 6'd0; j_q <= 6'd0; s_q <= 6'd0; lane_q <= 6'd0; g_q <= 4'd0;
        row_addr_q   <= f_addr;
        seg_addr_q   <= f_addr;
        row_q        <= {N*8{1'b0}};
        if (!later_tile_q) sticky_err_q <= 1'b0;  // (a whm's later group keeps it)
        if (decode_ok && op == TPU_OP_MMC && sw) begin
          active_q     <= head_q;
          head_q       <= head_next;
          tiles_q      <= tiles_q - 1'b1;
          has_active_q <= 1'b1;
        end
      end
      SRhm: if (bus_done) begin  // byte j of segment s goes to lane_q
        row_q[8*lane_q[NBits-1:0] +: 8] <= bus_rbyte;
        lane_q <= lane_q + 6'd1;
        if (j_q == f_seglen_m1) begin
          j_q        <= 6'd0;
          s_q        <= s_q + 6'd1;
          seg_addr_q <= seg_addr_q + {16'd0, f_segstr};
        end else begin
          j_q <= j_q + 6'd1;
        end
      end
      SRhmWr: begin
        r_q        <= r_q + 16'd1;
        row_addr_q <= row_addr_q + {16'd0, f_stride};
        seg_addr_q <= row_addr_q + {16'd0, f_stride};
        s_q        <= 6'd0;
        lane_q     <= 6'd0;
        row_q      <= {N*8{1'b0}};
      end
      SWhmLd: begin
        row_q <= ub_rdata;
        j_q   <= 6'd0;
      end
      SWhmWr: if (bus_done) begin
        if (bus_err) sticky_err_q <= 1'b1;
        if (j_q == f_len_m1) begin
          r_q        <= r_q + 16'd1;
          row_addr_q <= row_addr_q + {16'd0, f_stride};
          seg_addr_q <= row_addr_q + {16'd0, f_stride};
        end else begin
          j_q <= j_q + 6'd1;
        end
      end
      SRw: if (!rw_read || bus_done) begin
        if (j_q == n_m1) begin
          j_q        <= 6'd0;
          i_q        <= i_q + 6'd1;
          row_addr_q <= row_addr_q + {16'd0, f_stride};
          seg_addr_q <= row_addr_q + {16'd0, f_stride};
          if (i_q == n_m1) tiles_q <= tiles_q + 1'b1;
        end else begin
          j_q <= j_q + 6'd1;
        end
      end
      SMmcXl: begin
        row_q <= ub_rdata;
        i_q   <= 6'd0;
        j_q   <= 6'd0;
        sum_q <= 32'd0;
      end
      SMmcMac: begin
        sum_q <= sum_q + {{16{product[15]}}, product};
        if (j_q != n_m1) j_q <= j_q + 6'd1;
      end
      SMmcAccW: begin
        j_q   <= 6'd0;
        sum_q <= 32'd0;
        if (i_q == n_m1) r_q <= r_q + 16'd1;
        i_q <= i_q == n_m1 ? 6'd0 : i_q + 6'd1;
      end
      SActPl: begin
        row_q <= ub_rdata;
        j_q   <= 6'd0;
      end
      SActPw: begin
        j_q <= j_q + 6'd1;
        if (p_last_word) begin
          i_q <= p_row == TPU_ACT_SHIFT_ROW ? 6'd0 : i_q + 6'd1;   // next parameter row, or lane 0
          row_q <= {N*8{1'b0}};
        end
      end
      SActLm: bias_q <= pm_rdata;
      SActLs: mult_q <= pm_rdata;
      SActSh: begin
        shift_q     <= pm_rdata[5:0];
        g_q         <= 4'd0;
        plane_row_q <= f_acc + r_q;
      end
      SActQ: if (rq_done) begin
        best_q <= best;
        if (g_q == f_pool_m1) begin
          row_q[8*i_q[NBits-1:0] +: 8] <= best;
          g_q <= 4'd0;
          i_q <= i_q == n_m1 ? 6'd0 : i_q + 6'd1;
        end else begin
          g_q         <= g_q + 4'd1;
          plane_row_q <= plane_row_q + f_rows_m1 + 16'd1;
        end
      end
      SActWr: r_q <= r_q + 16'd1;
      default: ;
    endcase
    if (fault) err_code_q <= fault_code;   // PC keeps the faulting instruction's address
  end

  // ---- performance counters (tpu_counters): cleared when a run starts, counting while it runs
  localparam integer StepBits = 16;
  wire dma_read = st_q == SRhm || st_q == SRw;
  wire mmc_row  = st_q == SMmcAccW && i_q == n_m1;
  wire [Counters*StepBits-1:0] steps;
  localparam integer Macs = N * N;
  wire [StepBits-1:0] macs_per_row = Macs[StepBits-1:0];
  assign steps[StepBits*TPU_CNT_CYCLES +: StepBits]           = {{(StepBits-1){1'b0}}, 1'b1};
  assign steps[StepBits*TPU_CNT_INSTRUCTIONS +: StepBits]     = {{(StepBits-1){1'b0}}, decode_ok && !later_tile_q};
  assign steps[StepBits*TPU_CNT_MACS +: StepBits]             = mmc_row ? macs_per_row : {StepBits{1'b0}};
  assign steps[StepBits*TPU_CNT_DRAM_READ_BYTES +: StepBits]  = {{(StepBits-1){1'b0}}, dma_read && bus_done && !bus_err};
  assign steps[StepBits*TPU_CNT_DRAM_WRITE_BYTES +: StepBits] = {{(StepBits-1){1'b0}}, st_q == SWhmWr && bus_done};
  assign steps[StepBits*TPU_CNT_WEIGHT_TILES +: StepBits]     = {{(StepBits-1){1'b0}}, retire && op == TPU_OP_RW};
  assign steps[StepBits*TPU_CNT_MATRIX_ACTIVE +: StepBits]    = {{(StepBits-1){1'b0}}, mmc_row};
  assign steps[StepBits*TPU_CNT_DMA_WAIT +: StepBits]         = {{(StepBits-1){1'b0}}, dma_read && bus_busy && !bus_done};
  // one instruction at a time: no interlocks, so no weight or RAW stalls
  localparam [Counters-1:0] NoStalls = (1 << TPU_CNT_WEIGHT_STALL) | (1 << TPU_CNT_WEIGHT_SHIFT) |
                                       (1 << TPU_CNT_RAW_STALL);
  assign steps[StepBits*TPU_CNT_WEIGHT_STALL +: StepBits] = {StepBits{1'b0}};
  assign steps[StepBits*TPU_CNT_WEIGHT_SHIFT +: StepBits] = {StepBits{1'b0}};
  assign steps[StepBits*TPU_CNT_RAW_STALL +: StepBits]    = {StepBits{1'b0}};
  tpu_counters #(.Counters(Counters), .StepBits(StepBits), .Registered(0), .Zero(NoStalls)) u_counters (
      .clk_i,
      .rst_ni      (rst_n),
      .clear_i     (begin_run),
      .counting_i  (running),
      .step_i      (steps),
      .load_i      (fault),
      .load_value_i({32'd0, (pc_q - entry_q) >> 4}),
      .rd_i        (cnt_rd),
      .rd_index_i  (cnt_index),
      .rd_valid_o  (cnt_valid),
      .rd_value_o  (cnt_value));

  // ---- observation -------------------------------------------------------------------------
  assign trace_issue_o     = decode_ok;
  assign trace_pc_o        = pc_q;
  assign trace_op_o        = op;
  assign trace_slot_o      = 1'b0;
  assign trace_retire_o    = retire;
  assign dbg_unit_busy_o   = {st_q >= SWhmRd && st_q <= SWhmWr,
                              st_q >= SActPr && st_q <= SActWr,
                              st_q >= SMmcX && st_q <= SMmcAccW,
                              st_q == SRhm || st_q == SRhmWr || st_q == SRw};
  assign dbg_queue_count_o = 32'd0;

  wire unused = ^{dec_op, unused_unit, unused_en, unused_lo, unused_hi, unused_mem_lo,
                  unused_mem_hi, entry[3:0], f_ub[15:UbBits], f_params[15:UbBits]};
endmodule

`default_nettype wire
