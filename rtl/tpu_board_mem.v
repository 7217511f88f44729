// SPDX-License-Identifier: Apache-2.0
// Device memory of a board: one single-port RAM of DataWidth-bit words (iCE40 SPRAM, or
// any synchronous RAM with the read data the cycle after the address) shared by the
// core's AXI4 master and the host link's byte port.
//
// One access at a time, the byte port first (the host touches memory between runs and
// must not starve behind a long run's traffic). AXI bursts are INCR; a beat outside
// MemBytes answers SLVERR and writes nothing. With Registered = 0 (the iCE40's SPRAM,
// read data the cycle after) reads are pipelined: a beat a cycle, within a burst and
// from one burst to the next; write beats come a cycle apart. The byte port is
// only ever given addresses the host link has already range-checked.
//
// Registered = 1 (fast clocks, block RAM): the RAM's inputs come from registers and its
// read data is taken two cycles after the access (the RAM has an output register,
// tpu_board_ram OutReg = 1), so neither side of the RAM meets logic in the same cycle;
// a read beat then takes four cycles, a byte read three more than with Registered = 0.
`default_nettype none

module tpu_board_mem #(
    parameter integer DataWidth  = 32,
    parameter integer MemBytes   = 65536,
    parameter integer Registered = 0
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    // AXI4 slave (the core)
    input  wire                   s_arvalid_i,
    output wire                   s_arready_o,
    input  wire [31:0]            s_araddr_i,
    input  wire [7:0]             s_arlen_i,
    output wire                   s_rvalid_o,
    input  wire                   s_rready_i,
    output wire [DataWidth-1:0]   s_rdata_o,
    output wire [1:0]             s_rresp_o,
    output wire                   s_rlast_o,
    input  wire                   s_awvalid_i,
    output wire                   s_awready_o,
    input  wire [31:0]            s_awaddr_i,
    input  wire [7:0]             s_awlen_i,
    input  wire                   s_wvalid_i,
    output wire                   s_wready_o,
    input  wire [DataWidth-1:0]   s_wdata_i,
    input  wire [DataWidth/8-1:0] s_wstrb_i,
    input  wire                   s_wlast_i,
    output wire                   s_bvalid_o,
    input  wire                   s_bready_i,
    output wire [1:0]             s_bresp_o,
    // byte port (the host link)
    input  wire                   byte_valid_i,
    output wire                   byte_ready_o,
    input  wire                   byte_we_i,
    input  wire [31:0]            byte_addr_i,
    input  wire [7:0]             byte_wdata_i,
    output wire                   byte_rvalid_o,
    output wire [7:0]             byte_rdata_o,
    // the RAM
    output wire                   ram_en_o,
    output wire [DataWidth/8-1:0] ram_we_o,     // byte write enables; none: a read
    output wire [WordBits-1:0]    ram_addr_o,
    output wire [DataWidth-1:0]   ram_wdata_o,
    input  wire [DataWidth-1:0]   ram_rdata_i
);
  localparam integer Lanes    = DataWidth / 8;
  localparam integer LaneBits = $clog2(DataWidth / 8);
  localparam integer Words    = MemBytes / (DataWidth / 8);
  localparam integer WordBits = $clog2(MemBytes / (DataWidth / 8));
  localparam integer IdxBits  = 32 - LaneBits;  // a word index of the whole address space
  initial begin
    if ((1 << WordBits) != Words) begin
      $display("tpu_board_mem: MemBytes / (DataWidth / 8) must be a power of two");
      $finish;
    end
  end
  localparam [2:0] SIdle = 3'd0, SRdRam = 3'd1, SRdBeat = 3'd2, SWrBeat = 3'd3, SWrResp = 3'd4,
                   SByteRd = 3'd5, SRdWait = 3'd6, SByteWait = 3'd7;
  localparam [1:0] Waits = Registered != 0 ? 2'd2 : 2'd0;  // a read's cycles beyond one to its data

  reg [2:0]          state_q;
  reg [WordBits-1:0] word_q;     // the current beat's word in memory
  reg                far_q;      // ... and whether it lies beyond memory (a burst that
                                 // starts there, or passes the end, stays there: a burst
                                 // does not wrap at 2^32, AXI keeps it within 4 KiB)
  reg [7:0]          left_q;     // beats after the current one
  reg                err_q;      // a write beat fell outside memory
  reg [LaneBits-1:0] lane_q;     // byte-port read: the lane to answer with
  reg [1:0]          wait_q;     // read: cycles still to wait for the data

  // Registered = 0: reads go through a pipeline instead of the states SRdRam and SRdBeat:
  // a beat's RAM read is issued when the RAM's output is free (no beat on it, or the one
  // on it is taken now), so back-to-back bursts and the beats of one burst come a cycle
  // apart. pissue_q: the burst has beats left to issue (after word_q, left_q of them);
  // pv_q: a beat is on the RAM's output (plast_q, perr_q its rlast and its range error).
  localparam integer Pipe = Registered == 0 ? 1 : 0;
  reg  pv_q, plast_q, perr_q, pissue_q;
  wire p_busy    = Pipe != 0 && (pv_q || pissue_q);
  wire out_free  = !pv_q || s_rready_i;
  wire [IdxBits-1:0] ar_word = s_araddr_i[31:LaneBits];
  wire [IdxBits-1:0] aw_word = s_awaddr_i[31:LaneBits];
  wire p_ar      = Pipe != 0 && state_q == SIdle && !byte_valid_i && !pissue_q && out_free && s_arvalid_i;
  wire p_next    = Pipe != 0 && pissue_q && out_free;
  wire p_issue   = p_ar || p_next;
  // (MemBytes is a power of two: a word is inside when the bits above its index are 0)
  wire [WordBits-1:0] word_next;
  wire                word_carry;   // word_q is memory's last word
  assign {word_carry, word_next} = {1'b0, word_q} + 1'b1;
  wire in_range  = !far_q;
  wire next_ok   = !far_q && !word_carry;
  wire ar_ok     = ar_word[IdxBits-1:WordBits] == {(IdxBits-WordBits){1'b0}};
  wire aw_ok     = aw_word[IdxBits-1:WordBits] == {(IdxBits-WordBits){1'b0}};
  wire p_word_ok = p_ar ? ar_ok : next_ok;   // (the word issued: the burst's first, or the next)
  wire take_byte = state_q == SIdle && byte_valid_i && !p_busy;
  wire take_ar   = Pipe == 0 && state_q == SIdle && !byte_valid_i && s_arvalid_i;
  wire take_aw   = state_q == SIdle && !byte_valid_i && !s_arvalid_i && s_awvalid_i && !p_busy;
  wire r_fire    = state_q == SRdBeat && s_rready_i;
  wire w_fire    = state_q == SWrBeat && s_wvalid_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= SIdle;
    end else begin
      case (state_q)
        SIdle: begin
          if (take_byte) state_q <= byte_we_i ? SIdle : Waits != 2'd0 ? SByteWait : SByteRd;
          else if (take_ar) state_q <= SRdRam;
          else if (take_aw) state_q <= SWrBeat;
        end
        SRdRam:    state_q <= Waits != 2'd0 ? SRdWait : SRdBeat;
        SRdWait:   if (wait_q == 2'd1) state_q <= SRdBeat;
        SByteWait: if (wait_q == 2'd1) state_q <= SByteRd;
        SRdBeat: if (r_fire) state_q <= (left_q == 8'd0) ? SIdle : SRdRam;
        SWrBeat: if (w_fire && (s_wlast_i || left_q == 8'd0)) state_q <= SWrResp;
        SWrResp: if (s_bready_i) state_q <= SIdle;
        SByteRd: state_q <= SIdle;
        default: state_q <= SIdle;
      endcase
    end
  end

  always @(posedge clk_i) begin
    if (take_ar || p_ar) begin
      word_q <= ar_word[WordBits-1:0];
      far_q  <= !ar_ok;
      left_q <= s_arlen_i;
    end else if (take_aw) begin
      word_q <= aw_word[WordBits-1:0];
      far_q  <= !aw_ok;
      left_q <= s_awlen_i;
      err_q  <= 1'b0;
    end else if (p_next || r_fire || w_fire) begin
      word_q <= word_next;
      far_q  <= !next_ok;
      left_q <= left_q - 8'd1;
      if (w_fire && !in_range) err_q <= 1'b1;
    end
    if (take_byte) lane_q <= byte_addr_i[LaneBits-1:0];
    if (take_byte || state_q == SRdRam) wait_q <= Waits;
    else if (wait_q != 2'd0) wait_q <= wait_q - 2'd1;
  end

  // The RAM: a byte access in idle, a read beat's address, a write beat's data.
  wire [WordBits-1:0] byte_word = byte_addr_i[WordBits+LaneBits-1:LaneBits];
  wire [Lanes-1:0]    byte_we   = byte_we_i ? ({{(Lanes-1){1'b0}}, 1'b1} << byte_addr_i[LaneBits-1:0])
                                            : {Lanes{1'b0}};
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      pv_q     <= 1'b0;
      pissue_q <= 1'b0;
    end else begin
      if (p_issue) pv_q <= 1'b1;
      else if (pv_q && s_rready_i) pv_q <= 1'b0;
      if (p_ar) pissue_q <= s_arlen_i != 8'd0;
      else if (p_next) pissue_q <= left_q != 8'd1;
    end
    if (p_issue) begin
      plast_q <= p_ar ? s_arlen_i == 8'd0 : left_q == 8'd1;
      perr_q  <= !p_word_ok;
    end
  end

  wire                cmd_en    = take_byte || (state_q == SRdRam && in_range) || (w_fire && in_range) ||
                                  (p_issue && p_word_ok);
  wire [Lanes-1:0]    cmd_we    = take_byte ? byte_we : (w_fire ? s_wstrb_i : {Lanes{1'b0}});
  wire [WordBits-1:0] cmd_addr  = take_byte ? byte_word : p_ar ? ar_word[WordBits-1:0] :
                                  p_next ? word_next : word_q;
  wire [DataWidth-1:0] cmd_wdata = take_byte ? {Lanes{byte_wdata_i}} : s_wdata_i;
  generate
    if (Registered != 0) begin : g_reg
      // (in order: the next access is decided no earlier than the cycle this one reaches the RAM)
      reg                 en_q;
      reg [Lanes-1:0]     we_q;
      reg [WordBits-1:0]  addr_q;
      reg [DataWidth-1:0] wdata_q;
      always @(posedge clk_i) begin
        if (!rst_ni) en_q <= 1'b0;
        else         en_q <= cmd_en;
        we_q    <= cmd_we;
        addr_q  <= cmd_addr;
        wdata_q <= cmd_wdata;
      end
      assign ram_en_o    = en_q;
      assign ram_we_o    = we_q;
      assign ram_addr_o  = addr_q;
      assign ram_wdata_o = wdata_q;
    end else begin : g_direct
      assign ram_en_o    = cmd_en;
      assign ram_we_o    = cmd_we;
      assign ram_addr_o  = cmd_addr;
      assign ram_wdata_o = cmd_wdata;
    end
  endgenerate

  // The read data stays on the RAM's output until its next access, which is never
  // before the beat (or the byte) has been taken. (A write beat's response leaves before
  // its data reaches a registered RAM, but the next access comes after it.)
  reg rd_err_q;
  always @(posedge clk_i) if (state_q == SRdRam) rd_err_q <= !in_range;

  wire   r_err         = Pipe != 0 ? perr_q : rd_err_q;
  assign s_arready_o   = take_ar || p_ar;
  assign s_awready_o   = take_aw;
  assign s_rvalid_o    = Pipe != 0 ? pv_q : state_q == SRdBeat;
  assign s_rdata_o     = r_err ? {DataWidth{1'b0}} : ram_rdata_i;
  assign s_rresp_o     = r_err ? 2'b10 : 2'b00;
  assign s_rlast_o     = Pipe != 0 ? plast_q : left_q == 8'd0;
  assign s_wready_o    = state_q == SWrBeat;
  assign s_bvalid_o    = state_q == SWrResp;
  assign s_bresp_o     = err_q ? 2'b10 : 2'b00;
  assign byte_ready_o  = take_byte;
  assign byte_rvalid_o = state_q == SByteRd;
  assign byte_rdata_o  = ram_rdata_i[lane_q*8 +: 8];

  wire unused_high = ^byte_addr_i[31:WordBits+LaneBits];  // range-checked by the host link
  wire unused_lane = ^{s_araddr_i[LaneBits-1:0], s_awaddr_i[LaneBits-1:0]};  // bursts are aligned
endmodule

`default_nettype wire
