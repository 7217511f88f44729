// SPDX-License-Identifier: Apache-2.0
// The watchdog: while armed, a cycle with no instruction issued or retired and no bus
// handshake counts as no progress; `limit` such cycles in a row stop the run with a
// report of the cycle, the last decoded PC, each unit's state and queue occupancy,
// and the bus. The host waits on fired().
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core_signals.hpp"
#include "hang_report.hpp"

namespace tessera::tb {

template <class V>
class Watchdog : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};

  SC_HAS_PROCESS(Watchdog);
  // handshakes(): the bus handshakes so far; bus_idle(): no transfer outstanding.
  Watchdog(sc_core::sc_module_name name, CoreSignals<V>& sig, std::function<uint64_t()> handshakes,
           std::function<bool()> bus_idle)
      : sc_module(name), sig_(sig), handshakes_(std::move(handshakes)), bus_idle_(std::move(bus_idle)) {
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
  }

  void arm(uint64_t limit) {
    limit_ = limit;
    quiet_ = 0;
    cycle_ = 0;
    report_.reset();
    last_handshakes_ = handshakes_();
    armed_ = true;
  }
  void disarm() { armed_ = false; }
  const sc_core::sc_event& fired() const { return fired_; }
  const std::optional<std::string>& report() const { return report_; }

 private:
  void on_clock() {
    if (!armed_) return;
    ++cycle_;
    const uint64_t hs = handshakes_();
    const bool progress = sig_.trace_issue_o.read() || sig_.trace_retire_o.read() || hs != last_handshakes_;
    last_handshakes_ = hs;
    quiet_ = progress ? 0 : quiet_ + 1;
    if (quiet_ <= limit_) return;
    report_ = sim::hang_report(limit_, cycle_, sig_.trace_pc_o.read(), sig_.dbg_unit_busy_o.read(),
                               sig_.dbg_queue_count_o.read(), bus_idle_());
    armed_ = false;
    fired_.notify(sc_core::SC_ZERO_TIME);
  }

  CoreSignals<V>& sig_;
  std::function<uint64_t()> handshakes_;
  std::function<bool()> bus_idle_;
  sc_core::sc_event fired_{"fired"};
  uint64_t limit_ = 0, quiet_ = 0, cycle_ = 0, last_handshakes_ = 0;
  bool armed_ = false;
  std::optional<std::string> report_;
};

}  // namespace tessera::tb
