// SPDX-License-Identifier: Apache-2.0
// Lint stand-in for the iCE40 UltraPlus DSP block, in the modes the RTL uses:
// tpu_mac_array's two signed 8x8 products (A[15:8] * B[15:8] on O[31:16], A[7:0] *
// B[7:0] on O[15:0]) from the A and B input registers (AHOLD/BHOLD keep them) through
// the product registers, or (output select 1) those products plus C and D through the
// output registers; tpu_lite_requant's unsigned 16x16 product of A and B through its
// register (PIPELINE_16x16_MULT_REG2) plus {C, D} through the output register, the
// carry out on CO. Other parameter values stop elaboration.
// Synthesis uses the real block; the iCE40 tests simulate with Yosys's own model
// (tests/fpga/test_ice40_mac_array.sh, test_ice40_requant.sh).
`default_nettype none

module SB_MAC16 #(
    parameter [0:0] NEG_TRIGGER = 1'b0, parameter [0:0] C_REG = 1'b0,
    parameter [0:0] A_REG = 1'b0, parameter [0:0] B_REG = 1'b0, parameter [0:0] D_REG = 1'b0,
    parameter [0:0] TOP_8x8_MULT_REG = 1'b0, parameter [0:0] BOT_8x8_MULT_REG = 1'b0,
    parameter [0:0] PIPELINE_16x16_MULT_REG1 = 1'b0, parameter [0:0] PIPELINE_16x16_MULT_REG2 = 1'b0,
    parameter [1:0] TOPOUTPUT_SELECT = 2'd0, parameter [1:0] TOPADDSUB_LOWERINPUT = 2'd0,
    parameter [0:0] TOPADDSUB_UPPERINPUT = 1'b0, parameter [1:0] TOPADDSUB_CARRYSELECT = 2'd0,
    parameter [1:0] BOTOUTPUT_SELECT = 2'd0, parameter [1:0] BOTADDSUB_LOWERINPUT = 2'd0,
    parameter [0:0] BOTADDSUB_UPPERINPUT = 1'b0, parameter [1:0] BOTADDSUB_CARRYSELECT = 2'd0,
    parameter [0:0] MODE_8x8 = 1'b0, parameter [0:0] A_SIGNED = 1'b0, parameter [0:0] B_SIGNED = 1'b0
) (
    input  wire        CLK, CE,
    input  wire [15:0] C, A, B, D,
    input  wire        AHOLD, BHOLD, CHOLD, DHOLD,
    input  wire        IRSTTOP, IRSTBOT, ORSTTOP, ORSTBOT,
    input  wire        OLOADTOP, OLOADBOT, ADDSUBTOP, ADDSUBBOT,
    input  wire        OHOLDTOP, OHOLDBOT,
    input  wire        CI, ACCUMCI, SIGNEXTIN,
    output wire [31:0] O,
    output wire        CO, ACCUMCO, SIGNEXTOUT
);
`ifndef SYNTHESIS
  generate
    if (!(MODE_8x8 && A_REG && B_REG && TOP_8x8_MULT_REG && BOT_8x8_MULT_REG && A_SIGNED &&
          B_SIGNED && !NEG_TRIGGER &&
          ((TOPOUTPUT_SELECT == 2'd2 && BOTOUTPUT_SELECT == 2'd2) ||
           (TOPOUTPUT_SELECT == 2'd1 && BOTOUTPUT_SELECT == 2'd1 && TOPADDSUB_LOWERINPUT == 2'd1 &&
            BOTADDSUB_LOWERINPUT == 2'd1 && TOPADDSUB_UPPERINPUT && BOTADDSUB_UPPERINPUT &&
            TOPADDSUB_CARRYSELECT == 2'd0 && BOTADDSUB_CARRYSELECT == 2'd0))) &&
        !(!MODE_8x8 && !A_REG && !B_REG && !A_SIGNED && !B_SIGNED && PIPELINE_16x16_MULT_REG2 &&
          TOPOUTPUT_SELECT == 2'd1 && BOTOUTPUT_SELECT == 2'd1 && TOPADDSUB_LOWERINPUT == 2'd2 &&
          BOTADDSUB_LOWERINPUT == 2'd2 && TOPADDSUB_UPPERINPUT && BOTADDSUB_UPPERINPUT &&
          TOPADDSUB_CARRYSELECT == 2'd3 && BOTADDSUB_CARRYSELECT == 2'd0 && !NEG_TRIGGER)) begin : g_mode
      initial $fatal(1, "SB_MAC16 stand-in: only the registered signed 8x8 and unsigned 16x16 modes are modelled");
    end
  endgenerate
`endif
  reg [15:0] a_q, b_q, top_q, bot_q, top_sum_q, bot_sum_q;
  reg [31:0] wide_q, wide_sum_q;
  wire [32:0] wide_sum = {1'b0, C, D} + {1'b0, wide_q};
  always @(posedge CLK) begin
    if (CE && !AHOLD) a_q <= A;
    if (CE && !BHOLD) b_q <= B;
    if (CE) begin
      top_q     <= $signed(a_q[15:8]) * $signed(b_q[15:8]);
      bot_q     <= $signed(a_q[7:0]) * $signed(b_q[7:0]);
      top_sum_q <= C + top_q;
      bot_sum_q <= D + bot_q;
      wide_q     <= A * B;
      wide_sum_q <= wide_sum[31:0];
    end
  end
  assign O = !MODE_8x8 ? wide_sum_q : TOPOUTPUT_SELECT == 2'd1 ? {top_sum_q, bot_sum_q} : {top_q, bot_q};
  assign CO = !MODE_8x8 && wide_sum[32];
  assign {ACCUMCO, SIGNEXTOUT} = 2'b00;
  wire unused = ^{CHOLD, DHOLD, IRSTTOP, IRSTBOT, ORSTTOP, ORSTBOT, OLOADTOP, OLOADBOT,
                  ADDSUBTOP, ADDSUBBOT, OHOLDTOP, OHOLDBOT, CI, ACCUMCI, SIGNEXTIN, C_REG, D_REG,
                  PIPELINE_16x16_MULT_REG1, PIPELINE_16x16_MULT_REG2, A_REG, B_REG, TOP_8x8_MULT_REG,
                  BOT_8x8_MULT_REG, A_SIGNED, B_SIGNED, TOPOUTPUT_SELECT, BOTOUTPUT_SELECT, TOPADDSUB_LOWERINPUT,
                  TOPADDSUB_UPPERINPUT, TOPADDSUB_CARRYSELECT, BOTADDSUB_LOWERINPUT,
                  BOTADDSUB_UPPERINPUT, BOTADDSUB_CARRYSELECT};
endmodule

`default_nettype wire
