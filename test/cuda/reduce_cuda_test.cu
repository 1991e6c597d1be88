// GPU-only behaviour of the CUDA reduction engine, beyond what the GPU build of test/reduce
// checks: bitwise the same result on every run (full, split-row, split-column and argmax
// reductions) and from a plain C++ translation unit (the compiled layer), one kernel launch per
// reduction whatever its grouping, unaligned and float16 operands (16-byte loads, rows of any
// length, columns several at a time), the current stream and its tickets, and mixed places.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "cuda/reduce_host_tu.h"
#include "reduce/reduce_reference.h"
#include "support/cuda_test.h"
#include "support/errors.h"

namespace tx = tensorx;
using tx::index_t;

namespace {

tx::Place gpu() {
  return tx::CudaPlace(0);
}

/// A GPU array of uniform values in [low, high).
template <class T, int N>
tx::Array<T, N> random_on_gpu(const tx::Dim<N>& dims, std::mt19937_64& rng, double low = 0.0,
                              double high = 1.0) {
  tx::Array<T, N> host(dims);
  tx::testing::fill_random(host, rng, low, high);
  return tx::to(host, gpu());
}

/// True when two host arrays hold the same bytes.
template <class T, int N>
bool same_bits(const tx::Array<T, N>& a, const tx::Array<T, N>& b) {
  const auto ha = tx::to(a, tx::CpuPlace()), hb = tx::to(b, tx::CpuPlace());
  return std::memcmp(ha.data(), hb.data(), sizeof(T) * static_cast<std::size_t>(ha.numel())) == 0;
}

/// Evaluates `reduction` into a fresh GPU array ten times and checks every run gives the bits of
/// the first, in one kernel launch each.
template <class E>
void check_deterministic(const E& reduction) {
  using R = typename E::value_type;
  const auto dims = reduction.dims();
  tx::Array<R, E::rank> first(dims, gpu());
  first = reduction;
  for (int run = 0; run < 9; ++run) {
    tx::Array<R, E::rank> again(dims, gpu());
    const auto before = tx::stats::passes();
    again = reduction;
    BOOST_TEST(tx::stats::passes() - before == 1u, "one launch per reduction");
    BOOST_TEST(same_bits(first, again), "run " << run + 1 << " gives the bits of the first");
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reduce_cuda_engine, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(the_same_input_gives_the_same_bits_on_every_run) {
  auto rng = tx::testing::make_rng(81);
  const auto big = random_on_gpu<float>(tx::make_dim(index_t{1} << 24), rng);
  check_deterministic(tx::sum(big));
  check_deterministic(tx::mean(big * 2.0f));
  const auto few_rows = random_on_gpu<float>(tx::make_dim(4, index_t{1} << 21), rng);
  check_deterministic(tx::sum<1>(few_rows));
  check_deterministic(tx::argmax<1>(few_rows));
  const auto few_columns = random_on_gpu<float>(tx::make_dim(index_t{1} << 20, 24), rng);
  check_deterministic(tx::sum<0>(few_columns));
  check_deterministic(tx::max<0>(few_columns));
  check_deterministic(tx::sum<0>(tx::reshape(big, tx::make_dim(4096, 4096))));
}

BOOST_AUTO_TEST_CASE(plain_cpp_and_cuda_translation_units_give_the_same_bits) {
  namespace host = tx::testing::host_tu;
  auto rng = tx::testing::make_rng(85);
  for (const index_t n : {index_t{1000}, (index_t{1} << 22) + 3, index_t{1} << 24}) {
    BOOST_TEST_CONTEXT("n = " << n) {
      const auto a = random_on_gpu<float>(tx::make_dim(n), rng);
      tx::Array<float, 0> s(tx::Dim<0>(), gpu());
      s = tx::sum(a);
      BOOST_TEST(same_bits(s, host::sum(a)));
      const auto h = random_on_gpu<tx::float16>(tx::make_dim(n), rng, -1.0, 1.0);
      tx::Array<tx::float16, 0> hs(tx::Dim<0>(), gpu());
      hs = tx::sum(h);
      BOOST_TEST(same_bits(hs, host::sum(h)));
    }
  }
  const auto m = random_on_gpu<float>(tx::make_dim(37, 40000), rng);
  tx::Array<float, 1> means;
  means = tx::mean<1>(m);
  BOOST_TEST(same_bits(means, host::row_means(m)));
  tx::Array<std::int64_t, 1> positions;
  positions = tx::argmax<1>(m);
  BOOST_TEST(same_bits(positions, host::row_argmax(m)));
  const auto tall = random_on_gpu<float>(tx::make_dim(100003, 70), rng);
  tx::Array<float, 1> columns;
  columns = tx::sum<0>(tall);
  BOOST_TEST(same_bits(columns, host::column_sums(tall)));
  // A saver that reads the destination, on float16 results.
  const auto hm = random_on_gpu<tx::float16>(tx::make_dim(64, 5000), rng, -1.0, 1.0);
  auto here = random_on_gpu<tx::float16>(tx::make_dim(64), rng);
  auto there = tx::to(here, gpu());
  here += tx::sum<1>(hm);
  host::add_row_sums(there, hm);
  BOOST_TEST(same_bits(here, there));
}

BOOST_AUTO_TEST_CASE(float16_sums_of_any_length_load_sixteen_bytes) {
  // Eight float16 values per load; a single row may end in a part of one.
  using Plan = decltype(tx::make_plan(tx::Array<tx::float16, 1>(tx::make_dim(1)), tx::make_dim(1)));
  static_assert(tx::detail::kRowLoadWidth<tx::op::sum_reducer, float, Plan> == 8,
                "float16 rows are read 16 bytes at a time");
  auto rng = tx::testing::make_rng(86);
  for (const index_t n :
       {index_t{1}, index_t{7}, index_t{9}, index_t{4101}, (index_t{1} << 20) + 5}) {
    BOOST_TEST_CONTEXT("n = " << n) {
      const auto h = random_on_gpu<tx::float16>(tx::make_dim(n), rng, -1.0, 1.0);
      const auto values = tx::testing::to_double(h);
      tx::Array<float, 0> s(tx::Dim<0>(), gpu());
      s = tx::sum(tx::cast<float>(h));
      double exact = 0.0;
      for (index_t i = 0; i < n; ++i) exact += values(i);
      BOOST_TEST(std::abs(s.item() - exact) <= 1e-5 * std::max(1.0, std::sqrt(double(n))));
    }
  }
}

BOOST_AUTO_TEST_CASE(split_reductions_match_the_reference) {
  auto rng = tx::testing::make_rng(82);
  for (const auto dims :
       {tx::make_dim(2, 3000017), tx::make_dim(3000017, 2), tx::make_dim(100003, 70)}) {
    const auto a = random_on_gpu<float>(dims, rng, -1.0, 1.0);
    const auto values = tx::testing::to_double(a);
    for (unsigned mask : {1u, 2u}) {
      tx::Array<float, 1> sums;
      tx::Array<std::int64_t, 1> positions;
      if (mask == 1u) {
        sums = tx::sum<0>(a);
        positions = tx::argmin<0>(a);
      } else {
        sums = tx::sum<1>(a);
        positions = tx::argmin<1>(a);
      }
      tx::Array<double, 2> scale;
      tx::testing::check_reduction(
          sums, tx::testing::reference_reduce(values, mask, tx::testing::Reduction::kSum, scale),
          scale, mask);
      tx::testing::check_reduction(
          positions,
          tx::testing::reference_reduce(values, mask, tx::testing::Reduction::kArgMin, scale),
          scale, mask);
    }
  }
}

BOOST_AUTO_TEST_CASE(unaligned_and_float16_rows_take_the_scalar_and_vector_paths) {
  auto rng = tx::testing::make_rng(83);
  const auto a = random_on_gpu<float>(tx::make_dim(1 << 16, 13), rng);
  // Rows of 12 starting one element in: not 16-byte aligned, and 12 is a multiple of 4.
  const auto flat = tx::reshape(a, tx::make_dim((1 << 16) * 13));
  const auto shifted = tx::reshape(flat.slice(1, 1 + 12 * (1 << 16)), tx::make_dim(1 << 16, 12));
  const auto values = tx::testing::to_double(shifted);
  tx::Array<float, 1> sums;
  sums = tx::sum<1>(shifted);
  tx::Array<double, 2> scale;
  tx::testing::check_reduction(
      sums, tx::testing::reference_reduce(values, 2u, tx::testing::Reduction::kSum, scale), scale,
      2u);
  const auto h = random_on_gpu<tx::float16>(tx::make_dim(8, 40000), rng, -2.0, 2.0);
  const auto hv = tx::testing::to_double(h);
  tx::Array<tx::float16, 1> hsums;
  hsums = tx::sum<1>(h);
  tx::testing::check_reduction(
      hsums, tx::testing::reference_reduce(hv, 2u, tx::testing::Reduction::kSum, scale), scale, 2u);
}

BOOST_AUTO_TEST_CASE(columns_are_read_several_at_a_time_where_rows_allow_it) {
  // Kept inner extents that are a multiple of the load width take the column kernel that reads
  // four float columns (eight float16 ones) a thread with 16-byte loads: tiles left partial (36,
  // 260), columns split over several blocks (100003 rows), several outer rows (rank 3), max as
  // well as sum, and float16. A view whose rows start one element in, and widths that are not a
  // multiple, take one column a thread.
  using tx::testing::Reduction;
  auto rng = tx::testing::make_rng(87);
  for (const auto dims : {tx::make_dim(4096, 8), tx::make_dim(5, 132), tx::make_dim(100003, 4),
                          tx::make_dim(3, 36), tx::make_dim(1, 260), tx::make_dim(9000, 6)}) {
    BOOST_TEST_CONTEXT("dims " << dims) {
      const auto a = random_on_gpu<float>(dims, rng, -1.0, 1.0);
      const auto values = tx::testing::to_double(a);
      tx::testing::check_reduction_of(tx::sum<0>(a), values, 1u, Reduction::kSum);
      tx::testing::check_reduction_of(tx::max<0>(a), values, 1u, Reduction::kMax);
      tx::Array<double, 2> squares(dims);
      squares = values * values;
      tx::testing::check_reduction_of(tx::sum<0>(a * a), squares, 1u, Reduction::kSum);
    }
  }
  for (const auto dims : {tx::make_dim(7, 1000, 36), tx::make_dim(3, 9000, 260)}) {
    BOOST_TEST_CONTEXT("dims " << dims) {
      const auto a = random_on_gpu<float>(dims, rng, -1.0, 1.0);
      tx::testing::check_reduction_of(tx::sum<1>(a), tx::testing::to_double(a), 2u,
                                      Reduction::kSum);
    }
  }
  const auto h = random_on_gpu<tx::float16>(tx::make_dim(20001, 24), rng, -2.0, 2.0);
  const auto hv = tx::testing::to_double(h);
  tx::testing::check_reduction_of(tx::sum<0>(h), hv, 1u, Reduction::kSum);
  tx::testing::check_reduction_of(tx::sum<0>(tx::cast<float>(h)), hv, 1u, Reduction::kSum);
  const auto b = random_on_gpu<float>(tx::make_dim(5000, 13), rng, -1.0, 1.0);
  const auto flat = tx::reshape(b, tx::make_dim(5000 * 13));
  const auto shifted = tx::reshape(flat.slice(1, 1 + 12 * 5000), tx::make_dim(5000, 12));
  tx::testing::check_reduction_of(tx::sum<0>(shifted), tx::testing::to_double(shifted), 1u,
                                  Reduction::kSum);
}

BOOST_AUTO_TEST_CASE(reductions_run_on_the_current_stream) {
  auto rng = tx::testing::make_rng(84);
  const auto a = random_on_gpu<double>(tx::make_dim(1000, 1000), rng);
  tx::Stream stream(tx::CudaPlace(0));
  tx::Array<double, 1> sums(tx::make_dim(1000), gpu());
  {
    tx::StreamGuard guard(stream);
    sums = tx::sum<0>(a * a);
  }
  stream.synchronize();
  const auto values = tx::testing::to_double(a);
  const auto host = tx::to(sums, tx::CpuPlace());
  for (index_t c = 0; c < 1000; c += 97) {
    double expected = 0.0;
    for (index_t r = 0; r < 1000; ++r) expected += values(r, c) * values(r, c);
    BOOST_TEST(std::abs(host(c) - expected) <= 1e-12 * expected);
  }
}

BOOST_AUTO_TEST_CASE(split_reductions_leave_their_streams_tickets_at_zero) {
  // Split reductions on two streams at once, again and again, each with the stream's own tickets
  // and no memset before it: every result right, and every ticket of both streams 0 after.
  auto rng = tx::testing::make_rng(85);
  const auto full = random_on_gpu<float>(tx::make_dim(1 << 22), rng, -1.0, 1.0);
  const auto tall = random_on_gpu<float>(tx::make_dim(200003, 60), rng, -1.0, 1.0);
  const double full_sum = [&] {
    double sum = 0.0;
    for (const float v : make_view(tx::to(full, tx::CpuPlace()))) sum += v;
    return sum;
  }();
  const auto tall_values = tx::testing::to_double(tall);
  tx::Stream first(tx::CudaPlace(0)), second(tx::CudaPlace(0));
  std::vector<tx::Array<float, 0>> sums;
  std::vector<tx::Array<float, 1>> columns;
  for (int round = 0; round < 20; ++round) {
    tx::StreamGuard guard(round % 2 == 0 ? first : second);
    sums.push_back(tx::sum(full));
    columns.push_back(tx::sum<0>(tall));
  }
  tx::synchronize(gpu());
  for (std::size_t r = 0; r < sums.size(); ++r) {
    BOOST_TEST_CONTEXT("round " << r) {
      BOOST_TEST(std::abs(static_cast<double>(tx::to(sums[r], tx::CpuPlace()).item()) - full_sum) <=
                 1e-4 * (1 << 11));
      const auto host = tx::to(columns[r], tx::CpuPlace());
      for (index_t c = 0; c < 60; c += 7) {
        double expected = 0.0;
        for (index_t i = 0; i < 200003; ++i) expected += tall_values(i, c);
        BOOST_TEST(std::abs(host(c) - expected) <= 1e-4 * 450.0);
      }
    }
  }
  for (const tx::Stream* stream : {&first, &second}) {
    tx::StreamGuard guard(*stream);
    const index_t count = 4096;
    std::vector<unsigned> tickets(static_cast<std::size_t>(count), 1u);
    TENSORX_CUDA_CHECK(cudaMemcpy(tickets.data(), tx::detail::stream_tickets(0, count),
                                  tickets.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    BOOST_TEST(std::count(tickets.begin(), tickets.end(), 0u) == count);
  }
}

BOOST_AUTO_TEST_CASE(operands_on_another_place_are_a_place_error) {
  const auto g = tx::to(tx::ones<float>(tx::make_dim(4, 4)), gpu());
  tx::Array<float, 1> on_cpu(tx::make_dim(4));
  BOOST_CHECK_EXCEPTION(on_cpu = tx::sum<1>(g), tx::PlaceError,
                        tx::testing::message_has({"CudaPlace(0)", "CpuPlace"}));
}

BOOST_AUTO_TEST_SUITE_END()
