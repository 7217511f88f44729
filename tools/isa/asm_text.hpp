// SPDX-License-Identifier: Apache-2.0
// Instructions as assembly text, for programs that name their data by label (the
// compiler, the GEMM generator): the typed Instr gives every operand, and the device
// address may be a label of the program plus an offset. The text lists, in the ISA
// table's order, the operands that are required or default to the array size, the others
// only when off their default (flags when set), so that it reads like hand-written
// assembly and assembles to exactly the instruction built.
#pragma once

#include <cstdint>
#include <string>

#include "isa/isa.hpp"

namespace tessera {

// A device address: a label of the program plus an offset (no label: the offset alone).
struct AsmAddr {
  std::string label;
  int64_t offset = 0;
};

struct AsmInstr {
  Instr in;                // every operand; for a labelled address, in.addr is the offset
  std::string addr_label;  // non-empty: the device address is this label + in.addr
};

// One builder per opcode with the operands every use gives; the rest are set on `.in`.
AsmInstr asm_rhm(int64_t ub, int64_t rows, const AsmAddr& addr, int64_t stride, int64_t seglen);
AsmInstr asm_whm(int64_t ub, int64_t rows, const AsmAddr& addr, int64_t stride, int64_t len);
AsmInstr asm_rw(const AsmAddr& addr, int64_t stride, int64_t k, int64_t n);
AsmInstr asm_mmc(int64_t ub, int64_t rows, int64_t acc, bool sw, bool accumulate);
AsmInstr asm_act(int64_t acc, int64_t ub, int64_t rows, int64_t params, int64_t zp, bool relu);
AsmInstr asm_plain(Opcode op);  // nop, halt, sync

// The instruction's line. Throws std::out_of_range, naming the mnemonic, operand and its
// range, for an operand the ISA cannot encode (an offset: if the label were at 0).
std::string asm_text(const AsmInstr& x);

}  // namespace tessera
