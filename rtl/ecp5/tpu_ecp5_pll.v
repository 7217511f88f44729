// SPDX-License-Identifier: Apache-2.0
// ECP5 PLL: 25 MHz in, 15 MHz out (VCO 600 MHz), from Project Trellis's ecppll
// (`ecppll -i 25 -o 15`). The core's longest path (decode -> error collection) closes
// at about 19 MHz on the ECP5-85F, so the board runs it below the oscillator.
`default_nettype none

module tpu_ecp5_pll (
    input  wire clk_25mhz_i,
    output wire clk_o,        // 15 MHz
    output wire locked_o
);
  wire unused_intfb;  // internal feedback: not used (feedback is CLKOP)
  (* FREQUENCY_PIN_CLKI="25" *)
  (* FREQUENCY_PIN_CLKOP="15" *)
  (* ICP_CURRENT="12" *) (* LPF_RESISTOR="8" *) (* MFG_ENABLE_FILTEROPAMP="1" *) (* MFG_GMCREF_SEL="2" *)
  EHXPLLL #(
      .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
      .DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
      .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"), .CLKI_DIV(5), .CLKOP_ENABLE("ENABLED"),
      .CLKOP_DIV(40), .CLKOP_CPHASE(19), .CLKOP_FPHASE(0), .FEEDBK_PATH("CLKOP"), .CLKFB_DIV(3)
  ) u_pll (
      .RST(1'b0), .STDBY(1'b0), .CLKI(clk_25mhz_i), .CLKOP(clk_o), .CLKFB(clk_o), .CLKINTFB(unused_intfb),
      .PHASESEL0(1'b0), .PHASESEL1(1'b0), .PHASEDIR(1'b1), .PHASESTEP(1'b1), .PHASELOADREG(1'b1),
      .PLLWAKESYNC(1'b0), .ENCLKOP(1'b0), .LOCK(locked_o));
endmodule

`default_nettype wire
