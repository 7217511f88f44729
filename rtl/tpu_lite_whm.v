// SPDX-License-Identifier: Apache-2.0
// The lite core's whm: unified-buffer rows ub, ub + 1, ... (rows per group, groups of
// them) written to device memory, the first len bytes of each at addr + g * gstride +
// r * stride, as the bus words they touch with byte strobes. A row is read from the
// unified buffer while the one before is still being written. The instruction ends when
// every write is answered; err_o then tells whether one was answered with an error (the
// bytes there are dropped and the others written, as the golden model does).
// Addresses are AddrBits wide: the instruction's checks put every byte below DramBytes.
// ub_i and addr_i are taken at start_i; the other fields from the cycle after on, held for
// the instruction (the front end keeps them: tpu_lite_front).
`default_nettype none

module tpu_lite_whm #(
    parameter integer ArraySize = 4,
    parameter integer DataBits  = 32,
    parameter integer UbRows    = 1024,
    parameter integer AddrBits  = 16      // log2 of the device memory's bytes
) (
    input  wire                  clk_i,
    input  wire                  rst_ni,
    input  wire                  start_i,
    input  wire [UbBits-1:0]     ub_i,         // the first row
    input  wire [AddrBits-1:0]   addr_i,       // its first byte
    input  wire [UbBits-1:0]     rows_m1_i,    // rows a group
    input  wire [5:0]            groups_m1_i,
    input  wire [$clog2(ArraySize)-1:0] len_m1_i,   // bytes a row (at most N: checked)
    input  wire [15:0]           stride_i,     // between rows
    input  wire [15:0]           gstride_i,    // between groups
    output wire                  busy_o,
    output wire                  err_o,        // (when busy_o falls) a write had a bus error
    // the unified buffer's port: row reads
    output wire                  ub_req_o,
    output wire [UbBits-1:0]     ub_addr_o,
    input  wire                  ub_grant_i,
    input  wire [N*8-1:0]        ub_rdata_i,
    // word writes (tpu_lite_bus)
    output wire                  w_req_o,
    output wire [31:0]           w_addr_o,
    output wire [DataBits-1:0]   w_data_o,
    output wire [DataBits/8-1:0] w_strb_o,
    input  wire                  w_grant_i,
    input  wire                  w_busy_i,
    input  wire                  w_err_i,
    output wire [6:0]            bytes_o       // bytes written (a row's, as its last word goes)
);
`include "tpu_isa.vh"
  localparam integer N        = ArraySize;
  localparam integer NBits    = $clog2(N);
  localparam integer B        = DataBits / 8;
  localparam integer LaneBits = $clog2(B);
  localparam integer UbBits   = $clog2(UbRows);

  reg         on_q, err_q;
  reg  [UbBits-1:0] r_q, ub_q;   // (rows below UbRows: checked)
  reg  [5:0]  g_q;
  // (a row's len is at most N, checked: its words at most MaxWords)
  localparam integer MaxWords = (B - 1 + N - 1) / B + 1;
  localparam integer WBits    = MaxWords > 1 ? $clog2(MaxWords) : 1;
  reg  [WBits-1:0] w_r;
  wire [5:0]  len_m1 = {{(6-NBits){1'b0}}, len_m1_i};
  reg  [AddrBits-1:0] row_addr_q, grp_addr_q;
  wire [63:0] stride64 = {48'd0, stride_i}, gstride64 = {48'd0, gstride_i};
  wire [AddrBits-1:0] stride_a = stride64[AddrBits-1:0], gstride_a = gstride64[AddrBits-1:0];
  reg         rd_left_q;                // rows still to read
  reg         got_q;                    // a row read last cycle: its data is on the port
  reg         have_q;                   // row_q holds a row being written
  reg  [N*8-1:0] row_q;                 // (rotated: see below)
  reg  [AddrBits-1:0] wr_addr_q;        // that row's first byte
  wire [6:0]  w_q = {{(7-WBits){1'b0}}, w_r};   // its word being written

  wire last_r    = r_q == rows_m1_i;
  wire last_g    = g_q == groups_m1_i;
  wire read      = on_q && rd_left_q && !got_q && (!have_q || w_last_go);
  wire rd_fire   = read && ub_grant_i;
  wire [6:0] words_m1 = ({{(7-LaneBits){1'b0}}, wr_addr_q[LaneBits-1:0]} + {1'b0, len_m1}) >> LaneBits;
  wire w_last    = w_q == words_m1;
  wire w_go      = have_q && w_grant_i;
  wire w_last_go = w_go && w_last;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      on_q <= 1'b0;
    end else if (start_i) begin
      on_q <= 1'b1;
    end else if (on_q && !rd_left_q && !got_q && !have_q && !w_busy_i) begin
      on_q <= 1'b0;
    end
    if (start_i) begin
      ub_q        <= ub_i;
      row_addr_q  <= addr_i;
      grp_addr_q  <= addr_i;
      r_q         <= {UbBits{1'b0}};
      g_q         <= 6'd0;
      rd_left_q   <= 1'b1;
      got_q       <= 1'b0;
      have_q      <= 1'b0;
      err_q       <= 1'b0;
    end else begin
      got_q <= rd_fire;
      if (rd_fire) begin   // the next row's place
        ub_q <= ub_q + 1'b1;
        if (!last_r) begin
          r_q        <= r_q + 1'b1;
          row_addr_q <= row_addr_q + stride_a;
        end else begin
          r_q        <= {UbBits{1'b0}};
          g_q        <= g_q + 6'd1;
          row_addr_q <= grp_addr_q + gstride_a;
          grp_addr_q <= grp_addr_q + gstride_a;
          if (last_g) rd_left_q <= 1'b0;
        end
        wr_addr_q <= row_addr_q;   // (taken into row_q with the data next cycle)
      end
      if (got_q) begin
        row_q  <= rotated;
        have_q <= 1'b1;
        w_r    <= {WBits{1'b0}};
      end else if (w_go) begin
        if (w_last) have_q <= 1'b0;
        else w_r <= w_r + 1'b1;
      end
      if (w_err_i) err_q <= 1'b1;
    end
  end

  // The word w_q of the row's bytes: word byte k is row lane w * B + k - low, written
  // when that lane is one of the row's first len. The row is kept rotated by low (lane j
  // at byte j + low mod N), so that byte k of every word is byte w * B + k mod N of the
  // register: no byte multiplexer per word (none at all when N = B).
  wire [63:0]      low64 = {{(64-LaneBits){1'b0}}, wr_addr_q[LaneBits-1:0]};
  wire [NBits-1:0] rot   = low64[NBits-1:0];   // (low mod N)
  reg  [N*8-1:0]   rotated;
  reg  [NBits-1:0] src;
  integer j;
  always @(*) begin
    for (j = 0; j < N; j = j + 1) begin
      src = j[NBits-1:0] - rot;
      rotated[8*j +: 8] = ub_rdata_i[8*src +: 8];
    end
  end
  localparam integer OffBits = 7 + LaneBits + 1;
  wire [OffBits-1:0] to_lane = {1'b0, w_q, {LaneBits{1'b0}}} - {{(OffBits-LaneBits){1'b0}}, wr_addr_q[LaneBits-1:0]};
  wire [6+LaneBits:0] word_base = {w_q, {LaneBits{1'b0}}};   // w * B
  reg [DataBits-1:0] wdata;
  reg [B-1:0]        wstrb;
  reg [OffBits-1:0]  lane;
  reg [6+LaneBits:0] at;
  integer k;
  always @(*) begin
    for (k = 0; k < B; k = k + 1) begin
      lane     = to_lane + k[OffBits-1:0];   // (negative: before the row's first byte)
      wstrb[k] = !lane[OffBits-1] && lane <= {{(OffBits-6){1'b0}}, len_m1};
      at       = word_base + k[6+LaneBits:0];
      wdata[8*k +: 8] = row_q[8*at[NBits-1:0] +: 8];
    end
  end

  assign busy_o    = on_q;
  assign err_o     = err_q;
  assign ub_req_o  = read;
  assign ub_addr_o = ub_q;
  assign w_req_o   = have_q;
  wire [AddrBits+6:0] word_addr = {7'd0, wr_addr_q[AddrBits-1:LaneBits], {LaneBits{1'b0}}} +
                                  {{(AddrBits-LaneBits){1'b0}}, w_q, {LaneBits{1'b0}}};
  assign w_addr_o  = {{(32-AddrBits){1'b0}}, word_addr[AddrBits-1:0]};
  assign w_data_o  = wdata;
  assign w_strb_o  = wstrb;
  assign bytes_o   = w_last_go ? {1'b0, len_m1} + 7'd1 : 7'd0;

  wire unused = ^{stride64, gstride64, word_addr, low64, at};
endmodule

`default_nettype wire
