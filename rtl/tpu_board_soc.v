// SPDX-License-Identifier: Apache-2.0
// Everything a board carries except its RAM macros, clock and reset: the core, its
// device memory controller and the UART host link (docs/fpga.md has the protocol).
// A board top (rtl/ice40/) adds the RAM on the ram_* port, the clock and a reset.
`default_nettype none
`include "tpu_geometry.vh"

module tpu_board_soc #(
    `TPU_GEOMETRY_PARAMS(4, 1024, 512, 32, 65536),
    // Fewer instructions in flight than the core's defaults: a board's memory serves one
    // beat every two cycles, so deeper queues buy little and cost logic and flip-flops.
    parameter integer Slots         = 4,
    parameter integer QueueDepth    = 2,
    parameter integer SerialAct     = 0,        // 1: one requantization lane (tpu_activation)
    parameter integer LogicRows     = 0,        // matrix rows whose products are in logic (tpu_pe)
    parameter integer GatherSegs    = 0,        // DMA window gather (tpu_dma_in); configuration gather_segs
    parameter integer SmallCore     = 0,        // 1: tpu_small_core instead of tpu_core (UP5K); 2: tpu_lite_core
    parameter integer MaxBeats      = 16,
    parameter integer ClksPerBit    = 104,      // clock / baud: 12 MHz, 115200 baud
    parameter integer MaxPayload    = 256,      // bytes per memory request
    parameter integer TimeoutCycles = 1200000,  // a frame silent this long is dropped (0.1 s)
    parameter integer MemRegistered = 0         // 1: registered RAM inputs, RAM with an output register (tpu_board_mem)
) (
    input  wire                  clk_i,
    input  wire                  rst_ni,
    input  wire                  uart_rx_i,
    output wire                  uart_tx_o,
    output wire                  irq_o,       // a run ended (until the host clears it)
    output wire                  ram_en_o,
    output wire [DmaWidth/8-1:0] ram_we_o,
    output wire [WordBits-1:0]   ram_addr_o,
    output wire [DmaWidth-1:0]   ram_wdata_o,
    input  wire [DmaWidth-1:0]   ram_rdata_i
);
  localparam integer WordBits = $clog2(DramBytes / (DmaWidth / 8));
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;

  // ---- host link -------------------------------------------------------------------
  wire       rx_valid, tx_valid, tx_ready;
  wire [7:0] rx_data, tx_data;
  tpu_uart_rx #(.ClksPerBit(ClksPerBit)) u_rx (
      .clk_i,
      .rst_ni,
      .rx_i(uart_rx_i),
      .valid_o(rx_valid),
      .data_o(rx_data));
  tpu_uart_tx #(.ClksPerBit(ClksPerBit)) u_tx (
      .clk_i,
      .rst_ni,
      .valid_i(tx_valid),
      .ready_o(tx_ready),
      .data_i(tx_data),
      .tx_o(uart_tx_o));

  wire        l_awvalid, l_awready, l_wvalid, l_wready, l_bvalid, l_bready;
  wire        l_arvalid, l_arready, l_rvalid, l_rready;
  wire [7:0]  l_awaddr, l_araddr;
  wire [31:0] l_wdata, l_rdata;
  wire [3:0]  l_wstrb;
  wire [1:0]  l_bresp, l_rresp;
  wire        b_valid, b_ready, b_we, b_rvalid;
  wire [31:0] b_addr;
  wire [7:0]  b_wdata, b_rdata;
  tpu_uart_bridge #(.MaxPayload(MaxPayload), .MemBytes(DramBytes), .TimeoutCycles(TimeoutCycles)) u_bridge (
      .clk_i,
      .rst_ni,
      .in_valid_i(rx_valid),
      .in_data_i(rx_data),
      .out_valid_o(tx_valid),
      .out_ready_i(tx_ready),
      .out_data_o(tx_data),
      .m_awvalid_o(l_awvalid),
      .m_awready_i(l_awready),
      .m_awaddr_o(l_awaddr),
      .m_wvalid_o(l_wvalid),
      .m_wready_i(l_wready),
      .m_wdata_o(l_wdata),
      .m_wstrb_o(l_wstrb),
      .m_bvalid_i(l_bvalid),
      .m_bready_o(l_bready),
      .m_bresp_i(l_bresp),
      .m_arvalid_o(l_arvalid),
      .m_arready_i(l_arready),
      .m_araddr_o(l_araddr),
      .m_rvalid_i(l_rvalid),
      .m_rready_o(l_rready),
      .m_rdata_i(l_rdata),
      .m_rresp_i(l_rresp),
      .mem_valid_o(b_valid),
      .mem_ready_i(b_ready),
      .mem_we_o(b_we),
      .mem_addr_o(b_addr),
      .mem_wdata_o(b_wdata),
      .mem_rvalid_i(b_rvalid),
      .mem_rdata_i(b_rdata));

  // ---- the core ----------------------------------------------------------------------
  wire                  arvalid, arready, rvalid, rready, rlast;
  wire                  awvalid, awready, wvalid, wready, wlast, bvalid, bready;
  wire [31:0]           araddr, awaddr;
  wire [7:0]            arlen, awlen;
  wire [2:0]            arsize, awsize;
  wire [1:0]            arburst, awburst, rresp, bresp;
  wire [DmaWidth-1:0]   rdata, wdata;
  wire [DmaWidth/8-1:0] wstrb;
  // Observation ports for simulation monitors; a board has no use for them.
  wire                  unused_trace_issue;
  wire [31:0]           unused_trace_pc;
  wire [3:0]            unused_trace_op, unused_busy;
  wire [SlotBits-1:0]   unused_trace_slot;
  wire [Slots-1:0]      unused_trace_retire;
  wire [31:0]           unused_queues;
  generate
    if (SmallCore != 0) begin : g_small
      // (the two cores with one scoreboard slot and the same ports)
      if (SmallCore == 2) begin : g_lite
        tpu_lite_core #(`TPU_GEOMETRY_PASS) u_core (
`include "tpu_board_core_ports.vh"
            .trace_issue_o(unused_trace_issue),
            .trace_pc_o(unused_trace_pc),
            .trace_op_o(unused_trace_op),
            .trace_slot_o(unused_trace_slot[0]),
            .trace_retire_o(unused_trace_retire[0]),
            .dbg_unit_busy_o(unused_busy),
            .dbg_queue_count_o(unused_queues));
      end else begin : g_scalar
        tpu_small_core #(`TPU_GEOMETRY_PASS) u_core (
`include "tpu_board_core_ports.vh"
            .trace_issue_o(unused_trace_issue),
            .trace_pc_o(unused_trace_pc),
            .trace_op_o(unused_trace_op),
            .trace_slot_o(unused_trace_slot[0]),
            .trace_retire_o(unused_trace_retire[0]),
            .dbg_unit_busy_o(unused_busy),
            .dbg_queue_count_o(unused_queues));
      end
      if (Slots > 1) begin : g_pad
        assign unused_trace_retire[Slots-1:1] = {(Slots-1){1'b0}};
      end
      if (SlotBits > 1) begin : g_pad_slot
        assign unused_trace_slot[SlotBits-1:1] = {(SlotBits-1){1'b0}};
      end
    end else begin : g_full
      tpu_core #(`TPU_GEOMETRY_PASS,
                 .Slots(Slots),
                 .QueueDepth(QueueDepth),
                 .MaxBeats(MaxBeats),
                 .ReadBursts(2),  // the board memory serves one burst at a time
                 .SerialAct(SerialAct), .LogicRows(LogicRows), .GatherSegs(GatherSegs)) u_core (
`include "tpu_board_core_ports.vh"
          .trace_issue_o(unused_trace_issue),
          .trace_pc_o(unused_trace_pc),
          .trace_op_o(unused_trace_op),
          .trace_slot_o(unused_trace_slot),
          .trace_retire_o(unused_trace_retire),
          .dbg_unit_busy_o(unused_busy),
          .dbg_queue_count_o(unused_queues));
    end
  endgenerate
  // The core always asks for full-width INCR bursts; the memory needs neither field.
  wire unused_axi = ^{arsize, awsize, arburst, awburst};

  // ---- device memory -----------------------------------------------------------------
  tpu_board_mem #(.DataWidth(DmaWidth), .MemBytes(DramBytes), .Registered(MemRegistered)) u_mem (
      .clk_i,
      .rst_ni,
      .s_arvalid_i(arvalid),
      .s_arready_o(arready),
      .s_araddr_i(araddr),
      .s_arlen_i(arlen),
      .s_rvalid_o(rvalid),
      .s_rready_i(rready),
      .s_rdata_o(rdata),
      .s_rresp_o(rresp),
      .s_rlast_o(rlast),
      .s_awvalid_i(awvalid),
      .s_awready_o(awready),
      .s_awaddr_i(awaddr),
      .s_awlen_i(awlen),
      .s_wvalid_i(wvalid),
      .s_wready_o(wready),
      .s_wdata_i(wdata),
      .s_wstrb_i(wstrb),
      .s_wlast_i(wlast),
      .s_bvalid_o(bvalid),
      .s_bready_i(bready),
      .s_bresp_o(bresp),
      .byte_valid_i(b_valid),
      .byte_ready_o(b_ready),
      .byte_we_i(b_we),
      .byte_addr_i(b_addr),
      .byte_wdata_i(b_wdata),
      .byte_rvalid_o(b_rvalid),
      .byte_rdata_o(b_rdata),
      .ram_en_o,
      .ram_we_o,
      .ram_addr_o,
      .ram_wdata_o,
      .ram_rdata_i);
endmodule

`default_nettype wire
