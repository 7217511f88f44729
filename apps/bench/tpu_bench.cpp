// SPDX-License-Identifier: Apache-2.0
// tpu-bench (make bench): how busy the matrix unit is and how fast the simulators are.
//  1. GEMM sweep on the RTL (N = 8 and 16), M = K = N from the array size up to 256, at
//     ample memory bandwidth and at a TPU-v1-like 1 byte per 32 MACs: cycles, ideal
//     cycles (MACs / N^2), utilization, the stall counters; every run checked against
//     the golden model.
//  2. The layer suite: the convolution and dense shapes real networks run (padded,
//     strided, first RGB layers, wide and deep), compiled by tpu-cc, on the N = 16 RTL at
//     both memory settings: cycles, ideal (MACs / N^2), shape-limited ideal (K and the
//     output channels rounded up to N) and utilization against both; checked against
//     the golden model. Then the digits networks layer by layer.
//  3. Simulation speed of the N = 16 core: SystemC testbench, plain Verilator harness
//     (also Verilated with --threads 2 when built by make bench),
//     Icarus Verilog; the golden model's MAC/s.
// Prints tables and writes them as JSON (--out DIR/bench.json). --gemm N SIZE runs one
// GEMM row only (both bandwidths) and writes its program there, for tuning; --layer NAME
// does the same for one row of the layer suite.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "Vcore_n16.h"
#include "Vcore_n8.h"
#include "shipped_cores.hpp"
#ifdef TESSERA_BENCH_THREADS
#include "Vcore_n16_mt.h"
#endif
#include "asm/assembler.hpp"
#include "bench_runs.hpp"
#include "bench_systemc.hpp"
#include "compiler/compiler.hpp"
#include "compiler/gemm.hpp"
#include "nn/quant_model.hpp"
#include "nn/synthetic.hpp"
#include "util/file_io.hpp"

using namespace tessera;

namespace {

std::string src(const std::string& rel) { return std::string(TESSERA_SOURCE_DIR) + "/" + rel; }

Image assemble_or_die(const std::string& text, const Config& cfg) {
  const AsmResult a = assemble_source(text, "bench.s", ".", cfg);
  if (!a.image) throw std::runtime_error("benchmark program does not assemble:\n" + a.diags.format());
  return *a.image;
}

struct Json {
  std::ostringstream s;
  bool first = true;
  void item(const std::string& obj) {
    s << (first ? "\n    " : ",\n    ") << obj;
    first = false;
  }
};

double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0.0; }

// The two device-memory settings: the bus width per cycle, and TPU v1's 1 byte per 32 MACs.
struct Bandwidth {
  const char* name;
  unsigned bytes;
};
// The configuration's memory latency at `bytes` per cycle.
sim::MemTiming timing(const Config& cfg, unsigned bytes) {
  sim::MemTiming t;
  t.latency = cfg.testbench.mem_latency;
  t.bandwidth = bytes;
  return t;
}
std::vector<Bandwidth> bandwidths(const Config& cfg) {
  const unsigned n = cfg.array_size;
  return {{"ample", cfg.dma_width / 8}, {"tpu-v1", std::max(1u, n * n / 32)}};
}

// 1. GEMM sweep
// The square GEMM sizes measured on an N x N array: N itself (below 32) and 32..256.
std::vector<int> sweep_sizes(int n) {
  std::vector<int> sizes;
  for (int size : {n, 32, 64, 128, 256})
    if (size > n || (size == n && n < 32)) sizes.push_back(size);
  return sizes;
}

