// SPDX-License-Identifier: Apache-2.0
// The host's register map (rtl/tpu_csr.v): its one definition. tpu-isa-gen writes them into rtl/tpu_isa.vh and docs/architecture.md
// ("CSR block"); the drivers and harnesses read these constants.
#pragma once

#include <array>
#include <cstdint>

#include "isa/arch.hpp"

namespace tessera {

namespace csr {

// Register offsets (32-bit registers on AXI4-Lite).
constexpr uint8_t kId = 0x00, kVersion = 0x04, kConfig0 = 0x08, kConfig1 = 0x0c, kConfig2 = 0x10,
                  kConfig3 = 0x14, kControl = 0x20, kEntry = 0x24, kStatus = 0x28, kPc = 0x2c,
                  kIrq = 0x30, kCounters = 0x40;
constexpr int kMaxCounters = (0x100 - kCounters) / 8;  // counters end at the 8-bit map's end
static_assert(kCounterCount <= kMaxCounters, "the counters must fit the CSR map");

constexpr uint32_t kIdValue = 0x54535241;             // "TSRA"
constexpr uint16_t kVersionMajor = 1, kVersionMinor = 0;  // of the ISA and the image format

// Bit positions inside registers.
constexpr int kConfig0ArraySizeLsb = 0, kConfig0WfifoDepthLsb = 8, kConfig0DmaWidthLsb = 16;
constexpr int kControlStartBit = 0, kControlSoftResetBit = 1, kControlIrqEnableBit = 2;
constexpr int kStatusStateLsb = 0, kStatusErrorLsb = 8, kStatusIrqBit = 16;
constexpr int kIrqPendingBit = 0;
constexpr uint32_t kStart = 1u << kControlStartBit, kSoftReset = 1u << kControlSoftResetBit,
                   kIrqEnable = 1u << kControlIrqEnableBit;

struct RegisterSpec {
  const char* name;    // as in the docs and the Verilog constant TPU_CSR_<name>
  uint8_t offset;
  const char* access;  // RO, RW, W1C
  const char* doc;
};
constexpr std::array<RegisterSpec, 12> kRegisters = {{
    {"ID", kId, "RO", "the core's identity, \"TSRA\" in ASCII"},
    {"VERSION", kVersion, "RO", "[31:16] major, [15:0] minor of the ISA and the image format"},
    {"CONFIG0", kConfig0, "RO", "[7:0] N, [15:8] wfifo_depth, [31:16] dma_width (bits)"},
    {"CONFIG1", kConfig1, "RO", "ub_rows"},
    {"CONFIG2", kConfig2, "RO", "acc_rows"},
    {"CONFIG3", kConfig3, "RO", "dram_bytes"},
    {"CONTROL", kControl, "RW",
     "[0] start (write 1: a pulse), [1] soft reset (write 1: a pulse), [2] interrupt enable (kept)"},
    {"ENTRY", kEntry, "RW", "the first instruction's address for the next start (its low four bits ignored)"},
    {"STATUS", kStatus, "RO", "[1:0] run state, [11:8] error code, [16] interrupt pending"},
    {"PC", kPc, "RO", "the last instruction fetched (the faulting one on error)"},
    {"IRQ", kIrq, "W1C", "[0] interrupt pending: set when a run ends (DONE or ERROR)"},
    {"COUNTERS", kCounters, "RO",
     "counter k's low word at +8k (reading it latches the high word), its high word as latched "
     "at +8k+4"},
}};

}  // namespace csr

}  // namespace tessera
