// SPDX-License-Identifier: Apache-2.0
// Two passes: pass 1 parses every line, lays out the text and data segments and
// defines labels; pass 2 evaluates operands and emits bytes. Every error is
// recorded with its line and column and assembly goes on with the next line.
#include "asm/assembler.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "asm/expr.hpp"
#include "asm/lexer.hpp"
#include "isa/isa.hpp"
#include "isa/legality.hpp"
#include "util/file_io.hpp"
#include "util/npy.hpp"

namespace tessera {
namespace {

enum class Seg { Text = 0, Data = 1 };
const char* seg_name(Seg s) { return s == Seg::Text ? ".text" : ".data"; }

constexpr int64_t kMaxAlign = 64;  // segment bases are multiples of this

struct Label {
  Seg seg;
  uint64_t offset;
};

enum class StmtKind { Instr, Byte, Half, Word, Space, Align, Blob };

struct Stmt {
  StmtKind kind = StmtKind::Instr;
  int line = 0;
  std::vector<Token> toks;
  size_t pos = 0;  // first operand token
  Seg seg = Seg::Text;
  uint64_t offset = 0;
  uint64_t size = 0;
  const OpSpec* op = nullptr;
  std::vector<uint8_t> blob;  // .space fill, .align padding and file contents
  bool bad = false;           // reported in pass 1; occupies space but emits nothing
};

struct Deferred {};  // pass-1 evaluation met a symbol whose value comes later
struct EquFailed {};  // a constant whose .equ failed (reported there): its users fail quietly

struct SegmentState {
  std::optional<int64_t> base;
  uint64_t size = 0;
  int first_line = 0;  // where it was first used, for messages
  bool has_content = false;
};

class Assembler {
 public:
  Assembler(const std::string& file, const std::string& base_dir, const Config& cfg)
      : file_(file), base_dir_(base_dir), cfg_(cfg) {
    const std::pair<const char*, int64_t> predefined[] = {
        {"N", cfg.array_size},         {"UB_ROWS", cfg.ub_rows},
        {"ACC_ROWS", cfg.acc_rows},    {"WFIFO_DEPTH", cfg.wfifo_depth},
        {"DRAM_BYTES", cfg.dram_bytes}, {"INSTR_BYTES", kInstrBytes}};
    for (const auto& p : predefined) {
      consts_[p.first] = p.second;
      predefined_.insert(p.first);
    }
  }

  AsmResult run(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) pass1_line(++n, line);
    layout();
    for (auto& st : stmts_) pass2_stmt(st);
    AsmResult r;
    diags_.sort();
    r.diags = diags_;
    if (diags_.empty()) r.image = build_image();
    return r;
  }

 private:
  // ---- diagnostics -------------------------------------------------------
  void error(int line, int col, const std::string& msg) { diags_.error({file_, line, col}, msg); }

  // ---- symbols -----------------------------------------------------------
  bool defined(const std::string& name) const {
    return consts_.count(name) || labels_.count(name) || deferred_index_.count(name);
  }

  bool define_check(int line, const Token& name) {
    if (predefined_.count(name.text)) {
      error(line, name.col, "'" + name.text + "' is a predefined constant and cannot be redefined");
      return false;
    }
    if (defined(name.text)) {
      error(line, name.col, "symbol '" + name.text + "' is already defined");
      return false;
    }
    return true;
  }

  // Pass 1: constants only; labels and not-yet-defined names defer.
  std::optional<int64_t> lookup_pass1(const Token& t) const {
    auto c = consts_.find(t.text);
    if (c != consts_.end()) return c->second;
    if (failed_equs_.count(t.text)) throw EquFailed{};
    throw Deferred{};
  }

  std::optional<int64_t> lookup_final(const Token& t) const {
    auto c = consts_.find(t.text);
    if (c != consts_.end()) return c->second;
    if (failed_equs_.count(t.text)) throw EquFailed{};
    auto l = labels_.find(t.text);
    if (l != labels_.end()) return label_value(l->second);
    return std::nullopt;
  }

  int64_t label_value(const Label& l) const {
    return seg_[int(l.seg)].base.value_or(0) + static_cast<int64_t>(l.offset);
  }

