// SPDX-License-Identifier: Apache-2.0
// Configuration-dependent legality of one instruction: the checks the controller's
// decoder makes before issue (lane counts within N, buffer and memory ranges).
// The golden model, the assembler and (in hardware) the RTL decoder apply the same rules.
#pragma once

#include <string>

#include "config/config.hpp"
#include "isa/act_block.hpp"
#include "isa/arch.hpp"
#include "isa/isa.hpp"

namespace tessera {


struct Legality {
  ErrorCode code = ErrorCode::None;
  std::string detail;  // why, for messages; empty when legal
};

// The device memory an rw reads: `rows` rows of `len` bytes, `stride` apart
// (with transpose, memory rows are the tile's columns).
struct MemRows {
  int64_t rows, len;
};
MemRows rw_memory_rows(const Instr& in);

// Tile t (0-based) of an rw or mmc as the one-tile instruction it runs as; other
// opcodes have one tile, themselves.
Instr tile_of(const Instr& in, int64_t t);

// Checks Illegal, UbRange, AccRange and DramRange, in that order, for every tile.
Legality check_static(const Instr& in, const Config& cfg);

}  // namespace tessera
