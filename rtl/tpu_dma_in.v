// SPDX-License-Identifier: Apache-2.0
// DMA-in sequencer: executes `rhm` and `rw` from its queue, in order.
//
// rhm: for each row, one read span per segment; the beats' bytes are gathered into a
// zero-filled row buffer at segment offset s*seglen, then the row goes to the writes
// (a FIFO of two rows, so that taking a row depends on registers only, not on this
// cycle's grant of the unified buffer's port) while the next row's beats arrive (a row
// of one beat per cycle). Window gather: when the rows of an rhm lie close together
// (segments of up to GatherSegs, and m rows of one segment within 4*Bytes+1 bytes for
// some m >= 1) the rows go in groups of m + 1: one span per segment covers the whole
// group and lands, as whole beats, in a window of 5 beats per segment, and the group's
// rows are cut from the windows, one per cycle, while the next group's beats fill a
// second bank. A 3x3 RGB im2col row of three 5-byte segments then costs about 0.7 beat
// instead of three spans. rw: one span per memory row. Without transpose each
// memory row is a tile row: it goes to a push FIFO (two rows) that puts it into the weight
// FIFO while the next rows arrive, and zero rows follow for k < N. With transpose the
// bytes land in an N x N tile buffer as columns, and the N rows are pushed after the
// last memory row. Each instruction retires when its last row has been written or pushed.
//
// Two stages, so that memory latency overlaps the instructions that follow: the
// requester takes instructions from the queue and asks for their spans as fast as the
// read engine takes them, handing each to the consumer through a small FIFO; the
// consumer places the returning beats in span order and goes from one instruction's
// last beat to the next one's first without a pause. The requester takes an `rw` only
// when the weight FIFO has room for its rows and for those of every rw taken before it
// and not yet pushed: beats that wait for room would wait in the shared read engine,
// holding up instruction fetch behind them. (Correctness does not depend on this: an
// issued rw's room is always made by older, issued mmc switches.)
// A span that comes back with a bus error ends the instruction with BUS_ERROR: the
// requester stops and every span in flight is drained. An instruction younger than a
// reported fault is retired unexecuted, after draining any spans already asked for.
`default_nettype none
`include "tpu_unit_ports.vh"

