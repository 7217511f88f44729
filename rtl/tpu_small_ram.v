// SPDX-License-Identifier: Apache-2.0
// A one-read, one-write memory with a synchronous read (data the cycle after rd_en_i),
// the shape FPGA block RAM has. The small and lite cores' buffers are built from it.
//
// A read of the row being written in the same cycle returns undefined data: the iCE40's
// block RAM does not promise either value, and keeping one would cost a register per
// bit and a multiplexer (Yosys adds them unless told no_rw_check). Simulation returns
// the old data inverted, so that a core depending on it fails its differential tests.
`default_nettype none

module tpu_small_ram #(
    parameter integer Width = 32,
    parameter integer Depth = 256   // at least 2
) (
    input  wire                clk_i,
    input  wire                rd_en_i,
    input  wire [AddrBits-1:0] rd_addr_i,
    output wire [Width-1:0]    rd_data_o,
    input  wire                wr_en_i,
    input  wire [AddrBits-1:0] wr_addr_i,
    input  wire [Width-1:0]    wr_data_i
);
  localparam integer AddrBits = $clog2(Depth);

  (* no_rw_check *) reg [Width-1:0] mem_q [0:Depth-1];
  reg [Width-1:0] rd_q;
`ifdef SYNTHESIS
  wire collide = 1'b0;
`else
  wire collide = wr_en_i && rd_addr_i == wr_addr_i;
`endif
  always @(posedge clk_i) begin
    if (wr_en_i) mem_q[wr_addr_i] <= wr_data_i;
    if (rd_en_i) rd_q <= collide ? ~mem_q[rd_addr_i] : mem_q[rd_addr_i];
  end
  assign rd_data_o = rd_q;
endmodule

`default_nettype wire
