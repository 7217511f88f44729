// SPDX-License-Identifier: Apache-2.0
// Cases for scripts/ecp5-pack-regs.py (tests/fpga/test_pack_regs.sh): registers the
// pass must move into the hard blocks, and ones it must leave alone.
module pack_cases (
    input  wire        clk,
    input  wire        en,
    input  wire        rst,
    input  wire [7:0]  a,
    input  wire [7:0]  b,
    input  wire [8:0]  addr,
    input  wire        we,
    input  wire [35:0] wdata,
    output reg  [15:0] p_both,    // inputs and output registered: all three groups move
    output reg  [15:0] p_reset,   // output register with a reset: stays
    output wire [15:0] p_comb,    // no registers at all: nothing to move
    output reg  [15:0] p_mixed,   // only A's input register movable (B from logic): A's stays, the output moves
    output reg  [15:0] p_shared,  // A's register also feeds s_out: copied into the multiplier, kept for s_out
    output wire [7:0]  s_out,
    output reg  [15:0] p_deep,    // ... but behind a carry chain (u_q + v, 16 bits): not copied, inputs stay
    output wire [15:0] d_out,
    output reg  [35:0] ram_out,   // a plain register after the RAM read: moves (OUTREG)
    output reg  [35:0] ram_en,    // ... with an enable: moves, the enable on OCE
    output wire [35:0] ram_logic  // logic after the RAM read: stays
);
  reg [7:0] a_q, b_q;
  always @(posedge clk) begin
    a_q    <= a;
    b_q    <= b;
    p_both <= $signed(a_q) * $signed(b_q);
  end
  always @(posedge clk)
    if (rst) p_reset <= 16'd0;
    else     p_reset <= $signed(a) * $signed(b);
  assign p_comb = a * b;
  reg [7:0] m_q;
  always @(posedge clk) begin
    m_q     <= a ^ b;
    p_mixed <= $signed(m_q) * $signed(a & b);
  end

  reg [7:0] s_q, t_q;
  reg [15:0] u_q, d_q;
  reg [7:0]  e_q;
  always @(posedge clk) begin
    u_q    <= {a ^ 8'h11, b ^ 8'h22};
    d_q    <= u_q + {a, a};
    e_q    <= a ^ 8'h3c;
    p_deep <= $signed(d_q[15:8]) * $signed(e_q);
  end
  assign d_out = d_q;
  always @(posedge clk) begin
    s_q      <= a ^ b;
    t_q      <= ~b;
    p_shared <= $signed(s_q) * $signed(t_q);
  end
  assign s_out = s_q;

  (* no_rw_check *) reg [35:0] mem1 [0:511];
  (* no_rw_check *) reg [35:0] mem2 [0:511];
  (* no_rw_check *) reg [35:0] mem3 [0:511];
  reg [35:0] rd1, rd2, rd3;
  always @(posedge clk) begin
    if (we) begin
      mem1[addr] <= wdata;
      mem2[addr] <= wdata;
      mem3[addr] <= wdata;
    end
    rd1 <= mem1[~addr];
    rd2 <= mem2[~addr];
    rd3 <= mem3[~addr];
    ram_out <= rd1;
    if (en) ram_en <= rd2;
  end
  assign ram_logic = rd3 ^ {36{en}};
endmodule
