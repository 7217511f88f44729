// SPDX-License-Identifier: Apache-2.0
// The monitor: watches the core's trace port at every rising edge and records, for
// every instruction, the cycle it issued and the cycle its unit retired it (a
// sim::Timeline; written as Chrome trace-event JSON with the counters the host reads
// at the end). Cycles count from the start of the run.
#pragma once

#include <systemc>

#include <functional>
#include <string>

#include "core_signals.hpp"
#include "timeline.hpp"

namespace tessera::tb {

template <class V>
class Monitor : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};

  SC_HAS_PROCESS(Monitor);
  Monitor(sc_core::sc_module_name name, CoreSignals<V>& sig) : sc_module(name), sig_(sig) {
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
  }

  // Starts a new record; disassemble(pc) gives each issued instruction's text.
  void start(std::function<std::string(uint32_t)> disassemble) {
    timeline_ = sim::Timeline();
    disassemble_ = std::move(disassemble);
    cycle_ = 0;
    recording_ = true;
  }
  void stop() { recording_ = false; }
  const sim::Timeline& timeline() const { return timeline_; }
  uint64_t cycles() const { return cycle_; }

 private:
  void on_clock() {
    if (!recording_) return;
    ++cycle_;
    const bool issue = sig_.trace_issue_o.read();
    const uint64_t retire = sig_.trace_retire_o.read();
    if (!issue && !retire) return;
    const uint32_t pc = sig_.trace_pc_o.read();
    timeline_.observe(cycle_, issue, pc, sig_.trace_op_o.read(), sig_.trace_slot_o.read(), retire,
                      issue && disassemble_ ? disassemble_(pc) : std::string());
  }

  CoreSignals<V>& sig_;
  sim::Timeline timeline_;
  std::function<std::string(uint32_t)> disassemble_;
  uint64_t cycle_ = 0;
  bool recording_ = false;
};

}  // namespace tessera::tb