  // Evaluates an expression that must be known in pass 1 (sizes, bases).
  int64_t const_expr(const std::vector<Token>& toks, size_t& pos, const char* what) {
    const size_t start = pos;
    try {
      return eval_expr(toks, pos, [this](const Token& t) { return lookup_pass1(t); });
    } catch (const Deferred&) {
      throw ExprError{toks[start].col, std::string(what) +
                                           " must be a constant known at this point (no labels)"};
    }
  }

  int64_t final_expr(const std::vector<Token>& toks, size_t& pos) {
    return eval_expr(toks, pos, [this](const Token& t) { return lookup_final(t); });
  }

  // ---- token helpers -----------------------------------------------------
  static bool is_punct(const Token& t, const char* p) {
    return t.kind == TokKind::Punct && t.text == p;
  }

  void expect_end(const Stmt& st, size_t pos) {
    if (st.toks[pos].kind != TokKind::End)
      throw ExprError{st.toks[pos].col, "unexpected '" + st.toks[pos].text + "'"};
  }

  // Consumes ',' or reports what was expected.
  static void expect_comma(const std::vector<Token>& toks, size_t& pos) {
    if (!is_punct(toks[pos], ","))
      throw ExprError{toks[pos].col, toks[pos].kind == TokKind::End
                                         ? std::string("expected ','")
                                         : "expected ',' before '" + toks[pos].text + "'"};
    ++pos;
  }

  // ---- pass 1 ------------------------------------------------------------
  void pass1_line(int line, const std::string& text) {
    std::vector<Token> toks;
    try {
      toks = lex_line(text);
    } catch (const LexError& e) {
      error(line, e.col, e.message);
      return;
    }
    size_t pos = 0;
    while (toks[pos].kind == TokKind::Ident && is_punct(toks[pos + 1], ":")) {
      const Token& name = toks[pos];
      if (name.text[0] == '.') {
        error(line, name.col, "label names cannot start with '.'");
      } else if (name.text.size() > kMaxSymbolName) {
        error(line, name.col, "label name of " + std::to_string(name.text.size()) + " characters (at most " +
                                  std::to_string(kMaxSymbolName) + ")");
      } else if (define_check(line, name)) {
        labels_[name.text] = Label{cur_, seg_[int(cur_)].size};
        label_order_.push_back(name.text);
      }
      pos += 2;
    }
    const Token& head = toks[pos];
    if (head.kind == TokKind::End) return;
    if (head.kind != TokKind::Ident) {
      error(line, head.col, "expected a label, directive or instruction, found '" + head.text + "'");
      return;
    }
    Stmt st;
    st.kind = StmtKind::Instr;
    st.line = line;
    st.toks = toks;
    st.pos = pos + 1;
    st.seg = cur_;
    try {
      if (head.text[0] == '.') {
        if (!directive(st, head)) return;
      } else {
        st.op = find_op(head.text);
        st.size = kInstrBytes;
        if (!st.op) {
          error(line, head.col, "unknown instruction '" + head.text + "'");
          st.bad = true;  // still placed, so later labels keep their addresses
        }
        else if (cur_ == Seg::Data) {
          error(line, head.col, "instruction '" + head.text + "' in the .data segment");
          return;
        }
        if (seg_[int(cur_)].size % kInstrBytes != 0) {
          error(line, head.col, "instruction is not 16-byte aligned (add '.align 16' before it)");
        }
      }
    } catch (const ExprError& e) {
      error(line, e.col, e.message);
      return;
    } catch (const EquFailed&) {  // (reported at the constant's .equ)
      return;
    }
    place(st);
  }

  void place(Stmt& st) {
    SegmentState& s = seg_[int(st.seg)];
    st.offset = s.size;
    s.size += st.size;
    if (!s.has_content) s.first_line = st.line;
    s.has_content = true;
    stmts_.push_back(std::move(st));
  }

