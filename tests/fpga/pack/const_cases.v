// SPDX-License-Identifier: Apache-2.0
// Cases for scripts/ecp5-local-consts.py (tests/fpga/test_local_consts.sh): a distributed
// RAM four words deep (its 16-word cells' top address bits are constant zeros) and a
// registered multiplier (its control inputs constants once ecp5-pack-regs.py has moved
// the registers in).
module const_cases (
    input  wire        clk,
    input  wire        we,
    input  wire [1:0]  waddr,
    input  wire [1:0]  raddr,
    input  wire [11:0] wdata,
    input  wire [7:0]  a,
    input  wire [7:0]  b,
    output wire [11:0] rdata,
    output reg  [15:0] p
);
  reg [11:0] mem [0:3];
  always @(posedge clk) if (we) mem[waddr] <= wdata;
  assign rdata = mem[raddr];

  reg [7:0] a_q, b_q;
  always @(posedge clk) begin
    a_q <= a;
    b_q <= b;
    p   <= $signed(a_q) * $signed(b_q);
  end
endmodule
