// SPDX-License-Identifier: Apache-2.0
#include "axi_slave.hpp"

#include <algorithm>

namespace tessera::sim {

AxiSlave::AxiSlave(MemoryTarget& target, unsigned bus_bytes, double random_stall, uint32_t seed)
    : target_(target), bus_bytes_(bus_bytes), rng_(seed), stall_(random_stall) {
  reset();
}

void AxiSlave::reset() {
  read_free_ = write_free_ = 0;
  reads_.clear();
  writes_.clear();
  responses_.clear();
  out_ = AxiSlavePins{};
  out_.rdata.assign(bus_bytes_, 0);
}

uint64_t AxiSlave::ReadBurst::ready_at(unsigned beat) const {
  return start + (beats > 1 ? uint64_t(transfer - 1) * beat / (beats - 1) : 0);
}

namespace {
// Cycles an access moves data: from its first bytes to its last.
unsigned transfer_cycles(const MemAccessResult& a) {
  return a.total_cycles > a.first_cycles ? a.total_cycles - a.first_cycles + 1 : 1;
}
}  // namespace

void AxiSlave::violation(const std::string& what) {
  if (violations_.size() < 20) violations_.push_back("cycle " + std::to_string(now_) + ": " + what);
}

void AxiSlave::check_burst(const char* kind, uint32_t addr, unsigned beats, unsigned size,
                           unsigned burst) {
  const std::string k(kind);
  if (burst != 1) violation(k + " burst is not INCR");
  if ((1u << size) != bus_bytes_) violation(k + " beat size is not the bus width");
  const uint32_t first = addr & ~uint32_t(bus_bytes_ - 1);
  if ((first % 4096) + beats * bus_bytes_ > 4096) violation(k + " burst crosses a 4 KB page");
}

void AxiSlave::clock(const AxiMasterPins& in) {
  const uint32_t align = ~uint32_t(bus_bytes_ - 1);
  // This cycle's handshakes.
  if (out_.arready && in.arvalid) {
    ++handshakes_;
    check_burst("read", in.araddr, in.arlen + 1, in.arsize, in.arburst);
    ReadBurst b{in.araddr & align, in.arlen + 1, 0, 0, 0, {}, {}};
    read_beats_ += b.beats;
    b.data.assign(b.beats * bus_bytes_, 0);
    b.access = target_.read(b.base, b.data.data(), unsigned(b.data.size()));
    b.transfer = transfer_cycles(b.access);
    b.start = std::max(now_ + b.access.first_cycles, read_free_);
    read_free_ = b.start + b.transfer;
    reads_.push_back(std::move(b));
  }
  const bool r_fire = out_.rvalid && in.rready;
  if (r_fire) {
    ++handshakes_;
    ReadBurst& b = reads_.front();
    if (++b.sent == b.beats) reads_.pop_front();
  }
  if (out_.awready && in.awvalid) {
    ++handshakes_;
    check_burst("write", in.awaddr, in.awlen + 1, in.awsize, in.awburst);
    WriteBurst b{in.awaddr & align, in.awlen + 1, 0, {}, {}};
    b.data.assign(b.beats * bus_bytes_, 0);
    b.enable.assign(b.beats * bus_bytes_, 0);
    writes_.push_back(std::move(b));
  }
  if (out_.wready && in.wvalid) {
    ++handshakes_;
    WriteBurst& b = writes_.front();  // wready is only offered with a burst open
    for (unsigned i = 0; i < bus_bytes_; ++i) {
      b.data[b.got * bus_bytes_ + i] = in.wdata[i];
      b.enable[b.got * bus_bytes_ + i] = (in.wstrb >> i) & 1;
    }
    const bool last = ++b.got == b.beats;
    if (in.wlast != last) violation("wlast does not mark the burst's last beat");
    if (last) {
      const MemAccessResult a = target_.write(b.base, b.data.data(), b.enable.data(), unsigned(b.data.size()));
      const uint64_t start = std::max(now_ + a.first_cycles, write_free_);
      write_free_ = start + transfer_cycles(a);
      responses_.emplace_back(write_free_ - 1, a.status);
      writes_.pop_front();
    }
  }
  const bool b_fire = out_.bvalid && in.bready;
  if (b_fire) {
    ++handshakes_;
    responses_.pop_front();
  }
  ++now_;

  // Next cycle's pins. A valid, once shown, holds with its payload until taken.
  out_.arready = reads_.size() < kMaxReads && !stall_(rng_);
  out_.awready = writes_.size() < 4 && !stall_(rng_);
  out_.wready = !writes_.empty() && !stall_(rng_);
  if (!(out_.rvalid && !r_fire)) {
    out_.rvalid = !reads_.empty() && reads_.front().ready_at(reads_.front().sent) <= now_ && !stall_(rng_);
    if (out_.rvalid) {
      const ReadBurst& b = reads_.front();
      std::copy_n(b.data.begin() + b.sent * bus_bytes_, bus_bytes_, out_.rdata.begin());
      out_.rresp = resp(b.access.status);
      out_.rlast = b.sent + 1 == b.beats;
    }
  }
  if (!(out_.bvalid && !b_fire)) {
    out_.bvalid = !responses_.empty() && responses_.front().first <= now_ && !stall_(rng_);
    if (out_.bvalid) out_.bresp = resp(responses_.front().second);
  }
}

}  // namespace tessera::sim
