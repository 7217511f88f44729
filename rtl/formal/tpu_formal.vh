// SPDX-License-Identifier: Apache-2.0
// Formal only: the shared properties (tpu_f_run.v, tpu_f_hold.v), attached in a module's
// `ifdef FORMAL` block by one line each:
//   `TPU_F_PREAMBLE                  wires f_past_valid and f_run, the reset preamble
//   `TPU_F_HOLD(name, width, assume, flush, valid, ready, data)
//                                    a stream or channel's valid/ready hold rule
`ifndef TPU_FORMAL_VH
`define TPU_FORMAL_VH
`define TPU_F_PREAMBLE \
  wire f_past_valid, f_run; \
  tpu_f_run u_f_run (.clk_i(clk_i), .rst_ni(rst_ni), .past_valid_o(f_past_valid), .run_o(f_run));
`define TPU_F_HOLD(name, width, assume, flush, valid, ready, data) \
  tpu_f_hold #(.Width(width), .Assume(assume)) name ( \
      .clk_i(clk_i), .run_i(f_run), .flush_i(flush), .valid_i(valid), .ready_i(ready), .data_i(data));
`endif
