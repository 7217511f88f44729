// SPDX-License-Identifier: Apache-2.0
// ECP5 PLL: the 25 MHz oscillator to OutMhz (a multiple of 5 MHz, 5..100): a 5 MHz
// phase detector (25 / 5) times OutMhz / 5, the VCO near 600 MHz divided back down, the
// settings Project Trellis's ecppll chooses for such clocks (`ecppll -i 25 -o 40`: 5, 8,
// 15). nextpnr derives the output clock's constraint from these dividers.
`default_nettype none

module tpu_ecp5_pll #(
    parameter integer OutMhz = 15
) (
    input  wire clk_25mhz_i,
    output wire clk_o,        // OutMhz
    output wire locked_o
);
  localparam integer FbDiv = OutMhz / 5;
  localparam integer OpDiv = (600 + OutMhz / 2) / OutMhz;  // VCO = OutMhz * OpDiv, 570..630 MHz
  wire unused_intfb;  // internal feedback: not used (feedback is CLKOP)
  (* FREQUENCY_PIN_CLKI="25" *)
  (* ICP_CURRENT="12" *) (* LPF_RESISTOR="8" *) (* MFG_ENABLE_FILTEROPAMP="1" *) (* MFG_GMCREF_SEL="2" *)
  EHXPLLL #(
      .PLLRST_ENA("DISABLED"),
      .INTFB_WAKE("DISABLED"),
      .STDBY_ENABLE("DISABLED"),
      .DPHASE_SOURCE("DISABLED"),
      .OUTDIVIDER_MUXA("DIVA"),
      .OUTDIVIDER_MUXB("DIVB"),
      .OUTDIVIDER_MUXC("DIVC"),
      .OUTDIVIDER_MUXD("DIVD"),
      .CLKI_DIV(5),
      .CLKOP_ENABLE("ENABLED"),
      .CLKOP_DIV(OpDiv),
      .CLKOP_CPHASE(OpDiv / 2 - 1),
      .CLKOP_FPHASE(0),
      .FEEDBK_PATH("CLKOP"),
      .CLKFB_DIV(FbDiv)
  ) u_pll (
      .RST(1'b0),
      .STDBY(1'b0),
      .CLKI(clk_25mhz_i),
      .CLKOP(clk_o),
      .CLKFB(clk_o),
      .CLKINTFB(unused_intfb),
      .PHASESEL0(1'b0),
      .PHASESEL1(1'b0),
      .PHASEDIR(1'b1),
      .PHASESTEP(1'b1),
      .PHASELOADREG(1'b1),
      .PLLWAKESYNC(1'b0),
      .ENCLKOP(1'b0),
      .LOCK(locked_o));
endmodule

`default_nettype wire
