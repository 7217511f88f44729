// SPDX-License-Identifier: Apache-2.0
// tpu-board-sim: the simulated iCEBreaker board on a pseudo-terminal. Prints the port,
// then runs until interrupted; point the UART backend at it:
//   tpu-board-sim &   then   tpu-run --backend uart --port /dev/pts/N --config configs/icebreaker.yaml ...
#include <csignal>
#include <cstdio>
#include <string>

#include "board_sim.hpp"
#include "cli/cli_common.hpp"

using namespace tessera;

static const char* kUsage =
    "usage: tpu-board-sim [--seconds S] [--corrupt-every N] [--drop-every N]\n"
    "  The Verilated board top (configs/icebreaker.yaml's core, host link at 8 clocks per\n"
    "  bit) behind a pseudo-terminal; prints `port: /dev/pts/N` and runs until interrupted\n"
    "  or S seconds pass. --corrupt-every/--drop-every flip a bit of / lose every Nth byte\n"
    "  the host sends (to watch the link's retries).\n";

static sim::BoardSim* g_board = nullptr;
extern "C" void on_signal(int) {
  if (g_board) g_board->stop();
}

int main(int argc, char** argv) {
  try {
    cli::Args args(argc, argv);
    sim::BoardSimOptions opts;
    double seconds = 0;
    std::string value;
    while (!args.done()) {
      if (args.flag("--help") || args.flag("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      }
      if (args.option("--seconds", value)) seconds = double(cli::parse_number(value, "--seconds"));
      else if (args.option("--corrupt-every", value)) opts.corrupt_every = cli::parse_number(value, "--corrupt-every");
      else if (args.option("--drop-every", value)) opts.drop_every = cli::parse_number(value, "--drop-every");
      else throw cli::CliError{"unexpected argument '" + args.positional() + "'\n" + kUsage};
    }
    sim::BoardSim board(opts);
    g_board = &board;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::printf("port: %s\n", board.port().c_str());
    std::fflush(stdout);
    board.run(seconds);
    std::printf("tpu-board-sim: %llu cycles, %llu bytes in, %llu bytes out\n",
                static_cast<unsigned long long>(board.cycles()), static_cast<unsigned long long>(board.bytes_in()),
                static_cast<unsigned long long>(board.bytes_out()));
    return 0;
  } catch (const cli::CliError& e) {
    std::fprintf(stderr, "tpu-board-sim: error: %s\n", e.message.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tpu-board-sim: error: %s\n", e.what());
  }
  return 1;
}
