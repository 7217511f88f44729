// SPDX-License-Identifier: Apache-2.0
// The core's geometry: the parameters a configuration file sets (docs/config.md) and
// every level from a board top down to the register block takes, declared once here.
// A module states its defaults, TPU_GEOMETRY_PARAMS(N, UbRows, AccRows, DmaWidth,
// DramBytes), first in its parameter list; an instance passes all six with
// TPU_GEOMETRY_PASS.
`ifndef TPU_GEOMETRY_VH
`define TPU_GEOMETRY_VH
`define TPU_GEOMETRY_PARAMS(n, ub_rows, acc_rows, dma_width, dram_bytes) \
    parameter integer ArraySize  = n,          /* N: int8 lanes per row, PEs per side */ \
    parameter integer UbRows     = ub_rows,    /* unified-buffer rows */ \
    parameter integer AccRows    = acc_rows,   /* accumulator rows */ \
    parameter integer WfifoDepth = 4,          /* weight tiles the FIFO holds */ \
    parameter integer DmaWidth   = dma_width,  /* device-memory bus bits */ \
    parameter integer DramBytes  = dram_bytes  /* device memory the core addresses */
`define TPU_GEOMETRY_PASS \
    .ArraySize(ArraySize), .UbRows(UbRows), .AccRows(AccRows), \
    .WfifoDepth(WfifoDepth), .DmaWidth(DmaWidth), .DramBytes(DramBytes)
`endif
