// SPDX-License-Identifier: Apache-2.0
// The register map swept from the host after a run, against its one definition
// (tools/isa/csr_map.hpp) and the run's result: every address of the 8-bit map read and
// written; OKAY where a register is, SLVERR elsewhere and for writes to read-only ones;
// the identity and configuration values; STATUS, PC and every counter (low word, then
// the high word it latched) as the run left them; ENTRY and CONTROL keep what is
// written; IRQ clears on a written 1 only. Leaves the core as a run expects it.
#pragma once

#include <random>
#include <string>

#include "harness/core_sim.hpp"
#include "isa/csr_map.hpp"
#include "util/hex.hpp"

namespace tessera::sim {

// An empty string when every register answered as the map says, else the first problem.
template <class V>
std::string csr_sweep(CoreSim<V>& sim, const Config& cfg, const RunResult& run, std::mt19937& rng) {
  constexpr uint8_t kOkay = 0, kSlvErr = 2;
  std::string problem;
  auto expect = [&](bool ok, unsigned addr, const std::string& what) {
    if (!ok && problem.empty()) problem = "CSR sweep: register " + hex(addr, 2) + ": " + what;
  };
  const unsigned counters_end = csr::kCounters + 8u * kCounterCount;
  auto spec = [](unsigned a) -> const csr::RegisterSpec* {
    for (const auto& r : csr::kRegisters)
      if (r.offset == a && r.offset != csr::kCounters) return &r;
    return nullptr;
  };
  const uint32_t status = uint32_t(run.status.state) << csr::kStatusStateLsb |
                          uint32_t(run.status.error) << csr::kStatusErrorLsb | 1u << csr::kStatusIrqBit;
  for (unsigned a = 0; a < 0x100; a += 4) {
    const bool counter = a >= csr::kCounters && a < counters_end;
    const csr::RegisterSpec* r = spec(a);
    uint8_t resp = 0xff;
    const uint32_t v = sim.csr_read(uint8_t(a), &resp);
    expect(resp == (r || counter ? kOkay : kSlvErr), a, "read answered " + std::to_string(resp));
    if (counter) {  // the low word, then the high word it latched
      const uint64_t want = run.counters.get(CounterId((a - csr::kCounters) / 8)).value_or(0);
      const uint32_t hi = sim.csr_read(uint8_t(a + 4));
      expect(v == uint32_t(want) && hi == uint32_t(want >> 32), a, "counter reads " + hex(uint64_t(hi) << 32 | v, 16));
      a += 4;
      continue;
    }
    switch (a) {
      case csr::kId: expect(v == csr::kIdValue, a, "ID"); break;
      case csr::kVersion: expect(v == (uint32_t(csr::kVersionMajor) << 16 | csr::kVersionMinor), a, "VERSION"); break;
      case csr::kConfig0:
        expect(v == (cfg.array_size << csr::kConfig0ArraySizeLsb | cfg.wfifo_depth << csr::kConfig0WfifoDepthLsb |
                     cfg.dma_width << csr::kConfig0DmaWidthLsb), a, "CONFIG0");
        break;
      case csr::kConfig1: expect(v == cfg.ub_rows, a, "CONFIG1"); break;
      case csr::kConfig2: expect(v == cfg.acc_rows, a, "CONFIG2"); break;
      case csr::kConfig3: expect(v == cfg.dram_bytes, a, "CONFIG3"); break;
      case csr::kStatus: expect(v == status, a, "STATUS " + hex(v, 8) + ", the run's " + hex(status, 8)); break;
      case csr::kPc: expect(v == run.status.pc, a, "PC " + hex(v, 8)); break;
      case csr::kIrq: expect(v == 1u << csr::kIrqPendingBit, a, "IRQ pending after the run"); break;
      default: break;
    }
  }
  // Writes: the read-write registers keep what is written; the rest answer SLVERR and
  // keep their value. (CONTROL without its start and soft-reset bits.)
  for (unsigned a = 0; a < 0x100; a += 4) {
    const csr::RegisterSpec* r = spec(a);
    if (a == csr::kIrq) continue;  // below
    const uint32_t value = a == csr::kControl ? uint32_t(rng()) & csr::kIrqEnable : uint32_t(rng());
    const uint32_t before = sim.csr_read(uint8_t(a));
    uint8_t resp = 0xff;
    sim.csr_write(uint8_t(a), value, &resp);
    const bool rw = r && std::string(r->access) == "RW";
    expect(resp == (rw ? kOkay : kSlvErr), a, "write answered " + std::to_string(resp));
    const uint32_t after = sim.csr_read(uint8_t(a));
    if (a >= csr::kCounters) continue;  // (a counter's high word is the latched one)
    expect(after == (rw ? value : before), a, "after writing " + hex(value, 8) + " reads " + hex(after, 8));
  }
  // IRQ: a 0 written keeps the pending interrupt, a 1 clears it (and STATUS's copy).
  uint8_t resp = 0xff;
  sim.csr_write(csr::kIrq, 0, &resp);
  expect(resp == kOkay && sim.csr_read(csr::kIrq) == 1u << csr::kIrqPendingBit, csr::kIrq, "cleared by a 0");
  sim.csr_write(csr::kIrq, 1u << csr::kIrqPendingBit);
  expect(sim.csr_read(csr::kIrq) == 0 && sim.csr_read(csr::kStatus) == (status & ~(1u << csr::kStatusIrqBit)),
         csr::kIrq, "not cleared by a 1");
  return problem;
}

}  // namespace tessera::sim
