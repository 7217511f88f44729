// SPDX-License-Identifier: Apache-2.0
// A core's run control (docs/architecture.md, "Errors" and "Scrubbing"): the run state
// the STATUS register shows, a start that waits while the memories are being cleared,
// and the clearing itself, started after reset and the cycle after every run ends.
// A run begins a cycle after it may (a start pending, no scrubbing, not running): from
// a register, since the begin clears and starts a core's units far apart. The core
// says when its run ends (end_i: every unit idle) and whether it failed.
`default_nettype none

module tpu_run_ctl (
    input  wire       clk_i,
    input  wire       rst_ni,
    input  wire       start_i,       // the CSR block's start (ignored while running)
    input  wire       scrub_busy_i,  // a memory is being cleared
    input  wire       end_i,         // the run ends now ...
    input  wire       failed_i,      // ... in ERROR (else DONE)
    output wire [1:0] state_o,       // TPU_STATE_*
    output wire       running_o,
    output wire       begin_o,       // one cycle: the run begins
    output wire       scrub_o        // one cycle: start clearing the memories
);
`include "tpu_isa.vh"
  reg [1:0] state_q;
  reg       start_pending_q, begin_q, scrub_go_q;
  wire      running = state_q == TPU_STATE_RUNNING;

  always @(posedge clk_i) begin
    begin_q    <= rst_ni && start_pending_q && !scrub_busy_i && !scrub_go_q && !running && !begin_q;
    scrub_go_q <= !rst_ni || (running && end_i);
    if (!rst_ni) begin
      state_q         <= TPU_STATE_IDLE;
      start_pending_q <= 1'b0;
    end else begin
      if (start_i && !running) start_pending_q <= 1'b1;
      if (begin_q) begin
        state_q         <= TPU_STATE_RUNNING;
        start_pending_q <= 1'b0;
      end else if (running && end_i) begin
        state_q <= failed_i ? TPU_STATE_ERROR : TPU_STATE_DONE;
      end
    end
  end

  assign state_o   = state_q;
  assign running_o = running;
  assign begin_o   = begin_q;
  assign scrub_o   = scrub_go_q;
endmodule

`default_nettype wire
