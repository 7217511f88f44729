// SPDX-License-Identifier: Apache-2.0
// The host link of a board: framed requests arrive as bytes (from tpu_uart_rx), are
// checked and executed, and every complete request gets one reply (to tpu_uart_tx).
//
// Request: 0x5A, cmd, addr (4 bytes LE), len (2 bytes LE), payload, sum
//   cmd 1 CSR read (no payload)           reply payload: the 32-bit value (LE)
//   cmd 2 CSR write (payload: 4 bytes LE) reply payload: none
//   cmd 3 memory read of len bytes        reply payload: the len bytes
//   cmd 4 memory write (payload: len bytes)
// Reply: 0xA5, status, payload, sum. Status: 0 OK, 1 checksum, 2 unknown command,
// 3 memory range or length (len 1..MaxPayload, addr + len <= MemBytes), 4 bus error
// (the CSR access answered SLVERR/DECERR). The sum byte makes the bytes after the first
// add up to 0 mod 256. A request is executed only when its sum is right, so a corrupted
// frame changes nothing; a frame that stops arriving for TimeoutCycles is dropped
// without a reply, and the bridge looks for the next 0x5A. The bridge takes bytes from
// the second cycle after rst_ni rises (its reset passes through a register).
`default_nettype none
`include "tpu_axi_ports.vh"