  // Returns true when the directive occupies space and must be placed.
  bool directive(Stmt& st, const Token& head) {
    const std::string& d = head.text;
    auto& toks = st.toks;
    size_t pos = st.pos;
    if (d == ".text" || d == ".data") {
      cur_ = d == ".text" ? Seg::Text : Seg::Data;
      SegmentState& s = seg_[int(cur_)];
      if (toks[pos].kind != TokKind::End) {
        const int col = toks[pos].col;
        const int64_t base = const_expr(toks, pos, "a segment address");
        expect_end(st, pos);
        if (base < 0 || base % kMaxAlign != 0 || base >= int64_t{cfg_.dram_bytes})
          throw ExprError{col, "segment address " + std::to_string(base) +
                                   " must be a multiple of 64 inside device memory"};
        if (s.base && *s.base != base)
          throw ExprError{col, std::string(seg_name(cur_)) + " address is already set to " +
                                   std::to_string(*s.base)};
        if (s.has_content && !s.base)
          throw ExprError{col, std::string(seg_name(cur_)) +
                                   " address must be set before the segment's first content"};
        s.base = base;
      }
      if (!s.has_content) s.first_line = st.line;
      return false;
    }
    if (d == ".equ") {
      if (toks[pos].kind != TokKind::Ident)
        throw ExprError{toks[pos].col, ".equ needs a name: .equ NAME, EXPR"};
      const Token name = toks[pos++];
      expect_comma(toks, pos);
      if (!define_check(st.line, name)) return false;
      const size_t expr_pos = pos;
      try {
        consts_[name.text] =
            eval_expr(toks, pos, [this](const Token& t) { return lookup_pass1(t); });
        expect_end(st, pos);
      } catch (const Deferred&) {
        deferred_index_[name.text] = deferred_.size();
        deferred_.push_back({name, st.line, toks, expr_pos});
      } catch (const ExprError&) {
        failed_equs_.insert(name.text);
        throw;
      } catch (const EquFailed&) {
        failed_equs_.insert(name.text);
      }
      return false;
    }
    if (d == ".align") {
      const int col = toks[pos].col;
      const int64_t a = const_expr(toks, pos, "an alignment");
      expect_end(st, pos);
      if (a < 1 || a > kMaxAlign || (a & (a - 1)))
        throw ExprError{col, "alignment must be a power of two from 1 to 64, got " + std::to_string(a)};
      const uint64_t here = seg_[int(cur_)].size;
      st.kind = StmtKind::Align;
      st.size = (a - here % a) % a;
      st.blob.assign(st.size, 0);  // zero bytes are NOP instructions in text
      return true;
    }
    if (d == ".space") {
      const int col = toks[pos].col;
      const int64_t n = const_expr(toks, pos, "a .space size");
      int64_t fill = 0;
      if (is_punct(toks[pos], ",")) {
        ++pos;
        const int fcol = toks[pos].col;
        fill = const_expr(toks, pos, "a .space fill value");
        if (fill < -128 || fill > 255)
          throw ExprError{fcol, "fill value " + std::to_string(fill) + " does not fit in a byte"};
      }
      expect_end(st, pos);
      if (n < 0 || n > int64_t{cfg_.dram_bytes})
        throw ExprError{col, ".space size " + std::to_string(n) + " is out of range [0, " +
                                 std::to_string(cfg_.dram_bytes) + "]"};
      st.kind = StmtKind::Space;
      st.size = static_cast<uint64_t>(n);
      st.blob.assign(st.size, static_cast<uint8_t>(fill));
      return true;
    }
    if (d == ".byte" || d == ".half" || d == ".word") {
      st.kind = d == ".byte" ? StmtKind::Byte : d == ".half" ? StmtKind::Half : StmtKind::Word;
      if (toks[pos].kind == TokKind::End)
        throw ExprError{toks[pos].col, d + " needs at least one value"};
      uint64_t count = 1;
      for (size_t i = pos; toks[i].kind != TokKind::End; ++i) count += is_punct(toks[i], ",");
      st.size = count * (d == ".byte" ? 1 : d == ".half" ? 2 : 4);
      return true;
    }
    if (d == ".incbin" || d == ".npy") {
      if (toks[pos].kind != TokKind::String)
        throw ExprError{toks[pos].col, d + " needs a file name in double quotes"};
      const Token path_tok = toks[pos++];
      std::vector<uint8_t> bytes = read_file(path_tok);
      if (d == ".npy") {
        try {
          bytes = parse_npy(bytes).data;
        } catch (const NpyError& e) {
          throw ExprError{path_tok.col, "'" + path_tok.text + "': " + e.what()};
        }
      } else {
        int64_t off = 0, len = static_cast<int64_t>(bytes.size());
        if (is_punct(toks[pos], ",")) {
          ++pos;
          const int c = toks[pos].col;
          off = const_expr(toks, pos, "an .incbin offset");
          if (off < 0 || off > static_cast<int64_t>(bytes.size()))
            throw ExprError{c, ".incbin offset " + std::to_string(off) + " is beyond the file's " +
                                   std::to_string(bytes.size()) + " bytes"};
          len = static_cast<int64_t>(bytes.size()) - off;
          if (is_punct(toks[pos], ",")) {
            ++pos;
            const int c2 = toks[pos].col;
            len = const_expr(toks, pos, "an .incbin length");
            if (len < 0 || len > static_cast<int64_t>(bytes.size()) - off)  // (off + len could overflow)
              throw ExprError{c2, ".incbin length " + std::to_string(len) +
                                      " runs past the end of the file"};
          }
        }
        bytes = std::vector<uint8_t>(bytes.begin() + off, bytes.begin() + off + len);
      }
      expect_end(st, pos);
      if (bytes.size() > cfg_.dram_bytes)
        throw ExprError{path_tok.col, "'" + path_tok.text + "' is larger than device memory"};
      st.kind = StmtKind::Blob;
      st.size = bytes.size();
      st.blob = std::move(bytes);
      return true;
    }
    throw ExprError{head.col, "unknown directive '" + d + "'"};
  }

