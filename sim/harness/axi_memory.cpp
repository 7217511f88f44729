// SPDX-License-Identifier: Apache-2.0
#include "axi_memory.hpp"

#include <algorithm>

namespace tessera::sim {

AxiMemory::AxiMemory(uint32_t bytes, unsigned bus_bytes, const MemTiming& timing)
    : mem_(bytes, 0), bus_bytes_(bus_bytes), timing_(timing), rng_(timing.seed),
      stall_(timing.random_stall) {
  reset();
}

void AxiMemory::reset() {
  reads_.clear();
  writes_.clear();
  responses_.clear();
  credit_ = 0;
  out_ = AxiSlavePins{};
  out_.rdata.assign(bus_bytes_, 0);
}

bool AxiMemory::in_error(uint32_t addr, unsigned len) const {
  return std::any_of(errors_.begin(), errors_.end(), [&](const AddrRange& r) {
    return addr < r.hi && r.lo < uint64_t{addr} + len;
  });
}

void AxiMemory::violation(const std::string& what) {
  if (violations_.size() < 20) violations_.push_back("cycle " + std::to_string(now_) + ": " + what);
}

void AxiMemory::clock(const AxiMasterPins& in) {
  const uint32_t align = ~uint32_t(bus_bytes_ - 1);
  // Handshakes of this cycle.
  if (out_.arready && in.arvalid) {
    if (in.arburst != 1) violation("read burst is not INCR");
    if ((1u << in.arsize) != bus_bytes_) violation("read beat size is not the bus width");
    const uint32_t first = in.araddr & align;
    if ((first % 4096) + (in.arlen + 1) * bus_bytes_ > 4096) violation("read burst crosses 4 KB");
    reads_.push_back(Burst{in.araddr, in.arlen + 1, 0, now_ + timing_.latency});
  }
  const bool r_fire = out_.rvalid && in.rready;
  if (r_fire) {
    Burst& b = reads_.front();
    if (++b.sent == b.beats) reads_.pop_front();
  }
  if (out_.awready && in.awvalid) {
    if (in.awburst != 1) violation("write burst is not INCR");
    if ((1u << in.awsize) != bus_bytes_) violation("write beat size is not the bus width");
    const uint32_t first = in.awaddr & align;
    if ((first % 4096) + (in.awlen + 1) * bus_bytes_ > 4096) violation("write burst crosses 4 KB");
    writes_.push_back(Burst{in.awaddr, in.awlen + 1, 0, 0});
  }
  if (out_.wready && in.wvalid) {
    if (writes_.empty()) {
      violation("write data before its address");  // our pins never offer wready then
    } else {
      Burst& b = writes_.front();
      const uint32_t beat = (b.addr & align) + b.sent * bus_bytes_;
      if (in_error(beat, bus_bytes_) || uint64_t{beat} + bus_bytes_ > mem_.size()) {
        b.error = true;
      } else {
        for (unsigned i = 0; i < bus_bytes_; ++i)
          if ((in.wstrb >> i) & 1) mem_[beat + i] = in.wdata[i];
      }
      const bool last = ++b.sent == b.beats;
      if (in.wlast != last) violation("wlast does not mark the burst's last beat");
      if (last) {
        responses_.emplace_back(now_ + timing_.latency, b.error);
        writes_.pop_front();
      }
    }
  }
  const bool b_fire = out_.bvalid && in.bready;
  if (b_fire) responses_.pop_front();
  ++now_;

  // Next cycle's pins. A valid, once shown, holds with its data until taken.
  out_.arready = reads_.size() < 8 && !stall_(rng_);
  out_.awready = writes_.size() < 4 && !stall_(rng_);
  out_.wready = !writes_.empty() && !stall_(rng_);
  credit_ = std::min(credit_ + timing_.bandwidth, double(2 * bus_bytes_ + timing_.bandwidth));
  if (!(out_.rvalid && !r_fire)) next_read_pins();
  if (!(out_.bvalid && !b_fire)) {
    out_.bvalid = !responses_.empty() && responses_.front().first <= now_ && !stall_(rng_);
    out_.bresp = out_.bvalid && responses_.front().second ? 2 : 0;
  }
}

void AxiMemory::next_read_pins() {
  out_.rvalid = false;
  if (reads_.empty() || reads_.front().ready_at > now_ || credit_ < bus_bytes_ || stall_(rng_))
    return;
  const Burst& b = reads_.front();
  const uint32_t beat = (b.addr & ~uint32_t(bus_bytes_ - 1)) + b.sent * bus_bytes_;
  credit_ -= bus_bytes_;
  out_.rvalid = true;
  out_.rlast = b.sent + 1 == b.beats;
  if (uint64_t{beat} + bus_bytes_ > mem_.size()) {
    out_.rresp = 3;  // DECERR: no memory there
    std::fill(out_.rdata.begin(), out_.rdata.end(), 0);
  } else if (in_error(beat, bus_bytes_)) {
    out_.rresp = 2;  // SLVERR
    std::fill(out_.rdata.begin(), out_.rdata.end(), 0);
  } else {
    out_.rresp = 0;
    std::copy_n(mem_.begin() + beat, bus_bytes_, out_.rdata.begin());
  }
}

}  // namespace tessera::sim
