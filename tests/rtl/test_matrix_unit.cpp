// SPDX-License-Identifier: Apache-2.0
// Block tests of tpu_matrix_unit (skew + systolic array + deskew) against a C++
// model of the block, for N = 4, 8 and 16, with and without idle input cycles, and with
// the PEs' products in logic (LogicRows: all rows at N = 4, half at N = 8).
#include <catch2/catch.hpp>

#include <deque>
#include <random>
#include <vector>

#include "Vtpu_matrix_unit_n16.h"
#include "Vtpu_matrix_unit_n4.h"
#include "Vtpu_matrix_unit_n4l.h"
#include "Vtpu_matrix_unit_n8.h"
#include "Vtpu_matrix_unit_n8h.h"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

template <typename M> struct Size;
template <> struct Size<Vtpu_matrix_unit_n4> { static constexpr int N = 4; };
template <> struct Size<Vtpu_matrix_unit_n8> { static constexpr int N = 8; };
template <> struct Size<Vtpu_matrix_unit_n16> { static constexpr int N = 16; };
template <> struct Size<Vtpu_matrix_unit_n4l> { static constexpr int N = 4; };
template <> struct Size<Vtpu_matrix_unit_n8h> { static constexpr int N = 8; };

using Tile = std::vector<int8_t>;  // [k * N + n]
using Row = std::vector<int8_t>;

struct Job {
  int tile;
  std::vector<Row> rows;
};

// The block's model: each row times the tile active when it entered.
std::vector<int32_t> multiply(const Row& x, const Tile& w, int n) {
  std::vector<int32_t> out(n, 0);
  for (int k = 0; k < n; ++k)
    for (int c = 0; c < n; ++c) out[c] += int32_t(x[k]) * w[k * n + c];
  return out;
}

struct Outcome {
  int first_in = -1, last_in = -1, first_out = -1, last_out = -1;
  int outputs = 0, gaps = 0;
};

// Runs `jobs` through the unit, keeping the weight-load contract of
// tpu_matrix_unit.v, and checks every output row. idle: chance of an idle input cycle.
template <typename M>
Outcome run_jobs(const std::vector<Tile>& tiles, const std::vector<Job>& jobs, double idle,
                 std::mt19937& rng) {
  constexpr int N = Size<M>::N;
  M dut;
  reset(dut);
  std::bernoulli_distribution idle_now(idle);
  std::deque<std::vector<int32_t>> expected;
  Outcome o;
  size_t job = 0, row = 0;         // next input
  size_t next_load = 0;            // job whose tile loads next
  int load_row = -1, load_start = -1;
  int loaded_job = -1;             // job whose tile sits in (or is entering) the shadow
  bool shadow_consumed = true;     // the shadow tile has been switched in
  int last_switch = -1000000;
  for (int t = 0; t < 100000 && (job < jobs.size() || !expected.empty()); ++t) {
    dut.w_we_i = 0;
    dut.in_valid_i = 0;
    dut.in_switch_i = 0;
    // Weight load: rows 0..N-1 on consecutive cycles, N-1 cycles after the last switch.
    if (load_row < 0 && next_load < jobs.size() && shadow_consumed && t >= last_switch + N - 1) {
      load_row = 0;
      load_start = t;
      loaded_job = int(next_load++);
      shadow_consumed = false;
    }
    if (load_row >= 0) {
      const Tile& w = tiles[jobs[loaded_job].tile];
      dut.w_we_i = 1;
      dut.w_row_i = load_row;
      for (int c = 0; c < N; ++c) set_bits(dut.w_data_i, 8 * c, 8, uint8_t(w[load_row * N + c]));
      if (++load_row == N) load_row = -1;
    }
    // Input rows; the first row of a job switches to its tile once that tile's load began.
    if (job < jobs.size()) {
      const bool first = row == 0;
      const bool tile_ready = int(job) == loaded_job && load_start < t;
      if ((!first || tile_ready) && !idle_now(rng)) {
        const Row& x = jobs[job].rows[row];
        dut.in_valid_i = 1;
        dut.in_switch_i = first;
        for (int k = 0; k < N; ++k) set_bits(dut.in_data_i, 8 * k, 8, uint8_t(x[k]));
        expected.push_back(multiply(x, tiles[jobs[job].tile], N));
        if (first) last_switch = t, shadow_consumed = true;
        if (o.first_in < 0) o.first_in = t;
        o.last_in = t;
        if (++row == jobs[job].rows.size()) row = 0, ++job;
      }
    }
    tick(dut);
    if (dut.out_valid_o) {  // visible in cycle t + 1
      REQUIRE_FALSE(expected.empty());
      std::vector<int32_t> got(N);
      for (int c = 0; c < N; ++c) got[c] = int32_t(uint32_t(get_bits(dut.out_data_o, 32 * c, 32)));
      REQUIRE(got == expected.front());
      expected.pop_front();
      if (o.last_out >= 0 && t + 1 != o.last_out + 1) ++o.gaps;
      if (o.first_out < 0) o.first_out = t + 1;
      o.last_out = t + 1;
      ++o.outputs;
    }
  }
  REQUIRE(expected.empty());
  return o;
}