  std::vector<uint8_t> read_file(const Token& path_tok) {
    const std::string& p = path_tok.text;
    if (p.empty()) throw ExprError{path_tok.col, "empty file name"};
    const std::string full = (p[0] == '/' || base_dir_.empty()) ? p : base_dir_ + "/" + p;
    try {
      return read_file_bytes(full);
    } catch (const FileError& e) {
      throw ExprError{path_tok.col, "cannot open '" + p + "' (" + e.reason() + ")"};
    }
  }

  // ---- layout between the passes -----------------------------------------
  void layout() {
    SegmentState& text = seg_[int(Seg::Text)];
    SegmentState& data = seg_[int(Seg::Data)];
    if (!text.base) text.base = 0;
    if (!data.base) {
      const int64_t end = *text.base + static_cast<int64_t>(text.size);
      data.base = (end + kMaxAlign - 1) / kMaxAlign * kMaxAlign;
    }
    for (Seg s : {Seg::Text, Seg::Data}) {
      const SegmentState& st = seg_[int(s)];
      if (st.size && uint64_t(*st.base) + st.size > cfg_.dram_bytes)
        error(st.first_line, 1,
              std::string(seg_name(s)) + " segment (" + std::to_string(st.size) + " bytes at " +
                  std::to_string(*st.base) + ") does not fit in device memory (" +
                  std::to_string(cfg_.dram_bytes) + " bytes)");
    }
    if (text.size && data.size && *text.base < *data.base + int64_t(data.size) &&
        *data.base < *text.base + int64_t(text.size))
      error(data.first_line, 1, ".data segment overlaps the .text segment");
    for (size_t i = 0; i < deferred_.size(); ++i) {
      try {
        resolve_equ(i);
      } catch (const EquFailed&) {  // (reported where it failed)
      }
    }
  }

  // A deferred .equ's value, resolved when first needed, so that a chain resolves
  // whatever its order; an error is reported once, on the .equ where it is (a cycle: on
  // the one that closes it), and the constants that use it fail quietly.
  int64_t resolve_equ(size_t i) {
    DeferredEqu& d = deferred_[i];
    if (d.state == EquState::Done) return consts_.at(d.name.text);
    if (d.state == EquState::Failed) throw EquFailed{};
    d.state = EquState::Resolving;
    resolving_.push_back(i);
    try {
      if (resolving_.size() > kMaxEquChain)
        throw ExprError{d.name.col, "chain of .equ definitions deeper than " + std::to_string(kMaxEquChain)};
      size_t pos = d.pos;
      const int64_t v = eval_expr(d.toks, pos, [this](const Token& t) { return lookup_resolving(t); });
      if (d.toks[pos].kind != TokKind::End)
        throw ExprError{d.toks[pos].col, "unexpected '" + d.toks[pos].text + "'"};
      consts_[d.name.text] = v;
      d.state = EquState::Done;
      resolving_.pop_back();
      return v;
    } catch (const ExprError& e) {
      error(d.line, e.col, e.message);
    } catch (const EquFailed&) {
    }
    d.state = EquState::Failed;
    failed_equs_.insert(d.name.text);
    resolving_.pop_back();
    throw EquFailed{};
  }

