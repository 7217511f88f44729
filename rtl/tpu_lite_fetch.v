// SPDX-License-Identifier: Apache-2.0
// The lite core's instruction fetch: it reads instruction words ahead into a ring in
// block RAM, one bus word a request, as far as the ring has room, and presents the
// next instruction, whole, in the ring's read register (an instruction a row, its words
// in columns side by side) until the front end takes it; the one after is presented
// the next cycle when its words are in.
//
// Program order is address order (no branches), so the first instruction the fetch
// cannot read is the one the run faults at, if it gets there: an instruction past the
// end of device memory is not requested (DRAM_RANGE), one with a bus error in a word
// is read whole and flagged (BUS_ERROR); the fetch stops there and presents it with
// its code in err_o. restart_i (a run begins) drops the ring and the beats still on
// their way, and fetches from pc_i.
//
// PCs are PcBits wide (log2(DramBytes) + 1): every PC the fetch reaches is at most
// DramBytes, the first past the end (the core keeps an entry beyond it, whose run
// faults at once, and gives the fetch DramBytes instead).
`default_nettype none

module tpu_lite_fetch #(
    parameter integer DataBits  = 32,      // a bus word
    parameter integer DramBytes = 65536,
    parameter integer RingWords = 256,     // a power of two
    parameter integer PcBits    = $clog2(DramBytes) + 1
) (
    input  wire                clk_i,
    input  wire                rst_ni,
    input  wire                restart_i,  // fetch from pc_i (16-byte aligned) on
    input  wire [PcBits-1:0]   pc_i,
    input  wire                stop_i,     // request nothing more (the run is ending)
    // word reads: a request a cycle, granted by the bus (tpu_lite_bus); the beats come
    // back in order, the fetch's among the others
    output wire                req_o,
    output wire                urgent_o,   // fewer than two instructions read or on their way
    output wire [31:0]         addr_o,
    input  wire                grant_i,
    input  wire                beat_i,
    input  wire [DataBits-1:0] data_i,
    input  wire                beat_err_i,
    output wire                busy_o,     // beats on their way
    // the next instruction
    output wire                valid_o,
    output wire [127:0]        instr_o,
    output wire [PcBits-1:0]   pc_o,
    output wire [3:0]          err_o,      // TPU_ERR_NONE, DRAM_RANGE or BUS_ERROR
    input  wire                take_i
);
`include "tpu_isa.vh"
  localparam integer Words    = 128 / DataBits;            // bus words an instruction
  localparam integer WordBits = (Words > 1) ? $clog2(Words) : 1;
  localparam integer Bytes    = DataBits / 8;
  localparam integer PtrBits  = $clog2(RingWords);
  localparam integer      InstrBytes = 16;
  localparam [PcBits:0]   Dram     = DramBytes[PcBits:0];
  localparam [PcBits-1:0] Instr    = InstrBytes[PcBits-1:0];
  localparam [PcBits-1:0] WordStep = Bytes[PcBits-1:0];

  initial begin
    if (DataBits < 32 || DataBits > 128 || (1 << PtrBits) != RingWords || RingWords < 2 * Words ||
        PcBits < PtrBits + $clog2(DataBits / 8) + 2 || PcBits > 32) begin
      $display("tpu_lite_fetch: DataBits 32..128, RingWords a power of two of at least two instructions, a ring smaller than half the device memory");
      $finish;
    end
  end

  // ---- requests ------------------------------------------------------------------------
  reg  [PcBits-1:0]  req_addr_q;   // the next word to request
  reg  [PtrBits:0]   held_q;       // ring words requested and not yet read out
  reg  [PtrBits:0]   flight_q;     // requests whose beats have not come back
  reg  [PtrBits:0]   stale_q;      // beats to drop (requested before a restart)
  reg                stopped_q;    // past the first faulting instruction
  reg                err_q;        // an instruction is flagged: err_pc_q, err_code_q
  reg  [PcBits-1:0]  err_pc_q;
  reg  [3:0]         err_code_q;

  wire first_word = req_addr_q[3:0] == 4'd0;
  wire past_end   = first_word && {1'b0, req_addr_q} + {1'b0, Instr} > Dram;
  wire room       = held_q < RingWords[PtrBits:0];
  wire can_ask    = !stop_i && !restart_i && !stopped_q && room;
  wire want       = can_ask && !past_end;
  wire granted    = want && grant_i;
  wire live_beat  = beat_i && stale_q == {(PtrBits+1){1'b0}};

  // ---- the ring: an instruction a row, its words side by side --------------------------
  // Each bus word goes into its own column; the next instruction is read whole in one
  // cycle, and the ring's read register is the instruction presented (no copy of it).
  localparam integer SlotBits = PtrBits - (Words > 1 ? WordBits : 0);
  localparam integer Slots    = RingWords / Words;
  reg  [PtrBits-1:0]  wr_q;           // next beat's place: {slot, word}
  reg  [SlotBits-1:0] rd_q;           // next instruction to read out
  reg  [SlotBits:0]   avail_q;        // whole instructions in the ring not yet read out
  reg  [PcBits-1:0]   beat_pc_q;      // the instruction of the next live beat
  reg  [WordBits-1:0] beat_w_q;
  reg                 have_q;         // the ring's read register holds the instruction at pc_q
  reg  [PcBits-1:0]   pc_q;
  wire [127:0]        ring_rdata;

  // The instruction at pc_q is the flagged one: present it (for DRAM_RANGE its words
  // were never asked for).
  wire at_err    = err_q && err_pc_q == pc_q;
  wire take      = take_i && (have_q || at_err);
  wire last_beat = live_beat && beat_w_q == Words[WordBits-1:0] - 1'b1;   // an instruction is whole
  wire read_now  = (!have_q || take) && avail_q != {(SlotBits+1){1'b0}};

  genvar gw;
  generate
    for (gw = 0; gw < Words; gw = gw + 1) begin : g_col
      wire [SlotBits-1:0] wr_slot = wr_q[PtrBits-1 -: SlotBits];
      localparam [WordBits-1:0] Me = gw;
      tpu_small_ram #(.Width(DataBits), .Depth(Slots)) u_col (
          .clk_i,
          .rd_en_i(read_now),
          .rd_addr_i(rd_q),
          .rd_data_o(ring_rdata[DataBits*gw +: DataBits]),
          .wr_en_i(live_beat && (Words == 1 || beat_w_q == Me)),
          .wr_addr_i(wr_slot),
          .wr_data_i(data_i));
    end
  endgenerate

  localparam [PtrBits:0] WordsP = Words[PtrBits:0];
  always @(posedge clk_i) begin
    if (!rst_ni || restart_i) begin
      held_q    <= {(PtrBits+1){1'b0}};
      avail_q   <= {(SlotBits+1){1'b0}};
      stopped_q <= 1'b0;
      err_q     <= 1'b0;
      have_q    <= 1'b0;
      wr_q      <= {PtrBits{1'b0}};
      rd_q      <= {SlotBits{1'b0}};
      beat_w_q  <= {WordBits{1'b0}};
    end else begin
      held_q  <= held_q + {{PtrBits{1'b0}}, granted} - (read_now ? WordsP : {(PtrBits+1){1'b0}});
      avail_q <= avail_q + {{SlotBits{1'b0}}, last_beat} - {{SlotBits{1'b0}}, read_now};
      if (live_beat) begin
        wr_q     <= wr_q + 1'b1;
        if (beat_w_q == Words[WordBits-1:0] - 1'b1) begin
          beat_w_q  <= {WordBits{1'b0}};
          beat_pc_q <= beat_pc_q + Instr;
        end else begin
          beat_w_q <= beat_w_q + 1'b1;
        end
        // the first flagged instruction is the one that counts: a bus error is always
        // before the end of memory the requests have reached
        if (beat_err_i && (!err_q || err_code_q == TPU_ERR_DRAM_RANGE)) begin
          err_q      <= 1'b1;
          err_pc_q   <= beat_pc_q;
          err_code_q <= TPU_ERR_BUS_ERROR;
          stopped_q  <= 1'b1;
        end
      end
      if (can_ask && past_end && !err_q) begin
        err_q      <= 1'b1;
        err_pc_q   <= req_addr_q;
        err_code_q <= TPU_ERR_DRAM_RANGE;
        stopped_q  <= 1'b1;
      end
      if (read_now) rd_q <= rd_q + 1'b1;
      if (read_now) have_q <= 1'b1;
      else if (take) have_q <= 1'b0;
    end
    if (restart_i) begin
      req_addr_q <= {pc_i[PcBits-1:4], 4'd0};
      beat_pc_q  <= {pc_i[PcBits-1:4], 4'd0};
      pc_q       <= {pc_i[PcBits-1:4], 4'd0};
    end else begin
      if (granted) req_addr_q <= req_addr_q + WordStep;
      if (take) pc_q <= pc_q + Instr;
    end
  end

  // beats on their way, and those to drop after a restart
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      flight_q <= {(PtrBits+1){1'b0}};
      stale_q  <= {(PtrBits+1){1'b0}};
    end else begin
      flight_q <= flight_q + {{PtrBits{1'b0}}, granted} - {{PtrBits{1'b0}}, beat_i};
      if (restart_i) stale_q <= flight_q - {{PtrBits{1'b0}}, beat_i};
      else if (beat_i && stale_q != {(PtrBits+1){1'b0}}) stale_q <= stale_q - 1'b1;
    end
  end

  assign req_o   = want;
  localparam integer     TwoI = 2 * Words;
  localparam [PtrBits:0] Two  = TwoI[PtrBits:0];
  assign urgent_o = held_q < Two;
  assign addr_o  = {{(32-PcBits){1'b0}}, req_addr_q};
  assign busy_o  = flight_q != {(PtrBits+1){1'b0}};
  assign valid_o = have_q || at_err;
  assign instr_o = ring_rdata;
  assign pc_o    = pc_q;
  assign err_o   = at_err ? err_code_q : TPU_ERR_NONE;

  wire unused_pc = ^pc_i[3:0];   // (instructions are 16-byte aligned)
endmodule

`default_nettype wire