template <class V>
void gemm_sweep(const Config& cfg, int only_size, const std::string& out, Json& json, bool& ok) {
  const int n = int(cfg.array_size);
  const double n2 = double(n) * n;
  const std::vector<Bandwidth> bws = bandwidths(cfg);
  std::printf("\nGEMM on the RTL, N = %d (%s)\n", n, cfg.summary().c_str());
  std::printf("  %-11s %-7s %9s %9s %6s %7s %7s %7s %7s %7s\n", "MxKxN", "memory", "cycles", "ideal", "util",
              "wstall", "wshift", "raw", "dma", "check");
  for (int size : sweep_sizes(n)) {
    if (only_size && size != only_size) continue;
    const compiler::GemmProgram g = compiler::gemm_program(cfg, size, size, size);
    const Image img = assemble_or_die(g.assembly, cfg);
    const auto dram = bench::memory_with(cfg, img, uint32_t(size));
    if (only_size) {  // the program, to trace it with tpu-run --trace
      const std::string name = out + "/gemm_n" + std::to_string(n) + "_" + std::to_string(size) + ".s";
      write_file(name, g.assembly);
      std::printf("  program: %s\n", name.c_str());
    }
    for (const Bandwidth& bw : bws) {
      const sim::MemTiming t = timing(cfg, bw.bytes);
      const bench::Measured m = bench::run_plain<V>(cfg, dram, img.entry, t, true);
      const Counters& c = m.result.counters;
      const double ideal = double(g.macs) / n2, cycles = double(c.cycles.value_or(0));
      std::printf("  %-11s %-7s %9.0f %9.0f %5.1f%% %7llu %7llu %7llu %7llu %7s\n",
                  (std::to_string(size) + "^3").c_str(), bw.name, cycles, ideal, pct(ideal, cycles),
                  (unsigned long long)c.weight_stall.value_or(0), (unsigned long long)c.weight_shift.value_or(0),
                  (unsigned long long)c.raw_stall.value_or(0), (unsigned long long)c.dma_wait.value_or(0),
                  m.match ? "ok" : "MISMATCH");
      if (!m.match) std::printf("    %s\n", m.report.c_str()), ok = false;
      std::ostringstream o;
      o << "{\"n\": " << n << ", \"m\": " << size << ", \"k\": " << size << ", \"cols\": " << size << ", \"memory\": \""
        << bw.name << "\", \"bytes_per_cycle\": " << bw.bytes << ", \"cycles\": " << cycles
        << ", \"harness_cycles\": " << m.own_cycles << ", \"ideal_cycles\": " << ideal
        << ", \"utilization\": " << ideal / cycles << ", \"matrix_active\": " << c.matrix_active.value_or(0)
        << ", \"weight_stall\": " << c.weight_stall.value_or(0) << ", \"weight_shift\": " << c.weight_shift.value_or(0)
        << ", \"raw_stall\": " << c.raw_stall.value_or(0) << ", \"dma_wait\": " << c.dma_wait.value_or(0)
        << ", \"matches_model\": " << (m.match ? "true" : "false") << "}";
      json.item(o.str());
    }
  }
}

// 2. The layer suite
struct SuiteLayer {
  const char* name;
  nn::QuantLayer layer;
  int batch;  // 0: as tpu-cc chooses
};

std::vector<SuiteLayer> layer_suite() {
  using nn::conv_layer;
  return {
      {"conv3x3_16_32x32_same", conv_layer(32, 32, 16, 3, 16, 1, true, true), 0},
      {"conv3x3_32_16x16_same", conv_layer(16, 16, 32, 3, 32, 1, true, true), 0},
      {"conv3x3_64_8x8_same", conv_layer(8, 8, 64, 3, 64, 1, true, true), 0},
      {"conv3x3_32to64_16x16_s2", conv_layer(16, 16, 32, 3, 64, 2, true, true), 0},
      {"conv1x1_64_16x16", conv_layer(16, 16, 64, 1, 64, 1, false, true), 0},
      {"conv3x3_rgb_3to16_32x32", conv_layer(32, 32, 3, 3, 16, 1, true, true), 0},
      {"conv5x5_1to16_28x28", conv_layer(28, 28, 1, 5, 16, 1, false, true), 0},
      {"dense_256x256_b64", nn::dense_layer(256, 256, true), 64},
      {"dense_1024x128_b16", nn::dense_layer(1024, 128, true), 16},
  };
}