  // lookup_final, and the deferred constants, resolved on the way (a deferred constant's
  // failure stops the expression without a second report).
  std::optional<int64_t> lookup_resolving(const Token& t) {
    if (auto v = lookup_final(t)) return v;
    const auto it = deferred_index_.find(t.text);
    if (it == deferred_index_.end()) return std::nullopt;
    const DeferredEqu& d = deferred_[it->second];
    if (d.state == EquState::Resolving) {
      std::string cycle;
      bool in = false;
      for (size_t j : resolving_) {
        in = in || j == it->second;
        if (in) cycle += deferred_[j].name.text + " -> ";
      }
      throw ExprError{t.col, "circular .equ definition: " + cycle + t.text};
    }
    return resolve_equ(it->second);
  }

  // ---- pass 2 ------------------------------------------------------------
  void pass2_stmt(Stmt& st) {
    if (st.bad) return;
    try {
      std::vector<uint8_t> bytes;
      switch (st.kind) {
        case StmtKind::Instr: bytes = encode_instr(st); break;
        case StmtKind::Byte: bytes = data_values(st, 1); break;
        case StmtKind::Half: bytes = data_values(st, 2); break;
        case StmtKind::Word: bytes = data_values(st, 4); break;
        case StmtKind::Space:
        case StmtKind::Align:
        case StmtKind::Blob: bytes = st.blob; break;
      }
      auto& out = seg_bytes_[int(st.seg)];
      if (out.size() < st.offset + st.size) out.resize(st.offset + st.size, 0);
      std::copy(bytes.begin(), bytes.end(), out.begin() + static_cast<std::ptrdiff_t>(st.offset));
    } catch (const ExprError& e) {
      error(st.line, e.col, e.message);
    } catch (const EquFailed&) {  // (reported at the constant's .equ)
    }
  }

  std::vector<uint8_t> data_values(const Stmt& st, int width) {
    const int64_t lo = -(int64_t{1} << (8 * width - 1));
    const int64_t hi = (int64_t{1} << (8 * width)) - 1;
    std::vector<uint8_t> out;
    size_t pos = st.pos;
    while (true) {
      const int col = st.toks[pos].col;
      const int64_t v = final_expr(st.toks, pos);
      if (v < lo || v > hi)
        throw ExprError{col, "value " + std::to_string(v) + " does not fit in " +
                                 std::to_string(width) + " byte" + (width > 1 ? "s" : "") + " [" +
                                 std::to_string(lo) + ", " + std::to_string(hi) + "]"};
      for (int i = 0; i < width; ++i) out.push_back(static_cast<uint8_t>(uint64_t(v) >> (8 * i)));
      if (st.toks[pos].kind == TokKind::End) break;
      expect_comma(st.toks, pos);
    }
    return out;
  }

  std::vector<uint8_t> encode_instr(const Stmt& st) {
    const OpSpec& op = *st.op;
    Instr in;
    in.op = op.op;
    std::map<std::string, bool> seen;
    size_t pos = st.pos;
    bool first = true;
    while (st.toks[pos].kind != TokKind::End) {
      if (!first) expect_comma(st.toks, pos);
      first = false;
      const Token name = st.toks[pos];
      if (name.kind != TokKind::Ident)
        throw ExprError{name.col, "expected an operand name, found '" + name.text + "'"};
      const FieldSpec* f = find_field(op, name.text);
      if (!f) throw ExprError{name.col, "unknown operand '" + name.text + "' for " + op.mnemonic +
                                            operand_list(op)};
      if (seen[name.text]) throw ExprError{name.col, "operand '" + name.text + "' given twice"};
      seen[name.text] = true;
      ++pos;
      if (f->kind == FieldKind::Flag) {
        if (is_punct(st.toks[pos], "="))
          throw ExprError{st.toks[pos].col, "'" + name.text + "' is a flag and takes no value"};
        in.*(f->member) = 1;
        continue;
      }
      if (!is_punct(st.toks[pos], "="))
        throw ExprError{st.toks[pos].col, "operand '" + name.text + "' needs a value: " +
                                              name.text + "=EXPR"};
      ++pos;
      const int col = st.toks[pos].col;
      const int64_t v = final_expr(st.toks, pos);
      if (v < f->min_value() || v > f->max_value())
        throw ExprError{col, "value " + std::to_string(v) + " for '" + name.text +
                                 "' is out of range [" + std::to_string(f->min_value()) + ", " +
                                 std::to_string(f->max_value()) + "]"};
      in.*(f->member) = v;
    }
    const int head_col = st.toks[st.pos - 1].col;
    for (const auto& f : op.fields) {
      if (seen[f.name]) continue;
      if (f.deflt == FieldSpec::Required)
        throw ExprError{head_col, std::string("missing operand '") + f.name + "' for " + op.mnemonic};
      in.*(f.member) = f.fixed_default().value_or(cfg_.array_size);  // (else ArraySize)
    }
    const Legality legal = check_static(in, cfg_);
    if (legal.code != ErrorCode::None) throw ExprError{head_col, op.mnemonic + std::string(": ") + legal.detail};
    std::vector<uint8_t> bytes(kInstrBytes);
    store_word(encode(in), bytes.data());
    return bytes;
  }

