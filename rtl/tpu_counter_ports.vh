// SPDX-License-Identifier: Apache-2.0
// The performance counters' ports (tpu_counters in flip-flops, tpu_counters_ram in block
// RAM), written once. rst_ni is synchronous and clears every counter; clear_i (a run
// begins) clears them too; the steps count while counting_i; step_i holds counter c's
// step at bits StepBits * c; load_i makes the instruction count load_value_i (a failed
// run's). The register block reads a counter through rd_*: rd_i asks for counter
// rd_index_i's value and stays up until rd_valid_o, which comes with it (tpu_counters:
// in the same cycle; tpu_counters_ram: later, the value then held until the next answer).
`ifndef TPU_COUNTER_PORTS_VH
`define TPU_COUNTER_PORTS_VH
`define TPU_COUNTER_PORTS \
    input  wire                         clk_i, \
    input  wire                         rst_ni, \
    input  wire                         clear_i, \
    input  wire                         counting_i, \
    input  wire [Counters*StepBits-1:0] step_i, \
    input  wire                         load_i, \
    input  wire [63:0]                  load_value_i, \
    input  wire                         rd_i, \
    input  wire [4:0]                   rd_index_i, \
    output wire                         rd_valid_o, \
    output wire [63:0]                  rd_value_o
`endif
