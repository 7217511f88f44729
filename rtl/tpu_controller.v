// SPDX-License-Identifier: Apache-2.0
// The controller: run state, decode and in-order issue into the per-unit queues,
// the interlock scoreboard, error collection, the start of memory scrubbing and the counters.
//
// Issue: the instruction at the head of the fetch buffer is registered, decoded in
// three registered parts (tpu_decode), queued, split into its tiles (the next register,
// where the scoreboard compares it with the instructions in flight, a cycle ahead; a
// skid register behind it holds a tile the decode register cannot take yet) and
// checked from the decode register (fetch faults, static checks, then the weight-FIFO
// rule, which depends only on program order). A unit instruction issues when the
// scoreboard found no RAW, WAR or WAW clash with another unit's in-flight instruction
// and its queue has room. An `rhm` or `rw` waits until older `whm`s whose bytes it may
// read are done, so that it reads what they wrote (the scoreboard keeps the byte range
// of each `whm` in flight).
// A `whm` issues without waiting for older `rhm`, `rw` and `act`, but the DMA-out unit
// holds it (`whm_hold_o`) until those that were in flight when it issued (its fence)
// have retired (an `act`: passed its parameter check), so device memory is never
// written past an instruction that may still fault; younger instructions issue
// meanwhile. Chaining: an `act` issues past the older `mmc`s whose sums it reads and a
// `whm` past the older `act`s whose rows it writes out; the readers then wait row by
// row (two tpu_chain_track, answering the activation and DMA-out units). `sync` and
// `halt` wait for every older instruction; `nop` retires at once.
//
// Errors: a checked instruction that fails, or a fault a unit reports at run time,
// stops issue. Older instructions still in flight complete (younger ones are dropped
// by their units), then the run ends in ERROR with the oldest fault's code and PC, and
// the instruction counter holds the number of instructions before it.
//
// Memories: the unified buffer and accumulators clear themselves to zero (tpu_scrub)
// when the controller starts them, during reset and after every run, so each run starts
// from the clean core the golden model assumes; a start that arrives meanwhile waits.
`default_nettype none

module tpu_controller #(
    parameter integer ArraySize  = 16,
    parameter integer UbRows     = 4096,
    parameter integer AccRows    = 2048,
    parameter integer WfifoDepth = 4,
    parameter integer DramBytes  = 1048576,
    parameter integer Slots      = 8,
    parameter integer Counters   = 11       // TPU_COUNTERS (checked)
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    input  wire                   start_i,
    input  wire [31:0]            entry_i,
    // fetch
    output wire                   fetch_start_o,
    output wire                   fetch_stop_o,
    input  wire                   fetch_busy_i,
    input  wire                   f_valid_i,
    output wire                   f_ready_o,
    input  wire [127:0]           f_instr_i,
    input  wire [31:0]            f_pc_i,
    input  wire [3:0]             f_fault_i,
    // issue into the unit queues (0 DMA-in, 1 matrix, 2 activation, 3 DMA-out)
    output wire [3:0]             q_valid_o,
    input  wire [3:0]             q_ready_i,
    output wire [127:0]           q_instr_o,
    output wire [31:0]            q_pc_o,
    output wire [SlotBits-1:0]    q_slot_o,
    output wire                   pop_o,         // the decoded instruction (or a tile of it) leaves: issued or retired
    input  wire [3:0]             unit_idle_i,   // queue empty and nothing executing
    input  wire [SlotBits-1:0]    whm_slot_i,    // slot of the whm at the DMA-out queue head
    output wire                   whm_hold_o,    // ... which must not start yet (its fence)
    // completion
    input  wire [Slots-1:0]       retire_i,
    input  wire [2:0]             fault_i,       // DMA-in, activation, DMA-out
    input  wire [3*4-1:0]         fault_code_i,
    input  wire [3*32-1:0]        fault_pc_i,
    output wire                   err_valid_o,
    output wire [31:0]            err_pc_o,
    output wire                   clear_o,       // a run starts
    // scrubbing (tpu_scrub, beside each memory): started during reset and when a run ends
    output wire                   scrub_o,
    input  wire                   scrub_busy_i,  // a memory is being cleared
    // chaining (tpu_chain_track): rows written by the matrix and activation units, and
    // whether the activation and DMA-out units' next rows are still to be written
    input  wire                   accw_valid_i,
    input  wire [SlotBits-1:0]    accw_slot_i,
    input  wire [AccBits-1:0]     accw_addr_i,
    input  wire [AccBits-1:0]     acc_chk_i,
    input  wire [AccBits-1:0]     acc_chk_next_i,
    output wire                   acc_wait_o,
    output wire                   acc_wait_next_o,
    input  wire                   ubw_valid_i,
    input  wire [SlotBits-1:0]    ubw_slot_i,
    input  wire [UbBits-1:0]      ubw_addr_i,
    input  wire [UbBits-1:0]      ub_chk_i,
    input  wire [UbBits-1:0]      ub_chk_alt_i,    // (instead of ub_chk_i when ub_chk_use_alt_i)
    input  wire                   ub_chk_use_alt_i,
    input  wire [UbBits-1:0]      ub_chk_next_i,
    output wire                   ub_wait_o,
    output wire                   ub_wait_next_o,
    input  wire [Slots-1:0]       act_checked_i, // activations past their check: no fault any more
    // counter events
    input  wire                   ev_row_i,
    input  wire                   ev_weight_stall_i,
    input  wire                   ev_weight_shift_i,
    input  wire                   ev_dma_wait_i,
    input  wire [6:0]             read_bytes_i,
    input  wire [6:0]             write_bytes_i,
    input  wire                   tile_i,
    // CSR view
    output wire [1:0]             state_o,
    output wire [3:0]             error_o,
    output wire [31:0]            pc_o,
    output wire                   run_end_o,
    input  wire                   cnt_rd_i,       // a counter's value for the CSR block
    input  wire [4:0]             cnt_index_i,
    output wire                   cnt_valid_o,
    output wire [63:0]            cnt_value_o
);
`include "tpu_isa.vh"
  localparam integer SlotBits  = (Slots > 1) ? $clog2(Slots) : 1;
  localparam integer UbBits    = $clog2(UbRows);
  localparam integer AccBits   = $clog2(AccRows);
  localparam integer AddrBits  = (UbBits > AccBits) ? UbBits : AccBits;
  localparam integer TileBits  = $clog2(WfifoDepth + 1);
  localparam integer HiBits    = AddrBits + 1;
  localparam integer MemBits   = $clog2(DramBytes);   // device-memory byte addresses
  localparam integer UbRd = 0, UbWr = 1, AccWr = 3;  // scoreboard range order {acc_wr, acc_rd, ub_wr, ub_rd}
  localparam integer Macs      = ArraySize * ArraySize;

  initial begin
    if (Counters != TPU_COUNTERS || Macs >= 65536) begin
      $display("tpu_controller: Counters must be TPU_COUNTERS (tpu_isa.vh), and N * N below 65536");
      $finish;
    end
  end

  reg  [1:0]           state_q;
  reg                  stopping_q;
  reg                  err_q;
  reg  [3:0]           err_code_q;
  reg  [31:0]          err_pc_q;
  reg  [31:0]          pc_q, entry_q;
  reg                  start_pending_q;
  reg  [TileBits-1:0]  tiles_q;       // tiles loaded by rw and not yet switched in
  reg                  tiles_none_q, tiles_all_q;   // tiles_q == 0, tiles_q == WfifoDepth
  reg                  has_active_q;

  wire running = state_q == TPU_STATE_RUNNING;
  // A run begins a cycle after it may (a start pending, no scrubbing, not running): a
  // register, since it clears the units far across the core (clear_o), starts the fetch
  // and resets the counters. (It is high for one cycle: the run begins at its edge.)
  reg  begin_q;
  // The run drained a cycle ago, or the core is in reset: the memories' scrubbing starts
  // now, from a register, so that the drain's decision (every unit idle) reaches no
  // memory in its own cycle.
  reg  scrub_go_q;
  always @(posedge clk_i)
    begin_q <= rst_ni && start_pending_q && !scrub_busy_i && !scrub_go_q && !running && !begin_q;
  wire begin_run = begin_q;

  // ---- front end: fetch register, decode, decoded queue, next and decode registers -----
  // The fetch buffer's head is registered (R), decoded in three parts with a register
  // after each, two after the products (tpu_decode: products, sums, comparisons), and
  // pushed into the decoded queue; its head moves on through the next register (N: tiles, and the
  // interlock's comparisons) into the decode register (D), from which issue works.
  // R and the decoder never stall: an instruction enters R only with a credit, a free
  // queue entry not yet spoken for, so no chain of ready signals runs from issue back
  // to the fetch buffer (issue -> D's loads only: N moves on when the skid register K
  // is empty, a register).
  localparam integer DqDepth = 8;   // (the credits' round trip, 8 cycles: R, decode, queue, N and the credit's return)
  localparam integer CreditBits = $clog2(DqDepth + 1);
  // The fetch's stop, !running || stopping_q, as a register of its own (below): the
  // front end's flow is a flip-flop, not the run state's decode.
  reg  fetch_stop_q;
  wire flow  = !fetch_stop_q;
  wire flush = !rst_ni || begin_run || (running && stopping_q);
  reg  [CreditBits-1:0] credit_q;
  reg                   credit_nz_q;   // credit_q != 0
  // (with the credit's flag the take is one LUT: it loads the decoder's registers and
  // pops the fetch buffer)
  wire                  r_take = flow && f_valid_i && credit_nz_q;
  // (R's instruction register is the decoder's first: tpu_decode registers it with the
  // multipliers' operands beside it)
  reg                   r_valid_q;
  reg  [35:0]           r_side_q;   // pc and fetch fault
  always @(posedge clk_i) begin
    r_valid_q <= !flush && r_take;
    r_side_q  <= {f_pc_i, f_fault_i};
  end

  wire [127:0]              s_instr;
  wire [3:0]                s_op, s_dec_err;
  wire [1:0]                s_unit;
  wire [3:0]                s_en;
  wire [4*AddrBits-1:0]     s_lo;
  wire [4*(AddrBits+1)-1:0] s_hi;
  wire [31:0]               s_mem_lo;
  wire [32:0]               s_mem_hi;
  tpu_decode #(.ArraySize(ArraySize), .UbRows(UbRows), .AccRows(AccRows),
               .DramBytes(DramBytes), .AddrBits(AddrBits), .Registered(3)) u_decode (
      .clk_i,
      .instr_i(f_instr_i),
      .load_i(r_take),
      .instr_o(s_instr),
      .op_o(s_op),
      .error_o(s_dec_err),
      .unit_o(s_unit),
      .en_o(s_en),
      .lo_o(s_lo),
      .hi_o(s_hi),
      .mem_lo_o(s_mem_lo),
      .mem_hi_o(s_mem_hi));
  wire        s_valid;
  wire [35:0] s_side;
  tpu_delay #(.Width(1), .Delay(4), .Reset(1)) u_valid_pipe (
      .clk_i,
      .rst_ni(!flush),
      .d_i(r_valid_q),
      .q_o(s_valid));
  tpu_delay #(.Width(36), .Delay(4)) u_side_pipe (
      .clk_i,
      .rst_ni,
      .d_i(r_side_q),
      .q_o(s_side));
  wire       unused_s_op = ^{s_op, s_mem_lo, s_mem_hi};   // (the instruction's own bits; above MemBits)
  // the static error: the fetch fault, else the decoder's
  wire [3:0] s_err = s_side[3:0] != TPU_ERR_NONE ? s_side[3:0] : s_dec_err;

  // The decoded queue. An entry: the instruction, its pc, static error, unit and ranges.
  localparam integer DqBits = 128 + 32 + 4 + 2 + 4 + 4 * AddrBits + 4 * (AddrBits + 1) + 2 * MemBits + 1;
  wire              h_valid;
  wire [DqBits-1:0] h_data;
  wire              n_take, d_take;
  wire [CreditBits-1:0] unused_dq_count;
  wire                  unused_dq_ready;   // (credits keep it from filling up)
  tpu_fifo #(.Width(DqBits), .Depth(DqDepth)) u_decoded (
      .clk_i,
      .rst_ni,
      .clear_i(flush),
      .in_valid_i(s_valid), .in_ready_o(unused_dq_ready), .in_data_i({s_instr, s_side[35:4], s_err, s_unit,
                                                        s_en, s_lo, s_hi, s_mem_lo[MemBits-1:0],
                                                        s_mem_hi[MemBits:0]}),
      .out_valid_o(h_valid),
      .out_ready_i(n_take),
      .out_data_o(h_data),
      .count_o(unused_dq_count));
  wire [127:0]              h_instr;
  wire [31:0]               h_pc;
  wire [3:0]                h_err;
  wire [1:0]                h_unit;
  wire [3:0]                h_en;
  wire [4*AddrBits-1:0]     h_lo;
  wire [4*(AddrBits+1)-1:0] h_hi;
  wire [MemBits-1:0]        h_mem_lo;
  wire [MemBits:0]          h_mem_hi;
  assign {h_instr, h_pc, h_err, h_unit, h_en, h_lo, h_hi, h_mem_lo, h_mem_hi} = h_data;
  // (a credit comes back the cycle after its entry left the queue: N's take, at the end
  // of the issue logic, stays out of the credit count)
  reg n_took_q;
  wire credit_many = credit_q > {{(CreditBits-1){1'b0}}, 1'b1};
  always @(posedge clk_i) begin
    n_took_q <= !flush && n_take;
    if (flush) credit_q <= DqDepth[CreditBits-1:0];
    else       credit_q <= credit_q - {{(CreditBits-1){1'b0}}, r_take} + {{(CreditBits-1){1'b0}}, n_took_q};
    // (one returns, or more than one is left, or the one left stays)
    credit_nz_q <= flush || n_took_q || credit_many || (credit_nz_q && !r_take);
  end

  // The next register (N): the queue's head, split into its tiles. An rw or mmc of
  // several tiles leaves N as that many instructions, one per cycle at most, each with
  // its tile's address or rows (N advances by the instruction's strides as a tile
  // moves on); they carry the tile's index in the pc's low bits (instructions are
  // 16-byte aligned), so the units drop the tiles after a faulting one as younger, and
  // the architectural pc and counters ignore them. (decode checked the ranges of every
  // tile; the weight-FIFO rule is applied per tile.) The scoreboard compares N with
  // the slots in flight, a cycle before it can issue.
  reg                       n_valid_q;
  reg  [127:0]              n_instr_q;
  reg  [31:0]               n_pc_q;
  reg  [3:0]                n_err_q;   // fetch fault or static check
  reg  [1:0]                n_unit_q;
  reg  [3:0]                n_en_q;
  reg  [4*AddrBits-1:0]     n_lo_q;
  reg  [4*(AddrBits+1)-1:0] n_hi_q;
  reg  [MemBits-1:0]        n_mem_lo_q;
  reg  [MemBits:0]          n_mem_hi_q;
  reg  [3:0]                n_left_q;     // tiles after the one N describes
  wire [3:0]  n_op   = n_instr_q[3:0];
  wire        n_last = n_left_q == 4'd0;
  wire [31:0] n_tstride = n_instr_q[TPU_RW_TSTRIDE_LSB +: 32];     // rw: device bytes to the next tile
  wire [15:0] n_ubs     = n_instr_q[TPU_MMC_UBSTRIDE_LSB +: 16];   // mmc: rows to the next tile's input
  wire [15:0] n_accs    = n_instr_q[TPU_MMC_ACCSTRIDE_LSB +: 16];  // ... and output
  wire [3:0]  h_op  = h_instr[3:0];
  // the units see one tile: the tiles fields read as zero (they share bits with fields of
  // other opcodes that the units decode without looking at the opcode)
  wire [127:0] tiles_bits = n_op == TPU_OP_RW  ? (({{124{1'b0}}, 4'hf} << TPU_RW_TILES_LSB) |
                                                  ({{96{1'b0}}, 32'hffffffff} << TPU_RW_TSTRIDE_LSB)) :
                            n_op == TPU_OP_MMC ? (({{124{1'b0}}, 4'hf} << TPU_MMC_TILES_LSB) |
                                                  ({{112{1'b0}}, 16'hffff} << TPU_MMC_UBSTRIDE_LSB) |
                                                  ({{112{1'b0}}, 16'hffff} << TPU_MMC_ACCSTRIDE_LSB)) : 128'd0;

  // The skid register (K): where N's tile waits when D does not move on in the cycle N
  // hands it over. N hands over whenever K is empty (a register), so N's loads and tile
  // steps never wait for this cycle's issue; D loads from K if it holds one, else from N
  // (x_*). The scoreboard compares both with the slots in flight and keeps K's result.
  localparam integer XBits = 128 + 32 + 4 + 2 + 4 + 4 * AddrBits + 4 * (AddrBits + 1) + 2 * MemBits + 1 + 1;
  wire [XBits-1:0] n_x = {n_instr_q & ~tiles_bits, n_pc_q, n_err_q, n_unit_q, n_en_q, n_lo_q, n_hi_q,
                          n_mem_lo_q, n_mem_hi_q, n_last};
  reg              k_valid_q;
  reg  [XBits-1:0] k_x_q;
  wire [XBits-1:0] x = k_valid_q ? k_x_q : n_x;
  // (the fields' places in n_x, for the few read before D)
  localparam integer XInstr = XBits - 128, XErr = XInstr - 32 - 4, XUnit = XErr - 2,
                     XLo = XUnit - 4 - 4 * AddrBits, XHi = XLo - 4 * (AddrBits + 1),
                     XMemLo = XHi - MemBits, XMemHi = XMemLo - (MemBits + 1);
  wire [3:0] x_op  = x[XInstr +: 4];
  wire [3:0] x_err = x[XErr +: 4];
  wire       x_sw  = x[XInstr + TPU_MMC_SWITCH_LSB];
  // (K is written whenever it is empty, whether or not N hands a tile over)
  always @(posedge clk_i) if (!k_valid_q) k_x_q <= n_x;

  // The decode register (D): the instruction (one tile) at the head of issue.
  reg                       d_valid_q;
  reg  [127:0]              d_instr_q;
  reg  [31:0]               d_pc_q;
  reg  [3:0]                d_err_q;
  reg  [1:0]                d_unit_q;
  reg  [3:0]                d_en_q;
  reg  [4*AddrBits-1:0]     d_lo_q;
  reg  [4*(AddrBits+1)-1:0] d_hi_q;
  reg  [MemBits-1:0]        d_mem_lo_q;
  reg  [MemBits:0]          d_mem_hi_q;
  reg                       d_last_q;  // the instruction's last tile (or only one)
  wire [3:0] op   = d_instr_q[3:0];
  wire [1:0] unit = d_unit_q;

  wire sw = d_instr_q[TPU_MMC_SWITCH_LSB];
  // The weight-FIFO rule: an rw needs room for its tile, an mmc that switches a loaded
  // tile, one that does not an active one.
  function automatic wf_bad(input [3:0] o, input s, input all, input none, input active);
    wf_bad = (o == TPU_OP_RW && all) || (o == TPU_OP_MMC && (s ? none : !active));
  endfunction
  function automatic unit_op(input [3:0] o);
    unit_op = o == TPU_OP_RHM || o == TPU_OP_WHM || o == TPU_OP_RW || o == TPU_OP_MMC || o == TPU_OP_ACT;
  endfunction
  wire head      = flow && d_valid_q;
  // D's kind, decided as D is loaded (d_unit_ok_q, below, for the unit instructions):
  // a legal instruction the controller retires itself, and whether that waits for all.
  reg  d_plain_q, d_waits_q;
  reg  d_unit_ok_q;
  // D is neither: its static error, or a unit instruction the weight-FIFO rule stops
  // (the weight-FIFO state its check used changes only when D issues)
  wire bad       = head && !d_unit_ok_q && !d_plain_q;
  // D's error code, from those registers only (no register of its own, whose load
  // would wait for this cycle's issue)
  wire [3:0] head_err = d_err_q != TPU_ERR_NONE ? d_err_q :
                        !d_unit_ok_q && !d_plain_q ? TPU_ERR_WEIGHT_FIFO : TPU_ERR_NONE;
  wire sb_ready, sb_busy;
  wire [SlotBits-1:0] sb_slot;
  wire [Slots-1:0] sb_may_fault, sb_used;
  // D goes to a unit (legal, and past the weight-FIFO rule): decided as D is loaded,
  // from K or N and the weight-FIFO state after this cycle's issue (which changes only when
  // D's instruction issues), so that issue is a few registers deep.
  wire cand      = head && d_unit_ok_q;
  wire issue     = cand && sb_ready && q_ready_i[unit];
  wire issue_rw  = issue && op == TPU_OP_RW;
  wire issue_sw  = issue && op == TPU_OP_MMC && sw;   // an mmc switches in a loaded tile
  wire retire_now = head && d_plain_q && (!d_waits_q || !sb_busy);
  wire pop       = issue || retire_now;
  wire halting   = retire_now && op == TPU_OP_HALT;
  // N hands its tile on (to D, or to K when D stays) when K is empty; D loads when it is
  // free or issues, from K or N.
  wire n_move    = flow && n_valid_q && !k_valid_q;
  assign d_take  = flow && (k_valid_q || n_valid_q) && (!d_valid_q || pop);
  // The same for either outcome of the issue (an issue implies flow), for the
  // scoreboard, which takes the issue as its last select.
  wire d_take_fire = k_valid_q || n_valid_q;
  wire d_take_hold = flow && (k_valid_q || n_valid_q) && (!d_valid_q || retire_now);
  assign n_take  = flow && h_valid && (!n_valid_q || (n_move && n_last));

  always @(posedge clk_i) begin
    if (flush) begin
      n_valid_q <= 1'b0;
      k_valid_q <= 1'b0;
      d_valid_q <= 1'b0;
    end else begin
      if (n_take)      n_valid_q <= 1'b1;
      else if (n_move && n_last) n_valid_q <= 1'b0;
      // (D is valid whenever K is: K fills only behind a D that stays, and empties as D takes it)
      if (k_valid_q)   k_valid_q <= !d_take;
      else             k_valid_q <= n_move && !d_take;
      if (d_take)      d_valid_q <= 1'b1;
      else if (pop)    d_valid_q <= 1'b0;
    end
  end
  always @(posedge clk_i) begin
    if (n_take) begin
      n_instr_q  <= h_instr;
      n_pc_q     <= h_pc;
      n_err_q    <= h_err;
      n_unit_q   <= h_unit;
      n_en_q     <= h_en;
      n_lo_q     <= h_lo;
      n_hi_q     <= h_hi;
      n_mem_lo_q <= h_mem_lo;
      n_mem_hi_q <= h_mem_hi;
      n_left_q   <= h_op == TPU_OP_RW  ? h_instr[TPU_RW_TILES_LSB +: 4] :
                    h_op == TPU_OP_MMC ? h_instr[TPU_MMC_TILES_LSB +: 4] : 4'd0;
    end else if (n_move) begin  // (and not the last tile: the next one)
      n_left_q      <= n_left_q - 4'd1;
      n_pc_q[3:0]   <= n_pc_q[3:0] + 4'd1;
      if (n_op == TPU_OP_RW)
        n_instr_q[TPU_RW_ADDR_LSB +: 32] <= n_instr_q[TPU_RW_ADDR_LSB +: 32] + n_tstride;
      if (n_op == TPU_OP_MMC) begin
        n_instr_q[TPU_MMC_UB_LSB +: 16]  <= n_instr_q[TPU_MMC_UB_LSB +: 16] + n_ubs;
        n_instr_q[TPU_MMC_ACC_LSB +: 16] <= n_instr_q[TPU_MMC_ACC_LSB +: 16] + n_accs;
        n_lo_q[AddrBits*UbRd +: AddrBits]  <= n_lo_q[AddrBits*UbRd +: AddrBits] + n_ubs[AddrBits-1:0];
        n_hi_q[HiBits*UbRd +: HiBits]      <= n_hi_q[HiBits*UbRd +: HiBits] + {1'b0, n_ubs[AddrBits-1:0]};
        n_lo_q[AddrBits*AccWr +: AddrBits] <= n_lo_q[AddrBits*AccWr +: AddrBits] + n_accs[AddrBits-1:0];
        n_hi_q[HiBits*AccWr +: HiBits]     <= n_hi_q[HiBits*AccWr +: HiBits] + {1'b0, n_accs[AddrBits-1:0]};
      end
    end
  end
  always @(posedge clk_i) begin
    if (d_take) begin
      {d_instr_q, d_pc_q, d_err_q, d_unit_q, d_en_q, d_lo_q, d_hi_q, d_mem_lo_q, d_mem_hi_q,
       d_last_q} <= x;
    end
  end

  // The interlock, a cycle ahead: N's and K's tiles are compared with the slots in
  // flight while the instruction before them waits in D. Device-memory order is part of
  // it: an rhm or rw waits until older whm writes to bytes it reads have landed (a whm's own wait for
  // older instructions is its fence, below). Only legal instructions issue, so their
  // device-memory ranges lie below DramBytes: MemBits bits.
  tpu_scoreboard #(.Slots(Slots), .AddrBits(AddrBits), .MemBits(MemBits)) u_scoreboard (
      .clk_i,
      .rst_ni,
      .nxt_unit_i(n_unit_q),
      .nxt_lo_i(n_lo_q),
      .nxt_hi_i(n_hi_q),
      .nxt_mem_lo_i(n_mem_lo_q),
      .nxt_mem_hi_i(n_mem_hi_q),
      .load_fire_i(d_take_fire),
      .load_hold_i(d_take_hold),
      .k_valid_i(k_valid_q),
      .k_unit_i(k_x_q[XUnit +: 2]),
      .k_lo_i(k_x_q[XLo +: 4*AddrBits]),
      .k_hi_i(k_x_q[XHi +: 4*(AddrBits+1)]),
      .k_mem_lo_i(k_x_q[XMemLo +: MemBits]),
      .k_mem_hi_i(k_x_q[XMemHi +: MemBits+1]),
      .cand_valid_i(issue),
      .cand_unit_i(unit),
      .cand_lo_i(d_lo_q),
      .cand_hi_i(d_hi_q),
      .cand_mem_lo_i(d_mem_lo_q),
      .cand_mem_hi_i(d_mem_hi_q),
      .cand_ready_o(sb_ready),
      .cand_slot_o(sb_slot),
      .retire_i(retire_i),
      .busy_o(sb_busy),
      .may_fault_o(sb_may_fault),
      .used_o(sb_used));
  wire [3:0] en = d_en_q;

  // Chaining: accumulator rows of the mmcs in flight, UB rows of the acts.
  tpu_chain_track #(.Slots(Slots), .AddrBits(AccBits)) u_chain_acc (
      .clk_i,
      .rst_ni,
      .take_i(issue),
      .take_slot_i(sb_slot),
      .take_tracked_i(unit == 2'd1 && en[AccWr]),
      .take_lo_i(d_lo_q[AddrBits*AccWr +: AccBits]),
      .take_hi_i(d_hi_q[HiBits*AccWr +: AccBits+1]),
      .retire_i(retire_i),
      .wr_valid_i(accw_valid_i),
      .wr_slot_i(accw_slot_i),
      .wr_addr_i(accw_addr_i),
      .chk_addr_i(acc_chk_i),
      .chk_alt_i(acc_chk_i),
      .chk_use_alt_i(1'b0),
      .chk_next_i(acc_chk_next_i),
      .pending_o(acc_wait_o),
      .pending_next_o(acc_wait_next_o));
  tpu_chain_track #(.Slots(Slots), .AddrBits(UbBits)) u_chain_ub (
      .clk_i,
      .rst_ni,
      .take_i(issue),
      .take_slot_i(sb_slot),
      .take_tracked_i(unit == 2'd2 && en[UbWr]),
      .take_lo_i(d_lo_q[AddrBits*UbWr +: UbBits]),
      .take_hi_i(d_hi_q[HiBits*UbWr +: UbBits+1]),
      .retire_i(retire_i),
      .wr_valid_i(ubw_valid_i),
      .wr_slot_i(ubw_slot_i),
      .wr_addr_i(ubw_addr_i),
      .chk_addr_i(ub_chk_i),
      .chk_alt_i(ub_chk_alt_i),
      .chk_use_alt_i(ub_chk_use_alt_i),
      .chk_next_i(ub_chk_next_i),
      .pending_o(ub_wait_o),
      .pending_next_o(ub_wait_next_o));

  // The oldest fault: the one collected so far or a unit's, else the decode error. The
  // decode error needs no comparison: the head is younger than everything issued, and
  // it is only checked while no fault has been collected (flow stops at the first).
  // The oldest of the units' faults is picked as they are registered (each unit reports
  // its fault a cycle before it retires the instruction: tpu_seq_retire; their PCs come
  // from the units' registers), so that the selection into the error registers compares
  // only that one with the fault collected so far.
  wire        uo_any;
  wire [3:0]  uo_code;
  wire [31:0] uo_pc;
  wire [2:0]  uo_win;
  // The units' PCs are steady from take to retirement, and a unit raises its fault at
  // least two cycles after its PC is set (tpu_seq_retire raises it a cycle into the
  // retire state, which follows a state of work; the DMA-in sets its PC a cycle after
  // its take and reaches retirement through a drain): so they are copied here first,
  // the route from each unit ending at a flip-flop, and compared from the copies into
  // registers.
  reg  [3*32-1:0] unit_pc_q;
  always @(posedge clk_i) unit_pc_q <= fault_pc_i;
  tpu_oldest_fault #(.K(3), .PcBits(MemBits), .Registered(1)) u_oldest_unit (
      .clk_i,
      .valid_i(fault_i),
      .code_i(fault_code_i),
      .pc_i(unit_pc_q),
      .any_o(uo_any),
      .code_o(uo_code),
      .pc_o(uo_pc),
      .win_o(uo_win));
  localparam integer KeyBits = (MemBits < 32) ? MemBits + 1 : 32;
  function automatic [KeyBits-1:0] pc_key(input [31:0] pc);  // (as tpu_oldest_fault's keys)
    if (MemBits < 32) pc_key = {|(pc >> MemBits), pc[KeyBits-2:0]};
    else              pc_key = pc[KeyBits-1:0];
  endfunction
  reg         u_fault_q;
  reg  [3:0]  u_code_q;
  reg  [31:0] u_pc_q;
  reg  [KeyBits-1:0] err_key_q, u_key_q;   // pc_key of err_pc_q and u_pc_q
  always @(posedge clk_i) begin
    u_fault_q <= rst_ni && running && uo_any;
    u_code_q  <= uo_code;
    u_pc_q    <= uo_pc;
    u_key_q   <= pc_key(uo_pc);
  end
  // The older of the unit fault (u_*_q) and the fault collected so far (err_*_q; the
  // earlier on a tie, as tpu_oldest_fault orders them).
  wire        o_any = u_fault_q || err_q;
  wire        o_u_wins;
  reg  [1:0]  err_src_q;                   // err_pc_q kept (0), from u_pc_q (1), from d_pc_q (2)
  // Each unit's PC is compared with err_pc_q and with u_pc_q as they are, into registers
  // of their own, and the answer for the unit that won (win_q, registered with u_pc_q)
  // is picked afterwards: a comparison stays between flip-flops, and the choice is an
  // AND-OR of registers. (A unit's PC is steady from its take to its retirement, so its
  // PC now is the one u_pc_q takes; err_pc_q kept or taken from u_pc_q is the one these
  // registers compared.) An error taken from d_pc_q is the head's decode error: every
  // unit's instruction issued before the head, so a unit's fault is older (no branches:
  // program order is address order).
  // (The three PCs' keys are registers of their own, loaded with the PCs, so that each
  // comparison is a carry chain between flip-flops.)
  reg  [2:0]  win_q, le_keep_q, le_u_q;    // per unit: err_pc_q <= its PC, u_pc_q <= its PC
  genvar ui;
  generate
    for (ui = 0; ui < 3; ui = ui + 1) begin : g_unit_le
      reg [KeyBits-1:0] key_q;
      always @(posedge clk_i) begin
        key_q         <= pc_key(fault_pc_i[32*ui +: 32]);   // (unit_pc_q's)
        le_keep_q[ui] <= err_key_q <= key_q;
        le_u_q[ui]    <= u_key_q <= key_q;
      end
    end
  endgenerate
  always @(posedge clk_i) begin
    win_q     <= uo_win;
    err_src_q <= !running ? 2'd0 : !o_any ? 2'd2 : o_u_wins ? 2'd1 : 2'd0;
  end
  wire        err_le = err_src_q == 2'd1 ? |(win_q & le_u_q) : err_src_q == 2'd0 && |(win_q & le_keep_q);
  assign      o_u_wins = u_fault_q && !(err_q && err_le);
  wire [3:0]  o_code = o_u_wins ? u_code_q : err_code_q;
  wire [31:0] o_pc   = o_u_wins ? u_pc_q : err_pc_q;
  wire        f_any  = o_any || bad;
  wire [3:0]  f_code = o_any ? o_code : head_err;
  wire [31:0] f_pc   = o_any ? o_pc : d_pc_q;

  wire drained = running && stopping_q && !sb_busy && !fetch_busy_i && &unit_idle_i;

  // The fetch's stop, !running || stopping_q, as a register of its own (the next value of
  // both), so that the fetch buffer's pushes and the front end's flow do not wait for the
  // run state's decode.
  always @(posedge clk_i) begin
    if (!rst_ni)        fetch_stop_q <= 1'b1;
    else if (begin_run) fetch_stop_q <= 1'b0;
    else if (running)   fetch_stop_q <= stopping_q || bad || halting || f_any;
    else                fetch_stop_q <= 1'b1;
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q         <= TPU_STATE_IDLE;
      stopping_q      <= 1'b0;
      err_q           <= 1'b0;
      start_pending_q <= 1'b0;
    end else begin
      if (start_i && !running) start_pending_q <= 1'b1;
      if (begin_run) begin
        state_q         <= TPU_STATE_RUNNING;
        stopping_q      <= 1'b0;
        err_q           <= 1'b0;
        start_pending_q <= 1'b0;
      end else if (running) begin
        err_q <= f_any;
        if (bad || halting || f_any) stopping_q <= 1'b1;
        if (drained) state_q <= err_q ? TPU_STATE_ERROR : TPU_STATE_DONE;
      end
    end
  end

  // A failed run ended a cycle ago: the PC and the instruction count become the fault's
  // then, so that the end's decision (every unit idle) stays off their registers; a host
  // reads them many cycles after the state changes.
  reg fail_end_q;
  always @(posedge clk_i) fail_end_q <= rst_ni && drained && err_q;
  always @(posedge clk_i) scrub_go_q <= !rst_ni || drained;

  always @(posedge clk_i) begin
    if (running) begin
      err_code_q <= f_code;
      err_pc_q   <= f_pc;
      err_key_q  <= o_any ? (o_u_wins ? u_key_q : err_key_q) : pc_key(d_pc_q);   // pc_key(f_pc)
    end
    if (begin_run) begin
      entry_q      <= {entry_i[31:4], 4'd0};
      pc_q         <= {entry_i[31:4], 4'd0};
      tiles_q      <= {TileBits{1'b0}};
      has_active_q <= 1'b0;
    end else begin
      if (head) pc_q <= {d_pc_q[31:4], 4'd0};
      if (fail_end_q) pc_q <= {err_pc_q[31:4], 4'd0};
      if (issue_rw) tiles_q <= tiles_q + 1'b1;
      if (issue_sw) begin
        tiles_q      <= tiles_q - 1'b1;
        has_active_q <= 1'b1;
      end
    end
  end

  // The count's two limits as flags of their own (the issue check compares nothing),
  // and whether the instruction N hands to D now will be able to go to its unit: the
  // weight-FIFO state after this cycle for both outcomes of its issue, from registers
  // only (D's own kind, the flags), and the rule for each; the issue picks between
  // them last, one LUT after it instead of the next flags' logic and the rule (the
  // N = 8 build's longest path ran through them).
  wire d_rw      = op == TPU_OP_RW;
  wire d_sw      = op == TPU_OP_MMC && sw;
  wire all_hold  = !begin_run && tiles_all_q;
  wire none_hold = begin_run || tiles_none_q;
  wire act_hold  = !begin_run && has_active_q;
  wire all_iss   = !begin_run && (d_rw ? tiles_q == WfifoDepth[TileBits-1:0] - 1'b1 : !d_sw && tiles_all_q);
  wire none_iss  = begin_run || (d_rw ? 1'b0 : d_sw ? tiles_q == {{(TileBits-1){1'b0}}, 1'b1} : tiles_none_q);
  wire act_iss   = !begin_run && (d_sw || has_active_q);
  wire tiles_all_d  = issue ? all_iss : all_hold;
  wire tiles_none_d = issue ? none_iss : none_hold;
  wire x_unit    = x_err == TPU_ERR_NONE && unit_op(x_op);
  wire ok_iss    = x_unit && !wf_bad(x_op, x_sw, all_iss, none_iss, act_iss);
  wire ok_hold   = x_unit && !wf_bad(x_op, x_sw, all_hold, none_hold, act_hold);
  always @(posedge clk_i) begin
    tiles_all_q  <= tiles_all_d;
    tiles_none_q <= tiles_none_d;
    if (d_take) begin
      d_plain_q   <= x_err == TPU_ERR_NONE && !unit_op(x_op);
      d_waits_q   <= x_op == TPU_OP_SYNC || x_op == TPU_OP_HALT;
      d_unit_ok_q <= issue ? ok_iss : ok_hold;
    end
  end

  // Each whm's fence: the DMA-in and activation instructions in flight when it issued
  // (all older than it), each forgotten as it retires (an activation: once past its
  // parameter check, the only place it can fault; checked_q remembers that per slot).
  // Only older instructions: they never wait for younger ones, so a held whm cannot
  // deadlock the pipeline. When one of them faults, its retirement and err_valid_o
  // arrive together and the DMA-out unit drops the whm as younger than the fault.
  // A free slot's fence and checked flag follow the current state every cycle, so that
  // the one taken now needs no issue decision (only a whm's fence is ever asked).
  wire [Slots-1:0] fenced;   // per slot: its whm still waits for an older instruction
  reg  [Slots-1:0] checked_q;
  wire [Slots-1:0] done  = retire_i | act_checked_i;   // no fault from these any more
  always @(posedge clk_i) begin
    if (!rst_ni) checked_q <= {Slots{1'b0}};
    else checked_q <= (checked_q | act_checked_i) & sb_used;
  end
  genvar fs;
  generate
    for (fs = 0; fs < Slots; fs = fs + 1) begin : g_fence
      reg [Slots-1:0] fence_q;
      always @(posedge clk_i) begin
        if (!rst_ni) fence_q <= {Slots{1'b0}};
        else if (!sb_used[fs]) fence_q <= sb_may_fault & ~checked_q & ~done;
        else fence_q <= fence_q & ~done;
      end
      assign fenced[fs] = |fence_q;
    end
  endgenerate
  assign whm_hold_o = fenced[whm_slot_i];

  // Counters (tpu_counters): cleared when a run starts, counting while it runs. Events
  // are registered before they are added (issue and the 64-bit adds are a cycle each); a
  // run's last events land the cycle after it ends, long before a host reads. A failed
  // run's instruction count (the instructions before the fault) replaces the count a
  // cycle after the run ends (fail_end_q, above), so that the end's decision stays off
  // the counter.
  localparam integer StepBits = 16;
  wire [Counters*StepBits-1:0] steps;
  wire [StepBits-1:0] macs_per_row = Macs[StepBits-1:0];
  assign steps[StepBits*TPU_CNT_CYCLES +: StepBits]           = {{(StepBits-1){1'b0}}, 1'b1};
  assign steps[StepBits*TPU_CNT_INSTRUCTIONS +: StepBits]     = {{(StepBits-1){1'b0}}, pop && d_last_q};
  assign steps[StepBits*TPU_CNT_MACS +: StepBits]             = ev_row_i ? macs_per_row : {StepBits{1'b0}};
  assign steps[StepBits*TPU_CNT_DRAM_READ_BYTES +: StepBits]  = {{(StepBits-7){1'b0}}, read_bytes_i};
  assign steps[StepBits*TPU_CNT_DRAM_WRITE_BYTES +: StepBits] = {{(StepBits-7){1'b0}}, write_bytes_i};
  assign steps[StepBits*TPU_CNT_WEIGHT_TILES +: StepBits]     = {{(StepBits-1){1'b0}}, tile_i};
  assign steps[StepBits*TPU_CNT_MATRIX_ACTIVE +: StepBits]    = {{(StepBits-1){1'b0}}, ev_row_i};
  assign steps[StepBits*TPU_CNT_WEIGHT_STALL +: StepBits]     = {{(StepBits-1){1'b0}}, ev_weight_stall_i};
  assign steps[StepBits*TPU_CNT_WEIGHT_SHIFT +: StepBits]     = {{(StepBits-1){1'b0}}, ev_weight_shift_i};
  assign steps[StepBits*TPU_CNT_RAW_STALL +: StepBits]        = {{(StepBits-1){1'b0}}, cand && !issue};
  assign steps[StepBits*TPU_CNT_DMA_WAIT +: StepBits]         = {{(StepBits-1){1'b0}}, ev_dma_wait_i};
  tpu_counters #(.Counters(Counters), .StepBits(StepBits), .Registered(1)) u_counters (
      .clk_i,
      .rst_ni,
      .clear_i     (begin_run),
      .counting_i  (running),
      .step_i      (steps),
      .load_i      (fail_end_q),
      .load_value_i({32'd0, (err_pc_q - entry_q) >> 4}),
      .rd_i        (cnt_rd_i),
      .rd_index_i  (cnt_index_i),
      .rd_valid_o  (cnt_valid_o),
      .rd_value_o  (cnt_value_o));

  assign fetch_start_o = begin_run;
  assign fetch_stop_o  = fetch_stop_q;
  assign f_ready_o     = r_take;
  assign q_valid_o     = issue ? (4'b0001 << unit) : 4'b0000;
  assign q_instr_o     = d_instr_q;
  assign q_pc_o        = d_pc_q;
  assign q_slot_o      = sb_slot;
  assign pop_o         = pop;
  assign err_valid_o   = err_q;
  assign err_pc_o      = err_pc_q;
  assign clear_o       = begin_run;
  assign scrub_o       = scrub_go_q;
  assign state_o       = state_q;
  assign error_o       = state_q == TPU_STATE_ERROR ? err_code_q : TPU_ERR_NONE;
  assign pc_o          = pc_q;
  assign run_end_o     = drained;

  wire unused = ^{entry_i[3:0]};   // instructions are 16-byte aligned
endmodule

`default_nettype wire