  static std::string operand_list(const OpSpec& op) {
    if (op.fields.empty()) return " (it takes no operands)";
    std::string s = " (it takes ";
    for (size_t i = 0; i < op.fields.size(); ++i) s += (i ? ", " : "") + std::string(op.fields[i].name);
    return s + ")";
  }

  // ---- output ------------------------------------------------------------
  Image build_image() const {
    Image img;
    img.config_fingerprint = cfg_.fingerprint();
    img.config_summary = cfg_.summary();
    img.entry = static_cast<uint32_t>(*seg_[int(Seg::Text)].base);
    for (Seg s : {Seg::Text, Seg::Data}) {
      if (seg_bytes_[int(s)].empty()) continue;
      img.sections.push_back({s == Seg::Text ? SectionKind::Text : SectionKind::Data,
                              static_cast<uint32_t>(*seg_[int(s)].base), seg_bytes_[int(s)]});
    }
    // A label's size runs to the next label further on in its segment, or the segment end.
    // The table lists text labels, then data labels, each by address (ties in the order
    // defined): the order disassembled source defines them in, whatever the source's order.
    std::vector<std::string> order = label_order_;
    std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
      const Label &la = labels_.at(a), &lb = labels_.at(b);
      return std::make_pair(int(la.seg), la.offset) < std::make_pair(int(lb.seg), lb.offset);
    });
    for (const auto& name : order) {
      const Label& l = labels_.at(name);
      uint64_t end = seg_[int(l.seg)].size;
      for (const auto& other : labels_)
        if (other.second.seg == l.seg && other.second.offset > l.offset)
          end = std::min<uint64_t>(end, other.second.offset);
      img.symbols.push_back({name, static_cast<uint32_t>(label_value(l)),
                             static_cast<uint32_t>(end - l.offset)});
    }
    return img;
  }

  enum class EquState { Pending, Resolving, Done, Failed };
  struct DeferredEqu {
    Token name;
    int line;
    std::vector<Token> toks;
    size_t pos;
    EquState state = EquState::Pending;
  };
  static constexpr size_t kMaxEquChain = 256;  // .equ constants defined through each other

  std::string file_, base_dir_;
  const Config& cfg_;
  Diagnostics diags_;
  std::map<std::string, int64_t> consts_;
  std::set<std::string> predefined_, failed_equs_;
  std::map<std::string, Label> labels_;
  std::vector<std::string> label_order_;
  std::vector<DeferredEqu> deferred_;
  std::map<std::string, size_t> deferred_index_;
  std::vector<size_t> resolving_;  // the deferred constants being resolved, outermost first
  std::vector<Stmt> stmts_;
  SegmentState seg_[2];
  std::vector<uint8_t> seg_bytes_[2];
  Seg cur_ = Seg::Text;
};

}  // namespace

AsmResult assemble_source(const std::string& text, const std::string& file_name,
                          const std::string& base_dir, const Config& cfg) {
  return Assembler(file_name, base_dir, cfg).run(text);
}

AsmResult assemble_file(const std::string& path, const Config& cfg) {
  std::string text;
  try {
    text = read_file_text(path);
  } catch (const FileError& e) {
    AsmResult r;
    r.diags.error({path, 1, 1}, "cannot open source file (" + e.reason() + ")");
    return r;
  }
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash);
  return assemble_source(text, path, dir, cfg);
}

}  // namespace tessera