void layer_suite_table(const Config& cfg, const std::string& only, const std::string& out, Json& json, bool& ok) {
  const int n = int(cfg.array_size);
  const double n2 = double(n) * n;
  const std::vector<Bandwidth> bws = bandwidths(cfg);
  std::printf("\nLayer suite on the RTL, N = %d (util: of peak; shape: of the shape-limited ideal; memory: the "
              "cycles\nits bytes take at the memory's bandwidth; roof: of the larger of shape and memory)\n", n);
  std::printf("  %-24s %5s %-7s %9s %9s %9s %9s %6s %6s %6s %7s %7s %7s  %-7s %s\n", "layer", "batch", "memory",
              "cycles", "ideal", "shape", "memory", "util", "shape", "roof", "wstall", "raw", "dma", "check",
              "lowering");
  std::mt19937 rng(2026);
  bool found = false;
  for (SuiteLayer& s : layer_suite()) {
    nn::randomize_layer(s.layer, int(rng() % 21) - 10, rng);
    if (!only.empty() && only != s.name) continue;
    found = true;
    const nn::QuantLayer& L = s.layer;
    compiler::CompileOptions opt;
    opt.batch = s.batch;
    const compiler::CompiledModel c = compiler::compile_model(nn::single_layer_model(s.name, L), cfg, opt);
    const Image img = assemble_or_die(c.assembly, cfg);
    if (!only.empty()) {
      const std::string name = out + "/" + s.name + ".s";
      write_file(name, c.assembly);
      std::printf("  program: %s\n", name.c_str());
    }
    std::string lowering = "dense";
    const auto at = c.assembly.find("; layer 0: ");
    if (at != std::string::npos) lowering = c.assembly.substr(at + 11, c.assembly.find('\n', at) - at - 11);
    // positions (or batch rows) times K tiles times output tiles: the array's time if
    // every tile were full
    const nn::Shape os = L.out_shape();
    const double positions = double(c.batch) * (L.kind == nn::LayerKind::Dense ? 1 : L.pool * L.pool * os.h * os.w);
    const double shape = positions * ((L.k() + n - 1) / n) * ((L.out_c + n - 1) / n);
    const auto dram = bench::memory_with(cfg, img, 7);
    for (const Bandwidth& bw : bws) {
      const sim::MemTiming t = timing(cfg, bw.bytes);
      const bench::Measured m = bench::run_plain<Vcore_n16>(cfg, dram, img.entry, t, true);
      const Counters& k = m.result.counters;
      const double cycles = double(k.cycles.value_or(0)), ideal = double(c.macs) / n2;
      // reads (data and instructions, as the bus moved them: gathered rows that overlap are
      // read once) and writes have a channel each
      const double memory = double(std::max(m.bus_read_bytes, k.dram_write_bytes)) / bw.bytes;
      std::printf("  %-24s %5d %-7s %9.0f %9.0f %9.0f %9.0f %5.1f%% %5.1f%% %5.1f%% %7llu %7llu %7llu  %-7s %s\n",
                  s.name, c.batch, bw.name, cycles, ideal, shape, memory, pct(ideal, cycles), pct(shape, cycles),
                  pct(std::max(shape, memory), cycles),
                  (unsigned long long)k.weight_stall.value_or(0), (unsigned long long)k.raw_stall.value_or(0),
                  (unsigned long long)k.dma_wait.value_or(0), m.match ? "ok" : "MISMATCH", lowering.c_str());
      if (!m.match) std::printf("    %s\n", m.report.c_str()), ok = false;
      std::ostringstream o;
      o << "{\"layer\": \"" << s.name << "\", \"batch\": " << c.batch << ", \"memory\": \"" << bw.name
        << "\", \"bytes_per_cycle\": " << bw.bytes << ", \"cycles\": " << cycles << ", \"ideal_cycles\": " << ideal
        << ", \"shape_ideal_cycles\": " << shape << ", \"utilization\": " << ideal / cycles
        << ", \"shape_utilization\": " << shape / cycles << ", \"memory_cycles\": " << memory
        << ", \"roofline_utilization\": " << std::max(shape, memory) / cycles << ", \"weight_stall\": " << k.weight_stall.value_or(0)
        << ", \"raw_stall\": " << k.raw_stall.value_or(0) << ", \"dma_wait\": " << k.dma_wait.value_or(0)
        << ", \"dram_bytes\": " << (k.dram_read_bytes + k.dram_write_bytes) << ", \"lowering\": \"" << lowering
        << "\", \"matches_model\": " << (m.match ? "true" : "false") << "}";
      json.item(o.str());
    }
  }
  if (!found) {
    std::string names;
    for (const SuiteLayer& s : layer_suite()) names += std::string(names.empty() ? "" : ", ") + s.name;
    throw std::runtime_error("--layer NAME: NAME is one of " + names + ", not '" + only + "'");
  }
}

