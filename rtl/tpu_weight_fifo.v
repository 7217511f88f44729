// SPDX-License-Identifier: Apache-2.0
// The weight FIFO: DepthTiles tiles of N rows of N int8 weights, moved a row at a
// time with valid/ready on both sides. tiles_o counts the tiles whose every row has
// been written and not every row read (the tile being read included), so the matrix
// unit can start a tile load only when the whole tile is there and stream it
// without a stall; tile_o says there is one (tiles_o != 0), from a register of its own,
// so that the loader's start and the matrix sequencer's grant are a flip-flop away.
`default_nettype none

module tpu_weight_fifo #(
    parameter integer ArraySize  = 4,  // N: a tile is N rows of N bytes
    parameter integer DepthTiles = 4   // capacity in tiles (TPU v1: 4)
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    input  wire                   wr_valid_i,
    output wire                   wr_ready_o,
    input  wire [ArraySize*8-1:0] wr_data_i,
    output wire                   rd_valid_o,
    input  wire                   rd_ready_i,
    output wire [ArraySize*8-1:0] rd_data_o,
    output wire [TileBits-1:0]    tiles_o,
    output wire                   tile_o,      // tiles_o != 0
    output wire [PtrBits:0]       free_o       // rows that can still be written
);
  localparam integer N        = ArraySize;
  localparam integer Rows     = N * DepthTiles;          // capacity in rows
  localparam integer PtrBits  = $clog2(Rows);            // slot index width
  localparam integer RowBits  = $clog2(N);               // row-within-tile width
  localparam integer TileBits = $clog2(DepthTiles + 1);  // 0..DepthTiles

  initial begin
    if (N < 2 || (N & (N - 1)) != 0) begin
      $display("tpu_weight_fifo: ArraySize must be a power of two >= 2");
      $finish;
    end
    if (DepthTiles < 1 || (DepthTiles & (DepthTiles - 1)) != 0) begin
      $display("tpu_weight_fifo: DepthTiles must be a power of two (pointers wrap)");
      $finish;
    end
  end

  reg [N*8-1:0]     mem_q [0:Rows-1];
  reg [PtrBits:0]   wptr_q, rptr_q;      // one extra bit tells full from empty
  // The flags and the free count are registers, updated from this cycle's moves, so
  // that a writer's "ready" and "room" are not a subtraction and a comparison deep.
  reg               full_q, nonempty_q;
  reg [PtrBits:0]   free_q;
  reg [TileBits-1:0] tiles_q;
  reg                tile_q;     // tiles_q != 0

  wire             do_wr   = wr_valid_i && wr_ready_o;
  wire             do_rd   = rd_valid_o && rd_ready_i;
  wire             grow    = do_wr && !do_rd;
  wire             shrink  = do_rd && !do_wr;
  localparam [PtrBits:0] RowsP = Rows[PtrBits:0];

  wire [PtrBits:0]    wptr_d  = wptr_q + {{PtrBits{1'b0}}, do_wr};
  wire [PtrBits:0]    rptr_d  = rptr_q + {{PtrBits{1'b0}}, do_rd};
  // A tile's last row written or read: the count of whole tiles goes up or down by one.
  // (tile_q follows from these and the old count, not from the new pointers' difference:
  // a write's handshake is then two LUTs from the flag, not an adder and a comparison.)
  localparam [RowBits-1:0] LastRow = {RowBits{1'b1}};
  wire             wr_end  = do_wr && wptr_q[RowBits-1:0] == LastRow;
  wire             rd_end  = do_rd && rptr_q[RowBits-1:0] == LastRow;
  wire             tiles_many = tiles_q > {{(TileBits-1){1'b0}}, 1'b1};

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_q     <= {(PtrBits+1){1'b0}};
      rptr_q     <= {(PtrBits+1){1'b0}};
      full_q     <= 1'b0;
      nonempty_q <= 1'b0;
      free_q     <= RowsP;
      tiles_q    <= {TileBits{1'b0}};
      tile_q     <= 1'b0;
    end else begin
      wptr_q <= wptr_d;
      rptr_q <= rptr_d;
      tiles_q <= wptr_d[PtrBits:RowBits] - rptr_d[PtrBits:RowBits];
      tile_q  <= wr_end || (rd_end ? tiles_many : tile_q);
      if (grow) begin
        full_q     <= free_q == {{PtrBits{1'b0}}, 1'b1};
        nonempty_q <= 1'b1;
        free_q     <= free_q - 1'b1;
      end else if (shrink) begin
        full_q     <= 1'b0;
        nonempty_q <= free_q != RowsP - 1'b1;
        free_q     <= free_q + 1'b1;
      end
    end
  end

  always @(posedge clk_i) begin
    if (do_wr) mem_q[wptr_q[PtrBits-1:0]] <= wr_data_i;
  end

  assign wr_ready_o = !full_q;
  assign free_o     = free_q;
  assign rd_valid_o = nonempty_q;
  assign rd_data_o  = mem_q[rptr_q[PtrBits-1:0]];
  // Whole tiles written, counted from the tile the read pointer is in: the tile
  // pointers are the row pointers without their row-in-tile bits. (A register, from the
  // pointers' next values: the matrix unit's loader starts at a flip-flop.)
  assign tiles_o    = tiles_q;
  assign tile_o     = tile_q;

`ifdef FORMAL
  // Promises proven by `make formal` (tests/formal/): no overflow or underflow,
  // order and contents kept, output held while stalled, tiles consistent with rows.
  `include "tpu_formal.vh"
  `TPU_F_PREAMBLE

  wire [PtrBits:0] count = wptr_q - rptr_q;
  always @(*) begin
    if (f_past_valid && rst_ni) begin
      assert (count <= Rows);
      assert (free_q == RowsP - count);
      assert (full_q == (count == RowsP));
      assert (nonempty_q == (count != 0));
      assert (tiles_o <= DepthTiles);
      assert (tile_o == (tiles_o != {TileBits{1'b0}}));
      assert (tiles_o == wptr_q[PtrBits:RowBits] - rptr_q[PtrBits:RowBits]);
      assert ({{(PtrBits+1-TileBits){1'b0}}, tiles_o} * N <= count + N - 1);
    end
  end

  always @(posedge clk_i) begin
    if (f_past_valid && $past(rst_ni) && rst_ni) begin
      // never written when full, never read when empty
      if ($past(count) == Rows) assert (wptr_q == $past(wptr_q));
      if ($past(count) == 0) assert (rptr_q == $past(rptr_q));
    end
  end

  // a stalled output keeps its data
  `TPU_F_HOLD(u_f_rd, N * 8, 0, 1'b0, rd_valid_o, rd_ready_i, rd_data_o)

  // Contents: an arbitrary value written to an arbitrary slot comes out unchanged
  // when the read pointer reaches it, before anything else can overwrite it.
  (* anyconst *) reg [PtrBits:0] f_slot;
  (* anyconst *) reg [N*8-1:0]   f_data;
  reg f_tracking = 1'b0;
  always @(posedge clk_i) begin
    if (!rst_ni) f_tracking <= 1'b0;
    else if (do_wr && wptr_q == f_slot && wr_data_i == f_data) f_tracking <= 1'b1;
    else if (do_rd && rptr_q == f_slot) f_tracking <= 1'b0;
  end
  always @(*) begin
    if (rst_ni && f_tracking) begin
      assert (mem_q[f_slot[PtrBits-1:0]] == f_data);
      assert (f_slot - rptr_q < count);  // still inside the FIFO
      if (rptr_q == f_slot) assert (rd_valid_o && rd_data_o == f_data);
    end
  end
`endif
endmodule

`default_nettype wire