Tile random_tile(std::mt19937& rng, int n) {
  std::uniform_int_distribution<int> d(-128, 127);
  Tile t(n * n);
  for (auto& v : t) v = int8_t(d(rng));
  return t;
}

std::vector<Row> random_rows(std::mt19937& rng, int n, int count) {
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<Row> rows(count, Row(n));
  for (auto& r : rows)
    for (auto& v : r) v = int8_t(d(rng));
  return rows;
}

}  // namespace

TEMPLATE_TEST_CASE("matrix unit: every row times its tile, across weight switches", "[rtl][matrix]",
                   Vtpu_matrix_unit_n4, Vtpu_matrix_unit_n8, Vtpu_matrix_unit_n16, Vtpu_matrix_unit_n4l,
                   Vtpu_matrix_unit_n8h) {
  constexpr int N = Size<TestType>::N;
  const double idle = GENERATE(0.0, 0.3);
  std::mt19937 rng(tessera::test::test_seed());
  std::vector<Tile> tiles;
  for (int i = 0; i < 6; ++i) tiles.push_back(random_tile(rng, N));
  // Extreme values too: -128 * -128 in every PE, and -128 * 127 (the column sums' two
  // bounds, N * 2^14 and -N * (2^14 - 2^7), which the array's narrow partial sums must hold).
  tiles.push_back(Tile(N * N, -128));
  tiles.push_back(Tile(N * N, 127));
  std::vector<Job> jobs;
  std::uniform_int_distribution<int> len(1, 3 * N);
  for (int j = 0; j < 12; ++j) jobs.push_back({j % 7, random_rows(rng, N, len(rng))});
  jobs.push_back({6, std::vector<Row>(3, Row(N, -128))});
  jobs.push_back({7, std::vector<Row>(2, Row(N, -128))});
  INFO("N=" << N << " idle=" << idle);
  const Outcome o = run_jobs<TestType>(tiles, jobs, idle, rng);
  size_t rows = 0;
  for (const auto& j : jobs) rows += j.rows.size();
  CHECK(size_t(o.outputs) == rows);
}

TEMPLATE_TEST_CASE("matrix unit: L rows take L + 2N + 2 cycles; a ready weight switch adds no bubble",
                   "[rtl][matrix]", Vtpu_matrix_unit_n4, Vtpu_matrix_unit_n8, Vtpu_matrix_unit_n16,
                   Vtpu_matrix_unit_n4l, Vtpu_matrix_unit_n8h) {
  constexpr int N = Size<TestType>::N;
  std::mt19937 rng(tessera::test::test_seed());
  const std::vector<Tile> tiles = {random_tile(rng, N), random_tile(rng, N), random_tile(rng, N)};
  const int L = GENERATE(0, 1) ? 2 * N + 3 : N;  // L >= N hides the next tile's load completely

  // One multiply of L rows: first result 2N+2 cycles after the first row (the port and
  // input registers, N-1 of skew, N rows of PEs each registering its product, N-1 of
  // deskew, then the bottom row's add), then one per cycle.
  Outcome one = run_jobs<TestType>(tiles, {{0, random_rows(rng, N, L)}}, 0.0, rng);
  CHECK(one.first_out - one.first_in == 2 * N + 2);
  CHECK(one.last_out - one.first_in + 1 == L + 2 * N + 2);
  CHECK(one.gaps == 0);

  // Three back-to-back multiplies, each switching to a new tile: no bubble anywhere.
  Outcome three = run_jobs<TestType>(
      tiles, {{0, random_rows(rng, N, L)}, {1, random_rows(rng, N, L)}, {2, random_rows(rng, N, L)}},
      0.0, rng);
  CHECK(three.last_in - three.first_in + 1 == 3 * L);  // inputs never paused
  CHECK(three.gaps == 0);
  CHECK(three.last_out - three.first_in + 1 == 3 * L + 2 * N + 2);
}

TEST_CASE("matrix unit: products in logic are right for every int8 pair", "[rtl][matrix]") {
  // N = 4, every PE in logic. Tile t holds the weights 16t .. 16t + 15 (PE (k, c): 16t + 4k + c),
  // and each row drives one lane k with x, the others 0, so output c is exactly x * w(k, c):
  // over 16 tiles and x = -128 .. 127 the 16 PEs (the same logic) meet every int8 pair once.
  constexpr int N = 4;
  std::vector<Tile> tiles;
  std::vector<Job> jobs;
  for (int t = 0; t < 16; ++t) {
    Tile w(N * N);
    for (int i = 0; i < N * N; ++i) w[i] = int8_t(uint8_t(16 * t + i));
    tiles.push_back(w);
    Job job{t, {}};
    for (int k = 0; k < N; ++k)
      for (int x = -128; x < 128; ++x) {
        Row r(N, 0);
        r[k] = int8_t(x);
        job.rows.push_back(r);
      }
    jobs.push_back(job);
  }
  std::mt19937 rng(tessera::test::test_seed());
  const Outcome o = run_jobs<Vtpu_matrix_unit_n4l>(tiles, jobs, 0.0, rng);
  CHECK(o.outputs == 16 * N * 256);
}
