// SPDX-License-Identifier: Apache-2.0
// DMA-out sequencer: executes `whm` from its queue. For each row: read the unified-
// buffer row and hand its first len bytes to the write engine (tpu_axi_write) for
// addr + g*gstride + r*stride (row r of group g), a row per cycle when the buffer's
// port B and the bus allow; the
// rows' writes are in flight together, and the instruction retires when every row's
// response is in. A row answered with a bus error does not stop the
// others: the instruction writes all its bytes outside error ranges, then ends with
// BUS_ERROR (docs/isa.md "Errors"). A whm starts only when the controller no longer
// holds it (older instructions that may fault have retired or passed their checks),
// and reads a row only once no older `act` has it still to write (ub_wait_i: the whm
// issued without waiting for them, chaining).
`default_nettype none
`include "tpu_unit_ports.vh"

module tpu_dma_out #(
    parameter integer ArraySize = 16,
    parameter integer UbRows    = 4096,
    parameter integer Slots     = 8,
    parameter integer PcBits    = 32  // program addresses lie below 2^PcBits (device memory)
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    // queue head
    `TPU_UNIT_QUEUE_PORTS,
    input  wire                   hold_i,        // the head whm's fence: older instructions may still fault
    // unified-buffer reads (granted by the core; data two cycles later)
    output wire                   ubr_valid_o,
    input  wire                   ubr_grant_i,
    output wire [UbBits-1:0]      ubr_addr_o,
    input  wire [N*8-1:0]         ubr_data_i,
    // chaining: the row to read next cycle (if none is read now, and if one is), and
    // whether an older act had it still to write a cycle ago (tpu_chain_track)
    output wire [UbBits-1:0]      ub_chk_o,
    output wire [UbBits-1:0]      ub_chk_alt_o,      // the row instead, when ub_chk_use_alt_o
    output wire                   ub_chk_use_alt_o,
    output wire [UbBits-1:0]      ub_chk_next_o,
    input  wire                   ub_wait_i,
    input  wire                   ub_wait_next_i,
    // the write engine
    output wire                   cmd_valid_o,
    input  wire                   cmd_ready_i,
    output wire [31:0]            cmd_addr_o,
    output wire [LenBits-1:0]     cmd_len_o,
    output wire [N*8-1:0]         cmd_data_o,
    input  wire                   rsp_valid_i,
    output wire                   rsp_ready_o,
    input  wire                   rsp_error_i,
    // completion
    output wire [Slots-1:0]       retire_o,
    output wire                   fault_o,
    output wire [31:0]            fault_pc_o,
    output wire [6:0]             write_bytes_o
);
`include "tpu_isa.vh"
  localparam integer N        = ArraySize;
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;
  localparam integer UbBits   = $clog2(UbRows);
  localparam integer LenBits  = $clog2(N) + 1;

  localparam [1:0] StIdle = 2'd0, StRun = 2'd1, StDrain = 2'd2, StRetire = 2'd3;

  reg  [1:0]          state_q;
  wire                retire_done;   // the retire state ends now (tpu_seq_retire, below)
  reg  [127:0]        in_q;
  reg  [31:0]         pc_q;
  reg  [SlotBits-1:0] slot_q;
  reg                 fault_q;
  reg  [15:0]         left_q;    // rows of the group still to read, minus one
  reg  [5:0]          groups_q;  // groups after this one
  reg  [UbBits-1:0]   ub_q;      // the next row to read
  reg  [UbBits-1:0]   ub1_q;     // ub_q + 1 (for the chaining check, a register)
  // The device addresses follow the reads a cycle later (rd1_q), with counters of their
  // own, so that a read's grant enables only the UB-side registers.
  reg  [15:0]         a_left_q;  // as left_q, for the row addr_q belongs to
  reg  [31:0]         addr_q;    // the device address of the row read a cycle ago, next
  reg  [31:0]         group_q;   // the device address of its group's row 0
  reg                 final_q;   // the next row to read is the instruction's last

  wire [15:0] stride  = in_q[TPU_WHM_STRIDE_LSB +: 16];
  wire [15:0] gstride = in_q[TPU_WHM_GSTRIDE_LSB +: 16];
  wire [15:0] rows_m1 = in_q[TPU_WHM_ROWS_LSB +: 16];
  wire [31:0] next_group = group_q + {16'd0, gstride};
  wire [6:0]  len     = {1'b0, in_q[TPU_WHM_LEN_LSB +: 6]} + 7'd1;   // <= N (decode)

  wire idle     = state_q == StIdle;
  wire take     = idle && q_valid_i && !hold_i;
  wire younger;
  tpu_younger #(.PcBits(PcBits)) u_younger (
      .err_valid_i,
      .err_pc_i,
      .pc_i(q_pc_i),
      .younger_o(younger));
  // Younger than a reported fault when taken: a register (loaded while idle, as the job's
  // registers below), so the comparison feeds no state decision in the cycle it is made;
  // such a whm reads nothing and retires.
  reg  young_q;
  always @(posedge clk_i) if (idle) young_q <= younger;
  wire cmd_fire = cmd_valid_o && cmd_ready_i;
  wire rsp      = rsp_valid_i;                 // always taken
  // Rows written whose response is not yet in: a counter whose sums come from the
  // register (the write engine's take and the response only pick one), and whether it
  // is zero as a flag of its own, so the drain check compares nothing.
  reg  [16:0] pend_q;
  reg         pend_zero_q;
  wire [16:0] pend_up = pend_q + 17'd1, pend_down = pend_q - 17'd1;

  // Rows read from the unified buffer wait here for the write engine: a row's data
  // arrives two cycles after its read, and a read is only made when its row will have a
  // slot (counted from registers: the rows in the FIFO and the two reads in flight, so
  // the write engine's ready stays out of the read), so the engine can take a row every
  // cycle.
  reg                 rd1_q, rd_q;           // a read was granted one / two cycles ago: its data is here now (rd_q)
  reg  [31:0]         rd_addr_q;             // the device address of the row read two cycles ago
  wire                row_valid, row_room;
  wire [2:0]          row_count;
  wire [31+N*8:0]     row;
  // (OutReg: the write engine plans a span from its address and length as it takes it,
  // so they come from a register, not from the FIFO's entry multiplexer)
  tpu_fifo #(.Width(32 + N * 8), .Depth(4), .OutReg(1)) u_rows (
      .clk_i,
      .rst_ni,
      .clear_i(1'b0),
      .in_valid_i(rd_q),
      .in_ready_o(row_room),
      .in_data_i({rd_addr_q, ubr_data_i}),
      .out_valid_o(row_valid),
      .out_ready_i(cmd_ready_i),
      .out_data_o(row),
      .count_o(row_count));
  // Rows read and not yet taken by the write engine (the two reads in flight and the
  // FIFO's rows), and whether another fits, as registers: a read adds one, the engine's
  // take removes one, and the read's grant only picks the next value.
  reg  [2:0] flight_q;
  reg        room_q;
  wire       row_pop = row_valid && cmd_ready_i;
  wire       read    = ubr_valid_o && ubr_grant_i;
  wire [2:0] flight_up = flight_q + 3'd1, flight_down = flight_q - 3'd1;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      flight_q <= 3'd0;
      room_q   <= 1'b1;
    end else begin
      if (read != row_pop) flight_q <= read ? flight_up : flight_down;
      room_q <= flight_q < 3'd3 || (flight_q == 3'd3 && !read) || row_pop;
    end
  end
  wire room  = room_q;
  wire empty = !rd1_q && !rd_q && !row_valid;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      rd1_q   <= 1'b0;
      rd_q    <= 1'b0;
    end else begin
      rd1_q <= read;
      rd_q  <= rd1_q;
      case (state_q)
        StIdle:   if (take) state_q <= StRun;
        StRun:    if (young_q) state_q <= StRetire;
                  else if (read && final_q) state_q <= StDrain;
        // (no row is written any more: the registered count, a cycle late at most)
        StDrain:  if (empty && pend_zero_q) state_q <= StRetire;
        StRetire: if (retire_done) state_q <= StIdle;
        default:  state_q <= StIdle;
      endcase
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      pend_q      <= 17'd0;
      pend_zero_q <= 1'b1;
    end else if (cmd_fire != rsp) begin
      pend_q      <= cmd_fire ? pend_up : pend_down;
      pend_zero_q <= !cmd_fire && pend_q == 17'd1;
    end
  end

  // The job's registers load from the queue head every idle cycle (the last one is the
  // take), so the fence and the head's valid reach only the state and the ready.
  always @(posedge clk_i) begin
    if (idle) begin
      in_q    <= q_instr_i;
      pc_q    <= q_pc_i;
      slot_q  <= q_slot_i;
      fault_q <= 1'b0;
      left_q   <= q_instr_i[TPU_WHM_ROWS_LSB +: 16];
      groups_q <= q_instr_i[TPU_WHM_GROUPS_LSB +: 6];
      ub_q     <= q_instr_i[TPU_WHM_UB_LSB +: UbBits];   // decode checked the range
      ub1_q    <= q_instr_i[TPU_WHM_UB_LSB +: UbBits] + 1'b1;
      a_left_q <= q_instr_i[TPU_WHM_ROWS_LSB +: 16];
      addr_q   <= q_instr_i[TPU_WHM_ADDR_LSB +: 32];
      group_q  <= q_instr_i[TPU_WHM_ADDR_LSB +: 32];
      final_q  <= q_instr_i[TPU_WHM_ROWS_LSB +: 16] == 16'd0 && q_instr_i[TPU_WHM_GROUPS_LSB +: 6] == 6'd0;
    end
    if (rsp && rsp_error_i) fault_q <= 1'b1;
    if (read) begin
      ub_q      <= ub1_q;
      ub1_q     <= ub1_q + 1'b1;
      if (left_q == 16'd0) begin   // the group's last row: the next group's first
        left_q   <= rows_m1;
        groups_q <= groups_q - 6'd1;
        final_q  <= rows_m1 == 16'd0 && groups_q == 6'd1;
      end else begin
        left_q  <= left_q - 16'd1;
        final_q <= left_q == 16'd1 && groups_q == 6'd0;
      end
    end
    if (rd1_q) begin   // the row read a cycle ago: its address, and the next row's
      rd_addr_q <= addr_q;
      if (a_left_q == 16'd0) begin
        a_left_q <= rows_m1;
        addr_q   <= next_group;
        group_q  <= next_group;
      end else begin
        a_left_q <= a_left_q - 16'd1;
        addr_q   <= addr_q + {16'd0, stride};
      end
    end
  end

  wire [Slots-1:0] retire_mask;
  tpu_seq_retire #(.Slots(Slots)) u_retire (
      .clk_i,
      .rst_ni,
      .retiring_i(state_q == StRetire),
      .fault_i(fault_q),
      .slot_i(slot_q),
      .fault_o,
      .done_o(retire_done),
      .retire_o(retire_mask));

  assign q_ready_o     = state_q == StIdle && !hold_i;
  assign busy_o        = state_q != StIdle;
  reg  moved_q;   // a row was read last cycle: ub_q is ub_chk_next_o's row
  always @(posedge clk_i) moved_q <= rst_ni && read;
  assign ubr_valid_o   = state_q == StRun && !young_q && room && !(moved_q ? ub_wait_next_i : ub_wait_i);
  // (idle: the queue head's first row, for the cycle after a take; the head's valid and
  // the fence stay out of the comparison)
  assign ub_chk_o      = ub_q;
  assign ub_chk_alt_o  = q_instr_i[TPU_WHM_UB_LSB +: UbBits];
  assign ub_chk_use_alt_o = state_q == StIdle;
  assign ub_chk_next_o = ub1_q;
  assign ubr_addr_o    = ub_q;
  assign cmd_valid_o   = row_valid;
  assign cmd_addr_o    = row[N*8 +: 32];
  assign cmd_len_o     = len[LenBits-1:0];
  assign cmd_data_o    = row[N*8-1:0];
  assign rsp_ready_o   = 1'b1;
  assign retire_o      = retire_mask;
  assign fault_pc_o    = pc_q;
  assign write_bytes_o = rsp && !rsp_error_i ? len : 7'd0;

  wire unused = ^{in_q, len, row_room, row_count};  // fields taken apart above; a read has a slot
endmodule

`default_nettype wire
