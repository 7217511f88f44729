// SPDX-License-Identifier: Apache-2.0
// A sequencer's retirement, shared by the units whose instructions can fault (DMA-in,
// activation, DMA-out): in its retire state the unit raises its fault, if it has one,
// for a cycle first, and retires the instruction the cycle after. The fault is raised
// from a flip-flop, a cycle into the retire state, so that the controller's choice of
// the oldest fault starts at a register, not at the unit's state decode (a cycle
// more for a faulting instruction only, once a run). The controller
// registers the faults before it picks the oldest, so its report (err_valid) comes a
// cycle after the fault; with the retirement a cycle later too, the report still
// arrives the cycle after the retirement, as every whm fence and younger check expects
// (docs/architecture.md, "Errors").
`default_nettype none

module tpu_seq_retire #(
    parameter integer Slots = 8
) (
    input  wire                clk_i,
    input  wire                rst_ni,
    input  wire                retiring_i,   // the unit is in its retire state
    input  wire                fault_i,      // the instruction faulted (steady while retiring)
    input  wire [SlotBits-1:0] slot_i,
    output wire                fault_o,      // report the fault now
    output wire                done_o,       // retire now: leave the retire state
    output wire [Slots-1:0]    retire_o      // the slot's retire mask (with done_o)
);
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;
  reg raise_q, reported_q;
  always @(posedge clk_i) begin
    raise_q    <= rst_ni && retiring_i && fault_i && !raise_q && !reported_q;
    reported_q <= rst_ni && raise_q;
  end
  assign fault_o = raise_q;
  assign done_o  = retiring_i && (!fault_i || reported_q);
  tpu_slot_mask #(.Slots(Slots)) u_mask (.valid_i(done_o), .slot_i(slot_i), .mask_o(retire_o));
endmodule

`default_nettype wire
