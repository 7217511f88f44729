// SPDX-License-Identifier: Apache-2.0
// Instruction decode: the static checks of docs/isa.md for this configuration, the
// unit an instruction goes to, the row ranges the interlock scoreboard needs, and the
// device-memory bytes a DMA instruction touches (for the controller's memory order).
// Purely combinational. The weight-FIFO rule depends on program order and lives in
// the controller.
`default_nettype none

module tpu_decode #(
    parameter integer ArraySize = 16,
    parameter integer UbRows    = 4096,
    parameter integer AccRows   = 2048,
    parameter integer DramBytes = 1048576,
    parameter integer AddrBits  = 16      // row-address width of the scoreboard
) (
    input  wire [127:0]            instr_i,
    output wire [3:0]              op_o,
    output reg  [3:0]              error_o,    // TPU_ERR_*: the smallest applicable code
    output reg  [1:0]              unit_o,     // 0 DMA-in, 1 matrix, 2 activation, 3 DMA-out
    output reg  [3:0]              en_o,       // ranges {acc_wr, acc_rd, ub_wr, ub_rd}
    output reg  [4*AddrBits-1:0]   lo_o,
    output reg  [4*(AddrBits+1)-1:0] hi_o,
    output wire [31:0]             mem_lo_o,   // rhm, whm, rw: device memory [lo, hi)
    output wire [32:0]             mem_hi_o
);
`include "tpu_isa.vh"
  localparam integer HiBits = AddrBits + 1;
  wire [31:0] n_u = ArraySize, ub_u = UbRows, acc_u = AccRows, dram_u = DramBytes;
  wire [36:0] N    = {5'd0, n_u};
  wire [36:0] Ub   = {5'd0, ub_u};
  wire [36:0] Acc  = {5'd0, acc_u};
  wire [36:0] Dram = {5'd0, dram_u};

  wire [3:0] op = instr_i[3:0];
  assign op_o = op;

  // Fields, widened to 37 bits so that no sum or product below can wrap. Counts are
  // stored minus one; the +1 is applied here.
  wire [36:0] ub       = {21'd0, instr_i[TPU_MMC_UB_LSB +: TPU_MMC_UB_W]};          // same place in rhm/whm/act
  wire [36:0] rows     = {21'd0, instr_i[TPU_MMC_ROWS_LSB +: TPU_MMC_ROWS_W]} + 37'd1;
  wire [36:0] acc      = {21'd0, instr_i[TPU_MMC_ACC_LSB +: TPU_MMC_ACC_W]};
  wire [36:0] addr     = {5'd0, instr_i[TPU_RHM_ADDR_LSB +: TPU_RHM_ADDR_W]};       // same place in whm/rw
  wire [36:0] seglen   = {31'd0, instr_i[TPU_RHM_SEGLEN_LSB +: TPU_RHM_SEGLEN_W]} + 37'd1;
  wire [36:0] segs     = {31'd0, instr_i[TPU_RHM_SEGS_LSB +: TPU_RHM_SEGS_W]} + 37'd1;
  wire [36:0] len      = {31'd0, instr_i[TPU_WHM_LEN_LSB +: TPU_WHM_LEN_W]} + 37'd1;
  wire        transpose= instr_i[TPU_RW_TRANSPOSE_LSB];
  wire [36:0] k        = {31'd0, instr_i[TPU_RW_K_LSB +: TPU_RW_K_W]} + 37'd1;
  wire [36:0] n        = {31'd0, instr_i[TPU_RW_N_LSB +: TPU_RW_N_W]} + 37'd1;
  wire [36:0] params   = {21'd0, instr_i[TPU_ACT_PARAMS_LSB +: TPU_ACT_PARAMS_W]};
  wire [36:0] pool     = {33'd0, instr_i[TPU_ACT_POOL_LSB +: TPU_ACT_POOL_W]} + 37'd1;

  // End (exclusive) of the device-memory bytes each DMA instruction touches. The
  // products are kept as narrow as their operands (one 16x16 multiplier serves rhm, whm
  // and rw, whose row count and stride sit in the same bits or are 6 bits wide).
  wire [15:0] rows_m1  = instr_i[TPU_MMC_ROWS_LSB +: 16];
  wire [15:0] stride16 = instr_i[TPU_RHM_STRIDE_LSB +: 16];
  wire [36:0] rw_len   = transpose ? k : n;
  wire [5:0]  rw_rows_m1 = transpose ? instr_i[TPU_RW_N_LSB +: 6] : instr_i[TPU_RW_K_LSB +: 6];
  wire [15:0] span_rows  = op == TPU_OP_RW ? {10'd0, rw_rows_m1} : rows_m1;
  wire [31:0] row_span   = span_rows * stride16;
  wire [21:0] seg_span   = instr_i[TPU_RHM_SEGS_LSB +: 6] * instr_i[TPU_RHM_SEGSTRIDE_LSB +: 16];
  wire [36:0] rhm_end = addr + {5'd0, row_span} + {15'd0, seg_span} + seglen;
  wire [36:0] whm_end = addr + {5'd0, row_span} + len;
  wire [36:0] rw_end  = addr + {5'd0, row_span} + rw_len;
  assign mem_lo_o = addr[31:0];
  assign mem_hi_o = op == TPU_OP_RW ? rw_end[32:0] : op == TPU_OP_WHM ? whm_end[32:0] : rhm_end[32:0];
  wire [21:0] act_rows = rows[16:0] * pool[4:0];  // at most 2^16 * 16
  wire [36:0] act_acc_rows = {15'd0, act_rows};
  wire        unused_high = ^{rows[36:17], pool[36:5]};  // zero by construction

  function automatic [3:0] first_error(input illegal, input ub_bad, input acc_bad,
                                       input dram_bad);
    if (illegal)       first_error = TPU_ERR_ILLEGAL;
    else if (ub_bad)   first_error = TPU_ERR_UB_RANGE;
    else if (acc_bad)  first_error = TPU_ERR_ACC_RANGE;
    else if (dram_bad) first_error = TPU_ERR_DRAM_RANGE;
    else               first_error = TPU_ERR_NONE;
  endfunction

  // Scoreboard range ends; legal instructions stay below 2^AddrBits rows.
  wire [36:0] ub_end     = ub + rows;
  wire [36:0] acc_end    = acc + rows;
  wire [36:0] params_end = params + 37'd9;
  wire [36:0] act_end    = acc + act_acc_rows;

  localparam integer UbRd = 0, UbWr = 1, AccRd = 2, AccWr = 3;

  always @(*) begin
    error_o = TPU_ERR_NONE;
    unit_o  = 2'd0;
    en_o    = 4'b0000;
    lo_o    = {4*AddrBits{1'b0}};
    hi_o    = {4*HiBits{1'b0}};
    case (op)
      TPU_OP_NOP:  error_o = first_error(|(instr_i & TPU_NOP_RESERVED), 1'b0, 1'b0, 1'b0);
      TPU_OP_HALT: error_o = first_error(|(instr_i & TPU_HALT_RESERVED), 1'b0, 1'b0, 1'b0);
      TPU_OP_SYNC: error_o = first_error(|(instr_i & TPU_SYNC_RESERVED), 1'b0, 1'b0, 1'b0);
      TPU_OP_RHM: begin
        error_o = first_error(|(instr_i & TPU_RHM_RESERVED) || seglen > N || segs > N ||
                                  seglen * segs > N,
                              ub_end > Ub, 1'b0, rhm_end > Dram);
        unit_o = 2'd0;
        en_o[UbWr] = 1'b1;
        lo_o[AddrBits*UbWr +: AddrBits] = ub[AddrBits-1:0];
        hi_o[HiBits*UbWr +: HiBits]     = ub_end[HiBits-1:0];
      end
      TPU_OP_WHM: begin
        error_o = first_error(|(instr_i & TPU_WHM_RESERVED) || len > N, ub_end > Ub, 1'b0,
                              whm_end > Dram);
        unit_o = 2'd3;
        en_o[UbRd] = 1'b1;
        lo_o[AddrBits*UbRd +: AddrBits] = ub[AddrBits-1:0];
        hi_o[HiBits*UbRd +: HiBits]     = ub_end[HiBits-1:0];
      end
      TPU_OP_RW: begin
        error_o = first_error(|(instr_i & TPU_RW_RESERVED) || k > N || n > N, 1'b0, 1'b0,
                              rw_end > Dram);
        unit_o = 2'd0;
      end
      TPU_OP_MMC: begin
        error_o = first_error(|(instr_i & TPU_MMC_RESERVED), ub_end > Ub, acc_end > Acc,
                              1'b0);
        unit_o = 2'd1;
        en_o[UbRd]  = 1'b1;
        en_o[AccWr] = 1'b1;
        lo_o[AddrBits*UbRd +: AddrBits]  = ub[AddrBits-1:0];
        hi_o[HiBits*UbRd +: HiBits]      = ub_end[HiBits-1:0];
        lo_o[AddrBits*AccWr +: AddrBits] = acc[AddrBits-1:0];
        hi_o[HiBits*AccWr +: HiBits]     = acc_end[HiBits-1:0];
      end
      TPU_OP_ACT: begin
        error_o = first_error(|(instr_i & TPU_ACT_RESERVED),
                              ub_end > Ub || params_end > Ub,
                              act_end > Acc, 1'b0);
        unit_o = 2'd2;
        en_o = 4'b0111;  // reads parameters (UB) and accumulators, writes UB
        lo_o[AddrBits*UbRd +: AddrBits]  = params[AddrBits-1:0];
        hi_o[HiBits*UbRd +: HiBits]      = params_end[HiBits-1:0];
        lo_o[AddrBits*UbWr +: AddrBits]  = ub[AddrBits-1:0];
        hi_o[HiBits*UbWr +: HiBits]      = ub_end[HiBits-1:0];
        lo_o[AddrBits*AccRd +: AddrBits] = acc[AddrBits-1:0];
        hi_o[HiBits*AccRd +: HiBits]     = act_end[HiBits-1:0];
      end
      default: error_o = TPU_ERR_ILLEGAL;
    endcase
  end
endmodule

`default_nettype wire
