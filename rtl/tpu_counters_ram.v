// SPDX-License-Identifier: Apache-2.0
// The performance counters of tpu_counters (the same ports and meaning) in a block RAM
// instead of 64 flip-flops and a 64-bit adder each: for the lite core, whose FPGA has
// more RAM than logic cells.
//
// Each counter adds its events to a small pending sum in flip-flops. One 16-bit adder
// sweeps the RAM, a counter every four cycles, a 16-bit chunk a cycle: it takes the
// counter's pending sum (the events before that cycle; that cycle's step starts the next
// sum) and adds it to the stored value, low chunk first, carrying between chunks. A
// pending sum gathers at most one sweep (4 * Counters cycles), so it needs StepBits + log2(4 * Counters) bits
// (log2(4 * Counters + 1) for a counter of single events; a counter of single events
// that each count 2^OneShift, Scaled, keeps the count of events, shifted as it is added).
//
// A clear or a load marks the counter; its next visit writes zero or the loaded value
// instead of the stored one (a clear: every counter in one cycle). A read waits for the
// counter's next visit that starts after the read was asked for (at most one sweep and
// four cycles) and answers with what that visit writes: every event before the ask.
`default_nettype none
`include "tpu_counter_ports.vh"

module tpu_counters_ram #(
    parameter integer Counters = 11,
    parameter integer StepBits = 16,  // the widest step an event adds in a cycle
    parameter [Counters-1:0] Zero = {Counters{1'b0}},  // counters a core never moves
    parameter [Counters-1:0] OneBit = {Counters{1'b0}}, // counters whose step is 0 or 1 (bit 0 of theirs)
    parameter [Counters-1:0] Scaled = {Counters{1'b0}}, // (of those) counters whose event counts 2^OneShift
    parameter integer OneShift = 0
) (
    `TPU_COUNTER_PORTS
);
`include "tpu_isa.vh"
  localparam integer Sweep    = 4 * Counters;
  localparam integer OneBits  = $clog2(Sweep + 1);  // (a single event's counter)
  localparam integer WideBits = StepBits + $clog2(Sweep);
  localparam integer PendBits = (Scaled != 0 && OneBits + OneShift > WideBits) ? OneBits + OneShift : WideBits;
  localparam integer CBits   = $clog2(Counters);
  initial begin
    if (Counters != TPU_COUNTERS || PendBits > 64 || (Scaled & ~OneBit) != 0) begin
      $display("tpu_counters_ram: Counters must be TPU_COUNTERS (tpu_isa.vh), StepBits at most %0d, Scaled counters OneBit",
               64 - $clog2(Sweep));
      $finish;
    end
  end
  localparam integer LastI = Counters - 1;
  localparam [CBits-1:0] Last  = LastI[CBits-1:0];
  localparam [CBits-1:0] Instr = TPU_CNT_INSTRUCTIONS[CBits-1:0];

  // ---- the sweep: stage 1 reads chunk k of counter c, stage 2 adds and writes it back ----
  reg  [CBits-1:0] c_q, c2_q;
  reg  [1:0]       k_q, k2_q;
  reg              v2_q;                 // stage 2 holds a chunk (not in the cycle after a reset)
  wire             visit = k_q == 2'd0;  // a visit of counter c_q starts (its pending sum taken)
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      c_q  <= {CBits{1'b0}};
      k_q  <= 2'd0;
      v2_q <= 1'b0;
    end else begin
      k_q  <= k_q + 2'd1;
      if (k_q == 2'd3) c_q <= c_q == Last ? {CBits{1'b0}} : c_q + 1'b1;
      v2_q <= 1'b1;
    end
    c2_q <= c_q;
    k2_q <= k_q;
  end

  // ---- pending sums, and the marks of a clear and a load -----------------------------
  wire [Counters-1:0] visited;       // one-hot: whose visit starts
  genvar v;
  generate
    for (v = 0; v < Counters; v = v + 1) begin : g_visited
      localparam [CBits-1:0] Me = v;
      assign visited[v] = visit && c_q == Me;
    end
  endgenerate
  wire [Counters*PendBits-1:0] pend;     // counter c's, or zero unless c's visit starts now
  reg  [Counters-1:0]          zero_q;   // the next visit writes zero
  reg                          load_q;   // the next visit of the instruction count writes ld_q
  reg  [63:0]                  ld_q;
  genvar c;
  generate
    for (c = 0; c < Counters; c = c + 1) begin : g_pend
      if (Zero[c]) begin : g_zero
        assign pend[PendBits*c +: PendBits] = {PendBits{1'b0}};
        wire unused = ^step_i[StepBits*c +: StepBits];
      end else begin : g_live
        localparam integer Bits = OneBit[c] ? OneBits : PendBits;
        wire [Bits-1:0] step;
        if (OneBit[c]) begin : g_one
          assign step = {{(Bits-1){1'b0}}, counting_i && step_i[StepBits*c]};
          wire unused = ^step_i[StepBits*c+1 +: StepBits-1];
        end else begin : g_wide
          assign step = {{(Bits-StepBits){1'b0}}, counting_i ? step_i[StepBits*c +: StepBits] : {StepBits{1'b0}}};
        end
        // A visit takes the sum so far (the register: the adder's output then goes to the
        // register alone, sharing its logic cells) and starts the next with this cycle's
        // step (its choice in the adder's LUT4, whose fourth input is free).
        reg  [Bits-1:0] pend_q;
        wire [Bits-1:0] next = pend_q + step;
        always @(posedge clk_i) begin
          if (!rst_ni || clear_i || (load_i && c == TPU_CNT_INSTRUCTIONS)) pend_q <= {Bits{1'b0}};
          else pend_q <= visited[c] ? step : next;
        end
        localparam integer Shift = Scaled[c] ? OneShift : 0;
        wire [PendBits+OneShift-1:0] taken = {{(PendBits+OneShift-Bits){1'b0}}, pend_q} << Shift;
        assign pend[PendBits*c +: PendBits] = visited[c] ? taken[PendBits-1:0] : {PendBits{1'b0}};
        if (OneShift > 0) begin : g_top
          wire unused_top = ^taken[PendBits+OneShift-1:PendBits];   // (zero: PendBits holds the shifted sum)
        end
      end
    end
  endgenerate
  // (an OR of the one visited, not an index: Yosys builds a shifter for pend[PendBits * c_q +: ...])
  reg [PendBits-1:0] taken_pend;
  integer i;
  always @(*) begin
    taken_pend = {PendBits{1'b0}};
    for (i = 0; i < Counters; i = i + 1) taken_pend = taken_pend | pend[PendBits*i +: PendBits];
  end

  // The visit's own copies: what it adds and what it starts from.
  reg  [PendBits-1:0] add_q;
  reg                 vzero_q, vload_q;
  wire                instr_visit = visited[Instr];
  always @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      zero_q <= {Counters{1'b1}};
      load_q <= 1'b0;
    end else begin
      zero_q <= zero_q & ~visited;
      if (load_i) begin  // (a load after a clear: the loaded value, not zero)
        load_q        <= 1'b1;
        zero_q[Instr] <= 1'b0;
      end else if (instr_visit) load_q <= 1'b0;
    end
    if (load_i) ld_q <= load_value_i;
    if (visit) begin
      add_q   <= (clear_i || (load_i && instr_visit)) ? {PendBits{1'b0}} : taken_pend;
      vzero_q <= !rst_ni || clear_i || (|(zero_q & visited) && !(load_i && instr_visit));
      vload_q <= instr_visit && (load_i || load_q);
    end
  end

  // ---- the RAM and the chunk adder -------------------------------------------------------
  wire [15:0] stored;
  reg  [15:0] sum;
  reg         carry;
  reg         carry_q;
  wire [63:0] add_w = {{(64-PendBits){1'b0}}, add_q};
  reg  [15:0] base, add, ld;
  always @(*) begin
    case (k2_q)  // (cases, not [16 * k2_q +: 16]: a shifter again)
      2'd0:    begin ld = ld_q[15:0];  add = add_w[15:0];  end
      2'd1:    begin ld = ld_q[31:16]; add = add_w[31:16]; end
      2'd2:    begin ld = ld_q[47:32]; add = add_w[47:32]; end
      default: begin ld = ld_q[63:48]; add = add_w[63:48]; end
    endcase
    base = vzero_q ? 16'd0 : vload_q ? ld : stored;
    {carry, sum} = {1'b0, base} + {1'b0, add} + {16'd0, k2_q != 2'd0 && carry_q};
  end
  always @(posedge clk_i) carry_q <= carry;

  tpu_small_ram #(.Width(16), .Depth(Counters * 4)) u_ram (
      .clk_i,
      .rd_en_i(1'b1),
      .rd_addr_i({c_q, k_q}),
      .rd_data_o(stored),
      .wr_en_i(v2_q),
      .wr_addr_i({c2_q, k2_q}),
      .wr_data_i(sum));

  // ---- reads: armed by the first visit of the counter after the ask -------------------
  reg        armed_q, valid_q;
  reg [63:0] value_q;
  wire       arm  = rd_i && !armed_q && !valid_q && visit && {{(5-CBits){1'b0}}, c_q} == rd_index_i;
  wire       done = armed_q && v2_q && k2_q == 2'd3;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      armed_q <= 1'b0;
      valid_q <= 1'b0;
    end else begin
      armed_q <= arm || (armed_q && !done);
      valid_q <= done;
    end
    if (armed_q && v2_q && k2_q == 2'd0) value_q[15:0]  <= sum;
    if (armed_q && v2_q && k2_q == 2'd1) value_q[31:16] <= sum;
    if (armed_q && v2_q && k2_q == 2'd2) value_q[47:32] <= sum;
    if (armed_q && v2_q && k2_q == 2'd3) value_q[63:48] <= sum;
  end
  assign rd_valid_o = valid_q;
  assign rd_value_o = value_q;
endmodule

`default_nettype wire
