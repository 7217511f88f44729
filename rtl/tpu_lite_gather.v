// SPDX-License-Identifier: Apache-2.0
// The lite core's row gather, for rhm and rw: tiles of rows of N bytes, each row made
// of segments of device memory placed one after another from lane 0 (rhm: one tile of
// its rows, segs segments of seglen bytes, segstride apart; rw: its tiles, tstride
// apart, of N rows, one segment of its n bytes, or with transpose n one-byte segments,
// stride apart), the rest of the row zero. A tile's rows after its first seg_rows have
// no segments (an rw tile's rows past k).
//
// Two walks over the same rows: the requests ask for the bus words each segment
// touches, one a cycle, as far as the bus takes them; the beats, which come back in
// order, are placed by a second walk that keeps only the low address bits it needs
// (where in its word a segment starts). A row is offered (row_valid_o) from the register
// it was placed in once its last beat is; the next row's first beat is placed in the
// cycle that row is taken (from zero), and waits while it is not.
//
// Addresses are AddrBits wide: the instruction's checks put every byte a job reads
// below DramBytes, so the low bits of each sum are the address. base_i is taken at
// start_i (every idle cycle, so the start moves only the busy flags: it comes only when
// idle); the other fields from the cycle after on, held for the job (the front end
// keeps them: tpu_lite_front).
`default_nettype none

module tpu_lite_gather #(
    parameter integer ArraySize = 4,
    parameter integer DataBits  = 32,
    parameter integer AddrBits  = 16,     // log2 of the device memory's bytes
    parameter integer RowBits   = 16      // a tile's rows minus one (checked: below the unified buffer's)
) (
    input  wire                clk_i,
    input  wire                rst_ni,
    input  wire                start_i,
    input  wire [AddrBits-1:0] base_i,          // tile 0's row 0's first segment
    input  wire [3:0]          tiles_m1_i,
    input  wire [AddrBits-1:0] tstride_i,       // between tiles' first rows
    input  wire [RowBits-1:0]  rows_m1_i,       // a tile's rows
    input  wire [RowBits-1:0]  seg_rows_m1_i,   // its rows 0 .. seg_rows_m1_i have segments
    input  wire [15:0]         rstride_i,       // between rows' first segments
    input  wire [5:0]          segs_m1_i,
    input  wire [15:0]         segstride_i,
    input  wire [5:0]          seglen_m1_i,
    output wire                busy_o,
    // word reads (tpu_lite_bus)
    output wire                req_o,
    output wire [31:0]         addr_o,
    input  wire                grant_i,
    input  wire                beat_i,
    input  wire [DataBits-1:0] data_i,
    input  wire                beat_err_i,
    output wire                ready_o,
    // rows, in order
    output wire                row_valid_o,
    output wire [N*8-1:0]      row_o,
    output wire                row_last_o,      // (with row_valid_o) the tile's last row
    input  wire                row_ready_i,
    output wire                err_o,           // a beat of this job had a bus error
    output wire [6:0]          bytes_o          // bytes placed the cycle before (a segment's, at its end)
);
  localparam integer N        = ArraySize;
  localparam integer B        = DataBits / 8;
  localparam integer LaneBits = $clog2(B);

  // Words a segment of len bytes touches when it starts at byte low of a word, minus one.
  function automatic [6:0] words_m1(input [LaneBits-1:0] low, input [5:0] len_m1);
    words_m1 = ({{(7-LaneBits){1'b0}}, low} + {1'b0, len_m1}) >> LaneBits;
  endfunction

  // (the checks keep segs and seglen at most N, and their product too: so a segment's
  // words are at most MaxWords, its lanes below N: only their fields' low bits are taken)
  localparam integer NBits    = $clog2(N);
  localparam integer MaxWords = (B - 1 + N - 1) / B + 1;
  localparam integer WBits    = MaxWords > 1 ? $clog2(MaxWords) : 1;
  wire [5:0]  segs_m1   = {{(6-NBits){1'b0}}, segs_m1_i[NBits-1:0]};
  wire [5:0]  seglen_m1 = {{(6-NBits){1'b0}}, seglen_m1_i[NBits-1:0]};
  // the 16-bit strides at the addresses' width
  wire [63:0] rstride64 = {48'd0, rstride_i}, segstride64 = {48'd0, segstride_i};
  wire [AddrBits-1:0] rstride_a   = rstride64[AddrBits-1:0];
  wire [AddrBits-1:0] segstride_a = segstride64[AddrBits-1:0];
  localparam [AddrBits-1:0] WordStep = B[AddrBits-1:0];

  // ---- requests ------------------------------------------------------------------------------
  // (a tile's rows without segments ask for nothing: the requests go from its last row
  // with segments to the next tile's first)
  reg         rq_on_q;
  reg  [3:0]  rq_t_q;
  reg  [RowBits-1:0] rq_r_q;
  reg  [NBits-1:0] rq_s_r;
  reg  [WBits-1:0] rq_w_r;
  wire [5:0]  rq_s_q = {{(6-NBits){1'b0}}, rq_s_r};
  wire [6:0]  rq_w_q = {{(7-WBits){1'b0}}, rq_w_r};
  reg  [AddrBits-1:0] rq_tile_q, rq_row_q, rq_seg_q, rq_word_q;
  wire        rq_last_w   = rq_w_q == words_m1(rq_seg_q[LaneBits-1:0], seglen_m1);
  wire        rq_last_s   = rq_s_q == segs_m1;
  wire        rq_last_r   = rq_r_q == seg_rows_m1_i;
  wire        rq_step     = rq_on_q && grant_i;
  wire [AddrBits-1:0] next_seg  = rq_seg_q + segstride_a;
  wire [AddrBits-1:0] next_row  = rq_row_q + rstride_a;
  wire [AddrBits-1:0] next_tile = rq_tile_q + tstride_i;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rq_on_q <= 1'b0;
    end else if (start_i) begin
      rq_on_q <= 1'b1;   // (every job has a row with segments: rhm's all, rw's the first k)
    end else if (rq_step && rq_last_w && rq_last_s && rq_last_r && rq_t_q == tiles_m1_i) begin
      rq_on_q <= 1'b0;
    end
    // (idle, the counts and addresses start over every cycle, from base_i as it is then:
    // so a start moves only the flags, not all of them; a start comes only when idle)
    if (!rq_on_q) begin
      rq_t_q    <= 4'd0;
      rq_r_q    <= {RowBits{1'b0}};
      rq_s_r    <= {NBits{1'b0}};
      rq_w_r    <= {WBits{1'b0}};
      rq_tile_q <= base_i;
      rq_row_q  <= base_i;
      rq_seg_q  <= base_i;
      rq_word_q <= {base_i[AddrBits-1:LaneBits], {LaneBits{1'b0}}};
    end else if (rq_step) begin
      if (!rq_last_w) begin
        rq_w_r    <= rq_w_r + 1'b1;
        rq_word_q <= rq_word_q + WordStep;
      end else if (!rq_last_s) begin
        rq_w_r    <= {WBits{1'b0}};
        rq_s_r    <= rq_s_r + 1'b1;
        rq_seg_q  <= next_seg;
        rq_word_q <= {next_seg[AddrBits-1:LaneBits], {LaneBits{1'b0}}};
      end else if (!rq_last_r) begin
        rq_w_r    <= {WBits{1'b0}};
        rq_s_r    <= {NBits{1'b0}};
        rq_r_q    <= rq_r_q + 1'b1;
        rq_row_q  <= next_row;
        rq_seg_q  <= next_row;
        rq_word_q <= {next_row[AddrBits-1:LaneBits], {LaneBits{1'b0}}};
      end else begin
        rq_w_r    <= {WBits{1'b0}};
        rq_s_r    <= {NBits{1'b0}};
        rq_r_q    <= {RowBits{1'b0}};
        rq_t_q    <= rq_t_q + 4'd1;
        rq_tile_q <= next_tile;
        rq_row_q  <= next_tile;
        rq_seg_q  <= next_tile;
        rq_word_q <= {next_tile[AddrBits-1:LaneBits], {LaneBits{1'b0}}};
      end
    end
  end

  // ---- beats ---------------------------------------------------------------------------------
  reg                bt_on_q, full_q, err_q;   // full_q: row_q is a whole row, offered (out_last_q: a tile's last)
  reg                out_last_q;
  reg  [3:0]         bt_t_q;
  reg  [LaneBits-1:0] bt_tile_low_q;
  reg  [RowBits-1:0] bt_r_q;
  reg  [NBits-1:0]   bt_s_r;
  reg  [WBits-1:0]   bt_w_r;
  wire [5:0]         bt_s_q = {{(6-NBits){1'b0}}, bt_s_r};
  wire [6:0]         bt_w_q = {{(7-WBits){1'b0}}, bt_w_r};
  reg  [LaneBits-1:0] bt_row_low_q, bt_seg_low_q;   // where row and segment start in their words
  reg  [NBits:0]     bt_lane_r;                      // the segment's first lane (at most N)
  wire [6:0]         bt_lane_q = {{(6-NBits){1'b0}}, bt_lane_r};
  reg  [N*8-1:0]     row_q;
  // (bt_r_q <= seg_rows_m1_i, as a register: true from a tile's first row until its last
  // row with segments is done; so the beat's acceptance, and the bus's read-data ready
  // behind it, wait for no comparison)
  reg                bt_has_segs_q;
  wire               bt_has_segs = bt_has_segs_q;
  wire               bt_last_w   = bt_w_q == words_m1(bt_seg_low_q, seglen_m1);
  wire               bt_last_s   = bt_s_q == segs_m1;
  wire               bt_last_r   = bt_r_q == rows_m1_i;
  wire               bt_last_t   = bt_t_q == tiles_m1_i;
  wire               offered     = full_q && row_ready_i;
  wire               free        = !full_q || offered;   // row_q can take the next row's bytes now
  wire               take_beat   = bt_on_q && free && bt_has_segs && beat_i;
  wire               seg_done    = take_beat && bt_last_w;
  // the row is complete: its last segment's last beat, or at once without segments
  wire               row_done    = bt_on_q && free && (bt_has_segs ? seg_done && bt_last_s : 1'b1);
  wire [LaneBits-1:0] next_tile_low = bt_tile_low_q + tstride_i[LaneBits-1:0];
  wire [LaneBits-1:0] next_row_low = bt_last_r ? next_tile_low : bt_row_low_q + rstride_i[LaneBits-1:0];
  wire [LaneBits-1:0] next_seg_low = bt_seg_low_q + segstride_i[LaneBits-1:0];

  // The beat's bytes in their lanes: lane i takes the segment's byte i - first (when
  // first <= i <= first + seglen - 1), which lies at byte pos = i - first + low of the
  // segment's words: in this beat when pos / B is the beat's word, at byte pos mod B.
  // (A lane's compare and a byte multiplexer, not a compare for every byte and lane.)
  localparam integer PosBits = 7 + LaneBits + 1;
  wire [PosBits-1:0] to_pos   = {{(PosBits-LaneBits){1'b0}}, bt_seg_low_q} - {{(PosBits-7){1'b0}}, bt_lane_q};
  wire [7:0]         seg_last = {1'b0, bt_lane_q} + {2'b0, seglen_m1};   // the segment's last lane
  reg  [N*8-1:0]     placed;
  reg  [PosBits-1:0] pos;
  integer i;
  always @(*) begin
    placed = full_q ? {N*8{1'b0}} : row_q;   // (a next row's first beat, as the whole one leaves)
    for (i = 0; i < N; i = i + 1) begin
      pos = to_pos + i[PosBits-1:0];
      if ({1'b0, bt_lane_q} <= i[7:0] && i[7:0] <= seg_last && pos[PosBits-1:LaneBits] == {1'b0, bt_w_q})
        placed[8*i +: 8] = data_i[8*pos[LaneBits-1:0] +: 8];
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      bt_on_q <= 1'b0;
      full_q  <= 1'b0;
    end else if (start_i) begin
      bt_on_q <= 1'b1;
      full_q  <= 1'b0;
    end else begin
      if (row_done) begin
        full_q <= 1'b1;
        if (bt_last_r && bt_last_t) bt_on_q <= 1'b0;
      end else if (offered) begin
        full_q <= 1'b0;
      end
    end
    if (row_done) out_last_q <= bt_last_r;
    if (start_i) err_q <= 1'b0;
    else if (take_beat && beat_err_i) err_q <= 1'b1;
    if (start_i) row_q <= {N*8{1'b0}};
    else if (take_beat) row_q <= placed;   // (the row's last beat: the whole row, offered)
    else if (row_done || offered) row_q <= {N*8{1'b0}};   // (a row without segments; one taken)
    if (!bt_on_q) begin   // (idle: as the requests' counts)
      bt_t_q        <= 4'd0;
      bt_tile_low_q <= base_i[LaneBits-1:0];
      bt_r_q        <= {RowBits{1'b0}};
      bt_s_r        <= {NBits{1'b0}};
      bt_w_r        <= {WBits{1'b0}};
      bt_row_low_q  <= base_i[LaneBits-1:0];
      bt_seg_low_q  <= base_i[LaneBits-1:0];
      bt_lane_r     <= {(NBits+1){1'b0}};
      bt_has_segs_q <= 1'b1;
    end else begin
      if (take_beat) begin
        if (!bt_last_w) begin
          bt_w_r <= bt_w_r + 1'b1;
        end else begin
          bt_w_r <= {WBits{1'b0}};
          if (!bt_last_s) begin
            bt_s_r       <= bt_s_r + 1'b1;
            bt_seg_low_q <= next_seg_low;
            bt_lane_r    <= bt_lane_r + {1'b0, seglen_m1_i[NBits-1:0]} + 1'b1;
          end
        end
      end
      if (row_done) begin   // the next row starts (the next tile's first, after its last)
        bt_r_q       <= bt_last_r ? {RowBits{1'b0}} : bt_r_q + 1'b1;
        bt_has_segs_q <= bt_last_r || (bt_has_segs_q && bt_r_q != seg_rows_m1_i);
        if (bt_last_r) begin
          bt_t_q        <= bt_t_q + 4'd1;
          bt_tile_low_q <= next_tile_low;
        end
        bt_s_r       <= {NBits{1'b0}};
        bt_lane_r    <= {(NBits+1){1'b0}};
        bt_row_low_q <= next_row_low;
        bt_seg_low_q <= next_row_low;
      end
    end
  end


  assign busy_o      = rq_on_q || bt_on_q || full_q;
  assign req_o       = rq_on_q;
  assign row_last_o  = out_last_q;
  assign addr_o      = {{(32-AddrBits){1'b0}}, rq_word_q};
  assign ready_o     = bt_on_q && free && bt_has_segs;
  assign row_valid_o = full_q;
  assign row_o       = row_q;
  assign err_o       = err_q;
  // (a cycle late, from a register: the count's add stays off the beat's acceptance,
  // which waits on the bus and the row's taker; the job ends later than that)
  reg [6:0] bytes_q;
  always @(posedge clk_i) bytes_q <= seg_done ? {1'b0, seglen_m1} + 7'd1 : 7'd0;
  assign bytes_o     = bytes_q;

  wire unused = ^{rq_row_q[LaneBits-1:0], rstride64, segstride64, segs_m1_i[5:NBits], seglen_m1_i[5:NBits]};
endmodule

`default_nettype wire
