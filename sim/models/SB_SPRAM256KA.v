// SPDX-License-Identifier: Apache-2.0
// Simulation model of the iCE40 UltraPlus SPRAM (16K x 16 bits), as the iCE40 SPRAM
// usage guide describes it: a write when WREN (MASKWREN enables each nibble), otherwise a
// read whose data appears after the clock edge and holds until the next read. Used for
// the simulated board and for lint; synthesis uses the real primitive.
`default_nettype none

module SB_SPRAM256KA (
    input  wire [13:0] ADDRESS,
    input  wire [15:0] DATAIN,
    input  wire [3:0]  MASKWREN,
    input  wire        WREN,
    input  wire        CHIPSELECT,
    input  wire        CLOCK,
    input  wire        STANDBY,
    input  wire        SLEEP,
    input  wire        POWEROFF,   // active low
    output wire [15:0] DATAOUT
);
  reg [15:0] mem_q [0:16383];
  reg [15:0] out_q;
  wire on = CHIPSELECT && !STANDBY && !SLEEP && POWEROFF;
  wire [15:0] mask = {{4{MASKWREN[3]}}, {4{MASKWREN[2]}}, {4{MASKWREN[1]}}, {4{MASKWREN[0]}}};

  always @(posedge CLOCK) begin
    if (on && WREN) mem_q[ADDRESS] <= (mem_q[ADDRESS] & ~mask) | (DATAIN & mask);
    if (on && !WREN) out_q <= mem_q[ADDRESS];
  end
  assign DATAOUT = out_q;
endmodule

`default_nettype wire