// 3. The digits networks, one layer at a time (each layer compiled as a model of its own).
void network_layers(const Config& cfg, Json& json) {
  const double n2 = double(cfg.array_size) * cfg.array_size;
  std::printf("\nDigits networks on the RTL, N = %u, layer by layer (batch chosen by tpu-cc)\n", cfg.array_size);
  std::printf("  %-11s %-6s %6s %9s %9s %6s %7s %7s %7s %7s %9s\n", "model", "layer", "batch", "cycles", "ideal",
              "util", "wstall", "wshift", "raw", "dma", "MAC/byte");
  for (const char* name : {"digits_mlp", "digits_cnn"}) {
    const nn::QuantModel model = nn::load_model(src("firmware/models/") + name + ".yaml");
    for (size_t l = 0; l < model.layers.size(); ++l) {
      nn::QuantModel one = model;
      one.layers = {model.layers[l]};
      one.input = model.layers[l].in;
      one.input_zp = model.layers[l].in_zp;
      const compiler::CompiledModel c = compiler::compile_model(one, cfg);
      const Image img = assemble_or_die(c.assembly, cfg);
      sim::MemTiming t;
      t.latency = cfg.testbench.mem_latency;
      t.bandwidth = cfg.testbench.mem_bandwidth;
      const bench::Measured m =
          bench::run_plain<Vcore_n16>(cfg, bench::memory_with(cfg, img, unsigned(l)), img.entry, t, false);
      const Counters& k = m.result.counters;
      const double cycles = double(k.cycles.value_or(0)), ideal = double(c.macs) / n2;
      const double bytes = double(k.dram_read_bytes + k.dram_write_bytes);
      const std::string kind = model.layers[l].kind == nn::LayerKind::Dense ? "dense" : "conv";
      std::printf("  %-11s %-6s %6d %9.0f %9.0f %5.1f%% %7llu %7llu %7llu %7llu %9.2f\n", name,
                  (kind + std::to_string(l)).c_str(), c.batch, cycles, ideal, pct(ideal, cycles),
                  (unsigned long long)k.weight_stall.value_or(0), (unsigned long long)k.weight_shift.value_or(0),
                  (unsigned long long)k.raw_stall.value_or(0), (unsigned long long)k.dma_wait.value_or(0),
                  double(c.macs) / bytes);
      std::ostringstream o;
      o << "{\"model\": \"" << name << "\", \"layer\": " << l << ", \"kind\": \"" << kind << "\", \"batch\": " << c.batch
        << ", \"cycles\": " << cycles << ", \"ideal_cycles\": " << ideal << ", \"utilization\": " << ideal / cycles
        << ", \"weight_stall\": " << k.weight_stall.value_or(0) << ", \"weight_shift\": " << k.weight_shift.value_or(0)
        << ", \"raw_stall\": " << k.raw_stall.value_or(0) << ", \"dma_wait\": " << k.dma_wait.value_or(0)
        << ", \"macs\": " << c.macs << ", \"dram_bytes\": " << bytes << ", \"macs_per_byte\": " << double(c.macs) / bytes
        << "}";
      json.item(o.str());
    }
  }
}

