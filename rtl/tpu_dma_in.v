// SPDX-License-Identifier: Apache-2.0
// DMA-in sequencer: executes `rhm` and `rw` from its queue, in order.
//
// rhm: for each row, one read span per segment; the beats' bytes are gathered into a
// zero-filled row buffer at segment offset s*seglen, then the row goes to a write
// register that writes it to the unified buffer while the next row's beats arrive (a
// row of one beat per cycle). rw: one span per memory row. Without transpose each
// memory row is a tile row: it goes to a push register that puts it into the weight
// FIFO while the next rows arrive, and zero rows follow for k < N. With transpose the
// bytes land in an N x N tile buffer as columns, and the N rows are pushed after the
// last memory row. Each instruction retires when its last row leaves its register.
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

module tpu_dma_in #(
    parameter integer ArraySize = 16,
    parameter integer DataBits  = 128,
    parameter integer UbRows    = 4096,
    parameter integer Slots     = 8,
    parameter integer WfFreeBits = 8,
    parameter integer HandDepth = 4   // instructions the requester may run ahead
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    // queue head
    input  wire                   q_valid_i,
    output wire                   q_ready_o,
    input  wire [127:0]           q_instr_i,
    input  wire [31:0]            q_pc_i,
    input  wire [SlotBits-1:0]    q_slot_i,
    input  wire                   err_valid_i,   // a fault has been reported ...
    input  wire [31:0]            err_pc_i,      // ... at this pc
    output wire                   busy_o,
    // read spans and their beats (tpu_axi_read)
    output wire                   req_valid_o,
    input  wire                   req_ready_i,
    output wire [31:0]            req_addr_o,
    output wire [11:0]            req_len_o,
    input  wire                   beat_valid_i,
    output wire                   beat_ready_o,
    input  wire [DataBits-1:0]    beat_data_i,
    input  wire [LaneBits:0]      beat_lo_i,
    input  wire [LaneBits:0]      beat_hi_i,
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

  localparam integer HandWidth = 128 + 32 + SlotBits;
  localparam integer OwedBits   = WfFreeBits + 1;

  localparam [2:0] StIdle = 3'd0, StData = 3'd1, StTail = 3'd2, StDrain = 3'd3, StRetire = 3'd4;
  localparam integer FlyBits = 6;  // spans requested and not yet consumed (the engine holds few)

  // Per instruction: the bytes of each span and the memory rows of an rw tile.
  function automatic [6:0] span_len_of(input [127:0] i);
    if (i[3:0] == TPU_OP_RW)
      span_len_of = {1'b0, i[TPU_RW_TRANSPOSE_LSB] ? i[TPU_RW_K_LSB +: 6] : i[TPU_RW_N_LSB +: 6]} + 7'd1;
    else
      span_len_of = {1'b0, i[TPU_RHM_SEGLEN_LSB +: 6]} + 7'd1;
  endfunction
  function automatic [6:0] mem_rows_of(input [127:0] i);
    mem_rows_of = {1'b0, i[TPU_RW_TRANSPOSE_LSB] ? i[TPU_RW_N_LSB +: 6] : i[TPU_RW_K_LSB +: 6]} + 7'd1;
  endfunction

  // requester
  reg  [127:0]        rq_in_q;     // its instruction
  reg                 rq_q;        // spans remain to be requested
  reg  [15:0]         rq_row_q;
  reg  [5:0]          rq_seg_q;
  reg  [31:0]         row_addr_q;  // first byte of its row
  reg  [31:0]         span_addr_q; // first byte of its next span
  reg  [FlyBits-1:0]  fly_q;       // spans requested, last beat not yet consumed (both stages)
  reg  [OwedBits-1:0] owed_q;      // weight-FIFO rows that taken rw will still push

  // consumer
  reg  [2:0]          state_q;
  reg  [127:0]        in_q;        // the instruction
  reg  [31:0]         pc_q;
  reg  [SlotBits-1:0] slot_q;
  reg                 fault_q;
  reg  [15:0]         row_q;       // rhm row / rw memory row
  reg  [5:0]          seg_q;
  reg  [PosBits-1:0]  pos_q;       // where the next byte lands in the row / column
  reg  [PosBits-1:0]  push_q;      // tile row being pushed (StTail)
  reg  [N*8-1:0]      rowbuf_q;
  reg  [N*N*8-1:0]    tile_q;      // rw transpose: tile[k][c] at byte k*N + c
  // the unified-buffer write register and the weight-FIFO push register, each with the
  // slot its row retires (last: the instruction's final row)
  reg                 wb_q, wb_last_q;
  reg  [UbBits-1:0]   wb_addr_q;
  reg  [N*8-1:0]      wb_data_q;
  reg  [SlotBits-1:0] wb_slot_q;
  reg                 pr_q, pr_last_q;
  reg  [N*8-1:0]      pr_data_q;
  reg  [SlotBits-1:0] pr_slot_q;

  wire        is_rw     = in_q[3:0] == TPU_OP_RW;
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
  wire [6:0]  rq_mem_rows  = mem_rows_of(rq_in_q);

  // The hand-off: instructions the requester has taken, in order, for the consumer.
  wire                 hd_valid, hd_room;
  wire [HandWidth-1:0] hd_data;
  wire [$clog2(HandDepth):0] hd_count;
  wire [127:0]         hd_instr = hd_data[127:0];
  wire [31:0]          hd_pc    = hd_data[128 +: 32];
  wire [SlotBits-1:0]  hd_slot  = hd_data[160 +: SlotBits];

  wire q_is_rw  = q_instr_i[3:0] == TPU_OP_RW;
  wire rq_young = err_valid_i && q_pc_i > err_pc_i;
  wire [OwedBits-1:0] owed_with = owed_q + N[OwedBits-1:0];
  wire wf_room  = {1'b0, wf_free_i} >= owed_with;
  wire req_fire  = req_valid_o && req_ready_i;
  wire rq_last   = rq_is_rw ? rq_row_q[6:0] == rq_mem_rows - 7'd1
                            : (rq_seg_q == rq_segs_m1 && rq_row_q == rq_rows_m1);
  wire rq_done   = !rq_q || (req_fire && rq_last);   // the requester can take one this cycle
  wire rq_take   = q_valid_i && rq_done && hd_room && (!q_is_rw || rq_young || wf_room);

  wire wb_done   = wb_q && ubw_ready_i;
  wire wb_free   = !wb_q || ubw_ready_i;   // the write register can take a row this cycle
  wire pr_done   = pr_q && wf_ready_i;
  wire pr_free   = !pr_q || wf_ready_i;
  wire out_free  = is_rw ? (transpose || pr_free) : wb_free;
  wire beat_fire = state_q == StData && beat_valid_i && out_free;
  wire last_beat = beat_fire && beat_last_i;
  wire drain_last = state_q == StDrain && beat_valid_i && beat_last_i;
  wire span_end  = last_beat || drain_last;
  wire rhm_last_seg = seg_q == segs_m1;
  wire rhm_last_row = row_q == rows_m1;
  wire rw_last_row  = row_q[6:0] == mem_rows - 7'd1;
  wire [FlyBits-1:0] fly_next = fly_q + {{(FlyBits-1){1'b0}}, req_fire} - {{(FlyBits-1){1'b0}}, span_end};
  wire good_last = last_beat && !beat_error_i;
  wire row_end   = good_last && !is_rw && rhm_last_seg;            // an rhm row to the write register
  wire rw_row    = good_last && is_rw && !transpose;               // a tile row to the push register
  wire tail_push = state_q == StTail && pr_free;                   // a transposed or zero tile row
  wire tail_last = push_q == N[PosBits-1:0] - 1'b1;
  // The instruction's last row has gone to its register: the consumer is done with it.
  wire finish    = (row_end && rhm_last_row) ||
                   (rw_row && rw_last_row && mem_rows == N[6:0]) ||
                   (tail_push && tail_last);
  wire take      = hd_valid && (state_q == StIdle || finish);
  wire younger   = err_valid_i && hd_pc > err_pc_i;
  wire rq_stop   = (last_beat && beat_error_i) || (take && younger);   // drain from here on

  tpu_fifo #(.Width(HandWidth), .Depth(HandDepth)) u_hand (
      .clk_i, .rst_ni, .clear_i(1'b0),
      .in_valid_i(rq_take), .in_ready_o(hd_room), .in_data_i({q_slot_i, q_pc_i, q_instr_i}),
      .out_valid_o(hd_valid), .out_ready_i(take), .out_data_o(hd_data), .count_o(hd_count));

  // Place the beat's bytes [lo, hi) at lanes [pos, pos + hi - lo) of an N-byte vector.
  reg [N*8-1:0] placed;
  reg [N-1:0]   lane_hit;
  integer j, r;
  reg [31:0] src;
  always @(*) begin
    placed   = {N*8{1'b0}};
    lane_hit = {N{1'b0}};
    for (j = 0; j < N; j = j + 1) begin
      src = j - {{(32-PosBits){1'b0}}, pos_q} + {{(31-LaneBits){1'b0}}, beat_lo_i};
      if (j >= pos_q && src < {{(31-LaneBits){1'b0}}, beat_hi_i}) begin
        lane_hit[j]      = 1'b1;
        placed[8*j +: 8] = beat_data_i[8*src[LaneBits-1:0] +: 8];
      end
    end
  end
  wire [7:0] beat_bytes = {{(7 - LaneBits){1'b0}}, beat_hi_i} - {{(7 - LaneBits){1'b0}}, beat_lo_i};
  wire [PosBits-1:0] beat_count = beat_bytes[PosBits-1:0];
  reg  [N*8-1:0] row_data;   // the row this beat completes
  always @(*)
    for (j = 0; j < N; j = j + 1) row_data[8*j +: 8] = lane_hit[j] ? placed[8*j +: 8] : rowbuf_q[8*j +: 8];

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
    end else if (take) begin
      state_q <= younger ? StDrain : StData;
    end else begin
      case (state_q)
        StData:   if (last_beat) begin
          if (beat_error_i)                      state_q <= StDrain;
          else if (finish)                       state_q <= StIdle;
          else if (is_rw && rw_last_row)         state_q <= StTail;
        end
        StTail:   if (finish) state_q <= StIdle;
        StDrain:  if (fly_next == 0 && !rq_q && !wb_q && !pr_q) state_q <= StRetire;
        StRetire: state_q <= StIdle;
        default:  state_q <= StIdle;
      endcase
    end
  end

  // The requester: each instruction's spans in the consumer's order.
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rq_q   <= 1'b0;
      fly_q  <= {FlyBits{1'b0}};
      owed_q <= {OwedBits{1'b0}};
    end else begin
      fly_q <= fly_next;
      if (rq_take) rq_q <= !rq_young;
      else if ((req_fire && rq_last) || rq_stop) rq_q <= 1'b0;
      // (rows owed by an rw that faulted are forgotten once the unit is idle)
      owed_q <= (busy_o ? owed_q : {OwedBits{1'b0}}) +
                (rq_take && q_is_rw && !rq_young ? N[OwedBits-1:0] : {OwedBits{1'b0}}) -
                {{(OwedBits-1){1'b0}}, pr_done};
    end
  end
  always @(posedge clk_i) begin
    if (rq_take) begin
      rq_in_q     <= q_instr_i;
      rq_row_q    <= 16'd0;
      rq_seg_q    <= 6'd0;
      row_addr_q  <= q_instr_i[TPU_RHM_ADDR_LSB +: 32];
      span_addr_q <= q_instr_i[TPU_RHM_ADDR_LSB +: 32];
    end else if (req_fire) begin
      if (rq_is_rw || rq_seg_q == rq_segs_m1) begin  // next row (rw: next memory row of the tile)
        rq_row_q    <= rq_row_q + 16'd1;
        rq_seg_q    <= 6'd0;
        row_addr_q  <= row_addr_q + {16'd0, rq_stride};
        span_addr_q <= row_addr_q + {16'd0, rq_stride};
      end else begin                                 // next segment of the row
        rq_seg_q    <= rq_seg_q + 6'd1;
        span_addr_q <= span_addr_q + {16'd0, rq_segstride};
      end
    end
  end

  // The two output registers.
  always @(posedge clk_i) begin
    if (!rst_ni) wb_q <= 1'b0;
    else if (row_end) wb_q <= 1'b1;
    else if (wb_done) wb_q <= 1'b0;
    if (!rst_ni) pr_q <= 1'b0;
    else if (rw_row || tail_push) pr_q <= 1'b1;
    else if (pr_done) pr_q <= 1'b0;
  end
  always @(posedge clk_i) begin
    if (row_end) begin
      wb_data_q <= row_data;
      wb_addr_q <= ub_row[UbBits-1:0];
      wb_slot_q <= slot_q;
      wb_last_q <= rhm_last_row;
    end
    if (rw_row) begin
      pr_data_q <= row_data;
      pr_slot_q <= slot_q;
      pr_last_q <= rw_last_row && mem_rows == N[6:0];
    end else if (tail_push) begin
      pr_data_q <= transpose ? tile_q[8*N*push_q[PosBits-2:0] +: 8*N] : {N*8{1'b0}};
      pr_slot_q <= slot_q;
      pr_last_q <= tail_last;
    end
  end

  // The consumer.
  always @(posedge clk_i) begin
    if (beat_fire) begin
      pos_q <= pos_q + beat_count;
      for (j = 0; j < N; j = j + 1)
        if (lane_hit[j] && !(is_rw && transpose)) rowbuf_q[8*j +: 8] <= placed[8*j +: 8];
      // Tile bytes by row and column decode, not by an index computed from the memory
      // row: an indexed write is a shifter over the whole tile per lane.
      for (r = 0; r < N; r = r + 1)
        for (j = 0; j < N; j = j + 1)
          if (is_rw && transpose && lane_hit[r] && row_q == j[15:0])
            tile_q[8*(r*N + j) +: 8] <= placed[8*r +: 8];
    end
    if (last_beat) begin
      if (beat_error_i) fault_q <= 1'b1;
      if (is_rw || rhm_last_seg) begin
        // next row (rw: next memory row of the tile)
        row_q    <= row_q + 16'd1;
        seg_q    <= 6'd0;
        pos_q    <= {PosBits{1'b0}};
        rowbuf_q <= {N*8{1'b0}};
        // the tile rows after the last memory row: all N (transpose) or the zero rows
        push_q   <= transpose ? {PosBits{1'b0}} : mem_rows[PosBits-1:0];
      end else begin
        // next segment of the row, placed after this one
        seg_q    <= seg_q + 6'd1;
        pos_q    <= pos_q + beat_count;
      end
    end
    if (tail_push) push_q <= push_q + 1'b1;
    if (take) begin
      in_q     <= hd_instr;
      pc_q     <= hd_pc;
      slot_q   <= hd_slot;
      fault_q  <= 1'b0;
      row_q    <= 16'd0;
      seg_q    <= 6'd0;
      pos_q    <= {PosBits{1'b0}};
      rowbuf_q <= {N*8{1'b0}};
      tile_q   <= {N*N*8{1'b0}};
    end
  end

  assign q_ready_o    = rq_take;
  // (busy also while the queue head waits for weight-FIFO room: the watchdog's report
  // names the unit that is stuck)
  assign busy_o       = state_q != StIdle || hd_valid || rq_q || wb_q || pr_q || q_valid_i;
  assign req_valid_o  = rq_q;
  assign beat_ready_o = state_q == StData && out_free || state_q == StDrain;
  assign req_addr_o   = span_addr_q;
  assign req_len_o    = {5'd0, span_len_of(rq_in_q)};
  assign ubw_valid_o  = wb_q;
  assign ubw_addr_o   = wb_addr_q;
  assign ubw_data_o   = wb_data_q;
  assign wf_valid_o   = pr_q;
  assign wf_data_o    = pr_data_q;

  wire [Slots-1:0] retire_wb, retire_pr, retire_st;
  tpu_slot_mask #(.Slots(Slots)) u_retire_wb (
      .valid_i(wb_done && wb_last_q), .slot_i(wb_slot_q), .mask_o(retire_wb));
  tpu_slot_mask #(.Slots(Slots)) u_retire_pr (
      .valid_i(pr_done && pr_last_q), .slot_i(pr_slot_q), .mask_o(retire_pr));
  tpu_slot_mask #(.Slots(Slots)) u_retire_st (
      .valid_i(state_q == StRetire), .slot_i(slot_q), .mask_o(retire_st));
  assign retire_o     = retire_wb | retire_pr | retire_st;
  assign fault_o      = state_q == StRetire && fault_q;
  assign fault_pc_o   = pc_q;
  assign read_bytes_o = good_last ? span_len : 7'd0;
  assign tile_o       = pr_done && pr_last_q;

  wire unused = ^{in_q[127:124], in_q[15:5], ub_row, beat_bytes, rq_in_q, hd_count};
endmodule

`default_nettype wire
