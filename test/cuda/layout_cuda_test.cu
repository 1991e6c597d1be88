// Layout cases only a GPU has, beyond what the GPU build of test/layout checks: the tiled
// transpose kernel on odd extents (partial tiles), batched and rank-4 permutations, more tiles
// than one wave of blocks, strided operands and accumulating savers; and gathers whose GPU
// indices are out of range, which the bounds-check kernel reports as IndexError before the gather
// writes anything (through words of pinned host memory that each host thread reuses: checks of
// other sizes and other threads must not see each other's reports).
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/cuda_test.h"
#include "support/errors.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::reference;

namespace {

tx::Place gpu() {
  return tx::CudaPlace(0);
}

template <class T, int N>
tx::Array<T, N> random_on_gpu(const tx::Dim<N>& dims, std::mt19937_64& rng) {
  tx::Array<T, N> host(dims);
  tx::testing::fill_random(host, rng, -4.0, 4.0);
  return tx::to(host, gpu());
}

/// c = permute(a, axes) on the GPU through the tiled kernel, in one launch, against a reference
/// read through the permutation.
template <class T, int N>
void check_tiled(const tx::Array<T, N>& a, const tx::Dim<N>& axes, tx::Array<T, N> c) {
  BOOST_TEST_CONTEXT("shape " << a.dims() << ", axes " << axes) {
    BOOST_TEST(tx::detail::plane_transpose(c, tx::permute(a, axes).array()).has_value());
    tx::stats::reset();
    c = tx::permute(a, axes);
    BOOST_TEST(tx::stats::passes() == 1u);
    const auto ha = on_host(a);
    check_close(c, reference(c.dims(), [&](const auto& i) {
                  tx::Dim<N> source;
                  for (int d = 0; d < N; ++d) source[static_cast<int>(axes[d])] = i[d];
                  return static_cast<double>(ha[source]);
                }));
  }
}

template <class T, int N>
void check_tiled(const tx::Array<T, N>& a, const tx::Dim<N>& axes) {
  check_tiled(a, axes, tx::Array<T, N>(tx::permute(a, axes).dims(), gpu()));
}

/// Indices on GPU 0 from host values.
tx::Array<std::int64_t, 2> indices_on_gpu(const tx::Dim<2>& dims, std::int64_t value) {
  tx::Array<std::int64_t, 2> host(dims);
  tx::fill(host, value);
  return tx::to(host, gpu());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cuda_tiled_transpose, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(odd_extents_leave_partial_tiles) {
  std::mt19937_64 rng(1);
  for (const auto& dims : {tx::make_dim(33, 65), tx::make_dim(65, 33), tx::make_dim(2, 1000),
                           tx::make_dim(1000, 2), tx::make_dim(31, 31), tx::make_dim(32, 32)}) {
    check_tiled(random_on_gpu<float>(dims, rng), tx::make_dim(1, 0));
    check_tiled(random_on_gpu<double>(dims, rng), tx::make_dim(1, 0));
    check_tiled(random_on_gpu<tx::float16>(dims, rng), tx::make_dim(1, 0));
  }
}

BOOST_AUTO_TEST_CASE(batched_and_rank_4_permutations_that_move_the_inner_axis) {
  std::mt19937_64 rng(2);
  check_tiled(random_on_gpu<float>(tx::make_dim(7, 33, 65), rng), tx::make_dim(0, 2, 1));
  check_tiled(random_on_gpu<double>(tx::make_dim(3, 33, 17, 5), rng), tx::make_dim(0, 3, 1, 2));
  check_tiled(random_on_gpu<float>(tx::make_dim(3, 33, 17, 5), rng), tx::make_dim(3, 2, 1, 0));
  check_tiled(random_on_gpu<std::int32_t>(tx::make_dim(2, 9, 40, 3), rng),
              tx::make_dim(1, 3, 0, 2));
}

// A block reads its next tile while it writes one: many tiles a block, the last of them partial,
// across batches, in narrow and wide types, and through a saver that reads the destination.
BOOST_AUTO_TEST_CASE(more_tiles_than_one_wave_of_blocks) {
  std::mt19937_64 rng(3);
  check_tiled(random_on_gpu<float>(tx::make_dim(2049, 4097), rng), tx::make_dim(1, 0));
  check_tiled(random_on_gpu<tx::float16>(tx::make_dim(5, 1000, 333), rng), tx::make_dim(0, 2, 1));
  check_tiled(random_on_gpu<double>(tx::make_dim(1500, 1100), rng), tx::make_dim(1, 0));
  const auto a = random_on_gpu<float>(tx::make_dim(1111, 2222), rng);
  auto c = random_on_gpu<float>(tx::make_dim(2222, 1111), rng);
  const auto ha = on_host(a), hc = on_host(c);
  BOOST_TEST(tx::detail::plane_transpose(c, tx::transpose(a).array()).has_value());
  tx::stats::reset();
  c += tx::transpose(a);
  BOOST_TEST(tx::stats::passes() == 1u);
  check_close(c, reference(c.dims(), [&](const auto& i) { return hc[i] + ha(i[1], i[0]); }));
}

BOOST_AUTO_TEST_CASE(strided_sources_and_destinations) {
  std::mt19937_64 rng(4);
  const auto big = random_on_gpu<float>(tx::make_dim(50, 70), rng);
  const auto window = tx::slice(tx::slice(big, 0, 3, 48), 1, 5, 66);  // (45, 61)
  tx::Array<float, 2> target(tx::make_dim(80, 50), gpu());
  check_tiled(window, tx::make_dim(1, 0), tx::slice(tx::slice(target, 0, 10, 71), 1, 2, 47));
}

BOOST_AUTO_TEST_CASE(accumulating_savers_read_the_destination) {
  std::mt19937_64 rng(5);
  const auto a = random_on_gpu<double>(tx::make_dim(45, 77), rng);
  auto c = random_on_gpu<double>(tx::make_dim(77, 45), rng);
  const auto ha = on_host(a), hc = on_host(c);
  tx::stats::reset();
  c -= tx::transpose(a);
  BOOST_TEST(tx::stats::passes() == 1u);
  check_close(c, reference(c.dims(), [&](const auto& i) { return hc[i] - ha(i[1], i[0]); }));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(cuda_take_bounds, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(an_out_of_range_gpu_index_is_an_index_error_naming_the_first_one) {
  const auto table = tx::to(tx::ones<float>(tx::make_dim(10, 4)), gpu());
  tx::Array<std::int64_t, 2> host(tx::make_dim(300, 1000));
  tx::fill(host, 3);
  host(250, 999) = 10;
  host(299, 7) = -1;
  auto c = tx::to(tx::zeros<float>(tx::make_dim(300, 1000, 4)), gpu());
  BOOST_CHECK_EXCEPTION(
      c = tx::take(table, tx::to(host, gpu())), tx::IndexError,
      tx::testing::message_is(
          "tx::take: index 10 at position (250, 999) is out of range for a table of 10 rows"));
  host(250, 999) = 3;
  BOOST_CHECK_EXCEPTION(
      c = tx::take(table, tx::to(host, gpu())), tx::IndexError,
      tx::testing::message_is(
          "tx::take: index -1 at position (299, 7) is out of range for a table of 10 rows"));
  check_close(c, reference(c.dims(), [](const auto&) { return 0.0; }));
}

BOOST_AUTO_TEST_CASE(strided_gpu_indices_are_checked_where_they_are) {
  // The view skips the bad column: it is never read, so it is not an error.
  const auto table = tx::to(tx::ones<double>(tx::make_dim(5, 2)), gpu());
  auto indices = indices_on_gpu(tx::make_dim(4, 6), 2);
  tx::slice(indices, 1, 5, 6) = std::int64_t{99};
  tx::Array<double, 3> c;
  tx::stats::reset();
  c = tx::take(table, tx::slice(indices, 1, 0, 5));
  BOOST_TEST(tx::stats::passes() == 2u, "the bounds check and the gather");
  check_close(c, reference(c.dims(), [](const auto&) { return 1.0; }));
  BOOST_CHECK_EXCEPTION(c = tx::take(table, tx::slice(indices, 1, 1, 6)), tx::IndexError,
                        tx::testing::message_has({"index 99 at position (0, 4)", "5 rows"}));
}

BOOST_AUTO_TEST_CASE(a_check_reads_only_the_reports_of_its_own_blocks) {
  // The report words are the thread's, reused: a small check after a large one must not read the
  // large one's words beyond its own blocks, nor a large one take a small one's stale report.
  const auto table = tx::to(tx::ones<float>(tx::make_dim(6, 2)), gpu());
  auto large = indices_on_gpu(tx::make_dim(4000, 1000), 1);
  tx::slice(large, 0, 3999, 4000) = std::int64_t{6};
  const auto small = indices_on_gpu(tx::make_dim(3, 5), 2);
  tx::Array<float, 3> c;
  for (int round = 0; round < 3; ++round) {
    BOOST_CHECK_EXCEPTION(c = tx::take(table, large), tx::IndexError,
                          tx::testing::message_has({"index 6 at position (3999, 0)", "6 rows"}));
    c = tx::take(table, small);
    check_close(c, reference(c.dims(), [](const auto&) { return 1.0; }));
  }
  const auto bad_small = indices_on_gpu(tx::make_dim(3, 5), -2);
  BOOST_CHECK_EXCEPTION(c = tx::take(table, bad_small), tx::IndexError,
                        tx::testing::message_has({"index -2 at position (0, 0)"}));
  tx::slice(large, 0, 3999, 4000) = std::int64_t{5};
  tx::stats::reset();
  c = tx::take(table, large);
  BOOST_TEST(tx::stats::passes() == 2u, "the bounds check and the gather");
  BOOST_TEST(c.dims() == tx::make_dim(4000, 1000, 2));
}

BOOST_AUTO_TEST_CASE(threads_on_their_own_streams_each_get_their_own_first_bad_index) {
  constexpr int kThreads = 4;
  const auto table = tx::to(tx::ones<float>(tx::make_dim(9, 3)), gpu());
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const tx::Stream stream(tx::CudaPlace(0));
      const tx::StreamGuard guard(stream);
      // Thread t's bad index sits in a block of its own: row 100 t + 7 of 500 rows of 2000.
      tx::Array<std::int32_t, 2> host(tx::make_dim(500, 2000));
      tx::fill(host, t);
      host(100 * t + 7, 3) = 9 + t;
      const auto bad = tx::to(host, tx::CudaPlace(0));
      host(100 * t + 7, 3) = 8;
      const auto good = tx::to(host, tx::CudaPlace(0));
      const std::string expected = "index " + std::to_string(9 + t) + " at position (" +
                                   std::to_string(100 * t + 7) + ", 3)";
      tx::Array<float, 3> c;
      for (int repeat = 0; repeat < 20; ++repeat) {
        try {
          c = tx::take(table, bad);
          failures[static_cast<std::size_t>(t)] += "no error; ";
        } catch (const tx::IndexError& error) {
          if (std::string(error.what()).find(expected) == std::string::npos) {
            failures[static_cast<std::size_t>(t)] += std::string(error.what()) + "; ";
          }
        }
        try {
          c = tx::take(table, good);
        } catch (const tx::Error& error) {
          failures[static_cast<std::size_t>(t)] += std::string(error.what()) + "; ";
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    BOOST_TEST(failures[static_cast<std::size_t>(t)].empty(),
               "thread " << t << ": " << failures[static_cast<std::size_t>(t)]);
  }
}

BOOST_AUTO_TEST_SUITE_END()
