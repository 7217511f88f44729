// SPDX-License-Identifier: Apache-2.0
// The controller's interlock scoreboard: in-flight instructions with the unified-buffer
// and accumulator row ranges they read and write.
//
// A candidate may issue when a slot is free and it conflicts with no in-flight
// instruction of another unit: it reads nothing they write (RAW), writes nothing they
// read (WAR) and writes nothing they write (WAW). Instructions of the same unit are not
// checked against each other: each unit executes its queue in order. Ranges are
// half-open [lo, hi); an empty range (hi <= lo) or a disabled one conflicts with none.
//
// Three exceptions. Chaining (tpu_chain_track): an activation candidate's accumulator
// reads do not wait for a matrix instruction's accumulator writes, nor a DMA-out
// candidate's UB reads for an activation's UB writes; the reader instead waits row by
// row until the writer has written the row. And a DMA-out candidate's UB reads do not
// wait for a DMA-in instruction's UB writes: the whm's fence (tpu_controller) holds it
// until every DMA-in instruction in flight at its issue has retired, so it waits in its
// queue, not at issue where it would hold up every instruction behind it.
`default_nettype none

module tpu_scoreboard #(
    parameter integer Slots    = 8,   // instructions in flight
    parameter integer AddrBits = 16   // row-address width of both memories
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,
    // the candidate; range order: {acc_wr, acc_rd, ub_wr, ub_rd}
    input  wire                    cand_valid_i,
    input  wire [1:0]              cand_unit_i,     // 0 DMA-in, 1 matrix, 2 activation, 3 DMA-out
    input  wire [3:0]              cand_en_i,
    input  wire [4*AddrBits-1:0]   cand_lo_i,
    input  wire [4*(AddrBits+1)-1:0] cand_hi_i,
    output wire                    cand_ready_o,    // may issue this cycle (slot free, no conflict)
    output wire [SlotBits-1:0]     cand_slot_o,     // the slot it takes
    // retirement: every unit may retire one instruction per cycle, so a mask of slots
    input  wire [Slots-1:0]        retire_i,
    output wire                    busy_o,          // anything in flight (for sync/halt)
    output wire [Slots-1:0]        may_fault_o      // in-flight DMA-in and activation slots
);
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;
  localparam integer HiBits   = AddrBits + 1;
  // Which candidate range clashes with which slot range: reads with writes both ways,
  // writes with writes. Index: {acc_wr, acc_rd, ub_wr, ub_rd} = 3..0.
  localparam integer UbRd = 0, UbWr = 1, AccRd = 2, AccWr = 3;

  wire [Slots-1:0] valid, conflict, faulting;
  wire [Slots-1:0] free = ~valid;
  wire             fire = cand_valid_i && cand_ready_o;

  // The lowest free slot.
  reg [SlotBits-1:0] alloc;
  integer s;
  always @(*) begin
    alloc = {SlotBits{1'b0}};
    for (s = Slots - 1; s >= 0; s = s - 1)
      if (free[s]) alloc = s[SlotBits-1:0];
  end

  genvar i;
  generate
    for (i = 0; i < Slots; i = i + 1) begin : g_slot
      reg                    valid_q;
      reg [1:0]              unit_q;
      reg [3:0]              en_q;
      reg [4*AddrBits-1:0]   lo_q;
      reg [4*HiBits-1:0]     hi_q;
      wire take  = fire && alloc == i[SlotBits-1:0];
      wire leave = retire_i[i];

      always @(posedge clk_i) begin
        if (!rst_ni)     valid_q <= 1'b0;
        else if (take)   valid_q <= 1'b1;
        else if (leave)  valid_q <= 1'b0;
      end
      always @(posedge clk_i) begin
        if (take) begin
          unit_q <= cand_unit_i;
          en_q   <= cand_en_i;
          lo_q   <= cand_lo_i;
          hi_q   <= cand_hi_i;
        end
      end

      // overlap(c, r): candidate range c meets this slot's range r.
      wire [15:0] overlap;
      genvar c, r;
      for (c = 0; c < 4; c = c + 1) begin : g_cand
        for (r = 0; r < 4; r = r + 1) begin : g_mine
          assign overlap[4*c+r] = cand_en_i[c] && en_q[r] &&
                                  {1'b0, cand_lo_i[AddrBits*c +: AddrBits]} < hi_q[HiBits*r +: HiBits] &&
                                  {1'b0, lo_q[AddrBits*r +: AddrBits]} < cand_hi_i[HiBits*c +: HiBits];
        end
      end
      wire chain_acc = cand_unit_i == 2'd2 && unit_q == 2'd1;  // act reading mmc's sums
      wire chain_ub  = cand_unit_i == 2'd3 && unit_q == 2'd2;  // whm reading act's rows
      wire fence_ub  = cand_unit_i == 2'd3 && unit_q == 2'd0;  // whm reading rhm's rows
      wire clash = (overlap[4*UbRd+UbWr] && !chain_ub && !fence_ub) || overlap[4*UbWr+UbRd] || overlap[4*UbWr+UbWr] ||
                   (overlap[4*AccRd+AccWr] && !chain_acc) || overlap[4*AccWr+AccRd] ||
                   overlap[4*AccWr+AccWr];
      assign valid[i]    = valid_q;
      // units whose instructions can still fault after issue (bus error, act parameters)
      assign faulting[i] = valid_q && (unit_q == 2'd0 || unit_q == 2'd2);
      assign conflict[i] = valid_q && unit_q != cand_unit_i && clash;
      wire unused_cross = ^{overlap[4*UbRd+UbRd], overlap[4*AccRd+AccRd], overlap[4*UbRd+AccRd],
                            overlap[4*UbRd+AccWr], overlap[4*UbWr+AccRd], overlap[4*UbWr+AccWr],
                            overlap[4*AccRd+UbRd], overlap[4*AccRd+UbWr], overlap[4*AccWr+UbRd],
                            overlap[4*AccWr+UbWr]};
    end
  endgenerate

  assign cand_ready_o = |free && ~|conflict;
  assign cand_slot_o  = alloc;
  assign busy_o       = |valid;
  assign may_fault_o  = faulting;

`ifdef FORMAL
  // The interlock's promise, for every pair of in-flight instructions of different
  // units: no RAW, WAR or WAW overlap, but for the chained pairs (a reads what b
  // writes: act after mmc on the accumulators, whm after act on the UB) and a whm after
  // an rhm (its fence holds it until the rhm has retired). In particular no matrix multiply (unit 1) is in
  // flight reading UB rows that a pending DMA read (unit 0) will still write.
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  always @(*) if (!f_past_valid) assume (!rst_ni);

  function automatic meets(input [AddrBits-1:0] alo, input [HiBits-1:0] ahi,
                           input [AddrBits-1:0] blo, input [HiBits-1:0] bhi);
    meets = {1'b0, alo} < bhi && {1'b0, blo} < ahi;
  endfunction

  genvar fa, fb;
  generate
    for (fa = 0; fa < Slots; fa = fa + 1) begin : g_fa
      for (fb = 0; fb < Slots; fb = fb + 1) begin : g_fb
        if (fa != fb) begin : g_pair
          always @(*) begin
            if (rst_ni && g_slot[fa].valid_q && g_slot[fb].valid_q &&
                g_slot[fa].unit_q != g_slot[fb].unit_q) begin
              // a's UB reads against b's UB writes, and writes against writes
              assert (!(g_slot[fa].en_q[UbRd] && g_slot[fb].en_q[UbWr] &&
                        !(g_slot[fa].unit_q == 2'd3 && (g_slot[fb].unit_q == 2'd2 || g_slot[fb].unit_q == 2'd0)) &&
                        meets(g_slot[fa].lo_q[AddrBits*UbRd +: AddrBits], g_slot[fa].hi_q[HiBits*UbRd +: HiBits],
                              g_slot[fb].lo_q[AddrBits*UbWr +: AddrBits], g_slot[fb].hi_q[HiBits*UbWr +: HiBits])));
              assert (!(g_slot[fa].en_q[UbWr] && g_slot[fb].en_q[UbWr] &&
                        meets(g_slot[fa].lo_q[AddrBits*UbWr +: AddrBits], g_slot[fa].hi_q[HiBits*UbWr +: HiBits],
                              g_slot[fb].lo_q[AddrBits*UbWr +: AddrBits], g_slot[fb].hi_q[HiBits*UbWr +: HiBits])));
              assert (!(g_slot[fa].en_q[AccRd] && g_slot[fb].en_q[AccWr] &&
                        !(g_slot[fa].unit_q == 2'd2 && g_slot[fb].unit_q == 2'd1) &&
                        meets(g_slot[fa].lo_q[AddrBits*AccRd +: AddrBits], g_slot[fa].hi_q[HiBits*AccRd +: HiBits],
                              g_slot[fb].lo_q[AddrBits*AccWr +: AddrBits], g_slot[fb].hi_q[HiBits*AccWr +: HiBits])));
              assert (!(g_slot[fa].en_q[AccWr] && g_slot[fb].en_q[AccWr] &&
                        meets(g_slot[fa].lo_q[AddrBits*AccWr +: AddrBits], g_slot[fa].hi_q[HiBits*AccWr +: HiBits],
                              g_slot[fb].lo_q[AddrBits*AccWr +: AddrBits], g_slot[fb].hi_q[HiBits*AccWr +: HiBits])));
            end
          end
        end
      end
    end
  endgenerate

  // A matrix multiply never issues onto UB rows a pending DMA read will still write.
  generate
    for (fa = 0; fa < Slots; fa = fa + 1) begin : g_dma
      always @(*) begin
        if (rst_ni && fire && cand_unit_i == 2'd1 && cand_en_i[UbRd] &&
            g_slot[fa].valid_q && g_slot[fa].unit_q == 2'd0 && g_slot[fa].en_q[UbWr])
          assert (!meets(cand_lo_i[AddrBits*UbRd +: AddrBits], cand_hi_i[HiBits*UbRd +: HiBits],
                         g_slot[fa].lo_q[AddrBits*UbWr +: AddrBits], g_slot[fa].hi_q[HiBits*UbWr +: HiBits]));
      end
    end
  endgenerate

  // Allocation never takes a slot in use.
  always @(*) if (rst_ni && fire) assert (!valid[alloc]);
`endif
endmodule

`default_nettype wire