module tpu_uart_bridge #(
    parameter integer MaxPayload    = 256,
    parameter integer MemBytes      = 65536,
    parameter integer TimeoutCycles = 1000000
) (
    input  wire        clk_i,
    input  wire        rst_ni,
    // bytes in and out
    input  wire        in_valid_i,
    input  wire [7:0]  in_data_i,
    output wire        out_valid_o,
    input  wire        out_ready_i,
    output wire [7:0]  out_data_o,
    // AXI4-Lite master to the core's registers
    `TPU_AXIL_MASTER_PORTS(m_),
    // device memory, a byte at a time (a read answers with mem_rvalid_i later)
    output wire        mem_valid_o,
    input  wire        mem_ready_i,
    output wire        mem_we_o,
    output wire [31:0] mem_addr_o,
    output wire [7:0]  mem_wdata_o,
    input  wire        mem_rvalid_i,
    input  wire [7:0]  mem_rdata_i
);
  localparam [7:0] ReqSync = 8'h5a, ReplySync = 8'ha5;
  localparam [7:0] CmdCsrRead = 8'd1, CmdCsrWrite = 8'd2, CmdMemRead = 8'd3, CmdMemWrite = 8'd4;
  localparam [7:0] StOk = 8'd0, StChecksum = 8'd1, StCommand = 8'd2, StRange = 8'd3, StBus = 8'd4;
  localparam integer PayBits = $clog2(MaxPayload);  // a buffer index
  localparam integer TimeBits = $clog2(TimeoutCycles + 1);
  localparam integer MemBits  = $clog2(MemBytes);
  localparam integer IdxBits  = $clog2(MaxPayload + 1);
  localparam [IdxBits-1:0] IdxEnd = MaxPayload[IdxBits-1:0];
  localparam [MemBits:0] MemEnd = {1'b1, {MemBits{1'b0}}};   // MemBytes
  initial begin
    if (MemBits > 30 || (1 << MemBits) != MemBytes || MaxPayload > 65535) begin
      $display("tpu_uart_bridge: MemBytes a power of two up to 2^30, MaxPayload below 2^16");
      $finish;
    end
  end

  localparam [3:0] SSync = 4'd0, SHdr = 4'd1, SPay = 4'd2, SSum = 4'd3, SExec = 4'd4, SCsrRd = 4'd5,
                   SCsrWr = 4'd6, SCsrB = 4'd7, SMemWr = 4'd8, SReply = 4'd9, SMemRd = 4'd10,
                   SMemWait = 4'd11, SData = 4'd12, SMemLd = 4'd13, SMemLd2 = 4'd14;

  reg [3:0]          state_q;
  reg [2:0]          hdr_q;        // header byte index 0..6
  reg [7:0]          cmd_q;
  reg [31:0]         addr_q;       // (its bits from MemBits up only as addr_far_q)
  reg                addr_far_q;   // an address bit from MemBits up is set
  reg [15:0]         len_q;
  reg [IdxBits-1:0]  idx_q;        // payload byte index (request, memory write, reply; a
                                   // request's stops at MaxPayload: the buffer's end)
  reg [15:0]         rem_q;        // and the bytes after it: its last when zero
  reg                timeout_q;    // quiet_q has reached TimeoutCycles
  reg [7:0]          sum_q;        // request bytes so far (the reply's: rsum_q, below)
  reg [7:0]          status_q;
  reg                sum_bad_q;    // the frame's checksum failed (decided in SSum, used in SExec)
  reg                range_ok_q;   // range_ok a cycle old: the header is complete a cycle before SSum
  reg [31:0]         word_q;       // CSR write value, then CSR read value
  reg [TimeBits-1:0] quiet_q;      // cycles since the last byte of an incomplete frame
  reg                ar_done_q, aw_done_q, w_done_q;
  reg [1:0]          phase_q;      // reply: 0 sync, 1 status, 2 payload, 3 sum
  reg [7:0]          data_q;       // memory byte read for the reply
  reg [7:0]          rbyte_q, wbyte_q;   // payload byte read from buf_q, then written to memory
  reg [7:0]          buf_q [0:MaxPayload-1];

  wire receiving = state_q == SHdr || state_q == SPay || state_q == SSum;
  wire is_mem    = cmd_q == CmdMemRead || cmd_q == CmdMemWrite;
  // addr + len <= MemBytes (a power of two, 2^MemBits): addr's bits from MemBits up are
  // zero, and its low bits plus len do not pass it
  wire [63:0]      len64   = {48'd0, len_q};
  wire [MemBits:0] mem_end = {1'b0, addr_q[MemBits-1:0]} + len64[MemBits:0];
  wire range_ok  = len_q != 16'd0 && len_q <= MaxPayload[15:0] && !addr_far_q && mem_end <= MemEnd;
  // an address byte's bits from MemBits up (byte b holds address bits 8b .. 8b + 7)
  function automatic far_bits(input [7:0] v, input integer b);
    reg [63:0] at;
    begin
      at       = {56'd0, v} << (8 * b);
      far_bits = (at >> MemBits) != 64'd0;
    end
  endfunction
  wire unused_len = ^len64[63:MemBits+1];
  wire known_cmd = cmd_q == CmdCsrRead || cmd_q == CmdCsrWrite || is_mem;
  wire out_fire  = out_valid_o && out_ready_i;
  // (from registers, in SExec: the address's add and compare stay out of the byte's path)
  wire [7:0] status = sum_bad_q ? StChecksum : !known_cmd ? StCommand : is_mem && !range_ok_q ? StRange : StOk;
  always @(posedge clk_i) range_ok_q <= range_ok;
  wire [15:0] reply_len = status_q != StOk ? 16'd0 :
                          cmd_q == CmdCsrRead ? 16'd4 : cmd_q == CmdMemRead ? len_q : 16'd0;
  // The counts rem_q is loaded with, minus one, from registers: the reply's, a cycle
  // behind status, command and length (final before its status byte goes out), and the
  // request payload's, from flags taken with the command and the low length byte (the
  // high byte arrives with the load: only it goes through a decrement).
  reg        csr_wr_q, mem_wr_q, lo_zero_q;
  reg [7:0]  lo_m1_q;
  reg [IdxBits-1:0] reply_m1_q;   // (a reply's payload is at most MaxPayload bytes)
  reg        reply_some_q;
  always @(posedge clk_i) begin
    reply_m1_q   <= reply_len[IdxBits-1:0] - 1'b1;
    reply_some_q <= reply_len != 16'd0;
  end
  wire [15:0] pay_m1   = mem_wr_q ? {in_data_i - {7'd0, lo_zero_q}, lo_m1_q} : csr_wr_q ? 16'd3 : 16'hffff;
  wire        pay_some = mem_wr_q ? (in_data_i != 8'd0 || !lo_zero_q) : csr_wr_q;
  reg [7:0] rsum_q, sent_q;
  reg       sent_add_q;
  wire [7:0] rsum_now = sent_add_q ? rsum_q + sent_q : rsum_q;
  wire [7:0] reply_byte = state_q == SData ? (cmd_q == CmdCsrRead ? word_q[8*idx_q[1:0] +: 8] : data_q) :
                          phase_q == 2'd0 ? ReplySync :
                          phase_q == 2'd1 ? status_q : 8'd0 - rsum_now;
  wire next_is_mem = cmd_q == CmdMemRead;

  // The reply's checksum adds each byte sent a cycle after it goes, from a register (the
  // add behind the reply-byte multiplexer was the N = 8 ULX3S build's longest path,
  // 10.5 ns); the checksum byte itself counts the add still pending (a byte sent the
  // cycle before: the transmitter never takes two so close, the interface allows it).
  always @(posedge clk_i) begin
    sent_q     <= reply_byte;
    sent_add_q <= out_fire && !(state_q == SReply && phase_q == 2'd0);  // (the sync byte is not summed)
    if (state_q == SExec) rsum_q <= 8'd0;
    else if (sent_add_q) rsum_q <= rsum_q + sent_q;
  end

  // The reset through a register of the bridge's own: the board's reset reaches the
  // whole SoC, and its route, in front of every enable of this state machine, was the
  // path that limited the N = 4 ULX3S build. (The bridge leaves reset a cycle later.)
  reg rst_nq;
  always @(posedge clk_i) rst_nq <= rst_ni;
  always @(posedge clk_i) begin
    if (!rst_nq) begin
      state_q   <= SSync;
      quiet_q   <= {TimeBits{1'b0}};
      timeout_q <= 1'b0;
    end else begin
      quiet_q <= in_valid_i || !receiving ? {TimeBits{1'b0}} : quiet_q + 1'b1;
      // (the comparison a cycle ahead, on the count it is about to reach)
      timeout_q <= !in_valid_i && receiving && quiet_q == TimeoutCycles[TimeBits-1:0] - 1'b1;
      if (timeout_q) begin
        state_q <= SSync;  // the rest of the frame never came
      end else begin
        case (state_q)
          SSync: if (in_valid_i && in_data_i == ReqSync) begin
            state_q <= SHdr;
            hdr_q   <= 3'd0;
            sum_q   <= 8'd0;
          end
          SHdr: if (in_valid_i) begin
            sum_q <= sum_q + in_data_i;
            hdr_q <= hdr_q + 3'd1;
            case (hdr_q)
              3'd0: begin
                cmd_q    <= in_data_i;
                csr_wr_q <= in_data_i == CmdCsrWrite;
                mem_wr_q <= in_data_i == CmdMemWrite;
              end
              3'd1: begin addr_q[7:0]   <= in_data_i; addr_far_q <= far_bits(in_data_i, 0); end
              3'd2: begin addr_q[15:8]  <= in_data_i; if (far_bits(in_data_i, 1)) addr_far_q <= 1'b1; end
              3'd3: begin addr_q[23:16] <= in_data_i; if (far_bits(in_data_i, 2)) addr_far_q <= 1'b1; end
              3'd4: begin addr_q[31:24] <= in_data_i; if (far_bits(in_data_i, 3)) addr_far_q <= 1'b1; end
              3'd5: begin
                len_q[7:0] <= in_data_i;
                lo_zero_q  <= in_data_i == 8'd0;
                lo_m1_q    <= in_data_i - 8'd1;
              end
              default: begin
                len_q[15:8] <= in_data_i;
                idx_q       <= {IdxBits{1'b0}};
                rem_q       <= pay_m1;
                state_q     <= pay_some ? SPay : SSum;
              end
            endcase
          end
          SPay: if (in_valid_i) begin
            sum_q <= sum_q + in_data_i;
            if (idx_q != IdxEnd) begin
              idx_q <= idx_q + 1'b1;
              buf_q[idx_q[PayBits-1:0]] <= in_data_i;
            end
            rem_q <= rem_q - 16'd1;
            if (rem_q == 16'd0) state_q <= SSum;
          end
          SSum: if (in_valid_i) begin
            sum_bad_q <= sum_q + in_data_i != 8'd0;
            state_q   <= SExec;
          end
          SExec: begin
            idx_q     <= {IdxBits{1'b0}};
            rem_q     <= len_q - 16'd1;   // (a memory write's bytes)
            ar_done_q <= 1'b0;
            aw_done_q <= 1'b0;
            w_done_q  <= 1'b0;
            phase_q   <= 2'd0;
            status_q  <= status;
            state_q   <= status != StOk ? SReply :
                         cmd_q == CmdCsrRead ? SCsrRd :
                         cmd_q == CmdCsrWrite ? SCsrWr :
                         cmd_q == CmdMemWrite ? SMemLd : SReply;
          end
          SCsrRd: begin
            if (m_arready_i) ar_done_q <= 1'b1;
            if (m_rvalid_i) begin
              if (m_rresp_i != 2'b00) status_q <= StBus;
              state_q <= SReply;
            end
          end
          SCsrWr: begin
            if (m_awready_i) aw_done_q <= 1'b1;
            if (m_wready_i) w_done_q <= 1'b1;
            if ((aw_done_q || m_awready_i) && (w_done_q || m_wready_i)) state_q <= SCsrB;
          end
          SCsrB: if (m_bvalid_i) begin
            if (m_bresp_i != 2'b00) status_q <= StBus;
            state_q <= SReply;
          end
          // (each byte is read from the buffer and registered once more first: the buffer is
          // block RAM, whose read data would otherwise go straight to the memory's port;
          // the second register is the RAM's output register on the ECP5)
          SMemLd:  state_q <= SMemLd2;
          SMemLd2: state_q <= SMemWr;
          SMemWr: if (mem_ready_i) begin
            idx_q   <= idx_q + 1'b1;
            rem_q   <= rem_q - 16'd1;
            state_q <= rem_q == 16'd0 ? SReply : SMemLd;
          end
          SReply: if (out_fire) begin
            case (phase_q)
              2'd0: phase_q <= 2'd1;
              2'd1: begin
                idx_q   <= {IdxBits{1'b0}};
                rem_q   <= {{(16-IdxBits){1'b0}}, reply_m1_q};
                phase_q <= reply_some_q ? 2'd2 : 2'd3;
                if (reply_some_q) state_q <= next_is_mem ? SMemRd : SData;
              end
              default: state_q <= SSync;
            endcase
          end
          SMemRd: if (mem_ready_i) state_q <= SMemWait;
          SMemWait: if (mem_rvalid_i) begin
            data_q  <= mem_rdata_i;
            state_q <= SData;
          end
          SData: if (out_fire) begin
            idx_q <= idx_q + 1'b1;
            rem_q <= rem_q - 16'd1;
            if (rem_q == 16'd0) begin
              state_q <= SReply;
              phase_q <= 2'd3;
            end else if (next_is_mem) begin
              state_q <= SMemRd;
            end
          end
          default: state_q <= SSync;
        endcase
      end
    end
  end

  // The CSR word, apart from the state machine: its writes need neither the frame
  // timeout nor the other states' conditions (a frame that times out leaves a word
  // nobody reads), which keeps its enable a few signals deep.
  // (bytes by decode of the index, not an indexed part-select: Yosys builds that as a
  // shifter over the whole word)
  integer wb;
  always @(posedge clk_i) begin
    for (wb = 0; wb < 4; wb = wb + 1)
      if (state_q == SPay && in_valid_i && idx_q == wb[IdxBits-1:0]) word_q[8*wb +: 8] <= in_data_i;
    if (state_q == SCsrRd && m_rvalid_i) word_q <= m_rdata_i;
  end

  assign out_valid_o = (state_q == SReply && phase_q != 2'd2) || state_q == SData;
  assign out_data_o  = reply_byte;
  assign m_arvalid_o = state_q == SCsrRd && !ar_done_q;
  assign m_araddr_o  = addr_q[7:0];
  assign m_rready_o  = state_q == SCsrRd;
  assign m_awvalid_o = state_q == SCsrWr && !aw_done_q;
  assign m_awaddr_o  = addr_q[7:0];
  assign m_wvalid_o  = state_q == SCsrWr && !w_done_q;
  assign m_wdata_o   = word_q;
  assign m_wstrb_o   = 4'hf;
  assign m_bready_o  = state_q == SCsrB;
  assign mem_valid_o = state_q == SMemWr || state_q == SMemRd;
  assign mem_we_o    = state_q == SMemWr;
  assign mem_addr_o  = addr_q + {{(32-IdxBits){1'b0}}, idx_q};
  always @(posedge clk_i) begin
    if (state_q == SMemLd) rbyte_q <= buf_q[idx_q[PayBits-1:0]];
    wbyte_q <= rbyte_q;
  end
  assign mem_wdata_o = wbyte_q;
endmodule

`default_nettype wire
