// SPDX-License-Identifier: Apache-2.0
// Icarus Verilog testbench of tpu_core for the simulation-speed benchmark (tpu-bench):
// device memory loaded from a hex file (+mem=FILE, one byte per line), an AXI4 slave
// with a fixed latency (one burst of each direction at a time), the program started
// at address 0 through AXI4-Lite; runs until the interrupt or +limit=CYCLES and prints
// "cycles C irq I".
`timescale 1ns / 1ps
module icarus_core_tb;
  parameter integer N = 16, UbRows = 4096, AccRows = 2048, Depth = 4, Width = 128, Dram = 1048576;
  parameter integer Latency = 20;
  localparam integer Bytes = Width / 8;

  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;

  reg        awvalid = 1'b0, wvalid = 1'b0, arvalid = 1'b0;
  reg [7:0]  awaddr = 8'd0, araddr = 8'd0;
  reg [31:0] wdata = 32'd0;
  wire       awready, wready, bvalid, arready, rvalid;
  wire [1:0] bresp, rresp;
  wire [31:0] rdata;

  wire             m_arvalid, m_rready, m_awvalid, m_wvalid, m_wlast, m_bready, irq;
  wire [31:0]      m_araddr, m_awaddr;
  wire [7:0]       m_arlen, m_awlen;
  wire [2:0]       m_arsize, m_awsize;
  wire [1:0]       m_arburst, m_awburst;
  wire [Width-1:0] m_wdata;
  wire [Bytes-1:0] m_wstrb;
  reg  [Width-1:0] s_rdata;

  reg [7:0] mem [0:Dram-1];

  // read channel: one burst at a time, first beat after Latency cycles
  reg        rd_busy = 1'b0;
  reg [31:0] rd_addr = 32'd0;
  reg [8:0]  rd_left = 9'd0;
  reg [15:0] rd_delay = 16'd0;
  wire       s_arready = !rd_busy;
  wire       s_rvalid = rd_busy && rd_delay == 16'd0;
  wire       s_rlast = rd_left == 9'd1;
  integer i;
  reg [31:0] rd_next;
  // s_rdata follows rd_addr, loaded at the clock edge (a combinational read would make
  // the process sensitive to every byte of the memory)
  always @(posedge clk) begin
    rd_next = rd_addr;
    if (m_arvalid && s_arready) begin
      rd_busy <= 1'b1;
      rd_next = m_araddr & ~(Bytes - 1);
      rd_left <= {1'b0, m_arlen} + 9'd1;
      rd_delay <= Latency;
    end else if (rd_busy && rd_delay != 16'd0) begin
      rd_delay <= rd_delay - 16'd1;
    end else if (s_rvalid && m_rready) begin
      rd_next = rd_addr + Bytes;
      rd_left <= rd_left - 9'd1;
      if (s_rlast) rd_busy <= 1'b0;
    end
    rd_addr <= rd_next;
    for (i = 0; i < Bytes; i = i + 1) s_rdata[8*i +: 8] <= mem[(rd_next + i) % Dram];
  end

  // write channel: one burst at a time, response after the last beat
  reg        wr_busy = 1'b0, s_bvalid = 1'b0;
  reg [31:0] wr_addr = 32'd0;
  wire       s_awready = !wr_busy;
  wire       s_wready = wr_busy && !s_bvalid;
  always @(posedge clk) begin
    if (m_awvalid && s_awready) begin
      wr_busy <= 1'b1;
      wr_addr <= m_awaddr & ~(Bytes - 1);
    end
    if (m_wvalid && s_wready) begin
      for (i = 0; i < Bytes; i = i + 1)
        if (m_wstrb[i]) mem[(wr_addr + i) % Dram] <= m_wdata[8*i +: 8];
      wr_addr <= wr_addr + Bytes;
      if (m_wlast) s_bvalid <= 1'b1;
    end
    if (s_bvalid && m_bready) begin
      s_bvalid <= 1'b0;
      wr_busy <= 1'b0;
    end
  end

  tpu_core #(.ArraySize(N), .UbRows(UbRows), .AccRows(AccRows), .WfifoDepth(Depth), .DmaWidth(Width),
             .DramBytes(Dram)) dut (
      .clk_i(clk), .rst_ni(rst_n),
      .s_axil_awvalid_i(awvalid), .s_axil_awready_o(awready), .s_axil_awaddr_i(awaddr),
      .s_axil_wvalid_i(wvalid), .s_axil_wready_o(wready), .s_axil_wdata_i(wdata), .s_axil_wstrb_i(4'hf),
      .s_axil_bvalid_o(bvalid), .s_axil_bready_i(1'b1), .s_axil_bresp_o(bresp),
      .s_axil_arvalid_i(arvalid), .s_axil_arready_o(arready), .s_axil_araddr_i(araddr),
      .s_axil_rvalid_o(rvalid), .s_axil_rready_i(1'b1), .s_axil_rdata_o(rdata), .s_axil_rresp_o(rresp),
      .m_axi_arvalid_o(m_arvalid), .m_axi_arready_i(s_arready), .m_axi_araddr_o(m_araddr),
      .m_axi_arlen_o(m_arlen), .m_axi_arsize_o(m_arsize), .m_axi_arburst_o(m_arburst),
      .m_axi_rvalid_i(s_rvalid), .m_axi_rready_o(m_rready), .m_axi_rdata_i(s_rdata), .m_axi_rresp_i(2'b00),
      .m_axi_rlast_i(s_rlast),
      .m_axi_awvalid_o(m_awvalid), .m_axi_awready_i(s_awready), .m_axi_awaddr_o(m_awaddr),
      .m_axi_awlen_o(m_awlen), .m_axi_awsize_o(m_awsize), .m_axi_awburst_o(m_awburst),
      .m_axi_wvalid_o(m_wvalid), .m_axi_wready_i(s_wready), .m_axi_wdata_o(m_wdata), .m_axi_wstrb_o(m_wstrb),
      .m_axi_wlast_o(m_wlast), .m_axi_bvalid_i(s_bvalid), .m_axi_bready_o(m_bready), .m_axi_bresp_i(2'b00),
      .irq_o(irq),
      .trace_issue_o(), .trace_pc_o(), .trace_op_o(), .trace_slot_o(), .trace_retire_o(),
      .dbg_unit_busy_o(), .dbg_queue_count_o());

  task csr_write(input [7:0] a, input [31:0] d);
    reg aw_done, w_done;
    begin
      @(negedge clk);
      awaddr = a; wdata = d; awvalid = 1'b1; wvalid = 1'b1;
      aw_done = 1'b0; w_done = 1'b0;
      while (!(aw_done && w_done)) begin
        @(posedge clk);
        if (awvalid && awready) aw_done = 1'b1;
        if (wvalid && wready) w_done = 1'b1;
        @(negedge clk);
        if (aw_done) awvalid = 1'b0;
        if (w_done) wvalid = 1'b0;
      end
      while (!bvalid) @(posedge clk);
      @(posedge clk);
    end
  endtask

  reg [1023:0] mem_file;
  integer limit, cycles;
  initial begin
    if (!$value$plusargs("mem=%s", mem_file)) begin
      $display("usage: vvp icarus_core_tb +mem=FILE.hex [+limit=CYCLES]");
      $finish;
    end
    if (!$value$plusargs("limit=%d", limit)) limit = 100000;
    $readmemh(mem_file, mem);
    repeat (4) @(posedge clk);
    rst_n = 1'b1;
    repeat ((UbRows > AccRows ? UbRows : AccRows) + 8) @(posedge clk);  // memory scrub after reset
    csr_write(8'h24, 32'd0);  // ENTRY
    csr_write(8'h20, 32'd5);  // CONTROL: start, interrupt enable
    cycles = 0;
    while (!irq && cycles < limit) begin
      @(posedge clk);
      cycles = cycles + 1;
    end
    $display("cycles %0d irq %0d", cycles, irq);
    $finish;
  end
endmodule
