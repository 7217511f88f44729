// SPDX-License-Identifier: Apache-2.0
// tpu-run: load an image on a backend, feed inputs, run, print status and counters.
#include <cstdio>

#include "cli/cli_common.hpp"
#include "driver/device.hpp"
#include "isa/isa.hpp"
#include "util/file_io.hpp"
#include "util/hex.hpp"
#include "util/npy.hpp"
#include "rtl_backend.hpp"
#include "systemc_backend.hpp"

using namespace tessera;

static const char* kUsage =
    "usage: tpu-run [--backend model|rtl|systemc|uart] [--config FILE] IMAGE.img [--in SYM=FILE]...\n"
    "               [--out SYM=FILE]... [--max-cycles N] [--bus-error LO:HI]... [--quiet]\n"
    "               [--wave FILE.fst [--wave-from CYCLE] [--wave-to CYCLE]] [--trace FILE.json]\n"
    "               [--watchdog CYCLES] [--port DEV [--baud B]]\n"
    "  --backend  model: the golden model; rtl: the Verilated core of the configuration\n"
    "             in a plain C++ harness; systemc: the same core in the SystemC/TLM testbench;\n"
    "             uart: a board (docs/fpga.md) on --port\n"
    "  --in   writes FILE (raw bytes, or the data of a .npy array) to symbol SYM\n"
    "  --out  saves symbol SYM after the run (as .npy int8 if FILE ends in .npy)\n"
    "  --max-cycles  stop after N cycles (model backend: N instructions); 0 = none\n"
    "  --bus-error   device memory answers accesses in [LO, HI) with a bus error\n"
    "                (LO and HI multiples of 64)\n"
    "  --wave     (rtl, systemc) write FST waves; rtl: optionally only of cycles [FROM, TO]\n"
    "  --trace    (rtl, systemc) write the instruction timeline as Chrome trace-event JSON\n"
    "  --watchdog (rtl, systemc, uart) report a hang after CYCLES without progress (default 100000)\n"
    "%s"
    "  Exit code 0 only when the program reached HALT with no error.\n";

