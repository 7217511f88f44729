// SPDX-License-Identifier: Apache-2.0
// DMA read engine: reads spans of device memory [addr, addr + len) over AXI4, several
// at a time.
//
// A span is split into INCR bursts of at most MaxBeats full-width beats that never
// cross a 4 KB boundary. The address side issues bursts as soon as there is room to
// remember them (up to Bursts outstanding), and takes the next span in the cycle the
// last burst of the current one is issued; the data side matches the returning beats,
// in order, to the remembered bursts. Each beat leaves on the out stream, through a
// register slice (tpu_reg_slice: the consumer's ready and a slave's read data, often
// straight off block RAM, meet no logic on this side), as the raw bus word with
// its window of valid byte lanes [lo, hi) and its span's tag; `last` marks a span's
// final beat. A non-OKAY response on any beat of a span sets `error` from that beat to
// the span's end (the consumer reports BUS_ERROR at `last`).
`default_nettype none
`include "tpu_axi_ports.vh"

module tpu_axi_read #(
    parameter integer DataBits = 32,  // AXI data width: 32..512, a power of two
    parameter integer MaxBeats = 16,  // beats per burst, 1..256
    parameter integer Bursts   = 8    // bursts in flight, a power of two >= 2
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,
    // command: a span of len bytes (1..4095) at addr, for the consumer `tag`
    input  wire                    cmd_valid_i,
    output wire                    cmd_ready_o,
    input  wire [31:0]             cmd_addr_i,
    input  wire [11:0]             cmd_len_i,
    input  wire                    cmd_tag_i,
    // AXI4 read channels (AR, R)
    `TPU_AXI_RD_MASTER_PORTS(m_axi_, DataBits),
    // beats out
    output wire                    out_valid_o,
    input  wire                    out_ready_i,
    output wire [DataBits-1:0]     out_data_o,
    output wire [LaneBits:0]       out_lo_o,     // first valid byte lane
    output wire [LaneBits:0]       out_hi_o,     // one past the last valid byte lane
    output wire [DataBits/8-1:0]   out_fill_o,   // bit k: k < hi - lo (the beat's bytes as a mask, for placing them)
    output wire                    out_last_o,
    output wire                    out_error_o,
    output wire                    out_tag_o,
    output wire                    busy_o        // a span is being issued or is in flight
);
  localparam integer Bytes    = DataBits / 8;        // byte lanes per beat
  localparam integer LaneBits = $clog2(Bytes);       // width of a lane index
  localparam [2:0]   Size     = LaneBits[2:0];       // AXI arsize: log2(bytes per beat)
  localparam integer CntBits  = $clog2(Bursts) + 1;
  // a burst on the bus: its span's tag, whether it ends the span, the first valid lane
  // of its first beat and one past the last valid lane of its last beat
  localparam integer RecBits  = 1 + 1 + 2 * (LaneBits + 1);

  // ---- commands wait in a queue, so that cmd_ready_o is a register's -----------------
  wire        cq_valid, cq_pop;
  wire [31:0] cq_addr;
  wire [11:0] cq_len;
  wire        cq_tag;
  wire [1:0]  unused_cq_count;
  tpu_fifo #(.Width(32 + 12 + 1), .Depth(2)) u_cmds (
      .clk_i,
      .rst_ni,
      .clear_i(1'b0),
      .in_valid_i(cmd_valid_i),
      .in_ready_o(cmd_ready_o),
      .in_data_i({cmd_tag_i, cmd_len_i, cmd_addr_i}),
      .out_valid_o(cq_valid),
      .out_ready_i(cq_pop),
      .out_data_o({cq_tag, cq_len, cq_addr}),
      .count_o(unused_cq_count));
  wire cmd_fire = cmd_valid_i && cmd_ready_o;

  // ---- address side: the queue head's span, split into bursts ------------------------
  // The walker holds a span as bus words: the next burst's first word, and the words
  // left after it minus one (a page's words left minus one is the word index inverted,
  // so a plan is one comparison). Plans wait in a register for the address channel.
  localparam integer PageWords = 4096 / Bytes;
  localparam integer PwBits    = $clog2(PageWords);   // a word's index in its 4 KB page
  localparam integer NeedBits  = 13 - LaneBits;        // words of a span < 4096 / Bytes + 2
  localparam integer LenBits   = 13;                  // holds both, and MaxBeats - 1
  reg                     w_valid_q;   // the walker holds a span
  reg                     w_first_q;   // ... whose first burst is next
  reg  [31-LaneBits:0]    word_q;      // the next burst's first word
  reg  [LenBits-1:0]      need_m1_q;   // the span's words from there, minus one
  reg  [LaneBits-1:0]     off_q;       // the span's first lane
  reg  [LaneBits:0]       hi_q;        // one past the last valid lane of its last word
  reg                     tag_q;
  localparam integer CapM1I    = MaxBeats - 1;
  wire [LenBits-1:0]      cap_m1   = CapM1I[LenBits-1:0];
  wire [LenBits-1:0]      lim_m1;   // the next burst's beats minus one: min(room, cap)
  wire                    last;     // ... and it is the span's last
  wire [31-LaneBits:0]    word_next;   // the first word after that burst
  localparam integer CapBits = $clog2(MaxBeats);
  generate
    if (MaxBeats >= 2 && (1 << CapBits) == MaxBeats && MaxBeats < PageWords) begin : g_pow2
      // A power-of-two cap 2^c: the page's room is below it only in the page's last 2^c
      // words, and then it is the low c bits' complement; so both are a few LUTs, not
      // two comparisons one after the other.
      wire near_end = &word_q[PwBits-1:CapBits] && |word_q[CapBits-1:0];
      assign lim_m1 = near_end ? {{(LenBits-CapBits){1'b0}}, ~word_q[CapBits-1:0]} : cap_m1;
      assign last   = need_m1_q[LenBits-1:CapBits] == {(LenBits-CapBits){1'b0}} &&
                      (!near_end || need_m1_q[CapBits-1:0] <= ~word_q[CapBits-1:0]);
      // word + lim + 1 is word + 2^c, or at the page's end word rounded up to it: the
      // word's high bits plus one either way, its low c bits kept or cleared (so the
      // next word is not the cap's logic and a carry chain deep)
      assign word_next = {word_q[31-LaneBits:CapBits] + 1'b1, near_end ? {CapBits{1'b0}} : word_q[CapBits-1:0]};
    end else begin : g_any
      wire [LenBits-1:0] room_m1 = {{(LenBits-PwBits){1'b0}}, ~word_q[PwBits-1:0]};
      assign lim_m1 = room_m1 < cap_m1 ? room_m1 : cap_m1;
      assign last   = need_m1_q <= lim_m1;
      assign word_next = word_q + {{(32-LaneBits-LenBits){1'b0}}, lim_m1} + 1'b1;
    end
  endgenerate

  reg                 ar_valid_q;
  reg  [31:0]         ar_addr_q;
  reg  [7:0]          ar_len_q;
  reg  [RecBits-1:0]  ar_rec_q;
  wire                rec_ready;
  wire                ar_fire = m_axi_arvalid_o && m_axi_arready_i;
  wire                plan    = w_valid_q && (!ar_valid_q || ar_fire);
  wire                load    = cq_valid && (!w_valid_q || (plan && last));
  assign cq_pop = load;
  // the span from the queue: len + off bytes from its first word
  wire [12:0]         c_bytes_m1 = {1'b0, cq_len} + {{(13-LaneBits){1'b0}}, cq_addr[LaneBits-1:0]} - 13'd1;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      w_valid_q  <= 1'b0;
      ar_valid_q <= 1'b0;
    end else begin
      if (load) w_valid_q <= 1'b1;
      else if (plan && last) w_valid_q <= 1'b0;
      if (plan) ar_valid_q <= 1'b1;
      else if (ar_fire) ar_valid_q <= 1'b0;
    end
  end
  always @(posedge clk_i) begin
    if (load) begin
      w_first_q <= 1'b1;
      word_q    <= cq_addr[31:LaneBits];
      need_m1_q <= {{(LenBits-NeedBits){1'b0}}, c_bytes_m1[12:LaneBits]};
      off_q     <= cq_addr[LaneBits-1:0];
      hi_q      <= {1'b0, c_bytes_m1[LaneBits-1:0]} + 1'b1;
      tag_q     <= cq_tag;
    end else if (plan) begin
      w_first_q <= 1'b0;
      word_q    <= word_next;
      need_m1_q <= need_m1_q - lim_m1 - 1'b1;
    end
    if (plan) begin
      ar_addr_q <= {word_q, {LaneBits{1'b0}}};
      ar_len_q  <= last ? need_m1_q[7:0] : lim_m1[7:0];  // beats - 1 <= MaxBeats - 1 <= 255
      ar_rec_q  <= {tag_q, last, w_first_q ? {1'b0, off_q} : {(LaneBits+1){1'b0}}, hi_q};
    end
  end

  // arvalid never drops before its handshake: only a handshake fills the record FIFO.
  assign m_axi_arvalid_o = ar_valid_q && rec_ready;
  assign m_axi_araddr_o  = ar_addr_q;
  assign m_axi_arlen_o   = ar_len_q;
  assign m_axi_arsize_o  = Size;
  assign m_axi_arburst_o = 2'b01;  // INCR

  // ---- data side: the bursts on the bus, oldest first --------------------------------
  wire                o_ready;   // the out stream's register slice has room
  wire                r_fire = m_axi_rvalid_i && m_axi_rready_o;
  wire                rec_valid;
  wire [RecBits-1:0]  rec;
  wire [CntBits-1:0]  unused_count;
  tpu_fifo #(.Width(RecBits), .Depth(Bursts)) u_bursts (
      .clk_i,
      .rst_ni,
      .clear_i(1'b0),
      .in_valid_i(ar_fire),
      .in_ready_o(rec_ready),
      .in_data_i(ar_rec_q),
      .out_valid_o(rec_valid),
      .out_ready_i(r_fire && m_axi_rlast_i),
      .out_data_o(rec),
      .count_o(unused_count));
  wire [LaneBits:0] rec_hi   = rec[LaneBits:0];
  wire [LaneBits:0] rec_lo   = rec[2*LaneBits+1:LaneBits+1];
  wire              rec_ends = rec[RecBits-2];
  wire              rec_tag  = rec[RecBits-1];

  reg          beat_mid_q;      // a burst is part-way through: not its first beat
  reg          err_q;           // an earlier beat of this span had an error
  reg  [CntBits:0] spans_q;     // spans taken and not yet ended on the out stream
  wire         bad      = m_axi_rresp_i != 2'b00;
  wire         r_ends   = m_axi_rlast_i && rec_ends;   // the beat ends its span
  wire         span_out = out_valid_o && out_ready_i && out_last_o;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      beat_mid_q <= 1'b0;
      err_q      <= 1'b0;
      spans_q    <= {(CntBits+1){1'b0}};
    end else begin
      if (r_fire) beat_mid_q <= !m_axi_rlast_i;
      if (r_fire && r_ends) err_q <= 1'b0;
      else if (r_fire && bad) err_q <= 1'b1;
      spans_q <= spans_q + {{CntBits{1'b0}}, cmd_fire} - {{CntBits{1'b0}}, span_out};
    end
  end

  // Each beat, with its lanes, end and error, leaves through a register slice: the
  // consumer's ready and the beat's data (often straight off a slave's block RAM) meet
  // no logic on this side of it.
  // (with the count's mask, so that a consumer places the bytes with a shift of it, not
  // a subtraction and a comparison per lane)
  localparam integer OutBits = DataBits + 2 * (LaneBits + 1) + Bytes + 3;
  wire [LaneBits:0] beat_lo = beat_mid_q ? {(LaneBits+1){1'b0}} : rec_lo;
  wire [LaneBits:0] beat_hi = r_ends ? rec_hi : Bytes[LaneBits:0];
  wire [LaneBits:0] beat_cnt = beat_hi - beat_lo;
  reg  [Bytes-1:0]  beat_fill;
  integer k;
  always @(*) for (k = 0; k < Bytes; k = k + 1) beat_fill[k] = k < beat_cnt;
  tpu_reg_slice #(.Width(OutBits)) u_out (
      .clk_i,
      .rst_ni,
      .in_valid_i(rec_valid && m_axi_rvalid_i),
      .in_ready_o(o_ready),
      .in_data_i({rec_tag, err_q || bad, r_ends, beat_fill, beat_hi, beat_lo, m_axi_rdata_i}),
      .out_valid_o(out_valid_o),
      .out_ready_i(out_ready_i),
      .out_data_o({out_tag_o, out_error_o, out_last_o, out_fill_o, out_hi_o, out_lo_o, out_data_o}));
  assign m_axi_rready_o = rec_valid && o_ready;
  assign busy_o         = spans_q != {(CntBits+1){1'b0}};


`ifdef FORMAL
  // Proven by `make formal`, given a slave that follows AXI4 (R held while stalled):
  // the address channel and the out stream hold while stalled.
  `include "tpu_formal.vh"
  `TPU_F_PREAMBLE
  `TPU_F_HOLD(u_f_r, DataBits + 3, 1, 1'b0, m_axi_rvalid_i, m_axi_rready_o,
             {m_axi_rdata_i, m_axi_rresp_i, m_axi_rlast_i})
  `TPU_F_HOLD(u_f_ar, 40, 0, 1'b0, m_axi_arvalid_o, m_axi_arready_i,
             {m_axi_araddr_o, m_axi_arlen_o})
  `TPU_F_HOLD(u_f_out, DataBits + 2 * LaneBits + 2 + Bytes + 2, 0, 1'b0, out_valid_o, out_ready_i,
             {out_data_o, out_lo_o, out_hi_o, out_fill_o, out_last_o, out_error_o})
`endif
endmodule

`default_nettype wire
