// SPDX-License-Identifier: Apache-2.0
// Chaining: how far the in-flight instructions of one writing unit have written their
// rows, so that a reader of the next unit may start on the first rows while the last
// are still being produced (docs/architecture.md, "Chaining"). Used twice: accumulator
// rows written by `mmc` and read by `act`, unified-buffer rows written by `act` and
// read by `whm`.
//
// Per scoreboard slot: whether it is in use, the end of its write range (zero unless
// it holds a writer of the tracked unit) and the first row it has still to write. A
// free slot's range registers take the candidate's range every cycle, so that only
// the in-use flag waits for the issue decision. A writer writes its rows in
// increasing order, one at a time, and reports each (wr_*) once a read of it would see
// the new value. pending_o: row chk_addr_i was still to be written by some tracked slot
// in the cycle before (pending_next_o: row chk_next_i), so that the reader's decision
// is a register, not a comparison against every slot. The scoreboard lets the reader
// issue past these writers (and only these); younger writers of rows it reads still
// wait for it (WAR), so every row it waits for belongs to an older instruction, and a
// row, once written, stays so while the reader runs: a cycle-old answer errs only
// towards waiting.
`default_nettype none

module tpu_chain_track #(
    parameter integer Slots    = 8,
    parameter integer AddrBits = 16
) (
    input  wire                clk_i,
    input  wire                rst_ni,
    // an instruction takes scoreboard slot take_slot_i; tracked: it is a writer of the
    // unit with the write range [take_lo_i, take_hi_i)
    input  wire                take_i,
    input  wire [SlotBits-1:0] take_slot_i,
    input  wire                take_tracked_i,
    input  wire [AddrBits-1:0] take_lo_i,
    input  wire [AddrBits:0]   take_hi_i,
    input  wire [Slots-1:0]    retire_i,
    // the writer in slot wr_slot_i has written row wr_addr_i
    input  wire                wr_valid_i,
    input  wire [SlotBits-1:0] wr_slot_i,
    input  wire [AddrBits-1:0] wr_addr_i,
    // the reader's row next cycle: if it reads none this cycle (chk_alt_i instead when
    // chk_use_alt_i: both are compared and the answer chosen after, so that a reader whose
    // row comes from one of two registers puts no multiplexer in front of the comparisons),
    // and if it reads one
    input  wire [AddrBits-1:0] chk_addr_i,
    input  wire [AddrBits-1:0] chk_alt_i,
    input  wire                chk_use_alt_i,
    input  wire [AddrBits-1:0] chk_next_i,
    output reg                 pending_o,
    output reg                 pending_next_o
);
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;

  wire [Slots-1:0] pending, pending_next;
  genvar i;
  generate
    for (i = 0; i < Slots; i = i + 1) begin : g_slot
      reg                used_q;
      reg [AddrBits:0]   next_q;  // the first row still to write
      reg [AddrBits:0]   hi_q;    // the range's end; 0 unless the slot holds a writer
      wire take = take_i && take_slot_i == i[SlotBits-1:0];
      always @(posedge clk_i) begin
        if (!rst_ni)          used_q <= 1'b0;
        else if (take)        used_q <= 1'b1;
        else if (retire_i[i]) used_q <= 1'b0;
      end
      // (a slot is taken only while free, and written to only while in use)
      always @(posedge clk_i) begin
        if (!used_q) begin
          hi_q   <= take_tracked_i ? take_hi_i : {(AddrBits + 1){1'b0}};
          next_q <= {1'b0, take_lo_i};
        end else if (wr_valid_i && wr_slot_i == i[SlotBits-1:0]) begin
          next_q <= {1'b0, wr_addr_i} + 1'b1;
        end
      end
      wire in_chk = next_q <= {1'b0, chk_addr_i} && {1'b0, chk_addr_i} < hi_q;
      wire in_alt = next_q <= {1'b0, chk_alt_i} && {1'b0, chk_alt_i} < hi_q;
      assign pending[i]      = used_q && (chk_use_alt_i ? in_alt : in_chk);
      assign pending_next[i] = used_q && next_q <= {1'b0, chk_next_i} && {1'b0, chk_next_i} < hi_q;
    end
  endgenerate
  always @(posedge clk_i) begin
    pending_o      <= rst_ni && |pending;
    pending_next_o <= rst_ni && |pending_next;
  end
endmodule

`default_nettype wire
