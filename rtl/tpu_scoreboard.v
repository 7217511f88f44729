// SPDX-License-Identifier: Apache-2.0
// The controller's interlock scoreboard: in-flight instructions with the unified-buffer
// and accumulator row ranges they read and write, and the device-memory bytes a `whm`
// writes.
//
// A candidate may issue when a slot is free and it conflicts with no in-flight
// instruction of another unit: it reads nothing they write (RAW), writes nothing they
// read (WAR) and writes nothing they write (WAW). Instructions of the same unit are not
// checked against each other: each unit executes its queue in order. Ranges are
// half-open [lo, hi); an empty range (hi <= lo) or a disabled one conflicts with none.
// Device memory: an `rhm` or `rw` (DMA-in, unit 0) waits for the `whm`s in flight
// (DMA-out, unit 3) that write bytes it reads, each until it retires, so that it reads
// what they wrote.
//
// Three exceptions. Chaining (tpu_chain_track): an activation candidate's accumulator
// reads do not wait for a matrix instruction's accumulator writes, nor a DMA-out
// candidate's UB reads for an activation's UB writes; the reader instead waits row by
// row until the writer has written the row. And a DMA-out candidate's UB reads do not
// wait for a DMA-in instruction's UB writes: the whm's fence (tpu_controller) holds it
// until every DMA-in instruction in flight at its issue has retired, so it waits in its
// queue, not at issue where it would hold up every instruction behind it.
//
// The comparisons are a cycle ahead of issue: the next candidate (nxt_*, the
// controller's next register) is compared with the slots, and the result per slot
// registered when it becomes the candidate (load_fire_i if the candidate before it
// issues now, load_hold_i if not), corrected for the slot the candidate before it
// takes in that cycle and for retirements. So the issue decision is an OR of
// registered bits, not a bank of comparators; and that decision selects the next mask
// last, among values prepared without it. The controller's skid
// register (k_*, held while k_valid_i) sits between the two: its comparisons are
// registered as it is written (every cycle it is empty, from nxt_*) and kept up to
// date while it waits, and the candidate loads from it when it holds one, so that no
// comparator waits for a choice between the two.
`default_nettype none

module tpu_scoreboard #(
    parameter integer Slots    = 8,   // instructions in flight
    parameter integer AddrBits = 16,  // row-address width of both memories
    parameter integer MemBits  = 32   // device-memory address width (legal ranges end at most at 2^MemBits)
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,
    // range order: {acc_wr, acc_rd, ub_wr, ub_rd} (one an instruction does not use ends at 0, so it meets none); units: 0 DMA-in, 1 matrix,
    // 2 activation, 3 DMA-out
    // the next candidate
    input  wire [1:0]              nxt_unit_i,
    input  wire [4*AddrBits-1:0]   nxt_lo_i,
    input  wire [4*(AddrBits+1)-1:0] nxt_hi_i,
    input  wire [MemBits-1:0]      nxt_mem_lo_i,
    input  wire [MemBits:0]        nxt_mem_hi_i,
    // it (or the skid register's) becomes the candidate now: if the candidate issues
    // now (load_fire_i), if it does not (load_hold_i)
    input  wire                    load_fire_i,
    input  wire                    load_hold_i,
    input  wire                    k_valid_i,       // the skid register holds the next candidate
    input  wire [1:0]              k_unit_i,
    input  wire [4*AddrBits-1:0]   k_lo_i,
    input  wire [4*(AddrBits+1)-1:0] k_hi_i,
    input  wire [MemBits-1:0]      k_mem_lo_i,
    input  wire [MemBits:0]        k_mem_hi_i,
    // the candidate
    input  wire                    cand_valid_i,    // issues, if cand_ready_o
    input  wire [1:0]              cand_unit_i,
    input  wire [4*AddrBits-1:0]   cand_lo_i,
    input  wire [4*(AddrBits+1)-1:0] cand_hi_i,
    input  wire [MemBits-1:0]      cand_mem_lo_i,
    input  wire [MemBits:0]        cand_mem_hi_i,
    output wire                    cand_ready_o,    // may issue this cycle (slot free, no conflict)
    output wire [SlotBits-1:0]     cand_slot_o,     // the slot it takes
    // retirement: every unit may retire one instruction per cycle, so a mask of slots
    input  wire [Slots-1:0]        retire_i,
    output wire                    busy_o,          // anything in flight (for sync/halt)
    output wire [Slots-1:0]        may_fault_o,     // in-flight DMA-in and activation slots
    output wire [Slots-1:0]        used_o           // slots in flight
);
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;
  localparam integer HiBits   = AddrBits + 1;
  localparam integer UbRd = 0, UbWr = 1, AccRd = 2, AccWr = 3;
  // An instruction as the scoreboard sees it.
  localparam integer RangeBits = 4 * AddrBits + 4 * HiBits + MemBits + MemBits + 1;
  localparam integer DescBits  = 2 + RangeBits;

  // A candidate c may not issue while s is in flight (s valid, another unit) and
  // conflicts with it: reads clash with writes both ways, writes with writes; the pairs
  // of ranges that can clash are the OvBits below. A range the instruction does not
  // use ends at 0 (the decoder's rule), so it overlaps nothing and the enables stay
  // out of the comparison. (cu, su: the units; c, s: the ranges; sv: s is valid)
  localparam integer OvUbRdWr = 0, OvUbWrRd = 1, OvUbWrWr = 2, OvAccRdWr = 3, OvAccWrRd = 4,
                     OvAccWrWr = 5, OvMem = 6, OvBits = 7;
  // Whether a pair may clash at all, from the units and validity alone (registers).
  function automatic [OvBits-1:0] pair_on(input [1:0] cu, input [1:0] su, input sv);
    pair_on = {OvBits{sv && cu != su}} & {
        // an rhm or rw reading device memory a whm writes
        cu == 2'd0 && su == 2'd3,
        2'b11,
        // chained: an act reading an mmc's sums
        !(cu == 2'd2 && su == 2'd1),
        2'b11,
        // chained: a whm reading an act's rows; fenced: a whm reading an rhm's rows
        !(cu == 2'd3 && (su == 2'd2 || su == 2'd0))};
  endfunction
  function automatic meets(input [AddrBits-1:0] alo, input [HiBits-1:0] ahi,
                           input [AddrBits-1:0] blo, input [HiBits-1:0] bhi);
    meets = {1'b0, alo} < bhi && {1'b0, blo} < ahi;
  endfunction
  // Which of c's ranges meet which of s's, the pairs that can clash.
  function automatic [OvBits-1:0] overlaps(input [RangeBits-1:0] c, input [RangeBits-1:0] s);
    reg [4*AddrBits-1:0]   cl, sl;
    reg [4*HiBits-1:0]     ch, sh;
    reg [MemBits-1:0]      cml, sml;
    reg [MemBits:0]        cmh, smh;
    begin
      {cl, ch, cml, cmh} = c;
      {sl, sh, sml, smh} = s;
      overlaps[OvUbRdWr]  = meets(cl[AddrBits*UbRd +: AddrBits], ch[HiBits*UbRd +: HiBits],
                                  sl[AddrBits*UbWr +: AddrBits], sh[HiBits*UbWr +: HiBits]);
      overlaps[OvUbWrRd]  = meets(cl[AddrBits*UbWr +: AddrBits], ch[HiBits*UbWr +: HiBits],
                                  sl[AddrBits*UbRd +: AddrBits], sh[HiBits*UbRd +: HiBits]);
      overlaps[OvUbWrWr]  = meets(cl[AddrBits*UbWr +: AddrBits], ch[HiBits*UbWr +: HiBits],
                                  sl[AddrBits*UbWr +: AddrBits], sh[HiBits*UbWr +: HiBits]);
      overlaps[OvAccRdWr] = meets(cl[AddrBits*AccRd +: AddrBits], ch[HiBits*AccRd +: HiBits],
                                  sl[AddrBits*AccWr +: AddrBits], sh[HiBits*AccWr +: HiBits]);
      overlaps[OvAccWrRd] = meets(cl[AddrBits*AccWr +: AddrBits], ch[HiBits*AccWr +: HiBits],
                                  sl[AddrBits*AccRd +: AddrBits], sh[HiBits*AccRd +: HiBits]);
      overlaps[OvAccWrWr] = meets(cl[AddrBits*AccWr +: AddrBits], ch[HiBits*AccWr +: HiBits],
                                  sl[AddrBits*AccWr +: AddrBits], sh[HiBits*AccWr +: HiBits]);
      overlaps[OvMem]     = {1'b0, cml} < smh && {1'b0, sml} < cmh;
    end
  endfunction

  wire [RangeBits-1:0] nxt = {nxt_lo_i, nxt_hi_i, nxt_mem_lo_i, nxt_mem_hi_i};
  wire [RangeBits-1:0] kx  = {k_lo_i, k_hi_i, k_mem_lo_i, k_mem_hi_i};
  wire [DescBits-1:0] cand = {cand_unit_i, cand_lo_i, cand_hi_i, cand_mem_lo_i, cand_mem_hi_i};

  // mask_q[OvBits*i + p]: the candidate's pair p of ranges clashes with slot i's. Kept
  // per pair, not per slot: each bit is then a comparison and two small LUTs away, and
  // the OR of them all waits for the issue decision, which reads registers.
  reg [Slots*OvBits-1:0] mask_q;     // the candidate's clashes, per slot and pair of ranges
  reg [Slots*OvBits-1:0] k_mask_q;   // the skid register's
  wire [Slots-1:0]  valid, faulting;
  wire [Slots-1:0]  free = ~valid;
  wire              fire = cand_valid_i && cand_ready_o;
  // The next one against the slot taken now. (keep, here and per slot: the enables,
  // from registers, are settled before the comparisons, and the small levels after
  // them stay as written; synthesis, which takes every input as equally early, would
  // otherwise spread the comparisons deeper.)
  (* keep *) wire [OvBits-1:0] pair_en;
  (* keep *) wire [OvBits-1:0] pair;
  assign pair_en = pair_on(nxt_unit_i, cand_unit_i, 1'b1);
  assign pair    = pair_en & overlaps(nxt, cand[RangeBits-1:0]);
  (* keep *) wire [OvBits-1:0] k_pair_en;
  (* keep *) wire [OvBits-1:0] k_pair;
  assign k_pair_en = pair_on(k_unit_i, cand_unit_i, 1'b1);
  assign k_pair    = k_pair_en & overlaps(kx, cand[RangeBits-1:0]);
  // (the candidate's successor against the slot the candidate takes: from the skid
  // register when it holds one)
  (* keep *) wire [OvBits-1:0] new_pair;
  assign new_pair = k_valid_i ? k_pair : pair;

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
      reg                valid_q;
      reg [DescBits-1:0] desc_q;
      wire take  = fire && alloc == i[SlotBits-1:0];
      wire leave = retire_i[i];

      always @(posedge clk_i) begin
        if (!rst_ni)     valid_q <= 1'b0;
        else if (take)   valid_q <= 1'b1;
        else if (leave)  valid_q <= 1'b0;
      end
      // (a free slot takes the candidate every cycle: only valid_q waits for the issue)
      always @(posedge clk_i) if (!valid_q) desc_q <= cand;

      wire [1:0] unit_q = desc_q[DescBits-1 -: 2];
      // mask <= load ? (take ? new_pair : kept) : held, per pair of ranges, where kept is
      // the skid register's mask or next's comparisons, past retirements. Three
      // inputs arrive late: the issue (fire), and the comparisons (hit, new_pair); every
      // choice made from registers alone is made first (the keep wires), so that each
      // late input is at most two LUTs from the register.
      (* keep *) wire [OvBits-1:0] hit_en, hit;
      assign hit_en = pair_on(nxt_unit_i, unit_q, valid_q);
      assign hit    = hit_en & overlaps(nxt, desc_q[RangeBits-1:0]);
      // (the candidate loads from the skid register when it holds one, else from next;
      // what either keeps past this cycle's retirements: next's comparisons when they
      // are used (use_*), else the skid register's mask or nothing (base_*); an issue
      // that loads takes slot i's new comparison instead when it takes slot i)
      wire [OvBits-1:0] k_kept = k_mask_q[OvBits*i +: OvBits] & {OvBits{k_valid_i && !leave}};
      wire [OvBits-1:0] held   = mask_q[OvBits*i +: OvBits] & {OvBits{!leave}};
      (* keep *) wire               use_new;
      (* keep *) wire               use_fire, use_hold;
      (* keep *) wire [OvBits-1:0]  base_fire, base_hold;
      assign use_new   = load_fire_i && alloc == i[SlotBits-1:0];
      assign use_fire  = load_fire_i && !k_valid_i && !leave;
      assign use_hold  = load_hold_i && !k_valid_i && !leave;
      assign base_fire = load_fire_i ? k_kept : held;
      assign base_hold = load_hold_i ? k_kept : held;
      (* keep *) wire [OvBits-1:0] on_fire, on_hold;
      assign on_fire = base_fire | (hit & {OvBits{use_fire}});
      assign on_hold = base_hold | (hit & {OvBits{use_hold}});
      always @(posedge clk_i)
        mask_q[OvBits*i +: OvBits] <= fire ? (use_new ? new_pair : on_fire) : on_hold;
      // (an empty skid register takes next's comparisons every cycle; it is written only
      // in a cycle the candidate stays, and a full one moves on when the candidate issues,
      // so no slot is taken while it holds its own)
      always @(posedge clk_i)
        k_mask_q[OvBits*i +: OvBits] <= k_kept | (hit & {OvBits{!k_valid_i && !leave}});
      assign valid[i]    = valid_q;
      // units whose instructions can still fault after issue (bus error, act parameters)
      assign faulting[i] = valid_q && (unit_q == 2'd0 || unit_q == 2'd2);
    end
  endgenerate

  // Anything in flight, as a register of its own (the next slots' OR: a slot taken now,
  // or one valid that does not retire now), so that a sync's retirement, and the
  // decode registers' loads behind it, start at a flip-flop.
  reg busy_q;
  always @(posedge clk_i) busy_q <= rst_ni && (fire || |(valid & ~retire_i));
  assign cand_ready_o = |free && ~|mask_q;   // (every slot's every pair)
  assign cand_slot_o  = alloc;
  assign busy_o       = busy_q;
  assign may_fault_o  = faulting;
  assign used_o       = valid;

`ifdef FORMAL
  // The interlock's promise, for every pair of in-flight instructions of different
  // units: no RAW, WAR or WAW overlap, but for the chained pairs (a reads what b
  // writes: act after mmc on the accumulators, whm after act on the UB) and a whm after
  // an rhm (its fence holds it until the rhm has retired); no rhm or rw reading bytes
  // of a whm in flight. And the registered comparison is the combinational one: once
  // a candidate has been loaded, mask_q holds, per slot and pair of ranges, exactly
  // whether it clashes with that slot.
  `include "tpu_formal.vh"
  `TPU_F_PREAMBLE
  // The controller's side: the candidate is what was loaded (from the skid register
  // when it held one, else from next), unchanged until the next load; the skid register
  // is written only while empty, in a cycle the candidate stays, from next, and holds
  // until the candidate takes it (or a flush empties it); a full skid register means a
  // candidate.
  wire load = fire ? load_fire_i : load_hold_i;   // the candidate register loads
  reg f_loaded = 1'b0;
  always @(posedge clk_i) if (!rst_ni) f_loaded <= 1'b0; else if (load) f_loaded <= 1'b1;
  // (combinational assumptions on registered copies: a clocked one would constrain
  // the step after, too late for the step in which an assertion fails)
  reg                f_was_rst = 1'b1, f_was_load = 1'b0, f_was_kvalid = 1'b0, f_was_fire = 1'b0;
  reg [DescBits-1:0] f_was_nxt, f_was_cand, f_was_k;
  wire [DescBits-1:0] f_k = {k_unit_i, kx};
  always @(posedge clk_i) begin
    f_was_rst    <= !rst_ni;
    f_was_load   <= load;
    f_was_kvalid <= k_valid_i;
    f_was_fire   <= fire;
    f_was_nxt    <= {nxt_unit_i, nxt};
    f_was_cand   <= cand;
    f_was_k      <= f_k;
  end
  always @(*) begin
    if (f_past_valid && !f_was_rst) begin
      if (f_was_load) assume (cand == (f_was_kvalid ? f_was_k : f_was_nxt));
      else assume (cand == f_was_cand);
      if (k_valid_i && !f_was_kvalid) assume (!f_was_load && !f_was_fire && f_loaded && f_k == f_was_nxt);
      if (k_valid_i && f_was_kvalid) assume (!f_was_load && f_k == f_was_k);
    end
  end
  always @(*) if (!f_loaded) assume (!cand_valid_i && !k_valid_i);
  always @(*) if (k_valid_i && fire) assume (load_fire_i);

  // f_order[Slots*a + b]: slot a's instruction issued before slot b's (both in flight).
  reg [Slots*Slots-1:0] f_order;
  integer fo, fp;
  always @(posedge clk_i) begin
    for (fo = 0; fo < Slots; fo = fo + 1)
      for (fp = 0; fp < Slots; fp = fp + 1)
        if (fire && alloc == fp[SlotBits-1:0]) f_order[Slots*fo + fp] <= valid[fo];
        else if (fire && alloc == fo[SlotBits-1:0]) f_order[Slots*fo + fp] <= 1'b0;
  end

  genvar fa, fb;
  generate
    for (fa = 0; fa < Slots; fa = fa + 1) begin : g_fmask
      always @(*)
        if (rst_ni && f_loaded)
          assert (mask_q[OvBits*fa +: OvBits] ==
                  (pair_on(cand_unit_i, g_slot[fa].unit_q, g_slot[fa].valid_q) &
                   overlaps(cand[RangeBits-1:0], g_slot[fa].desc_q[RangeBits-1:0])));
      always @(*)
        if (rst_ni && k_valid_i)
          assert (k_mask_q[OvBits*fa +: OvBits] ==
                  (pair_on(k_unit_i, g_slot[fa].unit_q, g_slot[fa].valid_q) &
                   overlaps(kx, g_slot[fa].desc_q[RangeBits-1:0])));
    end
    for (fa = 0; fa < Slots; fa = fa + 1) begin : g_fa
      for (fb = 0; fb < Slots; fb = fb + 1) begin : g_fb
        if (fa != fb) begin : g_pair
          wire [1:0]            ua, ub;
          wire [4*AddrBits-1:0] la, lb;
          wire [4*HiBits-1:0]   ha, hb;
          wire [MemBits-1:0]    mla, mlb;
          wire [MemBits:0]      mha, mhb;
          assign {ua, la, ha, mla, mha} = g_slot[fa].desc_q;
          assign {ub, lb, hb, mlb, mhb} = g_slot[fb].desc_q;
          always @(*) begin
            if (rst_ni && g_slot[fa].valid_q && g_slot[fb].valid_q && ua != ub) begin
              // a's UB reads against b's UB writes, and writes against writes
              assert (!(!(ua == 2'd3 && (ub == 2'd2 || ub == 2'd0)) &&
                        meets(la[AddrBits*UbRd +: AddrBits], ha[HiBits*UbRd +: HiBits],
                              lb[AddrBits*UbWr +: AddrBits], hb[HiBits*UbWr +: HiBits])));
              assert (!(
                        meets(la[AddrBits*UbWr +: AddrBits], ha[HiBits*UbWr +: HiBits],
                              lb[AddrBits*UbWr +: AddrBits], hb[HiBits*UbWr +: HiBits])));
              assert (!(!(ua == 2'd2 && ub == 2'd1) &&
                        meets(la[AddrBits*AccRd +: AddrBits], ha[HiBits*AccRd +: HiBits],
                              lb[AddrBits*AccWr +: AddrBits], hb[HiBits*AccWr +: HiBits])));
              assert (!(
                        meets(la[AddrBits*AccWr +: AddrBits], ha[HiBits*AccWr +: HiBits],
                              lb[AddrBits*AccWr +: AddrBits], hb[HiBits*AccWr +: HiBits])));
              // a younger rhm or rw never reads bytes an older whm still writes: the
              // other order (a whm issued past an rhm reading its bytes) is its fence's
              assert (!(ua == 2'd0 && ub == 2'd3 && f_order[Slots*fb + fa] &&
                        {1'b0, mla} < mhb && {1'b0, mlb} < mha));
            end
          end
        end
      end
    end
  endgenerate


  // A matrix multiply never issues onto UB rows a pending DMA read will still write.
  generate
    for (fa = 0; fa < Slots; fa = fa + 1) begin : g_dma
      wire [1:0]            us;
      wire [4*AddrBits-1:0] ls;
      wire [4*HiBits-1:0]   hs;
      wire [2*MemBits:0]    ms;
      assign {us, ls, hs, ms} = g_slot[fa].desc_q;
      always @(*) begin
        if (rst_ni && fire && cand_unit_i == 2'd1 &&
            g_slot[fa].valid_q && us == 2'd0)
          assert (!meets(cand_lo_i[AddrBits*UbRd +: AddrBits], cand_hi_i[HiBits*UbRd +: HiBits],
                         ls[AddrBits*UbWr +: AddrBits], hs[HiBits*UbWr +: HiBits]));
      end
    end
  endgenerate

  // Allocation never takes a slot in use; busy_o is the slots' OR.
  always @(*) if (rst_ni && fire) assert (!valid[alloc]);
  always @(*) if (f_past_valid && !f_was_rst) assert (busy_o == |valid);
`endif
endmodule

`default_nettype wire
