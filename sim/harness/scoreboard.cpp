// SPDX-License-Identifier: Apache-2.0
#include "scoreboard.hpp"

#include <algorithm>
#include <sstream>

#include "timeline.hpp"
#include "util/hex.hpp"

namespace tessera::sim {

std::string Expected::last_writer(uint32_t addr) const {
  for (auto w = writes.rbegin(); w != writes.rend(); ++w) {
    if (addr < w->addr || addr >= w->addr + w->len) continue;
    return "pc " + hex(w->pc) + " (" + instruction_text(dram, w->pc) + ")";
  }
  return "no instruction (the byte is from the loaded image)";
}

Expected run_model(const Config& cfg, const DiffInput& in) {
  Expected e;
  GoldenModel model(cfg);
  model.dram() = in.dram;
  model.set_bus_errors(in.bus_errors);
  model.set_write_observer([&](uint64_t addr, uint64_t len) {
    e.writes.push_back({model.status().pc, addr, len});
  });
  model.start(in.entry);
  e.status = model.run(0);
  e.counters = model.counters();
  e.dram = std::move(model.dram());
  return e;
}

namespace {
std::string status_text(const Status& s) {
  return std::string(run_state_name(s.state)) + "/" + error_name(s.error) + " at pc " + hex(s.pc);
}
}  // namespace

Comparison compare_run(const Expected& want, const RunResult& got, const std::vector<uint8_t>& got_dram,
                       const std::optional<std::string>& hang, uint64_t max_cycles) {
  std::ostringstream r;
  const Counters& a = got.counters;
  const Counters& b = want.counters;
  Comparison c;
  if (hang) {
    r << *hang;
  } else if (got.limit_reached) {
    r << "RTL still running after " << max_cycles << " cycles";
  } else if (got.status.state != want.status.state || got.status.error != want.status.error ||
             got.status.pc != want.status.pc) {
    r << "status: RTL " << status_text(got.status) << ", model " << status_text(want.status);
  } else if (a.instructions != b.instructions) {
    r << "instructions: RTL " << a.instructions << ", model " << b.instructions;
  } else if (want.status.state == RunState::Done &&
             (a.macs != b.macs || a.dram_read_bytes != b.dram_read_bytes ||
              a.dram_write_bytes != b.dram_write_bytes || a.weight_tiles != b.weight_tiles)) {
    r << "counters: RTL macs/read/written/tiles " << a.macs << "/" << a.dram_read_bytes << "/"
      << a.dram_write_bytes << "/" << a.weight_tiles << ", model " << b.macs << "/"
      << b.dram_read_bytes << "/" << b.dram_write_bytes << "/" << b.weight_tiles;
  } else if (got_dram.size() != want.dram.size()) {
    r << "device memory: RTL " << got_dram.size() << " bytes, model " << want.dram.size();
  } else {
    const auto diff = std::mismatch(got_dram.begin(), got_dram.end(), want.dram.begin());
    if (diff.first != got_dram.end()) {
      const uint32_t at = uint32_t(diff.first - got_dram.begin());
      r << "device memory at " << hex(at) << ": RTL " << hex(*diff.first, 2) << ", model "
        << hex(*diff.second, 2) << "; last written by " << want.last_writer(at);
    } else {
      c.match = true;
      r << "match: " << status_text(want.status) << ", " << b.instructions << " instructions, "
        << a.cycles.value_or(0) << " cycles";
    }
  }
  c.report = r.str();
  return c;
}

}  // namespace tessera::sim
