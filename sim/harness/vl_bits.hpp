// SPDX-License-Identifier: Apache-2.0
// Bit-field access to Verilated ports of any width (CData ... QData, VlWide<W>).
#pragma once

#include <verilated.h>

#include <cstdint>
#include <type_traits>

namespace tessera::rtl {

template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
void set_bits(T& port, unsigned lsb, unsigned width, uint64_t value) {
  const uint64_t mask = (width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1)) << lsb;
  port = static_cast<T>((static_cast<uint64_t>(port) & ~mask) | ((value << lsb) & mask));
}

template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
uint64_t get_bits(const T& port, unsigned lsb, unsigned width) {
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
  return (static_cast<uint64_t>(port) >> lsb) & mask;
}

template <std::size_t W>
void set_bits(VlWide<W>& port, unsigned lsb, unsigned width, uint64_t value) {
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    const uint32_t m = uint32_t{1} << (bit % 32);
    if ((value >> i) & 1) port[bit / 32] |= m;
    else port[bit / 32] &= ~m;
  }
}

template <std::size_t W>
uint64_t get_bits(const VlWide<W>& port, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    v |= uint64_t{(port[bit / 32] >> (bit % 32)) & 1u} << i;
  }
  return v;
}

// One rising edge: inputs set before the call are sampled; registered outputs show
// the next cycle's values afterwards.
template <typename Dut>
void tick(Dut& dut) {
  dut.clk_i = 0;
  dut.eval();
  dut.clk_i = 1;
  dut.eval();
}

template <typename Dut>
void reset(Dut& dut) {
  dut.rst_ni = 0;
  tick(dut);
  tick(dut);
  dut.rst_ni = 1;
}

}  // namespace tessera::rtl