// Icarus Verilog on the same image: cycles per second over a short run, start-up excluded.
double icarus_speed(const Config& cfg, const std::vector<uint8_t>& dram, const std::string& work, uint64_t limit) {
  const std::string vvp = work + "/icarus_core_tb.vvp", hex = work + "/dram.hex";
  std::ostringstream h;
  for (uint8_t b : dram) h << std::hex << int(b) << "\n";
  write_file(hex, h.str());
  const std::string compile = "iverilog -g2005 -o " + vvp + " -I " + src("rtl") + " -y " + src("rtl") +
                              " -P icarus_core_tb.N=" + std::to_string(cfg.array_size) + " " +
                              src("apps/bench/icarus_core_tb.v");
  if (std::system(compile.c_str()) != 0) throw std::runtime_error("iverilog failed: " + compile);
  auto timed = [&](uint64_t cycles) {
    const std::string cmd = "vvp -n " + vvp + " +mem=" + hex + " +limit=" + std::to_string(cycles) + " > " + work +
                            "/icarus.out";
    const auto t0 = std::chrono::steady_clock::now();
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("vvp failed: " + cmd);
    return bench::since(t0);
  };
  const double base = timed(0), run = timed(limit);
  return double(limit) / std::max(1e-6, run - base);
}

void simulation_speed(const Config& cfg, const std::string& work, Json& json) {
  const int size = 128;
  const compiler::GemmProgram g = compiler::gemm_program(cfg, size, size, size);
  const Image img = assemble_or_die(g.assembly, cfg);
  const auto dram = bench::memory_with(cfg, img, 1);
  const sim::MemTiming t = timing(cfg, cfg.testbench.mem_bandwidth);
  const bench::Measured plain = bench::run_plain<Vcore_n16>(cfg, dram, img.entry, t, false);
  const bench::Measured sc = bench::run_systemc_n16(cfg, dram, img.entry, t);
  const double plain_cps = double(plain.own_cycles) / plain.seconds;
  const double sc_cps = double(sc.own_cycles) / sc.seconds;
#ifdef TESSERA_BENCH_THREADS
  const bench::Measured mt = bench::run_plain<Vcore_n16_mt>(cfg, dram, img.entry, t, false);
  const double mt_cps = double(mt.own_cycles) / mt.seconds;
#else
  const double mt_cps = 0;  // built only by make bench
#endif
  const double icarus_cps = icarus_speed(cfg, dram, work, 3000);
  // the golden model on the same GEMM, repeated for a measurable time
  GoldenModel model(cfg);
  uint64_t macs = 0;
  const auto t0 = std::chrono::steady_clock::now();
  do {
    model.dram() = dram;
    model.start(img.entry);
    model.run(0);
    macs += model.counters().macs;
  } while (bench::since(t0) < 0.5);
  const double model_macs = double(macs) / bench::since(t0), rtl_macs = double(g.macs) / plain.seconds;
  std::printf("\nSimulation speed, N = 16, GEMM %dx%dx%d (%llu cycles)\n", size, size, size,
              (unsigned long long)plain.result.counters.cycles.value_or(0));
  std::printf("  SystemC testbench        %12.0f cycles/s\n", sc_cps);
  std::printf("  plain Verilator harness  %12.0f cycles/s\n", plain_cps);
  if (mt_cps > 0)
    std::printf("  the same, --threads 2    %12.0f cycles/s (%.2fx the single-threaded model)\n", mt_cps,
                mt_cps / plain_cps);
  std::printf("  Icarus Verilog           %12.0f cycles/s (3000 cycles, start-up excluded)\n", icarus_cps);
  std::printf("  golden model             %12.3g MAC/s   (RTL, plain harness: %.3g MAC/s)\n", model_macs, rtl_macs);
  std::printf("  ratios: SystemC / plain Verilator %.2f (target >= 0.6); Verilator / Icarus %.0f; "
              "model / RTL %.0f (target >= 100)\n",
              sc_cps / plain_cps, plain_cps / icarus_cps, model_macs / rtl_macs);
  std::printf("  cycle counts agree: core counter %llu, plain harness %llu, SystemC monitor %llu\n",
              (unsigned long long)plain.result.counters.cycles.value_or(0), (unsigned long long)plain.own_cycles,
              (unsigned long long)sc.own_cycles);
  std::ostringstream o;
  o << "{\"systemc_cycles_per_s\": " << sc_cps << ", \"verilator_cycles_per_s\": " << plain_cps
    << ", \"verilator_threads2_cycles_per_s\": " << mt_cps
    << ", \"icarus_cycles_per_s\": " << icarus_cps << ", \"model_macs_per_s\": " << model_macs
    << ", \"rtl_macs_per_s\": " << rtl_macs << ", \"systemc_over_verilator\": " << sc_cps / plain_cps
    << ", \"verilator_over_icarus\": " << plain_cps / icarus_cps << ", \"model_over_rtl\": " << model_macs / rtl_macs
    << ", \"core_cycles\": " << plain.result.counters.cycles.value_or(0) << ", \"harness_cycles\": " << plain.own_cycles
    << ", \"systemc_cycles\": " << sc.own_cycles << "}";
  json.item(o.str());
}

}  // namespace

