// SPDX-License-Identifier: Apache-2.0
// digits-demo (make demo): compiles the digits MLP and CNN for a core configuration
// and classifies the whole test split on a backend (the Verilated RTL by default),
// batch by batch. Every batch also runs on the golden model: the logits must be
// equal, bit for bit, or the demo fails. Prints int8 accuracy on the core, float
// accuracy of the same model, agreement with the golden model, cycles per image,
// matrix-unit utilization and simulated images per second.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

#include "asm/assembler.hpp"
#include "cli/cli_common.hpp"
#include "compiler/compiler.hpp"
#include "driver/device.hpp"
#include "nn/quantize.hpp"
#include "nn/reference.hpp"
#include "rtl_backend.hpp"
#include "systemc_backend.hpp"

using namespace tessera;

static const char* kUsage =
    "usage: digits-demo [--backend rtl|systemc|model|uart] [--config FILE] [--models DIR] [--data CSV]\n"
    "                   [--port DEV [--baud B]]\n";

namespace {

struct Figures {
  size_t images = 0, right = 0, float_right = 0, agree = 0, ref_agree = 0;
  uint64_t cycles = 0, matrix_active = 0, macs = 0;
  double seconds = 0;
};

void progress(const char* name, size_t done, size_t total) {
  const int width = 30, filled = int(width * done / total);
  std::fprintf(stderr, "\r  %-11s [%.*s%*s] %zu/%zu", name, filled, "##############################",
               width - filled, "", done, total);
  if (done == total) std::fputc('\n', stderr);
}

// A model compiled at the batch that splits the test images evenly, and assembled.
struct Program {
  nn::QuantModel q;
  compiler::CompiledModel c;
  Image image;
};

Program compile(const std::string& models, const std::string& name, const Config& cfg, size_t images) {
  Program p;
  p.q = nn::load_model(models + "/" + name + ".yaml");
  p.c = compiler::compile_model(p.q, cfg);
  const size_t runs = (images + size_t(p.c.batch) - 1) / size_t(p.c.batch);
  if (images % size_t(p.c.batch) != 0) {  // equal batches: a short last one would run padding
    compiler::CompileOptions even;
    even.batch = int((images + runs - 1) / runs);
    p.c = compiler::compile_model(p.q, cfg, even);
  }
  const AsmResult a = assemble_source(p.c.assembly, name + ".s", ".", cfg);
  if (!a.image) throw std::runtime_error("the compiled program does not assemble: " + a.diags.format());
  p.image = *a.image;
  return p;
}

Figures classify(const std::string& models, const std::string& name, const Program& p, const nn::FloatNet& arch,
                 const Config& cfg, const DeviceOptions& opts, const nn::Digits& test) {
  const nn::QuantModel& q = p.q;
  const compiler::CompiledModel& c = p.c;
  nn::FloatNet net = arch;
  nn::load_float_params(net, models + "/" + name + ".float.bin");
  auto dev = Device::open(cfg, opts);
  DeviceOptions model_opts;
  auto gold = Device::open(cfg, model_opts);
  dev->load(p.image, name);
  gold->load(p.image, name);

  Figures f;
  const size_t classes = size_t(c.output_bytes);
  for (size_t first = 0; first < test.size(); first += size_t(c.batch)) {
    const size_t count = std::min(test.size() - first, size_t(c.batch));
    std::vector<uint8_t> input(size_t(c.batch) * c.input_bytes, 0);  // a short last batch is padded
    std::vector<std::vector<int8_t>> items(count);
    for (size_t i = 0; i < count; ++i) {
      items[i] = nn::quantize_digit(q, test.images[first + i].data());
      std::memcpy(&input[i * c.input_bytes], items[i].data(), items[i].size());
    }
    std::vector<uint8_t> logits[2];
    Device* devices[2] = {dev.get(), gold.get()};
    for (int d = 0; d < 2; ++d) {
      devices[d]->write("input", input);
      const auto start = std::chrono::steady_clock::now();
      const RunResult r = devices[d]->run();
      if (d == 0) f.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!r.ok()) throw std::runtime_error(devices[d]->backend_name() + ": the run did not end with HALT");
      if (d == 0) {
        f.cycles += r.counters.cycles.value_or(0);
        f.matrix_active += r.counters.matrix_active.value_or(0);
        f.macs += c.macs;
      }
      logits[d] = devices[d]->read("logits");
    }
    for (size_t i = 0; i < count; ++i) {
      const int8_t* core = reinterpret_cast<const int8_t*>(&logits[0][i * classes]);
      const int8_t* model = reinterpret_cast<const int8_t*>(&logits[1][i * classes]);
      const int label = test.labels[first + i];
      const auto ref = nn::reference_logits(q, items[i]);
      f.right += nn::argmax_i8(core, int(classes)) == label;
      f.agree += std::memcmp(core, model, classes) == 0;
      f.ref_agree += std::memcmp(core, ref.data(), classes) == 0;
      f.float_right += nn::argmax(nn::forward(net, nn::digit_input(test.images[first + i].data(), 64)).back()) == label;
    }
    f.images += count;
    progress(name.c_str(), f.images, test.size());
  }
  return f;
}

}  // namespace

