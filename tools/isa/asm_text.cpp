// SPDX-License-Identifier: Apache-2.0
#include "isa/asm_text.hpp"

#include <stdexcept>

namespace tessera {

namespace {

// The opcode with its operands at their fixed defaults (segs = 1, tiles = 1, ...).
AsmInstr of(Opcode op) {
  AsmInstr x;
  x.in.op = op;
  for (const FieldSpec& f : find_op(op)->fields)
    if (const std::optional<int64_t> d = f.fixed_default()) x.in.*(f.member) = *d;
  return x;
}

void set_addr(AsmInstr& x, const AsmAddr& addr) {
  x.addr_label = addr.label;
  x.in.addr = addr.offset;
}

}  // namespace

AsmInstr asm_rhm(int64_t ub, int64_t rows, const AsmAddr& addr, int64_t stride, int64_t seglen) {
  AsmInstr x = of(Opcode::RHM);
  x.in.ub = ub, x.in.rows = rows, x.in.stride = stride, x.in.seglen = seglen;
  set_addr(x, addr);
  return x;
}

AsmInstr asm_whm(int64_t ub, int64_t rows, const AsmAddr& addr, int64_t stride, int64_t len) {
  AsmInstr x = of(Opcode::WHM);
  x.in.ub = ub, x.in.rows = rows, x.in.stride = stride, x.in.len = len;
  set_addr(x, addr);
  return x;
}

AsmInstr asm_rw(const AsmAddr& addr, int64_t stride, int64_t k, int64_t n) {
  AsmInstr x = of(Opcode::RW);
  x.in.stride = stride, x.in.k = k, x.in.n = n;
  set_addr(x, addr);
  return x;
}

AsmInstr asm_mmc(int64_t ub, int64_t rows, int64_t acc, bool sw, bool accumulate) {
  AsmInstr x = of(Opcode::MMC);
  x.in.ub = ub, x.in.rows = rows, x.in.acc = acc, x.in.sw = sw, x.in.accumulate = accumulate;
  return x;
}

AsmInstr asm_act(int64_t acc, int64_t ub, int64_t rows, int64_t params, int64_t zp, bool relu) {
  AsmInstr x = of(Opcode::ACT);
  x.in.acc = acc, x.in.ub = ub, x.in.rows = rows, x.in.params = params, x.in.zp = zp, x.in.relu = relu;
  return x;
}

AsmInstr asm_plain(Opcode op) { return of(op); }

std::string asm_text(const AsmInstr& x) {
  const OpSpec* spec = find_op(x.in.op);
  if (!spec) throw std::out_of_range("asm_text: unknown opcode");
  encode(x.in);  // (the table's range check, which names the operand)
  std::string s = spec->mnemonic;
  bool first = true;
  for (const FieldSpec& f : spec->fields) {
    const int64_t v = x.in.*(f.member);
    const std::optional<int64_t> deflt = f.fixed_default();
    if (deflt && *deflt == v) continue;  // (a flag's default is off)
    std::string item = f.name;
    if (f.kind != FieldKind::Flag) {
      const bool labelled = f.member == &Instr::addr && !x.addr_label.empty();
      item += "=" + (labelled ? x.addr_label + (v ? "+" + std::to_string(v) : "") : std::to_string(v));
    }
    s += (first ? " " : ", ") + item;
    first = false;
  }
  return s;
}

}  // namespace tessera
