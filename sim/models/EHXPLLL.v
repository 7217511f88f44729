// SPDX-License-Identifier: Apache-2.0
// Lint stand-in for the ECP5 PLL primitive: the ports, with CLKOP following CLKI and
// LOCK high. Frequencies are not modelled; synthesis uses the real primitive.
`default_nettype none

// The vendor's parameter list, kept whole so that real instances read unchanged.
/* verilator lint_off UNUSEDPARAM */
module EHXPLLL #(
    parameter PLLRST_ENA = "DISABLED", parameter INTFB_WAKE = "DISABLED",
    parameter STDBY_ENABLE = "DISABLED", parameter DPHASE_SOURCE = "DISABLED",
    parameter OUTDIVIDER_MUXA = "DIVA", parameter OUTDIVIDER_MUXB = "DIVB",
    parameter OUTDIVIDER_MUXC = "DIVC", parameter OUTDIVIDER_MUXD = "DIVD",
    parameter integer CLKI_DIV = 1, parameter CLKOP_ENABLE = "ENABLED",
    parameter integer CLKOP_DIV = 8, parameter integer CLKOP_CPHASE = 0,
    parameter integer CLKOP_FPHASE = 0, parameter FEEDBK_PATH = "CLKOP",
    parameter integer CLKFB_DIV = 1
) (
    input  wire RST, STDBY, CLKI, CLKFB, PHASESEL0, PHASESEL1, PHASEDIR, PHASESTEP, PHASELOADREG,
    input  wire PLLWAKESYNC, ENCLKOP,
    output wire CLKOP, CLKINTFB, LOCK
);
  assign CLKOP    = CLKI;
  assign CLKINTFB = CLKI;
  assign LOCK     = 1'b1;
  wire unused = ^{RST, STDBY, CLKFB, PHASESEL0, PHASESEL1, PHASEDIR, PHASESTEP, PHASELOADREG,
                  PLLWAKESYNC, ENCLKOP};
endmodule
/* verilator lint_on UNUSEDPARAM */

`default_nettype wire
