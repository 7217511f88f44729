// SPDX-License-Identifier: Apache-2.0
// Matrix sequencer: executes `mmc` from its queue and keeps the shadow weights loaded.
//
// Rows: each granted unified-buffer read of an input row enters the matrix unit two
// cycles later (the buffer's read latency); a tag (accumulator row, accumulate flag,
// last row, slot) travels beside it for the 2N + 4 cycles until its result leaves the
// array and is written to the accumulators. The next instruction is taken in the cycle
// the last row is granted, so consecutive multiplies stream without a bubble (but one:
// accumulating onto the row that last row writes, stop_q below).
//
// Weights: as soon as the shadow tile is free and a whole tile is in the weight FIFO,
// its N rows shift into the shadow registers on consecutive cycles, row 0 N - 1 cycles
// after the last switch row entered the matrix unit (the earliest its contract allows).
// An `mmc switch` sends its first row as early as the cycle the load of row 0 starts
// (it enters the unit two cycles later, a cycle after row 0 is written), so with the
// tile already in the FIFO a switch costs nothing, even between multiplies of N rows.
`default_nettype none
`include "tpu_unit_ports.vh"

module tpu_mmc_seq #(
    parameter integer ArraySize  = 16,
    parameter integer UbRows     = 4096,
    parameter integer AccRows    = 2048,
    parameter integer Slots      = 8,
    parameter integer PcBits     = 32  // program addresses lie below 2^PcBits (device memory)
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    input  wire                   clear_i,       // a run starts: forget weight state
    // queue head
    `TPU_UNIT_QUEUE_PORTS,
    // weight FIFO read side and the matrix unit's shadow-weight port
    input  wire                   tile_i,        // a whole tile is in the FIFO (a register)
    output wire                   wf_ready_o,
    output wire                   w_we_o,
    output wire [RowBits-1:0]     w_row_o,
    // unified-buffer reads of input rows (granted by the core; data two cycles later);
    // valid while an instruction streams, whether or not its next row may go yet
    output wire                   ubr_valid_o,
    input  wire                   ubr_grant_i,
    output wire [UbBits-1:0]      ubr_addr_o,
    // matrix unit input (data is the unified buffer's read data)
    output wire                   mx_valid_o,
    output wire                   mx_switch_o,
    // accumulator writes, aligned with the matrix unit's output
    output wire                   acc_we_o,
    output wire                   acc_accumulate_o,
    output wire [AccBits-1:0]     acc_addr_o,
    // completion and counters
    output wire [Slots-1:0]       retire_o,
    output wire                   ev_row_o,          // a row entered a cycle ago: N*N MACs
    output wire                   ev_weight_stall_o, // a switch waits for rw to deliver a tile
    output wire                   ev_weight_shift_o, // a switch waits for the shadow load
    // accumulator rows in memory: row accw_addr_o of the mmc in slot accw_slot_o (in order)
    output wire                   accw_valid_o,
    output wire [SlotBits-1:0]    accw_slot_o,
    output wire [AccBits-1:0]     accw_addr_o
);
`include "tpu_isa.vh"
  localparam integer N        = ArraySize;
  localparam integer RowBits  = (N > 1) ? $clog2(N) : 1;
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;
  localparam integer UbBits   = $clog2(UbRows);
  localparam integer AccBits  = $clog2(AccRows);
  localparam integer GapBits  = $clog2(N + 1);
  localparam integer TagBits  = 1 + 1 + AccBits + 1 + SlotBits;

  // The instruction being streamed.
  reg                 cur_q;
  reg  [UbBits-1:0]   ub_q;      // next input row
  reg  [AccBits-1:0]  acc_q;     // next accumulator row
  reg  [15:0]         left_q;    // rows left - 1
  reg                 last_row_q;   // left_q == 0: the next row is the last (a flag kept with the count)
  reg                 acc_mode_q, switch_q;
  reg  [SlotBits-1:0] slot_q;
  reg  [31:0]         pc_q;

  // Shadow-weight loader.
  reg                 full_q;      // the shadow tile holds the next tile
  reg                 loading_q;
  reg  [RowBits-1:0]  lrow_q;
  reg  [GapBits-1:0]  gap_q;       // cycles since the last switch row, saturating at N

  // Row 0 goes out the cycle after load_start, N - 1 cycles after the switch row entered
  // the matrix unit (two cycles after its grant), the earliest its contract allows; the
  // next switch row may be granted in the load_start cycle itself (it enters two cycles
  // later, a cycle after row 0), so the shadow counts as full from load_start on and a
  // switch costs nothing even when each multiply is only N rows long (but back to back:
  // a load starts N + 1 cycles after the one before, so each later switch costs one).
  localparam integer LoadGapInt = (N >= 1) ? N - 1 : 0;
  localparam [GapBits-1:0] LoadGap = LoadGapInt[GapBits-1:0];
  // (may_load_q: !full_q && !loading_q && gap_q >= LoadGap, kept as a flag from the
  // values they are about to take, so the grant below decides from few registers)
  reg  may_load_q;
  wire load_start  = may_load_q && tile_i;
  localparam integer GapOkInt = (N >= 2) ? N - 2 : 0;   // gap_q + 1 >= LoadGap
  localparam [GapBits-1:0] GapOk = GapOkInt[GapBits-1:0];
  wire shadow_ready = full_q || load_start;
  // sw_ok_q: !switch_q || full_q (the current row needs no tile, or the shadow holds one),
  // a flag of its own from the values they are about to take, so that the grant is one
  // LUT of flip-flops (and the tile flag)
  reg  sw_ok_q;
  // Younger than a reported fault, a register: the comparison at take (of the queue's
  // head) and then of the current instruction's pc, so that no 32-bit comparison lies
  // between the queue and the retirements. A cycle late at most, and never wrong about
  // an instruction it calls younger (the fault pc only moves to older ones while valid).
  reg  cur_young_q;
  reg  first_q;                                  // no row of the instruction granted yet
  wire need_switch = cur_q && switch_q;          // the current row must switch tiles
  // An instruction younger than a fault is dropped before its first row: at once when
  // it was younger when taken, or when a switch waits for a tile no older rw will
  // deliver any more.
  wire drop_cur    = cur_q && first_q && cur_young_q;
  // The accumulators add a row onto the one written the cycle before only through
  // memory or a stage-earlier forward, not in the add's own cycle (tpu_accumulators):
  // an mmc that accumulates onto the row its predecessor granted in the cycle it was
  // taken waits a cycle (bubble below). Within an mmc the rows differ; an mmc taken
  // later is at least two cycles behind.
  // stop_q: no row this cycle, for that bubble or as drop_cur (first_q && cur_young_q),
  // a flag of its own from the values they are about to take.
  reg  stop_q;
  wire row_ok      = cur_q && (sw_ok_q || load_start) && !stop_q;
  wire grant       = row_ok && ubr_grant_i;
  wire last_row    = last_row_q;
  wire done        = grant && last_row;
  wire take        = q_valid_i && (!cur_q || done);
  // The streamed instruction's registers move on take || grant, written without the
  // take (whose queue pop waits for the grant): the grant, or an idle sequencer with a
  // head; which value they take is then the take's choice, on their data inputs.
  wire step        = grant || (q_valid_i && !cur_q);
  wire younger, cur_younger;
  tpu_younger #(.PcBits(PcBits)) u_younger (
      .err_valid_i,
      .err_pc_i,
      .pc_i(q_pc_i),
      .younger_o(younger));
  tpu_younger #(.PcBits(PcBits)) u_cur_younger (
      .err_valid_i,
      .err_pc_i,
      .pc_i(pc_q),
      .younger_o(cur_younger));

  always @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      cur_q     <= 1'b0;
      full_q    <= 1'b0;
      loading_q <= 1'b0;
      lrow_q    <= {RowBits{1'b0}};
      gap_q     <= N[GapBits-1:0];
      may_load_q <= 1'b1;
    end else begin
      may_load_q <= !(grant && switch_q && LoadGap != {GapBits{1'b0}}) && !load_start && !full_q &&
                    (!loading_q || lrow_q == N[RowBits-1:0] - 1'b1) && gap_q >= GapOk;
      if (take)                        cur_q <= 1'b1;
      else if (done || drop_cur)       cur_q <= 1'b0;
      if (load_start)                  loading_q <= 1'b1;
      else if (loading_q && lrow_q == N[RowBits-1:0] - 1'b1) loading_q <= 1'b0;
      if (loading_q)                   lrow_q <= lrow_q + 1'b1;
      if (grant && switch_q)           full_q <= 1'b0;
      else if (load_start)             full_q <= 1'b1;
      if (grant && switch_q)           gap_q <= {GapBits{1'b0}};
      else if (gap_q != N[GapBits-1:0]) gap_q <= gap_q + 1'b1;
    end
  end

  always @(posedge clk_i) begin
    cur_young_q <= take ? younger : cur_younger;
    stop_q      <= rst_ni && (take ? younger || (cur_q && q_instr_i[TPU_MMC_ACCUMULATE_LSB] &&
                                                    q_instr_i[TPU_MMC_ACC_LSB +: AccBits] == acc_q)
                                   : first_q && !grant && cur_younger);
    if (step && take) begin
      first_q    <= 1'b1;
      ub_q       <= q_instr_i[TPU_MMC_UB_LSB +: UbBits];   // decode checked the ranges
      acc_q      <= q_instr_i[TPU_MMC_ACC_LSB +: AccBits];
      left_q     <= q_instr_i[TPU_MMC_ROWS_LSB +: 16];
      last_row_q    <= q_instr_i[TPU_MMC_ROWS_LSB +: 16] == 16'd0;
      acc_mode_q <= q_instr_i[TPU_MMC_ACCUMULATE_LSB];
      switch_q   <= q_instr_i[TPU_MMC_SWITCH_LSB];
      slot_q     <= q_slot_i;
      pc_q       <= q_pc_i;
    end else if (step) begin   // (a grant)
      first_q  <= 1'b0;
      ub_q     <= ub_q + 1'b1;
      acc_q    <= acc_q + 1'b1;
      left_q   <= left_q - 16'd1;
      last_row_q  <= left_q == 16'd1;
      switch_q <= 1'b0;
    end
  end

  wire switch_n = take ? q_instr_i[TPU_MMC_SWITCH_LSB] : grant ? 1'b0 : switch_q;
  wire full_n   = rst_ni && !clear_i && !(grant && switch_q) && (load_start || full_q);
  always @(posedge clk_i) sw_ok_q <= !switch_n || full_n;

  // The counters' row event a cycle late, from a register: the grant's logic then
  // stays beside this sequencer's registers rather than reaching for the counters.
  reg ev_row_q;
  always @(posedge clk_i) ev_row_q <= rst_ni && grant;

  // The row enters the matrix unit two cycles after its read (the unified buffer's
  // read latency); its tag follows the data through the unit (2N + 2 cycles,
  // tpu_matrix_unit).
  reg mx_valid1_q, mx_switch1_q, mx_valid_q, mx_switch_q;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      mx_valid1_q  <= 1'b0;
      mx_switch1_q <= 1'b0;
      mx_valid_q   <= 1'b0;
      mx_switch_q  <= 1'b0;
    end else begin
      mx_valid1_q  <= grant;
      mx_switch1_q <= grant && switch_q;
      mx_valid_q   <= mx_valid1_q;
      mx_switch_q  <= mx_switch1_q;
    end
  end
  wire [TagBits-1:0] tag_in = {grant, acc_mode_q, acc_q, last_row, slot_q};
  wire [TagBits-1:0] tag_out;
  tpu_delay #(.Width(TagBits), .Delay(2 * N + 4), .Reset(1)) u_tags (
      .clk_i,
      .rst_ni,
      .d_i(tag_in),
      .q_o(tag_out));
  wire                tag_valid = tag_out[TagBits-1];
  wire                tag_last  = tag_out[SlotBits];
  wire [SlotBits-1:0] tag_slot  = tag_out[SlotBits-1:0];

  // Retirements: the last row's result written; an instruction dropped before its first
  // row (younger than a fault).
  // The last row retires two cycles after its accumulator write, and each row is
  // reported to the chaining tracker then (accw_*_o below): the row is in the
  // accumulators' memory at the end of the third cycle (their read-modify-write), and a
  // reader sees the report through a register (tpu_chain_track) and reads a cycle later
  // at the earliest, as does an instruction issued after the retirement.
  wire [Slots-1:0] retire_done, retire_dropped;
  reg                last1_q, last_q;  // the row written two cycles ago was an instruction's last
  reg                accw1_valid_q, accw_valid_q;
  reg [SlotBits-1:0] accw1_slot_q, accw_slot_q;
  reg [AccBits-1:0]  accw1_addr_q, accw_addr_q;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      last1_q       <= 1'b0;
      last_q        <= 1'b0;
      accw1_valid_q <= 1'b0;
      accw_valid_q  <= 1'b0;
    end else begin
      last1_q       <= tag_valid && tag_last;
      last_q        <= last1_q;
      accw1_valid_q <= tag_valid;
      accw_valid_q  <= accw1_valid_q;
    end
    accw1_slot_q <= tag_slot;
    accw1_addr_q <= tag_out[SlotBits+1 +: AccBits];
    accw_slot_q  <= accw1_slot_q;
    accw_addr_q  <= accw1_addr_q;
  end
  tpu_slot_mask #(.Slots(Slots)) u_retire_done (
      .valid_i(last_q),
      .slot_i(accw_slot_q),
      .mask_o(retire_done));
  tpu_slot_mask #(.Slots(Slots)) u_retire_dropped (
      .valid_i(drop_cur),
      .slot_i(slot_q),
      .mask_o(retire_dropped));
  wire [Slots-1:0] retire_mask = retire_done | retire_dropped;

  assign q_ready_o        = !cur_q || done;
  assign busy_o           = cur_q;
  assign wf_ready_o       = loading_q;
  assign w_we_o           = loading_q;
  assign w_row_o          = lrow_q;
  // The port is claimed while an instruction streams (a register, so the buffer's read
  // enables and port B's arbitration do not wait for this row's checks); a row read
  // and not granted is not used (the matrix unit's valid follows the grant).
  assign ubr_valid_o      = cur_q;
  assign ubr_addr_o       = ub_q;
  assign mx_valid_o       = mx_valid_q;
  assign mx_switch_o      = mx_switch_q;
  assign acc_we_o         = tag_valid;
  assign acc_accumulate_o = tag_out[TagBits-2];
  assign acc_addr_o       = tag_out[SlotBits+1 +: AccBits];
  assign retire_o         = retire_mask;
  assign ev_row_o         = ev_row_q;
  assign ev_weight_stall_o = need_switch && !shadow_ready && !loading_q && !tile_i;
  assign ev_weight_shift_o = need_switch && !shadow_ready && (loading_q || tile_i);
  assign accw_valid_o     = accw_valid_q;
  assign accw_slot_o      = accw_slot_q;
  assign accw_addr_o      = accw_addr_q;

endmodule

`default_nettype wire