module tpu_dma_in #(
    parameter integer ArraySize = 16,
    parameter integer DataBits  = 128,
    parameter integer UbRows    = 4096,
    parameter integer Slots     = 8,
    parameter integer WfFreeBits = 8,
    parameter integer HandDepth = 4,  // instructions the requester may run ahead
    parameter integer PcBits    = 32, // program addresses lie below 2^PcBits (device memory)
    parameter integer GatherSegs = 0  // window gather of rows of up to this many segments (0: off)
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    // queue head
    `TPU_UNIT_QUEUE_PORTS,
    // read spans and their beats (tpu_axi_read)
    `TPU_READ_CLIENT_PORTS,
    input  wire [DataBits/8-1:0]  beat_fill_i,   // bit k: k < hi - lo (tpu_axi_read)
    input  wire                   beat_last_i,
    input  wire                   beat_error_i,
    // unified-buffer row writes (granted by the core)
    output wire                   ubw_valid_o,
    input  wire                   ubw_ready_i,
    output wire [UbBits-1:0]      ubw_addr_o,
    output wire [N*8-1:0]         ubw_data_o,
    // weight FIFO rows
    output wire                   wf_valid_o,
    input  wire                   wf_ready_i,
    input  wire [WfFreeBits-1:0]  wf_free_i,     // free weight-FIFO rows
    output wire [N*8-1:0]         wf_data_o,
    // completion
    output wire [Slots-1:0]       retire_o,
    output wire                   fault_o,
    output wire [31:0]            fault_pc_o,
    output wire [6:0]             read_bytes_o,  // data bytes that arrived this cycle
    output wire                   tile_o         // a weight tile was loaded
);
`include "tpu_isa.vh"
  localparam integer N        = ArraySize;
  localparam integer Bytes    = DataBits / 8;
  localparam integer LaneBits = $clog2(Bytes);
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;
  localparam integer UbBits   = $clog2(UbRows);
  localparam integer PosBits  = $clog2(N) + 1;   // 0..N

  // window gather: a group's span is at most SpanMax bytes, so it is at most WinBeats
  // beats wherever it starts; rows per group - 1 is 0 or a power of two up to SpanMax - 1.
  // (5 beats, not 3: a 3x3 RGB window's segments advance 3 bytes a row, and 17 rows of
  // them fit 53 bytes, where 3 beats hold 9 rows; the bus then moves about 30% fewer words.)
  localparam integer WinBeats = 5;
  localparam integer SpanMax  = (WinBeats - 1) * Bytes + 1;
  localparam integer GBits    = $clog2(SpanMax + 1);
  localparam integer KMax     = $clog2(SpanMax - 1);
  localparam integer BeatBits = $clog2(WinBeats);
  localparam integer WinBytes = WinBeats * Bytes;
  localparam integer WinSegs  = (GatherSegs > 0) ? GatherSegs : 1;
  localparam integer ShBytes  = (WinBytes > N) ? WinBytes : N;
  localparam integer HandWidth = 128 + 32 + SlotBits + GBits;
  localparam integer OwedBits   = WfFreeBits + 1;

  // The consumer's states, one-hot (st_q[SIdle] ...): finishing an instruction and taking
  // the next hang on which state it is in, and one flip-flop is a LUT level less than a
  // comparison of the state's code. state_q is the code, for the waves.
  localparam integer SIdle = 0, SData = 1, STail = 2, SDrain = 3, SRetire = 4, States = 5;
  localparam [2:0] StIdle = 3'd0, StData = 3'd1, StTail = 3'd2, StDrain = 3'd3, StRetire = 3'd4;
  localparam integer PenPush = N - 2;  // the tile row pushed before the last
  localparam integer FlyBits = 6;  // spans requested and not yet consumed (the engine holds few)

  // Per instruction: the bytes of each span and the memory rows of an rw tile.
  function automatic [6:0] span_len_of(input [127:0] i);
    if (i[3:0] == TPU_OP_RW)
      span_len_of = {1'b0, i[TPU_RW_TRANSPOSE_LSB] ? i[TPU_RW_K_LSB +: 6] : i[TPU_RW_N_LSB +: 6]} + 7'd1;
    else
      span_len_of = {1'b0, i[TPU_RHM_SEGLEN_LSB +: 6]} + 7'd1;
  endfunction
  // an rw's rows in device memory, - 1 (the comparisons below use it as it is, no add)
  function automatic [5:0] mem_rows_m1_of(input [127:0] i);
    mem_rows_m1_of = i[TPU_RW_TRANSPOSE_LSB] ? i[TPU_RW_N_LSB +: 6] : i[TPU_RW_K_LSB +: 6];
  endfunction
  function automatic [6:0] mem_rows_of(input [127:0] i);
    mem_rows_of = {1'b0, mem_rows_m1_of(i)} + 7'd1;
  endfunction
  // Window gather: the most rows - 1 (0 or a power of two) of a group, whose segment's
  // span m*stride + seglen fits SpanMax bytes; 0 when the rhm is not gathered.
  function automatic [GBits-1:0] window_m1(input [3:0] op, input [15:0] rows_m1, input [15:0] stride,
                                           input [5:0] seglen_m1, input [5:0] segs_m1);
    integer k;
    reg [31:0] len;
  begin
    window_m1 = {GBits{1'b0}};
    // (one segment: only rows that overlap gain, or that follow each other and are shorter
    // than a bus word)
    if (GatherSegs > 0 && op == TPU_OP_RHM && {26'd0, segs_m1} < GatherSegs && rows_m1 != 16'd0 &&
        (segs_m1 != 6'd0 || stride <= {10'd0, seglen_m1} ||
         (stride == {10'd0, seglen_m1} + 16'd1 && {26'd0, seglen_m1} + 1 < Bytes)))
      for (k = 0; k <= KMax; k = k + 1) begin
        len = ({16'd0, stride} << k) + {26'd0, seglen_m1} + 32'd1;
        if (len <= SpanMax) window_m1 = 1 << k;
      end
  end
  endfunction
  // The rows - 1 of the next group: up to the largest, and no more than are left.
  function automatic [GBits-1:0] group_m1(input [GBits-1:0] limit, input [16:0] rows_left_m1);
    group_m1 = rows_left_m1 < {{(17-GBits){1'b0}}, limit} ? rows_left_m1[GBits-1:0] : limit;
  endfunction
  // m * stride (both small: stride <= SpanMax in a window), by shifts and adds.
  function automatic [15:0] times(input [GBits-1:0] m, input [15:0] stride);
    integer k;
  begin
    times = 16'd0;
    for (k = 0; k < GBits; k = k + 1)
      if (m[k]) times = times + (stride << k);
  end
  endfunction

  // requester
  reg  [127:0]        rq_in_q;     // its instruction
  reg                 rq_q;        // spans remain to be requested
  reg  [15:0]         rq_row_q;
  reg  [5:0]          rq_seg_q;
  reg  [31:0]         row_addr_q;  // first byte of its row
  reg  [31:0]         span_addr_q; // first byte of its next span
  // spans requested and spans whose last beat was consumed (both stages), counted apart
  // so that neither count waits for the other's event: the difference is in flight
  reg  [FlyBits-1:0]  asked_q, ended_q;
  reg  [OwedBits-1:0] owed_q;      // weight-FIFO rows that taken rw will still push
  reg  [GBits-1:0]    rq_gm1_q;    // window gather: the largest group's rows - 1 (0: off)

  // consumer
  reg  [States-1:0]   st_q;
  wire [2:0]          state_q = st_q[SData] ? StData : st_q[STail] ? StTail : st_q[SDrain] ? StDrain :
                                st_q[SRetire] ? StRetire : StIdle;
  wire                retire_done;   // the retire state ends now (tpu_seq_retire, below)
  reg  [127:0]        in_q;        // the instruction
  reg  [31:0]         pc_q;
  reg  [31:0]         hd_pc_q;     // the hand-off head's pc a cycle ago (pc_q's source)
  reg                 took_q;      // an instruction was taken a cycle ago
  reg  [SlotBits-1:0] slot_q;
  reg                 fault_q;
  reg  [15:0]         row_q;       // rhm row / rw memory row
  reg  [5:0]          seg_q;
  reg  [PosBits-1:0]  pos_q;       // where the next byte lands in the row / column
  reg  [PosBits-1:0]  push_q;      // tile row being pushed (StTail)
  reg  [N*8-1:0]      rowbuf_q;
  reg  [N*N*8-1:0]    tile_q;      // rw transpose: tile[k][c] at byte k*N + c (the tail pushes row 0, then shifts the rows up)
  // the unified-buffer writes (two rows deep) and the weight-FIFO pushes (two rows each), each
  // with the slot its row retires (last: the instruction's final row)
  localparam integer WbWidth = 1 + SlotBits + UbBits + N * 8;
  wire                wb_valid, wb_room, wb_last;
  wire [UbBits-1:0]   wb_addr;
  wire [N*8-1:0]      wb_data;
  wire [SlotBits-1:0] wb_slot;
  localparam integer PrWidth = 1 + SlotBits + N * 8;
  wire                pr_valid, pr_room, pr_last;
  wire [N*8-1:0]      pr_data;
  wire [SlotBits-1:0] pr_slot;
  // window gather: two banks of a window per segment; the fill side (f_) puts each
  // group's beats into a free bank, the emit side (e_) cuts rows from a full one
  reg  [GBits-1:0]    gm1_q;       // the instruction's largest group (0: not gathered)
  reg  [2*WinSegs*WinBytes*8-1:0] win_q;   // [bank][segment] windows of WinBeats beats
  reg  [2*WinSegs*LaneBits-1:0]   off_q;   // [bank][segment]: where its span starts in beat 0
  reg  [1:0]          full_q;
  wire [1:0]          full = (GatherSegs > 0) ? full_q : 2'b00;   // (constant without the gather)
  // each full bank's group: where its rows go and how to cut them, so that rows leave
  // while the consumer already fills the next instruction's groups
  localparam integer MetaBits = UbBits + GBits + GBits + 7 + 6 + SlotBits + 1;
  reg  [2*MetaBits-1:0] meta_q;
  reg                 f_bank_q, e_bank_q;
  reg  [5:0]          f_seg_q;
  reg  [BeatBits-1:0] f_beat_q;
  reg  [16:0]         f_row_q;     // first row of the group being filled
  reg  [GBits-1:0]    e_row_q;     // row within the group being emitted
  reg  [GBits-1:0]    e_off_q;     // its offset: e_row * stride (< SpanMax)

  reg         is_rw;     // in_q is an rw (a register: a comparison less on every use)
  wire        transpose = in_q[TPU_RW_TRANSPOSE_LSB];
  wire [15:0] ub        = in_q[TPU_RHM_UB_LSB +: 16];
  wire [15:0] rows_m1   = in_q[TPU_RHM_ROWS_LSB +: 16];
  wire [5:0]  segs_m1   = in_q[TPU_RHM_SEGS_LSB +: 6];
  wire [6:0]  mem_rows  = mem_rows_of(in_q);
  wire [6:0]  span_len  = span_len_of(in_q);
  wire [15:0] ub_row    = ub + row_q;

  wire        rq_is_rw     = rq_in_q[3:0] == TPU_OP_RW;
  wire [15:0] rq_rows_m1   = rq_in_q[TPU_RHM_ROWS_LSB +: 16];
  wire [15:0] rq_stride    = rq_in_q[TPU_RHM_STRIDE_LSB +: 16];
  wire [15:0] rq_segstride = rq_in_q[TPU_RHM_SEGSTRIDE_LSB +: 16];
  wire [5:0]  rq_segs_m1   = rq_in_q[TPU_RHM_SEGS_LSB +: 6];
  wire [5:0]  rq_seglen_m1 = rq_in_q[TPU_RHM_SEGLEN_LSB +: 6];
  // (without the window gather its logic is constant: no register to carry it)
  wire [GBits-1:0] rq_gm1  = (GatherSegs > 0) ? rq_gm1_q : {GBits{1'b0}};
  wire        rq_win       = rq_gm1 != {GBits{1'b0}};
  wire [GBits-1:0] rq_m1   = group_m1(rq_gm1, {1'b0, rq_rows_m1 - rq_row_q});
  wire [15:0] rq_mstride   = times(rq_m1, rq_stride);

  // The hand-off: instructions the requester has taken, in order, for the consumer. The
  // consumer's take pops the head a cycle later (took_q), so that the FIFO's pointers and
  // count start at a flip-flop, not at the end of the consumer's finish; the old head
  // stays in view for that cycle, not fresh, so it is not taken twice.
  wire                 hd_valid, hd_room;
  wire [HandWidth-1:0] hd_data;
  wire [$clog2(HandDepth):0] hd_count;
  wire [127:0]         hd_instr = hd_data[127:0];
  wire [31:0]          hd_pc    = hd_data[128 +: 32];
  wire [SlotBits-1:0]  hd_slot  = hd_data[160 +: SlotBits];
  wire [GBits-1:0]     hd_gm1   = hd_data[160 + SlotBits +: GBits];
  // What the consumer's flags start from when it takes the head: registers, loaded
  // every cycle from the head (a head is only taken in its second cycle, below, so
  // they are its own by then).
  wire                 hd_is_rw_c     = hd_instr[3:0] == TPU_OP_RW;
  wire [6:0]           hd_mem_m1_c    = {1'b0, mem_rows_m1_of(hd_instr)};
  wire                 hd_last_seg_c  = hd_instr[TPU_RHM_SEGS_LSB +: 6] == 6'd0;
  wire                 hd_last_row_c  = hd_is_rw_c ? hd_mem_m1_c == 7'd0 : hd_instr[TPU_RHM_ROWS_LSB +: 16] == 16'd0;
  wire                 hd_full_tile_c = hd_mem_m1_c == N[6:0] - 7'd1;
  reg                  hd_is_rw, hd_last_seg, hd_last_row, hd_full_tile, hd_fin_rw, hd_fin_rhm;
  reg  [5:0]           hd_pen_seg;
  reg  [15:0]          hd_pen_row;
  always @(posedge clk_i) begin
    hd_is_rw     <= hd_is_rw_c;
    hd_last_seg  <= hd_last_seg_c;
    hd_last_row  <= hd_last_row_c;
    hd_full_tile <= hd_full_tile_c;
    // (a row past the last never comes: -1 as 16 bits, 127 for rw's at most 64 rows)
    hd_pen_seg   <= hd_instr[TPU_RHM_SEGS_LSB +: 6] - 6'd1;
    hd_pen_row   <= hd_is_rw_c ? {9'd0, hd_mem_m1_c - 7'd1} : hd_instr[TPU_RHM_ROWS_LSB +: 16] - 16'd1;
    hd_fin_rw    <= fin_rw_of(hd_is_rw_c, hd_instr[TPU_RW_TRANSPOSE_LSB], hd_last_row_c, hd_full_tile_c);
    hd_fin_rhm   <= fin_rhm_of(hd_is_rw_c, GatherSegs > 0 && hd_gm1 != {GBits{1'b0}}, hd_last_seg_c,
                               hd_last_row_c);
  end

  // Younger than a reported fault: flags a cycle behind the report, for the queue's head
  // (requester) and the hand-off's (consumer). The fault pc only moves to older
  // instructions while it is valid, so a late flag is never wrong about an instruction
  // it calls younger, and the consumer's view is never older than the requester's was:
  // every instruction the requester skipped the consumer drains. A head is taken only
  // from its second cycle, when its flag is its own. The consumer's own fault counts at
  // once and for the rest of the run (own_fault_q): the requester stopped at its
  // faulting beat, so the spans of the instructions after it may be missing, and an
  // earlier report of a younger fault says nothing about them.
  reg  q_young_q, q_fresh_q, hd_young_q, hd_fresh_q, own_fault_q, err_seen_q;
  wire rq_young = q_young_q;
  wire younger  = hd_young_q || own_fault_q;
  wire q_younger, hd_younger;
  tpu_younger #(.PcBits(PcBits)) u_q_younger (
      .err_valid_i,
      .err_pc_i,
      .pc_i(q_pc_i),
      .younger_o(q_younger));
  tpu_younger #(.PcBits(PcBits)) u_hd_younger (
      .err_valid_i,
      .err_pc_i,
      .pc_i(hd_pc),
      .younger_o(hd_younger));

  // What the requester takes from the queue's head besides the instruction: registers,
  // loaded every cycle from the head (a head is only taken in its second cycle, so they
  // are its own by then).
  wire [GBits-1:0] q_gm1_c = window_m1(q_instr_i[3:0], q_instr_i[TPU_RHM_ROWS_LSB +: 16],
      q_instr_i[TPU_RHM_STRIDE_LSB +: 16], q_instr_i[TPU_RHM_SEGLEN_LSB +: 6], q_instr_i[TPU_RHM_SEGS_LSB +: 6]);
  reg              q_is_rw, q_first_last;
  reg  [GBits-1:0] q_gm1;
  // (the counts' values one before their last, for the requester's last-span test below)
  reg  [15:0]      q_rows_m2;
  reg  [6:0]       q_mem_m2;
  reg  [5:0]       q_segs_m2;
  always @(posedge clk_i) begin
    q_is_rw      <= q_instr_i[3:0] == TPU_OP_RW;
    q_gm1        <= q_gm1_c;
    q_first_last <= rq_last_of(q_instr_i, q_gm1_c, 16'd0, 6'd0);
    q_rows_m2    <= q_instr_i[TPU_RHM_ROWS_LSB +: 16] - 16'd1;
    q_mem_m2     <= {1'b0, mem_rows_m1_of(q_instr_i)} - 7'd1;
    q_segs_m2    <= q_instr_i[TPU_RHM_SEGS_LSB +: 6] - 6'd1;
  end
  reg  [OwedBits-1:0] owed_n_q;    // owed_q + N: the rows owed once one more rw is taken
  // (a cycle old: no head is taken in the cycle after a take, and a row pushed since
  // takes one free row and one owed row alike, so the old answer errs only towards no;
  // the counts follow the takes a cycle late (add_q below), and an rw taken but not yet
  // counted answers no)
  reg  wf_room_q;
  reg  add_q;
  always @(posedge clk_i) wf_room_q <= {1'b0, wf_free_i} >= owed_n_q && !add_q;
  wire wf_room  = wf_room_q;
  wire req_fire  = req_valid_o && req_ready_i;
  // The span being requested is the instruction's last: a register, computed from the
  // requester's next row and segment, so that taking the next instruction (and all that
  // hangs on it) is not a comparison deep.
  function automatic rq_last_of(input [127:0] i, input [GBits-1:0] g, input [15:0] row, input [5:0] seg);
    reg [15:0] rm1;
  begin
    rm1 = i[TPU_RHM_ROWS_LSB +: 16];
    if (i[3:0] == TPU_OP_RW) rq_last_of = row[6:0] == {1'b0, mem_rows_m1_of(i)};
    else rq_last_of = seg == i[TPU_RHM_SEGS_LSB +: 6] &&
                      (g != {GBits{1'b0}} ? rm1 - row == {{(16-GBits){1'b0}}, group_m1(g, {1'b0, rm1 - row})}
                                          : row == rm1);
  end
  endfunction
  reg  rq_last_q;
  wire rq_last   = rq_last_q;
  wire rq_done   = !rq_q || (req_fire && rq_last);   // the requester can take one this cycle
  wire rq_take   = q_valid_i && q_fresh_q && rq_done && hd_room && (!q_is_rw || rq_young || wf_room);

  wire wb_done   = wb_valid && ubw_ready_i;
  // A row may go to the writes this cycle: their room, from registers, not from this
  // cycle's grant of the buffer's port (which depends on the activation unit's write).
  wire wb_free   = wb_room;
  wire pr_done   = pr_valid && wf_ready_i;
  // (the push FIFO's room, a register: not the weight FIFO's, which is far away)
  wire pr_free   = pr_room;
  wire [GBits-1:0] gm1 = (GatherSegs > 0) ? gm1_q : {GBits{1'b0}};
  wire win       = gm1 != {GBits{1'b0}};
  wire [GBits-1:0] f_m1 = group_m1(gm1, {1'b0, rows_m1} - f_row_q);
  wire f_last_seg = f_seg_q == segs_m1;
  wire f_last_grp = f_row_q + {{(17-GBits){1'b0}}, f_m1} == {1'b0, rows_m1};
  // (a plain rhm's rows wait until the gathered rows before them have left)
  wire out_free  = win ? !full[f_bank_q] : is_rw ? (transpose || pr_free) : wb_free && full == 2'b00;
  wire beat_fire = st_q[SData] && beat_valid_i && out_free;
  wire tile_beat = st_q[SData] && beat_valid_i && !win && is_rw && transpose;
  wire f_group   = beat_fire && win && beat_last_i && !beat_error_i && f_last_seg;  // a bank filled
  // the group being emitted
  wire [MetaBits-1:0] e_meta = e_bank_q ? meta_q[MetaBits +: MetaBits] : meta_q[0 +: MetaBits];
  wire [UbBits-1:0]   e_ub     = e_meta[0 +: UbBits];
  wire [GBits-1:0]    e_m1     = e_meta[UbBits +: GBits];
  wire [GBits-1:0]    e_stride = e_meta[UbBits + GBits +: GBits];
  wire [6:0]          e_seglen = e_meta[UbBits + 2 * GBits +: 7];
  wire [5:0]          e_segs_m1 = e_meta[UbBits + 2 * GBits + 7 +: 6];
  wire [SlotBits-1:0] e_slot   = e_meta[UbBits + 2 * GBits + 13 +: SlotBits];
  wire                e_last   = e_meta[MetaBits-1];
  wire e_go        = full[e_bank_q] && wb_free;   // a gathered row out
  wire e_group_end = e_row_q == e_m1;
  wire last_beat = beat_fire && beat_last_i;
  wire drain_last = st_q[SDrain] && beat_valid_i && beat_last_i;
  wire span_end  = last_beat || drain_last;
  // (registered with the counters they compare, so that finishing and taking the next
  // instruction is not an adder and a comparison deep)
  reg  last_seg_q, last_row_q, full_tile_q;
  // The span being consumed is the last of an rhm (not gathered) or of an rw tile of N
  // memory rows: its last beat finishes the instruction. Kept with the flags above, one
  // per kind, so that the finish does not look at the kind (the rhm's needs room in the
  // writes, the rw's room in the push FIFO).
  reg  fin_rw_q, fin_rhm_q;
  function automatic fin_rw_of(input rw, input tr, input lrow, input ftile);
    fin_rw_of = rw && !tr && lrow && ftile;
  endfunction
  function automatic fin_rhm_of(input rw, input gathered, input lseg, input lrow);
    fin_rhm_of = !rw && !gathered && lseg && lrow;
  endfunction
  reg  [15:0] pen_row_q;                     // the last row but one: rows_m1 - 1 (rhm), mem_rows - 2 (rw)
  reg  [5:0]  pen_seg_q;                     // segs_m1 - 1
  wire rhm_last_seg = last_seg_q;            // seg_q == segs_m1
  wire rhm_last_row = last_row_q;            // row_q == rows_m1 (rhm), mem_rows - 1 (rw)
  wire rw_last_row  = last_row_q;
  wire good_last = last_beat && !beat_error_i;
  wire row_end   = good_last && !is_rw && !win && rhm_last_seg;    // an rhm row to the writes
  wire rw_row    = good_last && is_rw && !transpose;               // a tile row to the push FIFO
  wire tail_push = st_q[STail] && pr_free;                   // a transposed or zero tile row
  reg  tail_last_q;                                                 // push_q == N - 1
  wire [PosBits-1:0] push_first = transpose ? {PosBits{1'b0}} : mem_rows[PosBits-1:0];  // the tail's first row
  wire tail_last = tail_last_q;
  // The instruction's last row has gone to its register: the consumer is done with it.
  // (good_last && fin, spelt out so that the beat's room is the kind's alone: a finishing
  // rw does not transpose, a finishing rhm is not gathered)
  wire last_ok   = st_q[SData] && beat_valid_i && beat_last_i && !beat_error_i;
  wire finish    = (last_ok && (fin_rw_q && pr_free || fin_rhm_q && wb_free && full == 2'b00)) ||
                   (f_group && f_last_grp) || (st_q[STail] && tail_last && pr_free);
  // (a fresh head is valid: the hand-off pops only on took_q, which clears the freshness)
  wire take      = hd_fresh_q && (st_q[SIdle] || finish);
  wire restart   = st_q[SIdle] || finish;
  wire data_err  = last_beat && beat_error_i;   // a bus error ends the instruction: it drains
  // Drain from here on: a bus error, or a head younger than a fault (the requester's
  // instruction, pushed behind it, is younger too), known from registers before the
  // consumer takes it (so the consumer's finish stays out of the requester's flag).
  wire rq_stop   = data_err || (hd_fresh_q && younger);

  tpu_fifo #(.Width(HandWidth), .Depth(HandDepth)) u_hand (
      .clk_i,
      .rst_ni,
      .clear_i(1'b0),
      .in_valid_i(rq_take),
      .in_ready_o(hd_room),
      .in_data_i({q_gm1, q_slot_i, q_pc_i, q_instr_i}),
      .out_valid_o(hd_valid),
      .out_ready_i(took_q),
      .out_data_o(hd_data),
      .count_o(hd_count));

  // Place the beat's bytes [lo, hi) at lanes [pos, pos + hi - lo) of an N-byte vector:
  // lane j takes byte j - pos + lo when 0 <= j - pos < hi - lo. That byte index is
  // j + (lo - pos) modulo the beat's bytes: one rotation of the beat by lo - pos, a
  // log shifter shared by all lanes, not a byte multiplexer with its own index per lane.
  // (In a few bits, RelBits, wide enough for the count hi - lo and pos alike.)
  localparam integer RelBits = ((PosBits > LaneBits) ? PosBits : LaneBits) + 2;
  wire [RelBits-1:0] beat_cnt = {{(RelBits-LaneBits-1){1'b0}}, beat_hi_i} - {{(RelBits-LaneBits-1){1'b0}}, beat_lo_i};
  wire [RelBits-1:0] pos_wide = {{(RelBits-PosBits){1'b0}}, pos_q};
  wire [LaneBits-1:0]   rot = beat_lo_i[LaneBits-1:0] - pos_wide[LaneBits-1:0];
  wire [2*DataBits-1:0] beat_twice = {beat_data_i, beat_data_i};
  wire [DataBits-1:0]   rotated = beat_twice[8*rot +: DataBits];  // byte b: beat byte b + rot
  // Lane j takes one when j - pos is below the beat's count: the count's mask (a
  // register in tpu_axi_read) shifted up by pos, no comparison per lane. Its byte is
  // placed whether or not the lane takes it (every use is behind lane_hit).
  wire [N-1:0] fill;   // (the mask's first N bits: no lane lies beyond them)
  generate
    if (Bytes >= N) begin : g_fill_cut
      assign fill = beat_fill_i[N-1:0];
      if (Bytes > N) begin : g_unused
        wire unused_fill = ^beat_fill_i[Bytes-1:N];
      end
    end else begin : g_fill_pad
      assign fill = {{(N-Bytes){1'b0}}, beat_fill_i};
    end
  endgenerate
  wire [N-1:0]   lane_hit = fill << pos_q;
  reg  [N*8-1:0] placed;
  integer j, r;
  always @(*)
    for (j = 0; j < N; j = j + 1) placed[8*j +: 8] = rotated[8*(j % Bytes) +: 8];
  wire [PosBits-1:0] beat_count = beat_cnt[PosBits-1:0];   // the beat's bytes (hi - lo)
  reg  [N*8-1:0] row_data;   // the row this beat completes
  always @(*)
    for (j = 0; j < N; j = j + 1) row_data[8*j +: 8] = lane_hit[j] ? placed[8*j +: 8] : rowbuf_q[8*j +: 8];

  // (each state's next, written for a one-hot code; the priorities are StData's: a bus
  // error drains, else the finish goes idle, else an rw's last memory row goes to the tail)
  wire to_tail  = last_beat && !beat_error_i && is_rw && rw_last_row;
  // (the registered counts: with the requester stopped nothing new flies, and the beat's
  // handshake stays out of this register's enable)
  wire drained  = asked_q == ended_q && !rq_q && !wb_valid && !pr_valid && full == 2'b00;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= {{(States-1){1'b0}}, 1'b1};
    end else begin
      // (take is restart && hd_fresh_q; no state but idle or a finishing one takes, and a
      // finishing StData has no bus error: so each next state needs restart, not take)
      st_q[SIdle]   <= (restart && !hd_fresh_q) || (st_q[SRetire] && retire_done);
      st_q[SData]   <= (restart && hd_fresh_q && !younger) || (st_q[SData] && !data_err && !finish && !to_tail);
      st_q[STail]   <= (st_q[STail] || to_tail) && !finish;
      st_q[SDrain]  <= (restart && hd_fresh_q && younger) || (st_q[SDrain] && !drained) || data_err;
      st_q[SRetire] <= (st_q[SRetire] && !retire_done) || (st_q[SDrain] && drained);
    end
  end

  // (rows owed by an rw that faulted are forgotten once the unit has been idle; owed + N
  // is kept beside owed, not computed from it, so that neither is two adders deep)
  reg                 busy_q;
  // (the three sums come from registers; the take, registered, and the row done only
  // pick one)
  wire                add_rw    = rq_take && q_is_rw && !rq_young;
  wire [OwedBits-1:0] owed_b    = busy_q ? owed_q : {OwedBits{1'b0}};
  wire [OwedBits-1:0] owed_n_b  = busy_q ? owed_n_q : N[OwedBits-1:0];
  wire [OwedBits-1:0] n_w       = N[OwedBits-1:0];
  wire [OwedBits-1:0] one_w     = {{(OwedBits-1){1'b0}}, 1'b1};
  wire [OwedBits-1:0] n_m1_w    = n_w - one_w;
  wire [OwedBits-1:0] owed_next   = owed_pick(add_q, pr_done, owed_b, owed_b + n_w, owed_b + n_m1_w,
                                              owed_b - one_w);
  wire [OwedBits-1:0] owed_n_next = owed_pick(add_q, pr_done, owed_n_b, owed_n_b + n_w,
                                              owed_n_b + n_m1_w, owed_n_b - one_w);
  function automatic [OwedBits-1:0] owed_pick(input add, input done, input [OwedBits-1:0] same,
      input [OwedBits-1:0] plus_n, input [OwedBits-1:0] plus_n_m1, input [OwedBits-1:0] minus_1);
    owed_pick = add ? (done ? plus_n_m1 : plus_n) : (done ? minus_1 : same);
  endfunction
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      q_fresh_q  <= 1'b0;
      hd_fresh_q <= 1'b0;
    end else begin
      q_fresh_q  <= q_valid_i && !rq_take;
      hd_fresh_q <= hd_valid && !take && !took_q;
    end
    err_seen_q <= err_valid_i;
    // (until the run ends, when the report goes away: every instruction this unit takes
    // after its own fault is younger than it, whatever else has been reported; a younger
    // fault reported before it must not let the next instruction in)
    if (!rst_ni || (err_seen_q && !err_valid_i)) own_fault_q <= 1'b0;
    else if (st_q[SRetire] && fault_q)           own_fault_q <= 1'b1;
    q_young_q  <= q_younger;
    hd_young_q <= hd_younger;
  end

  // The requester: each instruction's spans in the consumer's order.
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rq_q   <= 1'b0;
      asked_q <= {FlyBits{1'b0}};
      ended_q <= {FlyBits{1'b0}};
      owed_q <= {OwedBits{1'b0}};
      owed_n_q <= N[OwedBits-1:0];
      add_q  <= 1'b0;
      busy_q <= 1'b0;
    end else begin
      if (req_fire) asked_q <= asked_q + 1'b1;
      if (span_end) ended_q <= ended_q + 1'b1;
      if (rq_take) rq_q <= !rq_young;
      else if ((req_fire && rq_last) || rq_stop) rq_q <= 1'b0;
      owed_q   <= owed_next;
      owed_n_q <= owed_n_next;
      add_q    <= add_rw;
      busy_q   <= busy_o;
    end
  end
  // The requester's next row and segment.
  wire        rq_next_grp = rq_win && rq_seg_q == rq_segs_m1;                // window gather: next group
  wire        rq_next_row = !rq_win && (rq_is_rw || rq_seg_q == rq_segs_m1); // next row (rw: memory row)
  // (the row and segment after a span is asked for)
  wire [15:0] rq_fire_row = rq_next_grp ? rq_row_q + {{(16-GBits){1'b0}}, rq_m1} + 16'd1 :
                            rq_next_row ? rq_row_q + 16'd1 : rq_row_q;
  wire [5:0]  rq_fire_seg = rq_next_grp || rq_next_row ? 6'd0 : rq_seg_q + 6'd1;
  // rq_last_of for the spans a row or a segment at a time (no window), as comparisons of
  // the row and segment registers themselves with the counts one before their last,
  // loaded with the instruction: the next row's test is not behind its increment (the
  // N = 4 build's longest path ran through that adder and the comparison after it).
  reg  [15:0] rq_rows_m2_q;
  reg  [6:0]  rq_mem_m2_q;
  reg  [5:0]  rq_segs_m2_q;
  wire rq_last_step = rq_is_rw    ? rq_row_q[6:0] == rq_mem_m2_q :
                      rq_next_row ? rq_segs_m1 == 6'd0 && rq_row_q == rq_rows_m2_q :
                                    rq_seg_q == rq_segs_m2_q && rq_row_q == rq_rows_m1;
  always @(posedge clk_i) begin
    if (rq_take) begin
      rq_row_q <= 16'd0;
      rq_seg_q <= 6'd0;
    end else if (req_fire) begin
      rq_row_q <= rq_fire_row;
      rq_seg_q <= rq_fire_seg;
    end
    // (the take's case from the queue's head alone, the span's from the registers, so
    // that the take selects between two finished comparisons)
    if (rq_take)       rq_last_q <= q_first_last;
    else if (req_fire) rq_last_q <= rq_win ? rq_last_of(rq_in_q, rq_gm1, rq_fire_row, rq_fire_seg) : rq_last_step;
    if (rq_take) begin
      rq_rows_m2_q <= q_rows_m2;
      rq_mem_m2_q  <= q_mem_m2;
      rq_segs_m2_q <= q_segs_m2;
    end
    if (rq_take) begin
      rq_in_q     <= q_instr_i;
      rq_gm1_q    <= q_gm1;
      row_addr_q  <= q_instr_i[TPU_RHM_ADDR_LSB +: 32];
      span_addr_q <= q_instr_i[TPU_RHM_ADDR_LSB +: 32];
    end else if (req_fire && rq_next_grp) begin       // next group
      row_addr_q  <= row_addr_q + {16'd0, rq_mstride} + {16'd0, rq_stride};
      span_addr_q <= row_addr_q + {16'd0, rq_mstride} + {16'd0, rq_stride};
    end else if (req_fire && rq_next_row) begin       // next row (rw: next memory row of the tile)
      row_addr_q  <= row_addr_q + {16'd0, rq_stride};
      span_addr_q <= row_addr_q + {16'd0, rq_stride};
    end else if (req_fire) begin                      // the next segment of the row or group
      span_addr_q <= span_addr_q + {16'd0, rq_segstride};
    end
  end

  // The unified-buffer writes and the weight-FIFO pushes. (e_go and row_end never
  // meet: a plain rhm's rows wait until the gathered rows before them have left.)
  wire [WbWidth-1:0] wb_in = e_go ? {e_last && e_group_end, e_slot, e_ub + {{(UbBits-GBits){1'b0}}, e_row_q}, win_row}
                                  : {rhm_last_row, slot_q, ub_row[UbBits-1:0], row_data};
  wire [1:0] unused_wb_count;
  tpu_fifo #(.Width(WbWidth), .Depth(2)) u_wb (
      .clk_i,
      .rst_ni,
      .clear_i(1'b0),
      .in_valid_i(row_end || e_go),
      .in_ready_o(wb_room),
      .in_data_i(wb_in),
      .out_valid_o(wb_valid),
      .out_ready_i(ubw_ready_i),
      .out_data_o({wb_last, wb_slot, wb_addr, wb_data}),
      .count_o(unused_wb_count));
  // (two rows deep, like the writes: its room is then its own register, and a row goes
  // in while the one before waits for the weight FIFO; the head from a register, since
  // the weight FIFO's memory is written from it)
  wire [N*8-1:0] pr_in_data = st_q[STail] ? (transpose ? tile_q[0 +: 8*N] : {N*8{1'b0}})
                                          : row_data;
  wire           pr_in_last = st_q[STail] ? tail_last : rw_last_row && full_tile_q;
  wire [1:0] unused_pr_count;
  tpu_fifo #(.Width(PrWidth), .Depth(2), .OutReg(1)) u_pr (
      .clk_i,
      .rst_ni,
      .clear_i(1'b0),
      .in_valid_i(rw_row || tail_push),
      .in_ready_o(pr_room),
      .in_data_i({pr_in_last, slot_q, pr_in_data}),
      .out_valid_o(pr_valid),
      .out_ready_i(wf_ready_i),
      .out_data_o({pr_last, pr_slot, pr_data}),
      .count_o(unused_pr_count));

  // The consumer.
  always @(posedge clk_i) begin
    if (beat_fire && !win) begin
      pos_q <= pos_q + beat_count;
      for (j = 0; j < N; j = j + 1)
        if (lane_hit[j] && !(is_rw && transpose)) rowbuf_q[8*j +: 8] <= placed[8*j +: 8];
    end
    // Tile bytes by row and column decode, not by an index computed from the memory
    // row: an indexed write is a shifter over the whole tile per lane. (tile_beat is
    // beat_fire for a transposing rw, whose beats never wait for room.)
    for (r = 0; r < N; r = r + 1)
      for (j = 0; j < N; j = j + 1)
        if (tile_beat && lane_hit[r] && row_q == j[15:0])
          tile_q[8*(r*N + j) +: 8] <= placed[8*r +: 8];
    // The tail pushes the tile's rows in order from row 0, each push moving the rest up
    // a row: no N-way row multiplexer (at N = 16 it was 4 100 LUT4 and 2 800 wide muxes,
    // a third of the DMA-in), a 2-way choice per bit between the row below and the beat.
    if (tail_push) tile_q <= {{(8*N){1'b0}}, tile_q[N*N*8-1:8*N]};
    if (last_beat && beat_error_i) fault_q <= 1'b1;
    if (last_beat && !win) begin
      if (is_rw || rhm_last_seg) begin
        // next row (rw: next memory row of the tile)
        row_q    <= row_q + 16'd1;
        seg_q    <= 6'd0;
        last_seg_q <= segs_m1 == 6'd0;
        last_row_q <= row_q == pen_row_q;
        fin_rw_q   <= fin_rw_of(is_rw, transpose, row_q == pen_row_q, full_tile_q);
        fin_rhm_q  <= fin_rhm_of(is_rw, win, segs_m1 == 6'd0, row_q == pen_row_q);
        pos_q    <= {PosBits{1'b0}};
        rowbuf_q <= {N*8{1'b0}};
        // the tile rows after the last memory row: all N (transpose) or the zero rows
        push_q      <= push_first;
        tail_last_q <= push_first == N[PosBits-1:0] - 1'b1;
      end else begin
        // next segment of the row, placed after this one
        seg_q    <= seg_q + 6'd1;
        last_seg_q <= seg_q == pen_seg_q;
        fin_rw_q   <= fin_rw_of(is_rw, transpose, last_row_q, full_tile_q);
        fin_rhm_q  <= fin_rhm_of(is_rw, win, seg_q == pen_seg_q, last_row_q);
        pos_q    <= pos_q + beat_count;
      end
    end
    if (tail_push) begin
      push_q      <= push_q + 1'b1;
      tail_last_q <= push_q == PenPush[PosBits-1:0];
    end
    if (take) begin
      last_seg_q  <= hd_last_seg;
      pen_seg_q   <= hd_pen_seg;
      pen_row_q   <= hd_pen_row;
      last_row_q  <= hd_last_row;
      full_tile_q <= hd_full_tile;
      fin_rw_q    <= hd_fin_rw;
      fin_rhm_q   <= hd_fin_rhm;
      is_rw       <= hd_is_rw;
      gm1_q    <= hd_gm1;
      in_q     <= hd_instr;
      slot_q   <= hd_slot;
    end
    // The counters start over as an instruction finishes and while idle, which covers
    // every take without the take's logic on their resets.
    if (restart) begin
      fault_q  <= 1'b0;
      row_q    <= 16'd0;
      seg_q    <= 6'd0;
      pos_q    <= {PosBits{1'b0}};
    end
    // The row and tile buffers are zero whenever an instruction is taken, without the
    // take's enable on them: every row leaves the row buffer zero, a tile's last push
    // clears the tile, and an idle consumer clears both (an instruction cut short by a
    // bus error drains, retires and goes idle before the next is taken).
    if (st_q[SIdle]) rowbuf_q <= {N*8{1'b0}};
    if (st_q[SIdle] || (tail_push && tail_last)) tile_q <= {N*N*8{1'b0}};
    // The pc is only for the fault report, many cycles after the take: it follows a
    // cycle later from a copy of the head's, so the take's enable stays off it.
    took_q    <= take;
    hd_pc_q   <= hd_pc;
    if (took_q) pc_q <= hd_pc_q;
  end

  // ---- window gather ----------------------------------------------------------------
  wire [15:0] stride  = in_q[TPU_RHM_STRIDE_LSB +: 16];
  wire [6:0]  seglen  = {1'b0, in_q[TPU_RHM_SEGLEN_LSB +: 6]} + 7'd1;
  reg  [6:0]  row_bytes;   // segs * seglen of the emitted group
  always @(*) begin
    row_bytes = 7'd0;
    for (j = 0; j < WinSegs; j = j + 1)
      if (j <= e_segs_m1) row_bytes = row_bytes + e_seglen;
  end
  // The row: segment s's seglen bytes from its window at its span's offset + e_off, placed
  // at lane s*seglen.
  reg [N*8-1:0]        win_row;
  reg [ShBytes*8-1:0]  seg_win;
  /* verilator lint_off UNUSEDSIGNAL */  // (only its first N bytes are the row's)
  reg [ShBytes*8-1:0]  seg_shifted;
  /* verilator lint_on UNUSEDSIGNAL */
  reg [N*8-1:0]        seg_bytes;
  reg [N*8-1:0]        seg_mask;
  reg [7:0]            seg_at;
  reg [LaneBits-1:0]   seg_off;
  integer s;
  wire [31:0] f_bank = {31'd0, f_bank_q}, f_seg = {26'd0, f_seg_q}, f_beat = {{(32-BeatBits){1'b0}}, f_beat_q};
  always @(*) begin
    win_row = {N*8{1'b0}};
    seg_at  = 8'd0;   // s * seglen
    for (s = 0; s < WinSegs; s = s + 1) begin
      seg_win = {ShBytes*8{1'b0}};
      seg_win[WinBytes*8-1:0] = e_bank_q ? win_q[(WinSegs + s) * WinBytes * 8 +: WinBytes * 8]
                                         : win_q[s * WinBytes * 8 +: WinBytes * 8];
      seg_off = e_bank_q ? off_q[(WinSegs + s) * LaneBits +: LaneBits] : off_q[s * LaneBits +: LaneBits];
      seg_shifted = seg_win >> (8 * ({{(GBits+1-LaneBits){1'b0}}, seg_off} + {1'b0, e_off_q}));
      seg_bytes = seg_shifted[N*8-1:0];
      for (j = 0; j < N; j = j + 1) seg_mask[8*j +: 8] = (j < e_seglen) ? 8'hff : 8'h00;
      if (s <= e_segs_m1) win_row = win_row | ((seg_bytes & seg_mask) << (8 * seg_at));
      seg_at = seg_at + {1'b0, e_seglen};
    end
  end

  wire [15:0] f_ub = ub + f_row_q[15:0];
  wire [MetaBits-1:0] f_meta = {f_last_grp, slot_q, segs_m1, seglen, stride[GBits-1:0], f_m1, f_ub[UbBits-1:0]};
  always @(posedge clk_i) begin
    if (beat_fire && win) begin
      // (by decode of bank, segment and beat, not an index: see tile_q)
      for (s = 0; s < 2 * WinSegs; s = s + 1)
        if (s == f_bank * WinSegs + f_seg) begin
          for (j = 0; j < WinBeats; j = j + 1)
            if (j == f_beat) win_q[(s * WinBytes + j * Bytes) * 8 +: Bytes * 8] <= beat_data_i;
          if (f_beat_q == {BeatBits{1'b0}}) off_q[s * LaneBits +: LaneBits] <= beat_lo_i[LaneBits-1:0];
        end
      f_beat_q <= last_beat ? {BeatBits{1'b0}} : f_beat_q + 1'b1;
      if (last_beat && !beat_error_i) begin
        if (f_last_seg) begin
          if (f_bank_q) meta_q[MetaBits +: MetaBits] <= f_meta;
          else          meta_q[0 +: MetaBits] <= f_meta;
          f_seg_q  <= 6'd0;
          f_row_q  <= f_row_q + {{(17-GBits){1'b0}}, f_m1} + 17'd1;
        end else begin
          f_seg_q  <= f_seg_q + 6'd1;
        end
      end
    end
    if (restart) begin
      f_seg_q  <= 6'd0;
      f_beat_q <= {BeatBits{1'b0}};
      f_row_q  <= 17'd0;
    end
  end
  // The emit side runs on its own: banks fill and empty in turn, across instructions.
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      full_q   <= 2'b00;
      f_bank_q <= 1'b0;
      e_bank_q <= 1'b0;
      e_row_q  <= {GBits{1'b0}};
      e_off_q  <= {GBits{1'b0}};
    end else begin
      if (f_group) full_q[f_bank_q] <= 1'b1;
      if (e_go && e_group_end) full_q[e_bank_q] <= 1'b0;
      if (f_group) f_bank_q <= !f_bank_q;
      if (e_go) begin
        e_row_q <= e_group_end ? {GBits{1'b0}} : e_row_q + 1'b1;
        e_off_q <= e_group_end ? {GBits{1'b0}} : e_off_q + e_stride;
        if (e_group_end) e_bank_q <= !e_bank_q;
      end
    end
  end

  assign q_ready_o    = rq_take;
  // (busy also while the queue head waits for weight-FIFO room: the watchdog's report
  // names the unit that is stuck)
  assign busy_o       = !st_q[SIdle] || hd_valid || rq_q || wb_valid || pr_valid || q_valid_i || full != 2'b00 ||
                        retire_q != {Slots{1'b0}};
  assign req_valid_o  = rq_q;
  assign beat_ready_o = st_q[SData] && out_free || st_q[SDrain];
  assign req_addr_o   = span_addr_q;
  assign req_len_o    = rq_win ? rq_mstride[11:0] + {6'd0, rq_seglen_m1} + 12'd1 : {5'd0, span_len_of(rq_in_q)};
  assign ubw_valid_o  = wb_valid;
  assign ubw_addr_o   = wb_addr;
  assign ubw_data_o   = wb_data;
  assign wf_valid_o   = pr_valid;
  assign wf_data_o    = pr_data;

  wire [Slots-1:0] retire_wb, retire_pr, retire_st;
  tpu_slot_mask #(.Slots(Slots)) u_retire_wb (
      .valid_i(wb_done && wb_last),
      .slot_i(wb_slot),
      .mask_o(retire_wb));
  tpu_slot_mask #(.Slots(Slots)) u_retire_pr (
      .valid_i(pr_done && pr_last),
      .slot_i(pr_slot),
      .mask_o(retire_pr));
  tpu_seq_retire #(.Slots(Slots)) u_retire_st (
      .clk_i,
      .rst_ni,
      .retiring_i(st_q[SRetire]),
      .fault_i(fault_q),
      .slot_i(slot_q),
      .fault_o,
      .done_o(retire_done),
      .retire_o(retire_st));
  // (a row's retirement a cycle after its write or push, from a register: the buffer
  // port's grant and the FIFO head's slot stay out of the scoreboard's update)
  reg [Slots-1:0] retire_q;
  always @(posedge clk_i) retire_q <= rst_ni ? retire_wb | retire_pr : {Slots{1'b0}};
  assign retire_o     = retire_q | retire_st;
  assign fault_pc_o   = pc_q;
  // (gathered rows count the bytes they hold, as the architecture defines the counter)
  assign read_bytes_o = (e_go ? row_bytes : 7'd0) + (good_last && !win ? span_len : 7'd0);
  assign tile_o       = pr_done && pr_last;

  wire unused = ^{state_q, in_q[127:124], in_q[15:5], ub_row, mem_rows, f_ub, rq_in_q, hd_count, rq_mstride[15:12], stride, beat_cnt, pos_wide,
                  unused_wb_count};
endmodule

`default_nettype wire
