// SPDX-License-Identifier: Apache-2.0
// THE instruction table. docs/isa.md describes it bit by bit and rtl/tpu_isa.vh is
// generated from it (tpu-isa-gen); a test keeps both in step with this file.
#include "isa/isa.hpp"

namespace tessera {

using K = FieldKind;
using D = FieldSpec::Default;

const std::vector<OpSpec>& isa_table() {
  static const std::vector<OpSpec> table = {
      {Opcode::NOP, "nop", "do nothing", {}},
      {Opcode::HALT, "halt", "wait for all units, then stop with status DONE", {}},
      {Opcode::SYNC, "sync", "wait until every earlier instruction has retired", {}},
      {Opcode::RHM,
       "rhm",
       "read host (device) memory into unified-buffer rows, gathering segments",
       {
           {"ub", 16, 16, K::Unsigned, 0, &Instr::ub, D::Required, "first unified-buffer row"},
           {"rows", 32, 16, K::Unsigned, 1, &Instr::rows, D::Required, "rows to write"},
           {"addr", 48, 32, K::Unsigned, 0, &Instr::addr, D::Required, "device address of row 0"},
           {"stride", 80, 16, K::Unsigned, 0, &Instr::stride, D::Required,
            "bytes between the sources of consecutive rows"},
           {"segstride", 96, 16, K::Unsigned, 0, &Instr::segstride, D::Zero,
            "bytes between the sources of consecutive segments of a row"},
           {"seglen", 112, 6, K::Unsigned, 1, &Instr::seglen, D::ArraySize,
            "bytes per segment"},
           {"segs", 118, 6, K::Unsigned, 1, &Instr::segs, D::One, "segments per row"},
       }},
      {Opcode::WHM,
       "whm",
       "write unified-buffer rows to host (device) memory",
       {
           {"ub", 16, 16, K::Unsigned, 0, &Instr::ub, D::Required, "first unified-buffer row"},
           {"rows", 32, 16, K::Unsigned, 1, &Instr::rows, D::Required, "rows to read (per group)"},
           {"addr", 48, 32, K::Unsigned, 0, &Instr::addr, D::Required, "device address of row 0"},
           {"stride", 80, 16, K::Unsigned, 0, &Instr::stride, D::Required,
            "bytes between the destinations of consecutive rows"},
           {"len", 96, 6, K::Unsigned, 1, &Instr::len, D::ArraySize,
            "bytes written from the start of each row"},
           {"gstride", 102, 16, K::Unsigned, 0, &Instr::gstride, D::Zero,
            "bytes between the destinations of consecutive groups", false},
           {"groups", 118, 6, K::Unsigned, 1, &Instr::groups, D::One,
            "groups of `rows` rows, one after another", false},
       }},
      {Opcode::RW,
       "rw",
       "read weight tiles from device memory into the weight FIFO",
       {
           {"transpose", 4, 1, K::Flag, 0, &Instr::transpose, D::Zero,
            "memory holds the tile's columns as rows"},
           {"addr", 48, 32, K::Unsigned, 0, &Instr::addr, D::Required, "device address"},
           {"stride", 80, 16, K::Unsigned, 0, &Instr::stride, D::ArraySize,
            "bytes between consecutive memory rows"},
           {"k", 96, 6, K::Unsigned, 1, &Instr::k, D::ArraySize,
            "tile rows (input lanes) read; the rest are zero"},
           {"n", 102, 6, K::Unsigned, 1, &Instr::n, D::ArraySize,
            "tile columns (output lanes) read; the rest are zero"},
           {"tiles", 108, 4, K::Unsigned, 1, &Instr::tiles, D::One,
            "tiles read, one after another into the FIFO", false},
           {"tstride", 16, 32, K::Unsigned, 0, &Instr::tstride, D::Zero,
            "bytes between the addresses of consecutive tiles", false},
       }},
      {Opcode::MMC,
       "mmc",
       "multiply unified-buffer rows by the active weight tile into accumulator rows",
       {
           {"accumulate", 4, 1, K::Flag, 0, &Instr::accumulate, D::Zero,
            "add to the accumulators instead of overwriting them"},
           {"switch", 5, 1, K::Flag, 0, &Instr::sw, D::Zero,
            "first make the next weight tile of the FIFO the active one"},
           {"ub", 16, 16, K::Unsigned, 0, &Instr::ub, D::Required, "first input row"},
           {"rows", 32, 16, K::Unsigned, 1, &Instr::rows, D::Required, "rows to multiply"},
           {"acc", 48, 16, K::Unsigned, 0, &Instr::acc, D::Required, "first accumulator row"},
           {"tiles", 64, 4, K::Unsigned, 1, &Instr::tiles, D::One,
            "multiplies, one after another (each with its own switch)", false},
           {"ubstride", 80, 16, K::Unsigned, 0, &Instr::ubstride, D::Zero,
            "unified-buffer rows between the inputs of consecutive tiles", false},
           {"accstride", 96, 16, K::Unsigned, 0, &Instr::accstride, D::Zero,
            "accumulator rows between the outputs of consecutive tiles", false},
       }},
      {Opcode::ACT,
       "act",
       "bias, requantize, ReLU and max-pool accumulator rows into unified-buffer rows",
       {
           {"relu", 4, 1, K::Flag, 0, &Instr::relu, D::Zero, "clamp below at the zero point"},
           {"ub", 16, 16, K::Unsigned, 0, &Instr::ub, D::Required, "first output row"},
           {"rows", 32, 16, K::Unsigned, 1, &Instr::rows, D::Required, "output rows"},
           {"acc", 48, 16, K::Unsigned, 0, &Instr::acc, D::Required, "first accumulator row"},
           {"params", 64, 16, K::Unsigned, 0, &Instr::params, D::Required,
            "unified-buffer row of the 9-row parameter block"},
           {"zp", 80, 8, K::Signed, 0, &Instr::zp, D::Zero, "output zero point"},
           {"pool", 88, 4, K::Unsigned, 1, &Instr::pool, D::One,
            "planes of `rows` accumulator rows reduced by max"},
       }},
  };
  return table;
}

}  // namespace tessera