int run_demo(int argc, char** argv) {
  try {
    sim::register_rtl_backend();
    tb::register_systemc_backend();
    cli::Args args(argc, argv);
    std::string backend = "rtl", config_path, models = "firmware/models", data = "firmware/data/digits/digits.csv";
    DeviceOptions opts;
    while (!args.done()) {
      if (args.flag("--help") || args.flag("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      }
      if (args.option("--backend", backend) || args.option("--config", config_path) ||
          args.option("--models", models) || args.option("--data", data) || cli::link_option(args, opts))
        continue;
      throw cli::CliError{"unexpected argument '" + args.positional() + "'\n" + kUsage};
    }
    const Config cfg = cli::load_config_arg(config_path);
    opts.backend = parse_backend_name(backend);
    const nn::Digits test = nn::split_digits(nn::load_digits_csv(data)).test;
    std::printf("Tessera digits demo: %zu test images on the %s backend, core %s\n", test.size(), backend.c_str(),
                cfg.summary().c_str());
    std::fflush(stdout);
    bool ok = true;
    const double n2 = double(cfg.array_size) * cfg.array_size;
    // Every model compiled before any run: the compiler may throw and catch while it
    // searches (batch, lowering), and an exception after the SystemC backend has switched
    // stacks is an AddressSanitizer false report in the sanitized build.
    const std::pair<const char*, nn::FloatNet> nets[] = {{"digits_mlp", nn::digits_mlp()}, {"digits_cnn", nn::digits_cnn()}};
    std::vector<Program> programs;
    for (const auto& [name, arch] : nets) programs.push_back(compile(models, name, cfg, test.size()));
    for (size_t m = 0; m < std::size(nets); ++m) {
      const auto& [name, arch] = nets[m];
      const Figures f = classify(models, name, programs[m], arch, cfg, opts, test);
      const double acc = 100.0 * f.right / f.images, facc = 100.0 * f.float_right / f.images;
      std::printf("  %s\n", name);
      std::printf("    int8 accuracy on the core     %6.2f%%  (%zu of %zu)\n", acc, f.right, f.images);
      std::printf("    float accuracy, same model    %6.2f%%\n", facc);
      std::printf("    logits equal to golden model  %6.2f%%  (reference implementation: %.2f%%)\n",
                  100.0 * f.agree / f.images, 100.0 * f.ref_agree / f.images);
      if (f.cycles) {
        std::printf("    cycles per image              %8.1f\n", double(f.cycles) / f.images);
        std::printf("    matrix unit active            %6.2f%% of cycles; useful MACs %.2f%% of peak\n",
                    100.0 * f.matrix_active / f.cycles, 100.0 * f.macs / (f.cycles * n2));
        std::printf("    simulated images per second   %8.1f  (wall time of the core's runs)\n", f.images / f.seconds);
      }
      std::fflush(stdout);
      ok = ok && f.agree == f.images && f.ref_agree == f.images;
    }
    if (!ok) std::printf("FAILED: the core's logits differ from the golden model's\n");
    return ok ? 0 : 1;
  } catch (const cli::CliError& e) {
    std::fprintf(stderr, "digits-demo: error: %s\n", e.message.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "digits-demo: error: %s\n", e.what());
  }
  return 1;
}

// libsystemc (the SystemC backend) carries a main that calls sc_main; ours is the entry.
int main(int argc, char** argv) { return run_demo(argc, argv); }
extern "C" int sc_main(int argc, char** argv) { return run_demo(argc, argv); }
