// SPDX-License-Identifier: Apache-2.0
#include "coverage_report.hpp"

#include <fstream>
#include <sstream>

namespace tessera::sim {
namespace {

// A coverage.dat line: C '<\1key\2value>...' count
std::map<std::string, std::string> fields(const std::string& line, uint64_t& count) {
  std::map<std::string, std::string> f;
  const size_t open = line.find('\''), close = line.rfind('\'');
  count = std::stoull(line.substr(close + 1));
  const std::string body = line.substr(open + 1, close - open - 1);
  size_t i = 0;
  while ((i = body.find('\x01', i)) != std::string::npos) {
    const size_t sep = body.find('\x02', i), next = body.find('\x01', i + 1);
    f[body.substr(i + 1, sep - i - 1)] = body.substr(sep + 1, next == std::string::npos ? std::string::npos : next - sep - 1);
    i = i + 1;
  }
  return f;
}

struct Tally {
  std::map<std::string, bool> line, toggle;  // point -> hit in any instance
};

std::string pct(size_t hit, size_t all) {
  char b[32];
  std::snprintf(b, sizeof b, "%5.1f%%", all ? 100.0 * double(hit) / double(all) : 100.0);
  return b;
}

}  // namespace

std::string rtl_coverage_report(const std::string& dat_path, double* line_pct, double* toggle_pct) {
  std::ifstream in(dat_path);
  if (!in) throw std::runtime_error("cannot read coverage data " + dat_path);
  std::map<std::string, Tally> modules;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("C '", 0) != 0) continue;
    uint64_t count = 0;
    auto f = fields(line, count);
    const std::string& page = f["page"];
    const size_t slash = page.find('/');
    if (slash == std::string::npos) continue;
    // Verilator names parameterized copies module__params; report by module.
    const std::string kind = page.substr(0, slash);
    const std::string module = page.substr(slash + 1, page.find("__", slash) - slash - 1);
    const std::string point = f["f"] + ":" + f["l"] + ":" + f["n"] + ":" + f["o"];
    Tally& t = modules[module];
    auto& set = kind == "v_toggle" ? t.toggle : t.line;
    set[point] = set[point] || count > 0;
  }
  std::ostringstream r;
  char head[128];
  std::snprintf(head, sizeof head, "%-22s %16s %16s\n", "module", "line", "toggle");
  r << head;
  size_t lh = 0, la = 0, th = 0, ta = 0;
  for (const auto& [name, t] : modules) {
    size_t l = 0, tg = 0;
    for (const auto& [p, h] : t.line) l += h;
    for (const auto& [p, h] : t.toggle) tg += h;
    char row[160];
    std::snprintf(row, sizeof row, "%-22s %6zu/%-5zu%s %6zu/%-5zu%s\n", name.c_str(), l, t.line.size(),
                  pct(l, t.line.size()).c_str(), tg, t.toggle.size(), pct(tg, t.toggle.size()).c_str());
    r << row;
    lh += l, la += t.line.size(), th += tg, ta += t.toggle.size();
  }
  char row[160];
  std::snprintf(row, sizeof row, "%-22s %6zu/%-5zu%s %6zu/%-5zu%s\n", "rtl/ (all)", lh, la,
                pct(lh, la).c_str(), th, ta, pct(th, ta).c_str());
  r << row;
  if (line_pct) *line_pct = la ? 100.0 * double(lh) / double(la) : 100.0;
  if (toggle_pct) *toggle_pct = ta ? 100.0 * double(th) / double(ta) : 100.0;
  return r.str();
}

void FunctionalCoverage::ensure_bins() {
  if (!bins_.empty()) return;
  for (const char* b : {"nop", "sync", "halt", "rhm", "rhm segs>1", "whm", "rw", "rw transpose",
                        "mmc", "mmc switch", "mmc accumulate", "mmc switch accumulate",
                        "act", "act relu", "act pool>1", "act relu pool>1", "rw tiles>1", "mmc tiles>1", "whm groups>1"})
    bins_[std::string("opcode: ") + b] = 0;
  bins_["error: WEIGHT_FIFO or BUS_ERROR in an instruction of several tiles"] = 0;
  for (int e = 1; e <= 7; ++e) bins_[std::string("error: ") + error_name(ErrorCode(e))] = 0;
  for (const char* s : {"RAW/WAR/WAW interlock (raw_stall)", "weight stall (rw not there yet)",
                        "weight shift (shadow load)", "DMA wait"})
    bins_[std::string("stall: ") + s] = 0;
}

void FunctionalCoverage::add(const RandomProgram& p, const DiffResult& d) {
  ensure_bins();
  // Instructions the model executed: those before the final PC (and a final halt).
  const uint32_t end = d.model.pc;
  for (size_t i = 0; i < p.words.size() && p.entry + i * kInstrBytes <= end; ++i) {
    Instr in;
    if (decode(p.words[i], in) != DecodeResult::Ok) continue;
    if (p.entry + i * kInstrBytes == end && d.model.state == RunState::Error) {
      if (in.tiles > 1 && (d.model.error == ErrorCode::WeightFifo || d.model.error == ErrorCode::BusError))
        hit("error: WEIGHT_FIFO or BUS_ERROR in an instruction of several tiles");
      break;
    }
    if (in.tiles > 1) hit(in.op == Opcode::RW ? "opcode: rw tiles>1" : "opcode: mmc tiles>1");
    switch (in.op) {
      case Opcode::NOP: hit("opcode: nop"); break;
      case Opcode::SYNC: hit("opcode: sync"); break;
      case Opcode::HALT: hit("opcode: halt"); break;
      case Opcode::RHM: hit(in.segs > 1 ? "opcode: rhm segs>1" : "opcode: rhm"); break;
      case Opcode::WHM: hit(in.groups > 1 ? "opcode: whm groups>1" : "opcode: whm"); break;
      case Opcode::RW: hit(in.transpose ? "opcode: rw transpose" : "opcode: rw"); break;
      case Opcode::MMC:
        hit(std::string("opcode: mmc") + (in.sw ? " switch" : "") + (in.accumulate ? " accumulate" : ""));
        break;
      case Opcode::ACT:
        hit(std::string("opcode: act") + (in.relu ? " relu" : "") + (in.pool > 1 ? " pool>1" : ""));
        break;
    }
  }
  if (d.model.state == RunState::Error) hit(std::string("error: ") + error_name(d.model.error));
  const Counters& c = d.rtl.counters;
  if (c.raw_stall.value_or(0)) hit("stall: RAW/WAR/WAW interlock (raw_stall)");
  if (c.weight_stall.value_or(0)) hit("stall: weight stall (rw not there yet)");
  if (c.weight_shift.value_or(0)) hit("stall: weight shift (shadow load)");
  if (c.dma_wait.value_or(0)) hit("stall: DMA wait");
}

bool FunctionalCoverage::complete() const {
  for (const auto& [b, n] : bins_)
    if (!n) return false;
  return !bins_.empty();
}

std::string FunctionalCoverage::report() const {
  std::ostringstream r;
  size_t hit = 0;
  for (const auto& [b, n] : bins_) {
    char row[128];
    std::snprintf(row, sizeof row, "%-48s %8d%s\n", b.c_str(), n, n ? "" : "   <- never seen");
    r << row;
    hit += n > 0;
  }
  r << "functional coverage: " << hit << " of " << bins_.size() << " bins seen\n";
  return r.str();
}

}  // namespace tessera::sim
