// SPDX-License-Identifier: Apache-2.0
// Instruction fetch: reads the program ahead of decode into an instruction buffer.
//
// Fetch reads spans that end at a 64-byte boundary (one to four 16-byte instructions)
// through the DMA read engine, and only when the buffer has room for four, so returned
// beats never wait. Bus-error injection ranges are 64-byte aligned, so every
// instruction of a span shares its fate; a faulting fetch becomes a buffer entry with
// BUS_ERROR, and a fetch past the end of device memory an entry with DRAM_RANGE. Decode
// reports such an entry only when it reaches it. Programs have no branches, so nothing
// after a `halt` runs: once a span has brought one, no further span is requested (the
// deep decode pipeline would otherwise prefetch spans past the program's end, taking
// the read engine from the program's data). stop_i empties the buffer and stops
// fetching; a span already on the bus is drained and dropped (busy_o until it is).
`default_nettype none
`include "tpu_unit_ports.vh"

module tpu_fetch #(
    parameter integer DataBits  = 128,      // AXI data width
    parameter integer DramBytes = 1048576,  // device memory size (a power of two)
    parameter integer Depth     = 8         // instruction buffer entries (>= 8, power of two)
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    input  wire                   start_i,      // pulse: fetch from entry_i on
    input  wire [31:0]            entry_i,      // 16-byte aligned
    input  wire                   stop_i,       // level: drop the buffer, fetch nothing
    output wire                   busy_o,       // a span is on the bus
    // span requests to the DMA read engine
    `TPU_READ_CLIENT_PORTS,
    input  wire                   beat_last_i,
    input  wire                   beat_error_i,
    // instructions to decode, in program order
    output wire                   out_valid_o,
    input  wire                   out_ready_i,
    output wire [127:0]           out_instr_o,
    output wire [31:0]            out_pc_o,
    output wire [3:0]             out_fault_o   // TPU_ERR_NONE, _BUS_ERROR or _DRAM_RANGE
);
`include "tpu_isa.vh"
  localparam integer Bytes    = DataBits / 8;
  localparam integer LaneBits = $clog2(Bytes);
  localparam integer PtrBits  = $clog2(Depth);
  localparam integer EntryBits = 128 + 32 + 4;

  reg         active_q;      // fetching for a run
  reg  [32:0] fpc_q;         // next address to request
  reg         inflight_q;    // a span is on the bus
  reg  [31:0] apc_q;         // address of the instruction being assembled

  wire [PtrBits:0] count;
  wire             buf_ready;
  wire [31:0]      dram_end  = DramBytes;
  reg              past_end_q;  // fpc_q + 16 > DramBytes: the next fetch would leave memory
  wire             past_end  = past_end_q;
  // Room for a span's four instructions: a register, from this cycle's count and one more
  // (at most one entry is pushed per cycle), so that neither the next request nor the
  // fault entry's push waits on a comparison, and the register itself on no push.
  reg              room_q;
  wire             room      = room_q;
  reg              halted_q;    // a halt has been fetched: nothing after it runs
  wire             want_span = active_q && !stop_i && !inflight_q && !halted_q && !past_end && room;
  wire             range_fault = active_q && !stop_i && !inflight_q && !halted_q && past_end && room;
  wire [32:0]      span_end  = {fpc_q[32:6] + 27'd1, 6'd0};
  wire             req_fire  = req_valid_o && req_ready_i;

  assign req_valid_o = want_span;
  assign req_addr_o  = fpc_q[31:0];
  assign req_len_o   = {5'd0, 7'd64 - {1'b0, fpc_q[5:0]}};  // to the 64-byte boundary
  assign busy_o      = inflight_q;

  // Assembly of 16-byte instructions from the beats.
  wire         beat_fire;
  wire         instr_done;
  wire [127:0] instr;
  generate
    if (Bytes <= 16) begin : g_narrow
      // Aligned spans: every beat is a full bus word, 16 / Bytes beats per instruction.
      localparam integer Beats = 16 / Bytes;
      localparam integer CntBits = (Beats > 1) ? $clog2(Beats) : 1;
      reg [CntBits-1:0]  cnt_q;
      wire [127:0] shifted;
      if (Beats > 1) begin : g_shift
        reg [127-DataBits:0] asm_q;  // the instruction's earlier beats
        assign shifted = {beat_data_i, asm_q};
        always @(posedge clk_i) if (beat_fire) asm_q <= shifted[127:DataBits];
      end else begin : g_whole
        assign shifted = beat_data_i;
      end
      assign beat_ready_o = 1'b1;
      assign beat_fire    = beat_valid_i;
      assign instr_done   = beat_fire && cnt_q == Beats[CntBits-1:0] - 1'b1;
      assign instr        = shifted;
      always @(posedge clk_i) begin
        if (!rst_ni || start_i) cnt_q <= {CntBits{1'b0}};
        else if (beat_fire) cnt_q <= instr_done ? {CntBits{1'b0}} : cnt_q + 1'b1;
      end
      wire unused_lanes = ^{beat_lo_i, beat_hi_i};
    end else begin : g_wide
      // A beat holds up to Bytes/16 instructions of the span, taken one per cycle.
      localparam integer Slots = Bytes / 16;
      localparam integer SubBits = $clog2(Slots);
      reg  [SubBits-1:0] sub_q;
      wire [SubBits:0]   idx   = {1'b0, beat_lo_i[LaneBits-1:4]} + {1'b0, sub_q};
      wire [LaneBits:0]  next_lo = {idx + 1'b1, 4'd0};
      wire               beat_end = next_lo >= beat_hi_i;
      assign instr        = beat_data_i[128*idx[SubBits-1:0] +: 128];
      assign instr_done   = beat_valid_i;
      assign beat_ready_o = beat_end;
      assign beat_fire    = beat_valid_i && beat_end;
      always @(posedge clk_i) begin
        if (!rst_ni || start_i) sub_q <= {SubBits{1'b0}};
        else if (beat_valid_i) sub_q <= beat_end ? {SubBits{1'b0}} : sub_q + 1'b1;
      end
      wire unused_lanes = ^{beat_lo_i[LaneBits], beat_lo_i[3:0], idx[SubBits]};
    end
  endgenerate

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      active_q   <= 1'b0;
      inflight_q <= 1'b0;
      halted_q   <= 1'b0;
    end else begin
      if (start_i) active_q <= 1'b1;
      else if (stop_i || (range_fault && buf_ready)) active_q <= 1'b0;
      if (req_fire) inflight_q <= 1'b1;
      else if (beat_fire && beat_last_i) inflight_q <= 1'b0;
      if (start_i) halted_q <= 1'b0;
      else if (instr_done && !beat_error_i && instr[3:0] == TPU_OP_HALT) halted_q <= 1'b1;
    end
  end
  // (registered with the address, so that the fetch's request is not a 33-bit compare
  // deep: it goes through the read arbiter into the DMA-in's request logic)
  always @(posedge clk_i) begin
    if (start_i) begin
      fpc_q      <= {1'b0, entry_i};
      past_end_q <= {1'b0, entry_i} + 33'd16 > {1'b0, dram_end};
    end else if (req_fire) begin
      fpc_q      <= span_end;
      past_end_q <= span_end + 33'd16 > {1'b0, dram_end};
    end
    if (req_fire) apc_q <= fpc_q[31:0];
    else if (instr_done) apc_q <= apc_q + 32'd16;
  end

  // The buffer: fetched instructions, or the fault entry that ends the fetch.
  wire             push  = (instr_done || range_fault) && !stop_i;
  wire [EntryBits-1:0] entry =
      range_fault ? {TPU_ERR_DRAM_RANGE, fpc_q[31:0], 128'd0}
                  : {beat_error_i ? TPU_ERR_BUS_ERROR : TPU_ERR_NONE, apc_q, instr};
  wire [EntryBits-1:0] head;
  tpu_fifo #(.Width(EntryBits), .Depth(Depth)) u_buffer (
      .clk_i,
      .rst_ni,
      .clear_i(stop_i || start_i),
      .in_valid_i(push),
      .in_ready_o(buf_ready),
      .in_data_i(entry),
      .out_valid_o,
      .out_ready_i,
      .out_data_o(head),
      .count_o(count));
  assign out_instr_o = head[127:0];
  localparam integer RoomMaxInt = Depth - 5;   // (Depth >= 8)
  localparam [PtrBits:0] RoomMax = RoomMaxInt[PtrBits:0];
  always @(posedge clk_i) room_q <= !rst_ni || stop_i || start_i || count <= RoomMax;
  assign out_pc_o    = head[159:128];
  assign out_fault_o = head[163:160];
endmodule

`default_nettype wire
