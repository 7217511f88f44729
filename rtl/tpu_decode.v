// SPDX-License-Identifier: Apache-2.0
// Instruction decode: the static checks of docs/isa.md for this configuration, the
// unit an instruction goes to, the row ranges the interlock scoreboard needs, and the
// device-memory bytes a DMA instruction touches (for the controller's memory order).
// The weight-FIFO rule depends on program order and lives in the controller.
//
// Three parts: the products (multipliers) of instr_i's fields, then the sums of those
// (at most two carry chains in a row), then the comparisons and the ranges. With
// Registered = 1 instr_i is registered first (with the multipliers' operands, apart)
// and a register follows each of the first two parts (loaded every cycle: the outputs
// describe the instruction given three cycles earlier, which comes out as instr_o), so
// that no cycle holds more than one multiplier or two carry chains; with 2 a fourth
// follows the comparisons (the error's four causes, not yet its code, and the ranges),
// four cycles; with 3 the products pass a second register too, in the logic beside the
// sums (on the ECP5 the first is the multipliers' own output register, and the route out
// of the multiplier rows was N = 8's longest path, 5 ns of 10.4), five cycles; with 0
// everything is combinational (the small core).
`default_nettype none

module tpu_decode #(
    parameter integer ArraySize = 16,
    parameter integer UbRows    = 4096,
    parameter integer AccRows   = 2048,
    parameter integer DramBytes = 1048576,
    parameter integer AddrBits  = 16,     // row-address width of the scoreboard
    parameter integer Registered = 0      // registers after the products and the sums (1), and
                                          // after the comparisons (2), and a second after
                                          // the products (3)
) (
    input  wire                    clk_i,      // (Registered >= 1)
    input  wire [127:0]            instr_i,
    input  wire                    load_i,     // a valid instruction is on instr_i (Registered >= 1)
    output wire [127:0]            instr_o,    // the instruction the outputs describe
    output wire [3:0]              op_o,
    output wire [3:0]              error_o,    // TPU_ERR_*: the smallest applicable code
    output wire [1:0]              unit_o,     // 0 DMA-in, 1 matrix, 2 activation, 3 DMA-out
    output wire [3:0]              en_o,       // ranges {acc_wr, acc_rd, ub_wr, ub_rd}; one
    output wire [4*AddrBits-1:0]   lo_o,       //   not enabled is [0, 0)
    output wire [4*(AddrBits+1)-1:0] hi_o,
    output wire [31:0]             mem_lo_o,   // rhm, whm, rw: device memory [lo, hi)
    output wire [32:0]             mem_hi_o
);
`include "tpu_isa.vh"
  localparam integer HiBits = AddrBits + 1;
  wire [31:0] n_u = ArraySize, ub_u = UbRows, acc_u = AccRows, dram_u = DramBytes;
  wire [36:0] N    = {5'd0, n_u};
  wire [36:0] Ub   = {5'd0, ub_u};
  wire [36:0] Acc  = {5'd0, acc_u};

  // ---- the input -------------------------------------------------------------------------
  // With Registered >= 1 the instruction is registered here first (the controller's fetch
  // register), and beside it every multiplier's operands, computed from instr_i, in
  // registers of their own that load only with a valid instruction (load_i): synthesis
  // then keeps them apart from the instruction's register, each feeds its multiplier
  // alone, and the ECP5 build packs them into the MULT18X18D's input registers, so that
  // no logic and no long route lies between a register and a multiplier.
  localparam integer OpBits = 16 + 16 + 6 + 16 + 16 + 6 + 7 + 7 + 4 + 16 + 16;
  function automatic [OpBits-1:0] mul_operands(input [127:0] i);
    reg [3:0]  op;
    reg [5:0]  rw_rows_m1;
    begin
      op = i[3:0];
      rw_rows_m1 = i[TPU_RW_TRANSPOSE_LSB] ? i[TPU_RW_N_LSB +: 6] : i[TPU_RW_K_LSB +: 6];
      mul_operands = {
          op == TPU_OP_RW ? {10'd0, rw_rows_m1} : i[TPU_MMC_ROWS_LSB +: 16],      // rows spanned - 1
          i[TPU_RHM_STRIDE_LSB +: 16],                                            // their stride
          i[TPU_RHM_SEGS_LSB +: 6],                                               // segments - 1
          op == TPU_OP_WHM ? i[TPU_WHM_GSTRIDE_LSB +: 16] : i[TPU_RHM_SEGSTRIDE_LSB +: 16],
          i[TPU_MMC_ROWS_LSB +: 16],                                              // rows - 1
          op == TPU_OP_WHM ? i[TPU_WHM_GROUPS_LSB +: TPU_WHM_GROUPS_W]            // times - 1
                           : {2'd0, i[TPU_ACT_POOL_LSB +: TPU_ACT_POOL_W]},
          {1'b0, i[TPU_RHM_SEGLEN_LSB +: 6]} + 7'd1,                              // segment bytes
          {1'b0, i[TPU_RHM_SEGS_LSB +: 6]} + 7'd1,                                // segments
          op == TPU_OP_RW ? i[TPU_RW_TILES_LSB +: 4] :                            // tiles - 1
          op == TPU_OP_MMC ? i[TPU_MMC_TILES_LSB +: 4] : 4'd0,
          i[TPU_MMC_UBSTRIDE_LSB +: 16], i[TPU_MMC_ACCSTRIDE_LSB +: 16]};
    end
  endfunction
  wire [127:0]      ins;
  wire [OpBits-1:0] ops;
  generate
    if (Registered >= 1) begin : g_in_reg
      reg [127:0]      ins_q;
      reg [OpBits-1:0] ops_q;
      always @(posedge clk_i) begin
        ins_q <= instr_i;
        if (load_i) ops_q <= mul_operands(instr_i);
      end
      assign ins = ins_q;
      assign ops = ops_q;
    end else begin : g_in_comb
      assign ins = instr_i;
      assign ops = mul_operands(instr_i);
      wire unused_load = load_i;
    end
  endgenerate
  wire [15:0] op_span_rows, op_stride, op_segstride, op_rows_m1, op_ubstride, op_accstride;
  wire [5:0]  op_segs_m1, op_times_m1;
  wire [6:0]  op_seglen, op_segs;
  wire [3:0]  op_tiles_m1;
  assign {op_span_rows, op_stride, op_segs_m1, op_segstride, op_rows_m1, op_times_m1, op_seglen, op_segs,
          op_tiles_m1, op_ubstride, op_accstride} = ops;

  // ---- products: from the instruction (ins) and the multipliers' operands (ops) -------
  wire [3:0]  in_op       = ins[3:0];
  // As narrow as their operands (one 16x16 multiplier serves rhm, whm and rw, whose row
  // count and stride sit in the same bits or are 6 bits wide).
  wire        in_transpose = ins[TPU_RW_TRANSPOSE_LSB];
  wire [15:0] in_rows_m1  = ins[TPU_MMC_ROWS_LSB +: 16];
  wire [31:0] in_row_span = op_span_rows * op_stride;
  // rhm: segs - 1 segment strides; whm: groups - 1 group strides (the counts share bits)
  wire [21:0] in_seg_span = op_segs_m1 * op_segstride;
  // act: its accumulator rows (rows * pool); whm: its UB rows (rows * groups). As
  // (rows - 1) * (times - 1) + (rows - 1 + times), the product's operands straight from
  // the fields (a multiplexer, no adder, before the multiplier), the rest with the sums.
  wire [5:0]  in_times_m1 = in_op == TPU_OP_WHM ? ins[TPU_WHM_GROUPS_LSB +: TPU_WHM_GROUPS_W]
                                                : {2'd0, ins[TPU_ACT_POOL_LSB +: TPU_ACT_POOL_W]};
  wire [21:0] in_rows_m1_x = op_rows_m1 * op_times_m1;
  wire [16:0] in_rows_times = {1'b0, in_rows_m1} + {11'd0, in_times_m1} + 17'd1;
  wire [6:0]  in_seglen   = {1'b0, ins[TPU_RHM_SEGLEN_LSB +: 6]} + 7'd1;
  wire [13:0] in_seg_row  = op_seglen * op_segs;
  // The bytes of the last row past its start (rhm: the last segment; whm: the row; rw:
  // the tile row): an instruction fits when addr + tail + the span before it <= Dram.
  wire [6:0]  in_tail     = in_op == TPU_OP_RW  ? ({1'b0, in_transpose ? ins[TPU_RW_K_LSB +: 6]
                                                                       : ins[TPU_RW_N_LSB +: 6]} + 7'd1) :
                            in_op == TPU_OP_WHM ? ({1'b0, ins[TPU_WHM_LEN_LSB +: 6]} + 7'd1) : in_seglen;
  // rw and mmc of several tiles: how far the last tile is from the first (device bytes;
  // unified-buffer and accumulator rows), so that the checks cover every tile.
  wire [3:0]  in_tiles_m1 = in_op == TPU_OP_RW  ? ins[TPU_RW_TILES_LSB +: 4] :
                            in_op == TPU_OP_MMC ? ins[TPU_MMC_TILES_LSB +: 4] : 4'd0;
  // rw: tile_span = tile_lo + 4 * tile_hi (added with the span). Pipelined, as two
  // partial products of two bits each, one adder apiece: the 4 x 32 product is two DSPs
  // and a carry chain behind them, too long for a cycle; combinational (the small
  // core), the product itself, which costs fewer cells.
  wire [31:0] in_tstride   = ins[TPU_RW_TSTRIDE_LSB +: 32];
  wire [35:0] in_tile_lo;
  wire [33:0] in_tile_hi;
  generate
    if (Registered != 0) begin : g_split
      assign in_tile_lo = {2'd0, (in_tiles_m1[0] ? {2'd0, in_tstride} : 34'd0) +
                                 (in_tiles_m1[1] ? {1'b0, in_tstride, 1'b0} : 34'd0)};
      assign in_tile_hi = (in_tiles_m1[2] ? {2'd0, in_tstride} : 34'd0) +
                          (in_tiles_m1[3] ? {1'b0, in_tstride, 1'b0} : 34'd0);
    end else begin : g_product
      assign in_tile_lo = in_tiles_m1 * in_tstride;
      assign in_tile_hi = 34'd0;
    end
  endgenerate
  // mmc of several tiles: (tiles - 1) times each stride. Pipelined, in logic, two levels
  // of adds: on a multiplier (the ECP5's) the product would start far from the sums
  // behind it, wherever a multiplier is free; combinational (the small core, on the
  // iCE40, short of logic cells), the product itself.
  function automatic [19:0] times4(input [3:0] t, input [15:0] s);
    times4 = ({4'd0, t[0] ? s : 16'd0} + {3'd0, t[1] ? s : 16'd0, 1'b0}) +
             ({2'd0, t[2] ? s : 16'd0, 2'd0} + {1'b0, t[3] ? s : 16'd0, 3'd0});
  endfunction
  wire [19:0] in_ub_more, in_acc_more;
  generate
    if (Registered != 0) begin : g_more_logic
      assign in_ub_more  = times4(op_tiles_m1, op_ubstride);
      assign in_acc_more = times4(op_tiles_m1, op_accstride);
    end else begin : g_more_product
      assign in_ub_more  = op_tiles_m1 * op_ubstride;
      assign in_acc_more = op_tiles_m1 * op_accstride;
    end
  endgenerate

  localparam integer ProdBits = 128 + 32 + 22 + 22 + 17 + 14 + 7 + 36 + 34 + 20 + 20;
  wire [ProdBits-1:0] prod_d = {ins, in_row_span, in_seg_span, in_rows_m1_x, in_rows_times,
                                in_seg_row, in_tail, in_tile_lo, in_tile_hi, in_ub_more, in_acc_more};
  wire [ProdBits-1:0] prod;
  wire [127:0] instr_p;
  wire [31:0]  row_span_p;
  wire [21:0]  seg_span_p;
  wire [21:0]  rows_m1_x_p;
  wire [16:0]  rows_times_p;
  wire [13:0]  seg_row_p;
  wire [6:0]   tail_p;
  wire [35:0]  tile_lo_p;
  wire [33:0]  tile_hi_p;
  wire [19:0]  ub_more_p, acc_more_p;
  assign {instr_p, row_span_p, seg_span_p, rows_m1_x_p, rows_times_p, seg_row_p, tail_p,
          tile_lo_p, tile_hi_p, ub_more_p, acc_more_p} = prod;

  // ---- sums: from the products ---------------------------------------------------------
  wire [3:0]  op_p     = instr_p[3:0];
  // Device memory: [addr, addr + tail + span), span = row_span (+ seg_span for rhm and
  // whm: the segments or groups before the last; + the tiles before the last for rw).
  // The instruction fits when span <= room = Dram - addr - tail.
  wire [36:0] span_p   = {5'd0, row_span_p} + (op_p == TPU_OP_RHM || op_p == TPU_OP_WHM ? {15'd0, seg_span_p} :
                                               op_p == TPU_OP_RW  ? {1'b0, tile_lo_p} : 37'd0)
                                            + (op_p == TPU_OP_RW  ? {1'b0, tile_hi_p, 2'd0} : 37'd0);
  wire [32:0] addr_tail_p = {1'b0, instr_p[TPU_RHM_ADDR_LSB +: 32]} + {26'd0, tail_p};
  wire [34:0] room_p   = {3'd0, dram_u} - {2'd0, instr_p[TPU_RHM_ADDR_LSB +: 32]} - {28'd0, tail_p};  // bit 34: negative
  // Row ranges' ends (row counts are stored minus one; the +1 comes in as a carry):
  // the first tile's, the last tile's (mmc), act's accumulator rows and whm's UB rows
  // (rows * pool, rows * groups).
  wire [15:0] ub_p      = instr_p[TPU_MMC_UB_LSB +: 16];     // same place in rhm/whm/act
  wire [15:0] acc_p     = instr_p[TPU_MMC_ACC_LSB +: 16];
  wire [15:0] rows_m1_p = instr_p[TPU_MMC_ROWS_LSB +: 16];
  wire [16:0] ub_end_p  = {1'b0, ub_p} + {1'b0, rows_m1_p} + 17'd1;
  wire [16:0] acc_end_p = {1'b0, acc_p} + {1'b0, rows_m1_p} + 17'd1;
  wire [20:0] ub_all_end_p  = {5'd0, ub_p} + {5'd0, rows_m1_p} + {1'b0, ub_more_p} + 21'd1;
  wire [20:0] acc_all_end_p = {5'd0, acc_p} + {5'd0, rows_m1_p} + {1'b0, acc_more_p} + 21'd1;
  wire [24:0] x_end_p   = {9'd0, op_p == TPU_OP_WHM ? ub_p : acc_p} + {3'd0, rows_m1_x_p} + {8'd0, rows_times_p};
  wire [16:0] params_end_p = {1'b0, instr_p[TPU_ACT_PARAMS_LSB +: 16]} + {13'd0, TPU_ACT_PARAM_ROWS};

  localparam integer SumBits = 128 + 37 + 33 + 35 + 17 + 17 + 21 + 21 + 25 + 17 + 14;
  wire [SumBits-1:0] sum_d = {instr_p, span_p, addr_tail_p, room_p, ub_end_p, acc_end_p,
                              ub_all_end_p, acc_all_end_p, x_end_p, params_end_p, seg_row_p};
  wire [SumBits-1:0] sum;
  wire [127:0] instr_r;
  wire [36:0]  span_r;
  wire [32:0]  addr_tail_r;
  wire [34:0]  room_r;
  wire [16:0]  ub_end_r, acc_end_r, params_end_r;
  wire [20:0]  ub_all_end_r, acc_all_end_r;
  wire [24:0]  x_end_r;
  wire [13:0]  seg_row_r;
  assign {instr_r, span_r, addr_tail_r, room_r, ub_end_r, acc_end_r, ub_all_end_r, acc_all_end_r,
          x_end_r, params_end_r, seg_row_r} = sum;

  generate
    if (Registered >= 1) begin : g_reg
      reg [ProdBits-1:0] prod_q;
      reg [SumBits-1:0]  sum_q;
      always @(posedge clk_i) begin
        prod_q <= prod_d;
        sum_q  <= sum_d;
      end
      tpu_delay #(.Width(ProdBits), .Delay(Registered >= 3 ? 1 : 0)) u_prod2 (
          .clk_i,
          .rst_ni(1'b1),
          .d_i(prod_q),
          .q_o(prod));
      assign sum  = sum_q;
    end else begin : g_comb
      assign prod = prod_d;
      assign sum  = sum_d;
      wire unused_clk = clk_i;
    end
  endgenerate

  // ---- comparisons and ranges: from the sums --------------------------------------------
  wire [3:0] op = instr_r[3:0];

  // Fields. Counts are stored minus one: "count > N" is "field >= N", a comparison with a
  // constant and no adder in front of it (this part's longest path).
  wire [15:0] ub       = instr_r[TPU_MMC_UB_LSB +: TPU_MMC_UB_W];          // same place in rhm/whm/act
  wire [15:0] acc      = instr_r[TPU_MMC_ACC_LSB +: TPU_MMC_ACC_W];
  wire [36:0] seglen_m1 = {31'd0, instr_r[TPU_RHM_SEGLEN_LSB +: TPU_RHM_SEGLEN_W]};
  wire [36:0] segs_m1   = {31'd0, instr_r[TPU_RHM_SEGS_LSB +: TPU_RHM_SEGS_W]};
  wire [36:0] len_m1    = {31'd0, instr_r[TPU_WHM_LEN_LSB +: TPU_WHM_LEN_W]};
  wire [36:0] k_m1      = {31'd0, instr_r[TPU_RW_K_LSB +: TPU_RW_K_W]};
  wire [36:0] n_m1      = {31'd0, instr_r[TPU_RW_N_LSB +: TPU_RW_N_W]};
  wire [15:0] params   = instr_r[TPU_ACT_PARAMS_LSB +: TPU_ACT_PARAMS_W];

  wire        dram_out = room_r[34] || span_r > {2'd0, room_r};
  wire [37:0] mem_end  = {5'd0, addr_tail_r} + {1'b0, span_r};
  wire [31:0] mem_lo_c = instr_r[TPU_RHM_ADDR_LSB +: 32];
  wire [32:0] mem_hi_c = mem_end[32:0];   // (a legal instruction's end is at most Dram)
  wire [36:0] seg_row      = {23'd0, seg_row_r};
  wire        unused_end   = ^mem_end[37:33];
  wire        unused_bits  = ^{ub, acc, params, acc_end};  // (above AddrBits in small configurations)

  function automatic [3:0] causes(input illegal, input ub_bad, input acc_bad, input dram_bad);
    causes = {illegal, ub_bad, acc_bad, dram_bad};
  endfunction
  function automatic [3:0] first_error(input illegal, input ub_bad, input acc_bad,
                                       input dram_bad);
    if (illegal)       first_error = TPU_ERR_ILLEGAL;
    else if (ub_bad)   first_error = TPU_ERR_UB_RANGE;
    else if (acc_bad)  first_error = TPU_ERR_ACC_RANGE;
    else if (dram_bad) first_error = TPU_ERR_DRAM_RANGE;
    else               first_error = TPU_ERR_NONE;
  endfunction

  // Scoreboard range ends; legal instructions stay below 2^AddrBits rows.
  wire [36:0] ub_end      = {20'd0, ub_end_r};
  wire [16:0] acc_end     = acc_end_r;
  wire [36:0] params_end  = {20'd0, params_end_r};
  wire [36:0] x_end       = {12'd0, x_end_r};      // act: its accumulator rows; whm: its UB rows
  wire        x_over      = op == TPU_OP_WHM ? x_end > Ub : x_end > Acc;   // (two constant comparisons)
  wire [36:0] ub_all_end  = {16'd0, ub_all_end_r};   // mmc: the last tile's rows
  wire [36:0] acc_all_end = {16'd0, acc_all_end_r};

  localparam integer UbRd = 0, UbWr = 1, AccRd = 2, AccWr = 3;

  // The error's causes, in first_error's order: illegal, UB range, accumulator range,
  // device-memory range.
  reg [3:0]              why_c;
  reg [1:0]              unit_c;
  reg [3:0]              en_c;
  reg [4*AddrBits-1:0]   lo_c;
  reg [4*HiBits-1:0]     hi_c;
  always @(*) begin
    why_c  = 4'b0000;
    unit_c = 2'd0;
    en_c   = 4'b0000;
    lo_c   = {4*AddrBits{1'b0}};
    hi_c   = {4*HiBits{1'b0}};
    case (op)
      TPU_OP_NOP:  why_c = causes(|(instr_r & TPU_NOP_RESERVED), 1'b0, 1'b0, 1'b0);
      TPU_OP_HALT: why_c = causes(|(instr_r & TPU_HALT_RESERVED), 1'b0, 1'b0, 1'b0);
      TPU_OP_SYNC: why_c = causes(|(instr_r & TPU_SYNC_RESERVED), 1'b0, 1'b0, 1'b0);
      TPU_OP_RHM: begin
        why_c = causes(|(instr_r & TPU_RHM_RESERVED) || seglen_m1 >= N || segs_m1 >= N ||
                           seg_row > N,
                       ub_end > Ub, 1'b0, dram_out);
        unit_c = 2'd0;
        en_c[UbWr] = 1'b1;
        lo_c[AddrBits*UbWr +: AddrBits] = ub[AddrBits-1:0];
        hi_c[HiBits*UbWr +: HiBits]     = ub_end[HiBits-1:0];
      end
      TPU_OP_WHM: begin
        why_c = causes(|(instr_r & TPU_WHM_RESERVED) || len_m1 >= N, x_over, 1'b0,
                       dram_out);
        unit_c = 2'd3;
        en_c[UbRd] = 1'b1;
        lo_c[AddrBits*UbRd +: AddrBits] = ub[AddrBits-1:0];
        hi_c[HiBits*UbRd +: HiBits]     = x_end[HiBits-1:0];
      end
      TPU_OP_RW: begin
        why_c = causes(|(instr_r & TPU_RW_RESERVED) || k_m1 >= N || n_m1 >= N, 1'b0, 1'b0,
                       dram_out);
        unit_c = 2'd0;
      end
      TPU_OP_MMC: begin
        why_c = causes(|(instr_r & TPU_MMC_RESERVED), ub_all_end > Ub, acc_all_end > Acc,
                       1'b0);
        unit_c = 2'd1;
        en_c[UbRd]  = 1'b1;
        en_c[AccWr] = 1'b1;
        lo_c[AddrBits*UbRd +: AddrBits]  = ub[AddrBits-1:0];
        hi_c[HiBits*UbRd +: HiBits]      = ub_end[HiBits-1:0];
        lo_c[AddrBits*AccWr +: AddrBits] = acc[AddrBits-1:0];
        hi_c[HiBits*AccWr +: HiBits]     = acc_end[HiBits-1:0];
      end
      TPU_OP_ACT: begin
        why_c = causes(|(instr_r & TPU_ACT_RESERVED),
                       ub_end > Ub || params_end > Ub,
                       x_over, 1'b0);
        unit_c = 2'd2;
        en_c = 4'b0111;  // reads parameters (UB) and accumulators, writes UB
        lo_c[AddrBits*UbRd +: AddrBits]  = params[AddrBits-1:0];
        hi_c[HiBits*UbRd +: HiBits]      = params_end[HiBits-1:0];
        lo_c[AddrBits*UbWr +: AddrBits]  = ub[AddrBits-1:0];
        hi_c[HiBits*UbWr +: HiBits]      = ub_end[HiBits-1:0];
        lo_c[AddrBits*AccRd +: AddrBits] = acc[AddrBits-1:0];
        hi_c[HiBits*AccRd +: HiBits]     = x_end[HiBits-1:0];
      end
      default: why_c = 4'b1000;
    endcase
  end

  // The outputs: straight from the comparisons, or from a register after them.
  localparam integer OutBits = 128 + 4 + 2 + 4 + 4 * AddrBits + 4 * HiBits + 32 + 33;
  wire [OutBits-1:0] out_c = {instr_r, why_c, unit_c, en_c, lo_c, hi_c, mem_lo_c, mem_hi_c};
  wire [OutBits-1:0] out;
  wire [3:0]         why;
  tpu_delay #(.Width(OutBits), .Delay(Registered >= 2 ? 1 : 0)) u_out (
      .clk_i,
      .rst_ni(1'b1),
      .d_i(out_c),
      .q_o(out));
  assign {instr_o, why, unit_o, en_o, lo_o, hi_o, mem_lo_o, mem_hi_o} = out;
  assign op_o    = instr_o[3:0];
  assign error_o = first_error(why[3], why[2], why[1], why[0]);
endmodule

`default_nettype wire
