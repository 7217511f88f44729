// SPDX-License-Identifier: Apache-2.0
// The lite core's compute unit: an mmc (tpu_lite_mmc) and an act (tpu_lite_act), one of
// each at a time, side by side, handed over by the front end (which keeps them apart
// where their rows meet), with the multiply array (tpu_mac_array) and the accumulators
// (a row of N words per address, scrubbed after reset and every run). On the shared
// ports the mmc goes first: the accumulators' read port (its sums' reads), the unified
// buffer's port (its input rows) but for the act's writes, which never wait.
// The unified buffer's port and the weight FIFO's read port are the core's.
`default_nettype none

module tpu_lite_compute #(
    parameter integer ArraySize  = 4,
    parameter integer UbRows     = 1024,
    parameter integer AccRows    = 512,
    parameter integer WfifoDepth = 16,
    parameter integer PcBits     = 32     // (the front end's PCs)
) (
    input  wire                 clk_i,
    input  wire                 rst_ni,
    // the front end's hand-over: an mmc or act that passed its checks
    input  wire                 take_i,
    input  wire [127:0]         instr_i,
    input  wire [PcBits-1:0]    pc_i,
    output wire                 mmc_busy_o,    // (an mmc taken only while it is low)
    output wire                 act_busy_o,    // (an act taken only while it is low)
    output wire                 drain_o,       // mmc sums on their way (an act waits for them)
    output wire                 fault_o,       // one cycle: ACT_PARAM at fault_pc_o
    output wire [PcBits-1:0]    fault_pc_o,
    // the unified buffer's port
    output wire                 ub_req_o,
    output wire                 ub_we_o,
    output wire [UbBits-1:0]    ub_addr_o,
    output wire [N*8-1:0]       ub_wdata_o,
    output wire [N-1:0]         ub_be_o,       // (with ub_we_o) the bytes written
    input  wire                 ub_grant_i,    // (always, for a write)
    input  wire [N*8-1:0]       ub_rdata_i,
    // the weight FIFO's read port
    output wire                 wf_rd_o,
    output wire [WfBits-1:0]    wf_addr_o,
    input  wire [N*8-1:0]       wf_rdata_i,
    output wire                 wf_pop_o,
    input  wire                 wf_avail_i,    // a whole tile is in the FIFO
    input  wire                 abort_i,       // the run failed: drop an mmc (it waits for tiles)
    // the accumulators' scrub (a run ended, or reset)
    input  wire                 scrub_i,
    output wire                 scrub_busy_o,
    output wire                 row_o,         // a row enters the array
    // the next rows the mmc reads and the act writes or reads (the front end's interlocks:
    // the rows before them are done with): the mmc's next input row, the act's next
    // output row, parameter block and accumulator row (tpu_lite_act)
    output wire [UbBits-1:0]    m_row_o,
    output wire [UbBits-1:0]    a_row_o,
    output wire [UbBits-1:0]    a_params_o,
    output wire [AccBits-1:0]   a_acc_o,
    output wire [1:0]           dbg_busy_o     // {act, mmc} running
);
`include "tpu_isa.vh"
  localparam integer N       = ArraySize;
  localparam integer NBits   = $clog2(N);
  localparam integer SumBits = 16 + $clog2(N);
  localparam integer UbBits  = $clog2(UbRows);
  localparam integer AccBits = $clog2(AccRows);
  localparam integer WfBits  = ((WfifoDepth > 1) ? $clog2(WfifoDepth) : 1) + NBits;

  wire is_mmc = instr_i[3:0] == TPU_OP_MMC;
  reg [PcBits-1:0] act_pc_q;   // (only an act faults)
  always @(posedge clk_i) if (take_i && !is_mmc) act_pc_q <= pc_i;

  // the unified buffer's port: the act's writes, then the mmc's reads, then the act's reads
  wire                 m_ub_req, a_ub_req, a_ub_we;
  wire                 a_first = (a_ub_req && a_ub_we) || !m_ub_req;   // the act has the port

  // mmc
  wire                 m_busy, m_drain, m_w_we, m_acc_rd, m_acc_wr;
  wire [UbBits-1:0]    m_ub_addr;
  wire [NBits-1:0]     m_w_row;
  wire [N*8-1:0]       m_w, m_x;
  wire [N*SumBits-1:0] y;
  wire [AccBits-1:0]   m_acc_rd_addr, m_acc_wr_addr;
  wire [N*32-1:0]      acc_rdata, m_acc_wdata;
  tpu_lite_mmc #(.ArraySize(N), .UbRows(UbRows), .AccRows(AccRows), .WfifoDepth(WfifoDepth)) u_mmc (
      .clk_i,
      .rst_ni,
      .start_i(take_i && is_mmc),
      .instr_i,
      .busy_o(m_busy),
      .drain_o(m_drain),
      .ub_req_o(m_ub_req),
      .ub_addr_o(m_ub_addr),
      .ub_grant_i(ub_grant_i && m_ub_req && !a_first),
      .ub_rdata_i,
      .wf_rd_o,
      .wf_addr_o,
      .wf_rdata_i,
      .wf_pop_o,
      .wf_avail_i,
      .abort_i,
      .w_we_o(m_w_we),
      .w_row_o(m_w_row),
      .w_o(m_w),
      .x_o(m_x),
      .y_i(y),
      .acc_rd_o(m_acc_rd),
      .acc_rd_addr_o(m_acc_rd_addr),
      .acc_rdata_i(acc_rdata),
      .acc_wr_o(m_acc_wr),
      .acc_wr_addr_o(m_acc_wr_addr),
      .acc_wdata_o(m_acc_wdata),
      .row_o);

  tpu_mac_array #(.ArraySize(N), .FreeDsp(1)) u_array (   // (an SB_MAC16 for the requantization)
      .clk_i,
      .w_we_i(m_w_we),
      .w_row_i(m_w_row),
      .w_i(m_w),
      .x_i(m_x),
      .y_o(y));

  // act
  wire               a_busy, a_acc_rd;
  wire [UbBits-1:0]  a_ub_addr;
  wire [AccBits-1:0] a_acc_rd_addr;
  tpu_lite_act #(.ArraySize(N), .UbRows(UbRows), .AccRows(AccRows)) u_act (
      .clk_i,
      .rst_ni,
      .start_i(take_i && !is_mmc),
      .instr_i,
      .busy_o(a_busy),
      .fault_o,
      .ub_req_o(a_ub_req),
      .ub_we_o(a_ub_we),
      .ub_addr_o(a_ub_addr),
      .ub_wdata_o,
      .ub_be_o,
      .ub_grant_i(ub_grant_i && a_first),
      .ub_rdata_i,
      .acc_rd_o(a_acc_rd),
      .acc_grant_i(!m_acc_rd),
      .acc_rd_addr_o(a_acc_rd_addr),
      .acc_rdata_i(acc_rdata),
      .row_ub_o(a_row_o),
      .params_o(a_params_o),
      .row_acc_o(a_acc_o));

  // the accumulators: read by the one busy sequencer; written by mmc, or zeros by the scrub
  wire               scrubbing;
  wire [AccBits-1:0] scrub_row;
  tpu_scrub #(.Rows(AccRows)) u_scrub (
      .clk_i,
      .rst_ni,
      .start_i(scrub_i),
      .active_o(scrubbing),
      .row_o(scrub_row));
  tpu_small_ram #(.Width(N * 32), .Depth(AccRows)) u_acc (
      .clk_i,
      .rd_en_i(m_acc_rd || a_acc_rd),   // (the act's read waits while the mmc's is on)
      .rd_addr_i(m_acc_rd ? m_acc_rd_addr : a_acc_rd_addr),
      .rd_data_o(acc_rdata),
      .wr_en_i(m_acc_wr || scrubbing),
      .wr_addr_i(scrubbing ? scrub_row : m_acc_wr_addr),
      .wr_data_i(scrubbing ? {N*32{1'b0}} : m_acc_wdata));

  assign mmc_busy_o   = m_busy;
  assign act_busy_o   = a_busy;
  assign drain_o      = m_drain;
  assign dbg_busy_o   = {a_busy, m_busy};
  assign fault_pc_o   = act_pc_q;
  assign ub_req_o     = m_ub_req || a_ub_req;
  assign ub_we_o      = a_ub_req && a_ub_we;
  assign ub_addr_o    = a_first ? a_ub_addr : m_ub_addr;
  assign m_row_o      = m_ub_addr;   // (the mmc's next input row)
  assign scrub_busy_o = scrubbing;
endmodule

`default_nettype wire
