// SPDX-License-Identifier: Apache-2.0
// Activation sequencer: executes `act` from its queue.
//
// First the parameter block (TPU_ACT_PARAM_ROWS rows) is read from the unified buffer
// into the activation unit's register file (a shift above 63 ends the instruction with ACT_PARAM) — unless
// the register file already holds that block: the sequencer remembers which block it
// loaded and forgets it when any unified-buffer write touches those rows, so an `act`
// with the same parameters as an earlier one starts streaming at once. Then
// the accumulator rows stream one per cycle, for each output row its planes
// acc + g*rows + r (g = 0..pool-1) marked first/last — one per cycle, or as fast as a
// serial activation unit takes them (act_accept_i), and each only once no older `mmc`
// has it still to write (acc_wait_i: the act issued without waiting for them,
// chaining); every output row the unit produces is written to unified-buffer row
// ub + r. The activation unit's results have priority on the unified buffer's write
// port, so they never wait.
`default_nettype none
`include "tpu_unit_ports.vh"

module tpu_act_seq #(
    parameter integer UbRows  = 4096,
    parameter integer AccRows = 2048,
    parameter integer Slots   = 8,
    parameter integer PcBits  = 32  // program addresses lie below 2^PcBits (device memory)
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    // queue head
    `TPU_UNIT_QUEUE_PORTS,
    // parameter rows from the unified buffer (granted by the core; data two cycles later)
    output wire                   ubr_valid_o,
    input  wire                   ubr_grant_i,
    output wire [UbBits-1:0]      ubr_addr_o,
    // the activation unit
    output wire                   param_we_o,
    output wire [3:0]             param_row_o,
    input  wire                   shift_error_i,
    output wire [7:0]             zp_o,
    output wire                   relu_o,
    output wire                   in_valid_o,     // data: the accumulators' read port
    output wire                   in_first_o,
    output wire                   in_last_o,
    input  wire                   act_accept_i,   // a row given next cycle will be taken
    // chaining: the row to read next cycle (if none is read now, and if one is), and
    // whether an older mmc had it still to write a cycle ago (tpu_chain_track)
    output wire [AccBits-1:0]     acc_chk_o,
    output wire [AccBits-1:0]     acc_chk_next_o,
    input  wire                   acc_wait_i,
    input  wire                   acc_wait_next_i,
    input  wire                   out_valid_i,
    input  wire                   out_soon_i,     // a result row comes next cycle
    // accumulator reads (data the next cycle)
    output wire                   acc_rd_o,
    output wire [AccBits-1:0]     acc_addr_o,
    // result rows to the unified buffer (data: the activation unit's output)
    output wire                   ubw_valid_o,
    output wire [UbBits-1:0]      ubw_addr_o,
    output wire                   chain_valid_o,  // the row written next cycle, for chaining
    output wire [UbBits-1:0]      chain_addr_o,
    output wire [SlotBits-1:0]    slot_o,         // the instruction's slot (its UB writes, for chaining)
    // every unified-buffer write, from any unit, on either port, and the start of a
    // scrub, which clears every row (each invalidates the loaded parameters)
    input  wire                   scrub_i,
    input  wire                   ub_we_i,
    input  wire [UbBits-1:0]      ub_wa_i,
    input  wire                   ub_we2_i,
    input  wire [UbBits-1:0]      ub_wa2_i,
    // completion
    output wire [Slots-1:0]       retire_o,
    output wire [Slots-1:0]       checked_o,      // its parameters passed: it can no longer fault
    output wire                   fault_o,
    output wire [31:0]            fault_pc_o
);
`include "tpu_isa.vh"
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;
  localparam integer UbBits   = $clog2(UbRows);
  localparam integer AccBits  = $clog2(AccRows);

  localparam [2:0] StIdle = 3'd0, StParams = 3'd1, StCheck = 3'd2, StStream = 3'd3,
                   StDrain = 3'd4, StRetire = 3'd5;

  reg  [2:0]          state_q;
  wire                retire_done;   // the retire state ends now (tpu_seq_retire, below)
  reg  [127:0]        in_q;
  reg  [31:0]         pc_q;
  reg  [SlotBits-1:0] slot_q;
  reg                 fault_q;
  reg  [3:0]          prd_q;       // next parameter row to read
  reg                 pwe1_q, pwe_q;   // a parameter row arrives this cycle ... (read two cycles ago)
  reg  [3:0]          pwr1_q, pwr_q;   // ... for this register-file row
  reg  [15:0]         row_q;       // output row being streamed
  reg  [3:0]          plane_q;     // its plane
  reg  [AccBits-1:0]  rd_addr_q;   // acc + plane * rows + row
  // the two rows a read can go to next, kept beside rd_addr_q so that neither the read
  // address nor the chaining check waits for an adder: the next plane's, the next row's
  reg  [AccBits-1:0]  plane_next_q;   // rd_addr_q + rows
  reg  [AccBits-1:0]  row_next_q;     // acc + row + 1
  // the chaining check's rows, registers (the tracker compares them against every slot's
  // range in the cycle they appear): the next read's, last_plane ? row_next_q : plane_next_q,
  // kept beside the two; the current one is rd_addr_q, which holds the first row from
  // StParams on
  reg  [AccBits-1:0]  chk_next_q;
  reg  [15:0]         out_q;       // output rows written
  // the UB rows the next result row is written to and announced for (ub + rows written,
  // ub + rows announced), counted rather than added so that the UB's write port and the
  // chaining tracker see registers
  reg  [UbBits-1:0]   wr_row_q, soon_row_q;
  reg                 in_valid_q, in_first_q, in_last_q;

  wire [UbBits-1:0]  ub      = in_q[TPU_ACT_UB_LSB +: UbBits];     // decode checked the ranges
  wire [15:0]        rows_m1 = in_q[TPU_ACT_ROWS_LSB +: 16];
  wire [AccBits-1:0] acc     = in_q[TPU_ACT_ACC_LSB +: AccBits];
  wire [UbBits-1:0]  params  = in_q[TPU_ACT_PARAMS_LSB +: UbBits];
  wire [3:0]         pool_m1 = in_q[TPU_ACT_POOL_LSB +: 4];
  wire [AccBits-1:0] rows_a  = rows_m1[AccBits-1:0] + 1'b1;      // plane distance

  // The parameter block in the register file: loaded, checked, and not written since.
  reg                loaded_q;
  reg  [UbBits-1:0]  loaded_at_q;
  wire [UbBits-1:0]  q_params  = q_instr_i[TPU_ACT_PARAMS_LSB +: UbBits];
  // The writes a cycle late (the ports' address muxes stay out of this comparison): an
  // act that could use the block issues after the writes before it have retired, at
  // least two cycles after the last of them, when loaded_q already says so.
  reg                ub_we_q, ub_we2_q;
  reg  [UbBits-1:0]  ub_wa_q, ub_wa2_q;
  always @(posedge clk_i) begin
    ub_we_q  <= rst_ni && ub_we_i;
    ub_we2_q <= rst_ni && ub_we2_i;
    ub_wa_q  <= ub_wa_i;
    ub_wa2_q <= ub_wa2_i;
  end
  wire [UbBits-1:0]  off_old   = ub_wa_q - loaded_at_q;   // wraps above any block for rows below it
  wire [UbBits-1:0]  off_new   = ub_wa_q - params;
  wire [UbBits-1:0]  off_old2  = ub_wa2_q - loaded_at_q;
  wire [UbBits-1:0]  off_new2  = ub_wa2_q - params;
  wire [UbBits-1:0]  blk_rows  = {{(UbBits - 4){1'b0}}, TPU_ACT_PARAM_ROWS};
  wire               hit_new   = (ub_we_q && off_new < blk_rows) || (ub_we2_q && off_new2 < blk_rows);
  wire               hit_old   = (ub_we_q && off_old < blk_rows) || (ub_we2_q && off_old2 < blk_rows);
  wire               loaded_hit = loaded_q && q_params == loaded_at_q;

  wire take      = state_q == StIdle && q_valid_i;
  wire younger;
  tpu_younger #(.PcBits(PcBits)) u_younger (
      .err_valid_i,
      .err_pc_i,
      .pc_i(q_pc_i),
      .younger_o(younger));
  // Younger than a reported fault when taken: a register, so the comparison feeds no
  // state decision in the cycle it is made. Such an act loads nothing and retires from
  // its first state, as if it had gone there at once.
  reg  young_q;
  // The register file holds the instruction's block: also decided at take, registered,
  // and acted on in StParams's first cycle (no row is read then).
  reg  hit_q;
  always @(posedge clk_i) if (take) begin
    young_q <= younger;
    hit_q   <= loaded_hit;
  end
  // The parameter rows are being read (StParams, neither younger nor a hit, rows left):
  // a register of its own, set at the take from the values young_q and hit_q take and
  // cleared with the last row's grant (StParams is left only after the last row is
  // written), so that port B's claim, and the DMA-out's grant behind it, start at a
  // flip-flop.
  reg  pclaim_q;
  wire p_grant   = pclaim_q && ubr_grant_i;
  always @(posedge clk_i) begin
    if (!rst_ni)     pclaim_q <= 1'b0;
    else if (take)   pclaim_q <= !younger && !loaded_hit;
    else if (p_grant && prd_q == TPU_ACT_PARAM_ROWS - 4'd1) pclaim_q <= 1'b0;
  end
  // a row is read this cycle; one an older mmc has still to write waits (chaining)
  reg  moved_q;   // a row was read last cycle: rd_addr_q is acc_chk_next_o's row
  wire acc_wait  = moved_q ? acc_wait_next_i : acc_wait_i;
  wire streaming = state_q == StStream && act_accept_i && !acc_wait;
  reg  last_plane_q;   // plane_q == pool_m1, kept with plane_q (a register for the chaining check)
  wire last_plane = last_plane_q;
  wire last_row   = row_q == rows_m1;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      pwe1_q     <= 1'b0;
      pwe_q      <= 1'b0;
      in_valid_q <= 1'b0;
      moved_q    <= 1'b0;
    end else begin
      pwe1_q     <= p_grant;
      pwe_q      <= pwe1_q;
      in_valid_q <= streaming;
      moved_q    <= streaming;
      case (state_q)
        StIdle:   if (take) state_q <= StParams;
        StParams: if (young_q) state_q <= StRetire;
                  else if (hit_q) state_q <= StCheck;
                  else if (pwe_q && pwr_q == TPU_ACT_SHIFT_ROW) state_q <= StCheck;
        StCheck:  state_q <= young_q || shift_error_i ? StRetire : StStream;
        StStream: if (streaming && last_plane && last_row) state_q <= StDrain;
        StDrain:  if (out_valid_i && out_q == rows_m1) state_q <= StRetire;
        StRetire: if (retire_done) state_q <= StIdle;
        default:  state_q <= StIdle;
      endcase
    end
  end

  // In StCheck the register file holds the instruction's block, whether loaded now or
  // before; a write to those rows in that same cycle (seen in the next) or the one before
  // (seen now) counts as after the load.
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      loaded_q <= 1'b0;
    end else if (state_q == StCheck) begin
      loaded_q    <= !shift_error_i && !hit_new;
      loaded_at_q <= params;
    end else if (hit_old || scrub_i) begin
      loaded_q <= 1'b0;
    end
  end

  always @(posedge clk_i) begin
    if (take) begin
      in_q    <= q_instr_i;
      pc_q    <= q_pc_i;
      slot_q  <= q_slot_i;
      fault_q <= 1'b0;
      prd_q   <= 4'd0;
    end
    if (p_grant) prd_q <= prd_q + 4'd1;
    if (state_q == StParams) rd_addr_q <= acc;   // (acc_chk_o in StCheck)
    pwr1_q <= prd_q;
    pwr_q  <= pwr1_q;
    if (state_q == StCheck) begin
      fault_q   <= shift_error_i && !young_q;
      row_q     <= 16'd0;
      plane_q   <= 4'd0;
      last_plane_q <= pool_m1 == 4'd0;
      rd_addr_q <= acc;
      plane_next_q <= acc + rows_a;
      row_next_q   <= acc + 1'b1;
      chk_next_q   <= pool_m1 == 4'd0 ? acc + 1'b1 : acc + rows_a;
      out_q     <= 16'd0;
      wr_row_q  <= ub;
      soon_row_q <= ub;
    end
    if (streaming) begin
      if (last_plane) begin
        row_q     <= row_q + 16'd1;
        plane_q   <= 4'd0;
        last_plane_q <= pool_m1 == 4'd0;
        rd_addr_q <= row_next_q;
        plane_next_q <= row_next_q + rows_a;
        row_next_q   <= row_next_q + 1'b1;
        chk_next_q   <= pool_m1 == 4'd0 ? row_next_q + 1'b1 : row_next_q + rows_a;
      end else begin
        plane_q   <= plane_q + 4'd1;
        last_plane_q <= plane_q + 4'd1 == pool_m1;
        rd_addr_q <= plane_next_q;
        plane_next_q <= plane_next_q + rows_a;
        chk_next_q   <= plane_q + 4'd1 == pool_m1 ? row_next_q : plane_next_q + rows_a;
      end
    end
    in_first_q <= plane_q == 4'd0;
    in_last_q  <= last_plane;
    if (out_valid_i) begin
      out_q    <= out_q + 16'd1;
      wr_row_q <= wr_row_q + 1'b1;
    end
    if (out_soon_i) soon_row_q <= soon_row_q + 1'b1;
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
  // (reported a cycle late, from a register: the check's OR over every lane's shift
  // stays out of the controller's fences; a late report only holds a whm a cycle longer,
  // and the activation is still streaming then, its slot in use)
  wire [Slots-1:0] checked_now;
  reg  [Slots-1:0] checked_q;
  tpu_slot_mask #(.Slots(Slots)) u_checked (
      .valid_i(state_q == StCheck && !shift_error_i && !young_q),
      .slot_i(slot_q),
      .mask_o(checked_now));
  always @(posedge clk_i) checked_q <= rst_ni ? checked_now : {Slots{1'b0}};
  assign checked_o = checked_q;

  assign q_ready_o   = state_q == StIdle;
  assign busy_o      = state_q != StIdle;
  assign ubr_valid_o = pclaim_q;
  assign ubr_addr_o  = params + {{(UbBits - 4){1'b0}}, prd_q};
  assign param_we_o  = pwe_q;
  assign param_row_o = pwr_q;
  assign zp_o        = in_q[TPU_ACT_ZP_LSB +: 8];
  assign relu_o      = in_q[TPU_ACT_RELU_LSB];
  assign in_valid_o  = in_valid_q;
  assign in_first_o  = in_first_q;
  assign in_last_o   = in_last_q;
  assign acc_rd_o    = streaming;
  assign acc_addr_o  = rd_addr_q;
  assign acc_chk_o      = rd_addr_q;
  assign acc_chk_next_o = chk_next_q;
  assign ubw_valid_o = out_valid_i;
  assign ubw_addr_o  = wr_row_q;
  // Chaining: each result row is reported a cycle before it is written. A reader sees
  // the report through a register (tpu_chain_track) and reads the row a cycle after the
  // write at the earliest.
  assign chain_valid_o = out_soon_i;
  assign chain_addr_o  = soon_row_q;
  assign slot_o      = slot_q;
  assign retire_o    = retire_mask;
  assign fault_pc_o  = pc_q;

  wire unused = ^{in_q[127:92], in_q[15:5], in_q[3:0], rows_m1, out_q};
endmodule

`default_nettype wire
