// SPDX-License-Identifier: Apache-2.0
// Port groups the control units share, written once (tpu_axi_ports.vh has the buses).
`ifndef TPU_UNIT_PORTS_VH
`define TPU_UNIT_PORTS_VH
// An execution unit's side of its instruction queue (tpu_core), with the run's fault:
// err_pc_i is the oldest fault's pc, and instructions younger than it do not start.
`define TPU_UNIT_QUEUE_PORTS \
    input  wire                   q_valid_i, \
    output wire                   q_ready_o, \
    input  wire [127:0]           q_instr_i, \
    input  wire [31:0]            q_pc_i, \
    input  wire [SlotBits-1:0]    q_slot_i, \
    input  wire                   err_valid_i, \
    input  wire [31:0]            err_pc_i, \
    output wire                   busy_o
// A client of the DMA read engine (tpu_axi_read): span requests and their beats,
// DataBits wide, with the beat's first and one-past-last valid byte lanes.
`define TPU_READ_CLIENT_PORTS \
    output wire                   req_valid_o, \
    input  wire                   req_ready_i, \
    output wire [31:0]            req_addr_o, \
    output wire [11:0]            req_len_o, \
    input  wire                   beat_valid_i, \
    output wire                   beat_ready_o, \
    input  wire [DataBits-1:0]    beat_data_i, \
    input  wire [LaneBits:0]      beat_lo_i, \
    input  wire [LaneBits:0]      beat_hi_i
`endif
