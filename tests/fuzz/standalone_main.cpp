// SPDX-License-Identifier: Apache-2.0
// Runs a fuzz target without libFuzzer, for the GCC test build (`make test`): every seed
// given, then random mutations of them for a bounded time (byte edits, splices,
// dictionary tokens; no coverage feedback: that is `make fuzz`, scripts/fuzz.sh). The
// input that fails (sanitizer report, failed check, uncaught exception) is written to
// ./crash-<target>-<n> first, so that it can be replayed and added to the corpus.
//
// usage: fuzz_<target> [--seconds S] [--dict FILE] SEED...   (a file, a directory of
//        files, or @LIST: a file naming one seed per line); TESSERA_SEED replays a run.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#include "test_seed.hpp"
#include "util/file_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

// The input under test, for the failure handlers (which may only make system calls).
const Bytes* g_current = nullptr;
char g_crash_path[256] = "crash";

void save_current() {
  static bool saved = false;
  if (saved || !g_current) return;
  saved = true;
  const int fd = ::open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  const char* p = reinterpret_cast<const char*>(g_current->data());
  for (size_t left = g_current->size(); left > 0;) {
    const ssize_t n = ::write(fd, p, left);
    if (n <= 0) break;
    p += n, left -= size_t(n);
  }
  ::close(fd);
  const char msg[] = "fuzz: the failing input is in ";
  (void)!::write(2, msg, sizeof msg - 1);
  (void)!::write(2, g_crash_path, std::strlen(g_crash_path));
  (void)!::write(2, "\n", 1);
}

void on_signal(int sig) {
  save_current();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

Bytes read_bytes(const fs::path& p) {
  try {
    return tessera::read_file_bytes(p.string());
  } catch (const tessera::FileError& e) {
    std::fprintf(stderr, "fuzz: %s\n", e.what());
    std::exit(2);
  }
}

void add_seed(const std::string& arg, std::vector<Bytes>& seeds) {
  if (!arg.empty() && arg[0] == '@') {
    std::ifstream list(arg.substr(1));
    if (!list) {
      std::fprintf(stderr, "fuzz: %s: cannot open the seed list\n", arg.c_str() + 1);
      std::exit(2);
    }
    for (std::string line; std::getline(list, line);)
      if (!line.empty()) add_seed(line, seeds);
  } else if (fs::is_directory(arg)) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(arg))
      if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) seeds.push_back(read_bytes(f));
  } else {
    seeds.push_back(read_bytes(arg));
  }
}

// libFuzzer's dictionary format: one "token" per line (\\, \" and \xNN escapes), # comments.
std::vector<Bytes> read_dict(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "fuzz: %s: cannot open the dictionary\n", path.c_str());
    std::exit(2);
  }
  std::vector<Bytes> tokens;
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    const size_t q = line.find('"');
    if (line.empty() || line[0] == '#' || q == std::string::npos) continue;
    Bytes t;
    size_t i = q + 1;
    for (; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] != '\\') {
        t.push_back(uint8_t(line[i]));
      } else if (i + 1 < line.size() && line[i + 1] == 'x' && i + 3 < line.size()) {
        t.push_back(uint8_t(std::stoi(line.substr(i + 2, 2), nullptr, 16)));
        i += 3;
      } else if (i + 1 < line.size()) {
        t.push_back(uint8_t(line[++i]));
      }
    }
    if (i >= line.size()) {
      std::fprintf(stderr, "fuzz: %s:%d: unterminated token\n", path.c_str(), line_no);
      std::exit(2);
    }
    tokens.push_back(t);
  }
  return tokens;
}

Bytes mutate(const std::vector<Bytes>& seeds, const std::vector<Bytes>& dict, std::mt19937& rng) {
  Bytes b = seeds[rng() % seeds.size()];
  const int edits = 1 + int(rng() % 6);
  for (int e = 0; e < edits; ++e) {
    const size_t at = b.empty() ? 0 : rng() % (b.size() + 1);
    switch (rng() % 7) {
      case 0: if (at < b.size()) b[at] = uint8_t(rng()); break;
      case 1: if (at < b.size()) b[at] ^= uint8_t(1u << (rng() % 8)); break;
      case 2: b.insert(b.begin() + at, uint8_t(rng())); break;
      case 3: if (at < b.size()) b.erase(b.begin() + at, b.begin() + std::min(b.size(), at + 1 + rng() % 16)); break;
      case 4: {  // a piece of this or another seed
        const Bytes& o = seeds[rng() % seeds.size()];
        if (o.empty()) break;
        const size_t from = rng() % o.size(), n = std::min(o.size() - from, size_t(1 + rng() % 64));
        b.insert(b.begin() + at, o.begin() + from, o.begin() + from + n);
        break;
      }
      case 5: if (!dict.empty()) { const Bytes& t = dict[rng() % dict.size()]; b.insert(b.begin() + at, t.begin(), t.end()); } break;
      default: b.resize(at); break;
    }
  }
  return b;
}

void run_one(const Bytes& b) {
  g_current = &b;
  LLVMFuzzerTestOneInput(b.data(), b.size());
  g_current = nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string target = fs::path(argv[0]).filename().string();
  double seconds = 0;
  std::vector<Bytes> seeds, dict;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--seconds" && i + 1 < argc) {
      seconds = std::stod(argv[++i]);
    } else if (a == "--dict" && i + 1 < argc) {
      dict = read_dict(argv[++i]);
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "usage: %s [--seconds S] [--dict FILE] SEED...\n", target.c_str());
      return 2;
    } else {
      add_seed(a, seeds);
    }
  }
  if (seeds.empty()) {
    std::fprintf(stderr, "%s: no seeds given\n", target.c_str());
    return 2;
  }
  std::snprintf(g_crash_path, sizeof g_crash_path, "crash-%s-%d", target.c_str(), int(::getpid()));
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, on_signal);
  std::set_terminate([] {
    save_current();
    try {
      if (std::current_exception()) std::rethrow_exception(std::current_exception());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "fuzz: an exception escaped the target: %s\n", e.what());
    } catch (...) {
      std::fprintf(stderr, "fuzz: an exception escaped the target\n");
    }
    std::abort();
  });
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_set_death_callback(save_current);
#endif
  for (const Bytes& s : seeds) run_one(s);
  std::mt19937 rng(tessera::test::test_seed());
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  uint64_t mutated = 0;
  while (elapsed() < seconds) {
    run_one(mutate(seeds, dict, rng));
    ++mutated;
  }
  std::printf("%s: %zu seeds and %llu mutations in %.1f s: no failure\n", target.c_str(), seeds.size(),
              static_cast<unsigned long long>(mutated), elapsed());
  return 0;
}
