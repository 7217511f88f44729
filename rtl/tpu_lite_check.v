// SPDX-License-Identifier: Apache-2.0
// The lite core's static checks of one instruction (docs/isa.md, "Errors";
// tools/isa/legality.cpp): ILLEGAL, UB_RANGE, ACC_RANGE and DRAM_RANGE for the whole
// instruction, every tile included, the first that applies in that order. Without a
// multiplier: each range end is a sum of terms a * b, added one bit of b a cycle with
// one adder (shift and add; a term whose b has no bits left ends, a constant term
// takes a cycle), and compared with its limit as its last term is added. A check takes
// a cycle per term and per further bit of b: 5 to 10 for the usual instructions, at
// most about 40 (rows of 2^16 with segments).
// Also the end of the instruction's unified-buffer rows (rhm, act: written; whm, mmc:
// read, every tile's) and accumulator rows (mmc: written; act: read), for the lite
// core's interlocks.
`default_nettype none

module tpu_lite_check #(
    parameter integer ArraySize = 4,
    parameter integer UbRows    = 1024,
    parameter integer AccRows   = 512,
    parameter integer DramBytes = 65536
) (
    input  wire         clk_i,
    input  wire         rst_ni,
    input  wire         start_i,    // check instr_i (held until done_o)
    input  wire [127:0] instr_i,
    output wire         busy_o,
    output wire         done_o,     // one cycle: err_o and ub_end_o are the result
    output wire [3:0]   err_o,
    output wire [$clog2(UbRows):0]  ub_end_o,   // rhm, whm, mmc, act: one past the last UB row
    output wire [$clog2(AccRows):0] acc_end_o   // mmc, act: one past the last accumulator row
);
`include "tpu_isa.vh"
  localparam [31:0] Dram32 = DramBytes;   // (up to 2^31: as 32 bits, unsigned)
  localparam integer LogN = $clog2(ArraySize), LogUb = $clog2(UbRows), LogAcc = $clog2(AccRows),
                     LogDram = $clog2(Dram32);
  localparam integer LogMax = LogDram > LogUb ? (LogDram > LogAcc ? LogDram : LogAcc) : (LogUb > LogAcc ? LogUb : LogAcc);
  // A sum's width: two bits above the largest limit (a sum compared is below 2^(SW-1) or
  // has failed); what passes 2^SW sets a sticky flag instead (s_big_q; a's: a_big_q).
  localparam integer SW = LogMax + 2;
  localparam [2:0] PSeg = 3'd0, PParams = 3'd1, PUb = 3'd2, PAcc = 3'd3, PDram = 3'd4, PNone = 3'd7;

  wire [127:0] in = instr_i;
  wire [3:0]   op = in[3:0];
  // fields (counts minus one, as stored)
  wire [15:0] f_ub      = in[TPU_MMC_UB_LSB +: 16];
  wire [15:0] f_rows_m1 = in[TPU_MMC_ROWS_LSB +: 16];
  wire [31:0] f_addr    = in[TPU_RHM_ADDR_LSB +: 32];
  wire [15:0] f_acc     = in[TPU_MMC_ACC_LSB +: 16];
  wire [15:0] f_stride  = in[TPU_RHM_STRIDE_LSB +: 16];   // rhm, whm, rw
  wire [15:0] f_segstr  = in[TPU_RHM_SEGSTRIDE_LSB +: 16];
  wire [5:0]  f_seglen_m1 = in[TPU_RHM_SEGLEN_LSB +: 6];
  wire [5:0]  f_segs_m1 = in[TPU_RHM_SEGS_LSB +: 6];
  wire [5:0]  f_len_m1  = in[TPU_WHM_LEN_LSB +: 6];
  wire [15:0] f_gstride = in[TPU_WHM_GSTRIDE_LSB +: 16];
  wire        f_transpose = in[TPU_RW_TRANSPOSE_LSB];
  wire [5:0]  f_k_m1    = in[TPU_RW_K_LSB +: 6];
  wire [5:0]  f_n_m1    = in[TPU_RW_N_LSB +: 6];
  wire [3:0]  f_rw_tiles_m1 = in[TPU_RW_TILES_LSB +: 4];
  wire [31:0] f_tstride = in[TPU_RW_TSTRIDE_LSB +: 32];
  wire [3:0]  f_mmc_tiles_m1 = in[TPU_MMC_TILES_LSB +: 4];
  wire [15:0] f_params  = in[TPU_ACT_PARAMS_LSB +: 16];
  wire [3:0]  f_pool_m1 = in[TPU_ACT_POOL_LSB +: 4];
  // rw: its memory rows (with transpose the memory rows are the tile's columns)
  wire [5:0]  f_mrows_m1 = f_transpose ? f_n_m1 : f_k_m1;
  // Fields that share a place, read through one name below.
  initial begin
    if (TPU_MMC_UB_LSB != TPU_RHM_UB_LSB || TPU_MMC_UB_LSB != TPU_WHM_UB_LSB || TPU_MMC_UB_LSB != TPU_ACT_UB_LSB ||
        TPU_MMC_ROWS_LSB != TPU_RHM_ROWS_LSB || TPU_MMC_ROWS_LSB != TPU_WHM_ROWS_LSB ||
        TPU_MMC_ROWS_LSB != TPU_ACT_ROWS_LSB || TPU_MMC_ACC_LSB != TPU_ACT_ACC_LSB ||
        TPU_RHM_ADDR_LSB != TPU_WHM_ADDR_LSB || TPU_RHM_ADDR_LSB != TPU_RW_ADDR_LSB ||
        TPU_RHM_STRIDE_LSB != TPU_WHM_STRIDE_LSB || TPU_RHM_STRIDE_LSB != TPU_RW_STRIDE_LSB ||
        TPU_MMC_UBSTRIDE_LSB != TPU_RHM_STRIDE_LSB || TPU_MMC_ACCSTRIDE_LSB != TPU_RHM_SEGSTRIDE_LSB ||
        TPU_WHM_GROUPS_LSB != TPU_RHM_SEGS_LSB || TPU_RW_K_LSB != TPU_WHM_LEN_LSB) begin
      $display("tpu_lite_check: the shared field places of tpu_isa.vh moved");
      $finish;
    end
  end

  // What needs no sum: reserved bits, unknown opcodes, lane counts beyond N.
  localparam integer NM1i = ArraySize - 1;
  localparam [5:0]   NM1 = NM1i[5:0];
  reg illegal_now;
  always @(*) begin
    case (op)
      TPU_OP_NOP:  illegal_now = |(in & TPU_NOP_RESERVED);
      TPU_OP_HALT: illegal_now = |(in & TPU_HALT_RESERVED);
      TPU_OP_SYNC: illegal_now = |(in & TPU_SYNC_RESERVED);
      TPU_OP_RHM:  illegal_now = |(in & TPU_RHM_RESERVED) || f_seglen_m1 > NM1 || f_segs_m1 > NM1;
      TPU_OP_WHM:  illegal_now = |(in & TPU_WHM_RESERVED) || f_len_m1 > NM1;
      TPU_OP_RW:   illegal_now = |(in & TPU_RW_RESERVED) || f_k_m1 > NM1 || f_n_m1 > NM1;
      TPU_OP_MMC:  illegal_now = |(in & TPU_MMC_RESERVED);
      TPU_OP_ACT:  illegal_now = |(in & TPU_ACT_RESERVED);
      default:     illegal_now = 1'b1;
    endcase
  end

  // The phases an opcode goes through, in the order of the error codes, each ending in
  // a comparison: rhm's segment bytes against N (ILLEGAL), act's parameter block and
  // every opcode's own rows against the unified buffer (UB_RANGE), the accumulator
  // rows (ACC_RANGE), device memory (DRAM_RANGE).
  function automatic [2:0] first_phase(input [3:0] o);
    case (o)
      TPU_OP_RHM: first_phase = PSeg;
      TPU_OP_WHM: first_phase = PUb;
      TPU_OP_RW:  first_phase = PDram;
      TPU_OP_MMC: first_phase = PUb;
      TPU_OP_ACT: first_phase = PParams;
      default:    first_phase = PNone;
    endcase
  endfunction
  function automatic [2:0] next_phase(input [3:0] o, input [2:0] p);
    case (o)
      TPU_OP_RHM: next_phase = p == PSeg ? PUb : p == PUb ? PDram : PNone;
      TPU_OP_WHM: next_phase = p == PUb ? PDram : PNone;
      TPU_OP_MMC: next_phase = p == PUb ? PAcc : PNone;
      TPU_OP_ACT: next_phase = p == PParams ? PUb : p == PUb ? PAcc : PNone;
      default:    next_phase = PNone;
    endcase
  endfunction

  // Term t of phase p: the sum adds a * b (+ 1 with cin), b's bits one a cycle. The
  // operands come from a few places of the instruction word (opcodes keep their fields
  // in the same places), picked by one-hot selects: an AND-OR per bit.
  localparam integer AUb = 0, ATstr = 1, ARows = 2, AAcc = 3, AAddr = 4, AParams = 5, AStride = 6,
                     ASeg16 = 7, ALen = 8, AGstr = 9, ANlen = 10, ASeglen = 11, ASegs = 12, APool = 13,
                     ANine = 14, ASrcs = 15;
  localparam integer BOne = 0, BRows = 1, BSegs = 2, BRwTiles = 3, BMmcTiles = 4, BMrows = 5, BPool = 6,
                     BSrcs = 7;
  reg [ASrcs-1:0] a_sel;
  reg [BSrcs-1:0] b_sel;
  reg             t_cin, t_last;
  reg [2:0]  phase_q;
  reg [1:0]  term_q;
  task automatic term(input [2:0] p, input [1:0] t);
    begin
      a_sel = {ASrcs{1'b0}}; b_sel = {BSrcs{1'b0}}; t_cin = 1'b0; t_last = 1'b1;
      b_sel[BOne] = 1'b1;
      case (p)
        PSeg: case (t)    // (seglen_m1 + 1) * (segs_m1 + 1)
          2'd0: begin a_sel[ASeglen] = 1'b1; b_sel = {BSrcs{1'b0}}; b_sel[BSegs] = 1'b1; t_last = 1'b0; end
          2'd1: begin a_sel[ASeglen] = 1'b1; t_last = 1'b0; end
          default: begin a_sel[ASegs] = 1'b1; t_cin = 1'b1; end
        endcase
        PParams: case (t) // params + 9
          2'd0: begin a_sel[AParams] = 1'b1; t_last = 1'b0; end
          default: a_sel[ANine] = 1'b1;
        endcase
        PUb: case (t)
          2'd0: begin a_sel[AUb] = 1'b1; t_last = 1'b0; end
          2'd1: if (op == TPU_OP_WHM) begin      // ub + (rows_m1 + 1) * (groups_m1 + 1)
                  a_sel[ARows] = 1'b1; b_sel = {BSrcs{1'b0}}; b_sel[BSegs] = 1'b1; t_last = 1'b0;
                end else if (op == TPU_OP_MMC) begin  // ub + (tiles - 1) * ubstride + rows
                  a_sel[AStride] = 1'b1; b_sel = {BSrcs{1'b0}}; b_sel[BMmcTiles] = 1'b1; t_last = 1'b0;
                end else begin                        // rhm, act: ub + rows
                  a_sel[ARows] = 1'b1; t_cin = 1'b1;
                end
          2'd2: begin a_sel[ARows] = 1'b1; t_last = op == TPU_OP_MMC; t_cin = op == TPU_OP_MMC; end
          default: begin a_sel[ASegs] = 1'b1; t_cin = 1'b1; end   // (whm: groups_m1)
        endcase
        PAcc: case (t)
          2'd0: begin a_sel[AAcc] = 1'b1; t_last = 1'b0; end
          2'd1: if (op == TPU_OP_MMC) begin      // acc + (tiles - 1) * accstride + rows
                  a_sel[ASeg16] = 1'b1; b_sel = {BSrcs{1'b0}}; b_sel[BMmcTiles] = 1'b1; t_last = 1'b0;
                end else begin                        // act: acc + (rows_m1 + 1) * (pool_m1 + 1)
                  a_sel[ARows] = 1'b1; b_sel = {BSrcs{1'b0}}; b_sel[BPool] = 1'b1; t_last = 1'b0;
                end
          2'd2: begin a_sel[ARows] = 1'b1; t_last = op == TPU_OP_MMC; t_cin = op == TPU_OP_MMC; end
          default: begin a_sel[APool] = 1'b1; t_cin = 1'b1; end
        endcase
        default: case (t) // PDram: the span before the last row, addr, the last row's bytes
          2'd0: begin a_sel[AStride] = 1'b1; b_sel = {BSrcs{1'b0}}; t_last = 1'b0;
                      if (op == TPU_OP_RW) b_sel[BMrows] = 1'b1; else b_sel[BRows] = 1'b1; end
          2'd1: begin b_sel = {BSrcs{1'b0}}; t_last = 1'b0;
                      if (op == TPU_OP_RHM)      begin a_sel[ASeg16] = 1'b1; b_sel[BSegs] = 1'b1; end
                      else if (op == TPU_OP_WHM) begin a_sel[AGstr] = 1'b1;  b_sel[BSegs] = 1'b1; end
                      else                       begin a_sel[ATstr] = 1'b1;  b_sel[BRwTiles] = 1'b1; end
                end
          2'd2: begin a_sel[AAddr] = 1'b1; t_last = 1'b0; end
          default: begin
            t_cin = 1'b1;
            if (op == TPU_OP_RHM)      a_sel[ASeglen] = 1'b1;
            else if (op == TPU_OP_WHM) a_sel[ALen] = 1'b1;
            else if (f_transpose)      a_sel[ALen] = 1'b1;   // rw: k_m1 (the place of whm's len)
            else                       a_sel[ANlen] = 1'b1;  // rw: n_m1
          end
        endcase
      endcase
    end
  endtask
  // the sources, each where its opcodes keep it
  function automatic [31:0] pick_a(input [ASrcs-1:0] sel);
    pick_a = ({32{sel[AUb]}}     & {16'd0, f_ub}) |
             ({32{sel[ATstr]}}   & f_tstride) |
             ({32{sel[ARows]}}   & {16'd0, f_rows_m1}) |
             ({32{sel[AAcc]}}    & {16'd0, f_acc}) |
             ({32{sel[AAddr]}}   & f_addr) |
             ({32{sel[AParams]}} & {16'd0, f_params}) |
             ({32{sel[AStride]}} & {16'd0, f_stride}) |        // (mmc: ubstride)
             ({32{sel[ASeg16]}}  & {16'd0, f_segstr}) |        // (mmc: accstride)
             ({32{sel[ALen]}}    & {26'd0, f_len_m1}) |        // (rw: k_m1)
             ({32{sel[AGstr]}}   & {16'd0, f_gstride}) |
             ({32{sel[ANlen]}}   & {26'd0, f_n_m1}) |
             ({32{sel[ASeglen]}} & {26'd0, f_seglen_m1}) |
             ({32{sel[ASegs]}}   & {26'd0, f_segs_m1}) |       // (whm: groups_m1)
             ({32{sel[APool]}}   & {28'd0, f_pool_m1}) |
             ({32{sel[ANine]}}   & {28'd0, TPU_ACT_PARAM_ROWS});
  endfunction
  function automatic [15:0] pick_b(input [BSrcs-1:0] sel);
    pick_b = ({16{sel[BOne]}}      & 16'd1) |
             ({16{sel[BRows]}}     & f_rows_m1) |
             ({16{sel[BSegs]}}     & {10'd0, f_segs_m1}) |
             ({16{sel[BRwTiles]}}  & {12'd0, f_rw_tiles_m1}) |
             ({16{sel[BMmcTiles]}} & {12'd0, f_mmc_tiles_m1}) |
             ({16{sel[BMrows]}}    & {10'd0, f_mrows_m1}) |
             ({16{sel[BPool]}}     & {12'd0, f_pool_m1});
  endfunction
  wire [31:0] t_a = pick_a(a_sel);
  wire [15:0] t_b = pick_b(b_sel);

  // The term loaded next: the first of the phase at its start, else the one after.
  reg         load_first;   // (combinational) the next load starts phase ld_phase
  reg  [2:0]  ld_phase;
  reg  [1:0]  ld_term;
  always @(*) term(ld_phase, ld_term);

  localparam [1:0] SIdle = 2'd0, SStep = 2'd1;
  reg [1:0]    st_q;
  reg [SW-1:0] s_q, a_q;
  reg          s_big_q, a_big_q;   // the sum, a have passed 2^SW
  reg [15:0]   b_q;
  reg          cin_q, last_q;
  reg          b_last_q;   // b's last bit is added now: b_q[15:1] == 0, as a register
  reg [3:0]    err_q;
  reg          done_q;
  reg [LogUb:0]  ub_end_q;
  reg [LogAcc:0] acc_end_q;

  wire [SW:0]   sum_c    = {1'b0, s_q} + {1'b0, b_q[0] ? a_q : {SW{1'b0}}} + {{SW{1'b0}}, cin_q};
  wire [SW-1:0] sum      = sum_c[SW-1:0];
  wire          sum_big  = s_big_q || (b_q[0] && a_big_q) || sum_c[SW];
  wire [63:0]   t_a64    = {32'd0, t_a};
  wire          term_end = b_last_q;
  // the phase's limit, a power of two (docs/config.md): the sum passes 2^k when it has a
  // bit at or above k other than exactly 2^k
  function automatic over(input [SW-1:0] v, input integer k);
    reg [SW-1:0] above, below;   // the bits above k, below k
    begin
      above = {SW{1'b1}} << (k + 1);
      below = ~({SW{1'b1}} << k);
      over  = |(v & above) || (v[k] && |(v & below));
    end
  endfunction
  initial begin
    if ((1 << LogN) != ArraySize || (1 << LogUb) != UbRows || (1 << LogAcc) != AccRows ||
        (33'd1 << LogDram) != {1'b0, Dram32}) begin
      $display("tpu_lite_check: ArraySize, UbRows, AccRows and DramBytes must be powers of two");
      $finish;
    end
  end
  // (a phase's sum is compared as its last bit is added: on sum, not s_q)
  reg fail;
  always @(*) begin
    case (phase_q)
      PSeg:           fail = over(sum, LogN);
      PParams, PUb:   fail = over(sum, LogUb);
      PAcc:           fail = over(sum, LogAcc);
      default:        fail = over(sum, LogDram);
    endcase
    fail = fail || sum_big;
  end
  wire phase_end = st_q == SStep && term_end && last_q;
  wire [3:0] fail_code = phase_q == PSeg ? TPU_ERR_ILLEGAL : phase_q == PAcc ? TPU_ERR_ACC_RANGE :
                         phase_q == PDram ? TPU_ERR_DRAM_RANGE : TPU_ERR_UB_RANGE;
  wire [2:0] after = next_phase(op, phase_q);

  // (the term after this one from registers alone: a load in SStep happens only as a
  // term ends, so whether it ends picks between loading and shifting, last)
  always @(*) begin
    load_first = st_q == SIdle || phase_end;
    ld_phase   = st_q == SIdle ? first_phase(op) : last_q ? after : phase_q;
    ld_term    = st_q == SIdle || last_q ? 2'd0 : term_q + 2'd1;
  end

  always @(posedge clk_i) begin
    done_q <= 1'b0;
    if (!rst_ni) begin
      st_q <= SIdle;
    end else begin
      case (st_q)
        SIdle: if (start_i) begin
          err_q <= TPU_ERR_NONE;
          if (illegal_now || first_phase(op) == PNone) begin
            err_q  <= illegal_now ? TPU_ERR_ILLEGAL : TPU_ERR_NONE;
            done_q <= 1'b1;
          end else begin
            st_q <= SStep;
          end
        end
        SStep: if (phase_end) begin
          if (phase_q == PUb) ub_end_q <= sum[LogUb:0];
          if (phase_q == PAcc) acc_end_q <= sum[LogAcc:0];
          if (fail || after == PNone) begin
            err_q  <= fail ? fail_code : TPU_ERR_NONE;
            done_q <= 1'b1;
            st_q   <= SIdle;
          end
        end
        default: st_q <= SIdle;
      endcase
    end
  end

  // The sum and the term registers: a term's a shifts up and b down a bit a cycle; the
  // next term loads as the last bit of b is added (a phase's first at its start).
  always @(posedge clk_i) begin
    if (st_q == SStep) begin
      s_q     <= sum;
      s_big_q <= sum_big;
    end
    if ((st_q == SIdle && start_i) || phase_end) begin
      s_q     <= {SW{1'b0}};
      s_big_q <= 1'b0;
    end
    if (load_first || (st_q == SStep && term_end)) begin   // (a phase's end: load_first)
      phase_q <= ld_phase;
      term_q  <= ld_term;
      a_q     <= t_a64[SW-1:0];
      a_big_q <= |(t_a64 >> SW);
      b_q      <= t_b;
      b_last_q <= t_b[15:1] == 15'd0;
      cin_q    <= t_cin;
      last_q  <= t_last;
    end else if (st_q == SStep) begin
      a_q     <= a_q << 1;
      a_big_q <= a_big_q || a_q[SW-1];
      b_q      <= b_q >> 1;
      b_last_q <= b_q[15:2] == 14'd0;
      cin_q    <= 1'b0;
    end
  end

  assign busy_o   = st_q != SIdle;
  assign done_o   = done_q;
  assign err_o    = err_q;
  assign ub_end_o = ub_end_q;
  assign acc_end_o = acc_end_q;
endmodule

`default_nettype wire