int run_bench(int argc, char** argv) {
  try {
    std::string out = "build/bench";
    int only_n = 0, only_size = 0;  // --gemm N SIZE: that one GEMM row only (for tuning)
    std::string only_layer;         // --layer NAME: that one row of the layer suite
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--out" && i + 1 < argc) {
        out = argv[++i];
      } else if (a == "--layer" && i + 1 < argc) {
        only_layer = argv[++i];
      } else if (a == "--gemm" && i + 2 < argc) {
        const std::string n_arg = argv[++i], size_arg = argv[++i];
        only_n = n_arg == "8" ? 8 : n_arg == "16" ? 16 : 0;
        if (!only_n) throw std::runtime_error("--gemm N SIZE: N is 8 or 16, not '" + n_arg + "'");
        std::string valid;
        for (int size : sweep_sizes(only_n)) {
          valid += (valid.empty() ? "" : ", ") + std::to_string(size);
          if (size_arg == std::to_string(size)) only_size = size;
        }
        if (!only_size)
          throw std::runtime_error("--gemm " + n_arg + " SIZE: SIZE is one of " + valid + ", not '" + size_arg + "'");
      } else {
        throw std::runtime_error("unknown argument '" + a +
                                 "' (usage: tpu-bench [--out DIR] [--gemm N SIZE | --layer NAME])");
      }
    }
    std::filesystem::create_directories(out);
    const Config n8 = load_config_file(src(shipped_core("n8").config));
    const Config n16 = load_config_file(src(shipped_core("n16").config));
    bool ok = true;
    Json gemm, layers, nets, speed;
    if (!only_layer.empty()) {
      layer_suite_table(n16, only_layer, out, layers, ok);
      return ok ? 0 : 1;
    }
    if (only_n != 16) gemm_sweep<Vcore_n8>(n8, only_size, out, gemm, ok);
    if (only_n != 8) gemm_sweep<Vcore_n16>(n16, only_size, out, gemm, ok);
    if (!only_n) {
      layer_suite_table(n16, "", out, layers, ok);
      network_layers(n16, nets);
      simulation_speed(n16, out, speed);
    }
    write_file(out + "/bench.json", "{\n  \"gemm\": [" + gemm.s.str() + "\n  ],\n  \"layers\": [" + layers.s.str() +
                                        "\n  ],\n  \"networks\": [" + nets.s.str() + "\n  ],\n  \"speed\": [" +
                                        speed.s.str() + "\n  ]\n}\n");
    std::printf("\nwritten: %s/bench.json\n", out.c_str());
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tpu-bench: error: %s\n", e.what());
    return 1;
  }
}

int main(int argc, char** argv) { return run_bench(argc, argv); }

// libsystemc carries a main that calls sc_main; this program's own main is the entry.
extern "C" int sc_main(int argc, char** argv) { return run_bench(argc, argv); }