namespace {

std::pair<std::string, std::string> split_assign(const std::string& s, const char* opt) {
  const size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
    throw cli::CliError{std::string(opt) + " takes SYM=FILE, got '" + s + "'"};
  return {s.substr(0, eq), s.substr(eq + 1)};
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<uint8_t> input_bytes(const std::string& path) {
  std::vector<uint8_t> bytes = read_file_bytes(path);
  if (bytes.size() >= 6 && bytes[0] == 0x93 && bytes[1] == 'N') {
    try {
      return parse_npy(bytes).data;
    } catch (const NpyError& e) {
      throw cli::CliError{path + ": " + e.what()};
    }
  }
  return bytes;
}

std::string instr_at(Device& dev, uint32_t pc) {
  if (uint64_t{pc} + kInstrBytes > dev.config().dram_bytes) return "(outside device memory)";
  const std::vector<uint8_t> w = dev.read_mem(pc, kInstrBytes);
  Instr in;
  return decode(load_word(w.data()), in) == DecodeResult::Ok ? format_instr(in)
                                                             : "(illegal encoding " + word_hex(load_word(w.data())) + ")";
}

}  // namespace

int run_tool(int argc, char** argv) {
  try {
    sim::register_rtl_backend();
    tb::register_systemc_backend();
    cli::Args args(argc, argv);
    std::string config_path, backend = "model", image_path, value;
    std::vector<std::pair<std::string, std::string>> ins, outs;
    DeviceOptions opts;
    RunLimits limits;
    bool quiet = false;
    while (!args.done()) {
      if (args.flag("--help") || args.flag("-h")) {
        std::printf(kUsage, cli::kLinkUsage);
        return 0;
      }
      if (args.flag("--quiet")) quiet = true;
      else if (args.option("--config", config_path) || args.option("--backend", backend)) {}
      else if (args.option("--in", value)) ins.push_back(split_assign(value, "--in"));
      else if (args.option("--out", value)) outs.push_back(split_assign(value, "--out"));
      else if (args.option("--max-cycles", value)) limits.max_cycles = cli::parse_number(value, "--max-cycles");
      else if (args.option("--wave", opts.wave_file) || args.option("--trace", opts.trace_file)) {}
      else if (args.option("--wave-from", value)) opts.wave_from = cli::parse_number(value, "--wave-from");
      else if (args.option("--wave-to", value)) opts.wave_to = cli::parse_number(value, "--wave-to");
      else if (cli::link_option(args, opts)) {}
      else if (args.option("--watchdog", value)) opts.watchdog_cycles = cli::parse_number(value, "--watchdog");
      else if (args.option("--bus-error", value)) {
        const size_t colon = value.find(':');
        if (colon == std::string::npos) throw cli::CliError{"--bus-error takes LO:HI"};
        opts.bus_errors.push_back(
            {static_cast<uint32_t>(cli::parse_number(value.substr(0, colon), "--bus-error LO")),
             static_cast<uint32_t>(cli::parse_number(value.substr(colon + 1), "--bus-error HI"))});
      } else {
        if (!image_path.empty()) throw cli::CliError{"only one image may be given"};
        image_path = args.positional();
      }
    }
    if (image_path.empty()) {
      std::fprintf(stderr, kUsage, cli::kLinkUsage);
      return 2;
    }
    opts.backend = parse_backend_name(backend);
    const Config cfg = cli::load_config_arg(config_path);
    // The image checked before a backend starts (an exception after the SystemC backend
    // switched stacks is a false AddressSanitizer report, not the message).
    const Image img = read_image_file(image_path);
    check_image_fits(img, cfg, image_path);
    auto dev = Device::open(cfg, opts);
    dev->load(img, image_path);
    for (const auto& [sym, file] : ins) dev->write(sym, input_bytes(file));

    const RunResult r = dev->run(limits);

    for (const auto& [sym, file] : outs) {
      std::vector<uint8_t> bytes = dev->read(sym);
      if (ends_with(file, ".npy")) bytes = serialize_npy({"|i1", {bytes.size()}, bytes});
      cli::write_file_bytes(file, bytes);
    }
    if (!quiet) {
      std::printf("backend:  %s (%s)\n", dev->backend_name().c_str(), cfg.summary().c_str());
      std::printf("status:   %s  error: %s  pc: %s\n", run_state_name(r.status.state),
                  error_name(r.status.error), hex(r.status.pc, 8).c_str());
      std::printf("counters:\n");
      for (const auto& [name, v] : r.counters.items())
        std::printf("  %-18s %llu\n", name.c_str(), static_cast<unsigned long long>(v));
    }
    if (r.hang) {
      std::printf("tpu-run: FAILED: the core stopped making progress\n%s", r.hang->c_str());
      return 1;
    }
    if (r.limit_reached) {
      std::printf("tpu-run: FAILED: run limit of %llu reached at pc %s\n",
                  static_cast<unsigned long long>(limits.max_cycles), hex(r.status.pc, 8).c_str());
      return 1;
    }
    if (r.status.state == RunState::Error) {
      std::printf("tpu-run: FAILED: %s (%s) at pc %s: %s\n", error_name(r.status.error),
                  error_description(r.status.error), hex(r.status.pc, 8).c_str(),
                  instr_at(*dev, r.status.pc).c_str());
      return 1;
    }
    std::printf("tpu-run: OK: %s after %llu instructions, %llu MACs, %llu bytes read, %llu bytes written\n",
                run_state_name(r.status.state), static_cast<unsigned long long>(r.counters.instructions),
                static_cast<unsigned long long>(r.counters.macs),
                static_cast<unsigned long long>(r.counters.dram_read_bytes),
                static_cast<unsigned long long>(r.counters.dram_write_bytes));
    return 0;
  } catch (const cli::CliError& e) {
    std::fprintf(stderr, "tpu-run: error: %s\n", e.message.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tpu-run: error: %s\n", e.what());
  }
  return 1;
}

int main(int argc, char** argv) { return run_tool(argc, argv); }

// libsystemc (the SystemC backend) carries its own main, which calls sc_main; the
// linker wants the symbol even though this program's main is the one that runs.
extern "C" int sc_main(int argc, char** argv) { return run_tool(argc, argv); }
