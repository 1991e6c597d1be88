// The CUDA engine's own behaviour, beyond what the GPU builds of the expression tests check: which
// kernel an assignment runs as (dense with 16-byte vectors, dense one element at a time, rows,
// strided in one box or in boxes of fewer than 2^31 elements), one launch per assignment, the
// vector kernel's scalar tail for every element width, operands of another width than the
// destination, the rows kernel of bias rows and columns, lambdas, the stream and device the kernel
// runs on, and launch errors. The kernel choice, the fast division and the plans' lane loads are
// host-callable and run without a GPU; everything else needs one.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <cuda_runtime.h>
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/cuda_test.h"
#include "support/errors.h"
#include "support/reference.h"
#include "support/spin_kernel.cuh"

namespace tx = tensorx;
using tx::index_t;
using tx::detail::GpuKernel;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::reference;

namespace {

tx::Place gpu() {
  return tx::CudaPlace(0);
}

/// A new array on GPU 0 with uniform values in [low, high), converted to T.
template <class T, int N>
tx::Array<T, N> random_on_gpu(const tx::Dim<N>& dims, std::mt19937_64& rng, double low = -1.0,
                              double high = 1.0) {
  tx::Array<T, N> host(dims);
  tx::testing::fill_random(host, rng, low, high);
  return tx::to(host, gpu());
}

/// The view of `a` with axes i and j swapped (a matrix's transpose), sharing the buffer.
template <class T, int N>
tx::Array<T, N> swapped(const tx::Array<T, N>& a, int i, int j) {
  tx::Dim<N> dims = a.dims(), strides = a.strides();
  std::swap(dims[i], dims[j]);
  std::swap(strides[i], strides[j]);
  return tx::Array<T, N>(a.buffer(), dims, strides, a.offset());
}

/// The view of rows 0, 2, 4, ... of a matrix: rows that are not adjacent in memory.
template <class T>
tx::Array<T, 2> every_other_row(const tx::Array<T, 2>& a) {
  return tx::Array<T, 2>(a.buffer(), tx::make_dim((a.dims()[0] + 1) / 2, a.dims()[1]),
                         tx::make_dim(2 * a.strides()[0], a.strides()[1]), a.offset());
}

/// The kernel the engine would run `dst = e` as.
template <class T, int N, class E>
GpuKernel kernel_for(const tx::Array<T, N>& dst, const E& e) {
  return tx::detail::choose_kernel(dst, tx::make_plan(e, dst.dims()));
}

double value(double x) {
  return x;
}
double value(tx::float16 x) {
  return static_cast<float>(x);
}
double value(tx::bfloat16 x) {
  return static_cast<float>(x);
}

/// c += a * b + a over sizes around the vector width V: no tail, a tail of V - 1, shorter than
/// one vector, and large enough for every block of the grid to loop.
template <class T>
void check_dense_vector_path(std::mt19937_64& rng) {
  constexpr index_t V = tx::detail::kVectorWidth<T>;
  static_assert(V * sizeof(T) == 16, "every element type tested here fills 16-byte vectors");
  for (const index_t n :
       {index_t{1}, V - 1, V, V + 1, 3 * V + V - 1, index_t{4099}, (index_t{1} << 20) + 3}) {
    BOOST_TEST_CONTEXT("n = " << n) {
      const auto dims = tx::make_dim(n);
      auto a = random_on_gpu<T>(dims, rng, -4.0, 4.0), b = random_on_gpu<T>(dims, rng, -4.0, 4.0);
      auto c = random_on_gpu<T>(dims, rng, -4.0, 4.0);
      const auto ha = on_host(a), hb = on_host(b), hc = on_host(c);
      BOOST_TEST((kernel_for(c, a * b + a) == GpuKernel::kDenseVector));
      c += a * b + a;
      check_close(c, reference(dims, [&](const auto& i) {
                    return value(hc[i]) + value(ha[i]) * value(hb[i]) + value(ha[i]);
                  }));
    }
  }
}

struct smooth_l1 {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(T x, T sigma) const {
    const T s2 = sigma * sigma;
    const T ax = x < T(0) ? -x : x;
    return ax < T(1) / s2 ? T(0.5) * x * x * s2 : ax - T(0.5) / s2;
  }
  using scalar_only = void;
};

__global__ void do_nothing() {}

/// True where GPU 0 has `bytes` free, with 1 GiB to spare.
boost::unit_test::precondition needs_free_gpu_memory(std::size_t bytes) {
  return boost::unit_test::precondition([bytes](boost::unit_test::test_unit_id) {
    // What earlier cases left in tensorx's cache is free for this one: the driver must count it.
    tx::cuda::empty_cache();
    std::size_t free_bytes = 0, total_bytes = 0;
    const bool ok = tx::cuda::device_count() > 0 &&
                    cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess &&
                    free_bytes >= bytes + (std::size_t{1} << 30);
    boost::test_tools::assertion_result result(ok);
    result.message() << "needs " << bytes << " bytes free on GPU 0";
    return result;
  });
}

// 46341^2 = 2^31 + 4633 elements: past the 32-bit index range, 4.3 GB as float16.
constexpr index_t kHugeSide = 46341;
constexpr std::size_t kHugeBytes = std::size_t{kHugeSide} * kHugeSide * sizeof(tx::float16);

}  // namespace

BOOST_AUTO_TEST_SUITE(cuda_kernel_choice)

// The choice reads only pointers and strides, so host arrays stand in for GPU arrays here.

BOOST_AUTO_TEST_CASE(dense_aligned_operands_run_the_vector_kernel) {
  tx::Array<float, 2> c(tx::make_dim(5, 7)), a(tx::make_dim(5, 7)), b(tx::make_dim(5, 7));
  BOOST_TEST((kernel_for(c, a * b + 2.0f) == GpuKernel::kDenseVector));
  BOOST_TEST((kernel_for(c, tx::broadcast_to(3.0f, c.dims())) == GpuKernel::kDenseVector));
  tx::Array<double, 0> s, t;
  BOOST_TEST((kernel_for(s, t * 2.0) == GpuKernel::kDenseVector));
  // Size-1 dimensions do not break density, whatever their strides.
  tx::Array<float, 3> d(tx::make_dim(4, 1, 6));
  const tx::Array<float, 3> e(d.buffer(), d.dims(), tx::make_dim(6, 1000, 1), 0);
  BOOST_TEST((kernel_for(d, e + 1.0f) == GpuKernel::kDenseVector));
}

BOOST_AUTO_TEST_CASE(a_dense_pointer_off_16_bytes_runs_the_dense_scalar_kernel) {
  tx::Array<float, 1> base(tx::make_dim(104)), c(tx::make_dim(100));
  BOOST_TEST((kernel_for(c, base.slice(1, 101) * 2.0f) == GpuKernel::kDenseScalar));
  auto shifted = base.slice(1, 101);
  BOOST_TEST((kernel_for(shifted, c * 2.0f) == GpuKernel::kDenseScalar));
  BOOST_TEST((kernel_for(c, base.slice(4, 104) * 2.0f) == GpuKernel::kDenseVector));
}

BOOST_AUTO_TEST_CASE(transposed_strided_and_broadcast_operands_run_the_strided_kernel) {
  // Rows of 6 floats are no whole number of 16-byte vectors: the rows kernel does not apply.
  tx::Array<float, 2> a(tx::make_dim(6, 4)), c(tx::make_dim(4, 6)), rows(tx::make_dim(8, 6));
  tx::Array<float, 1> row(tx::make_dim(6));
  tx::Array<float, 2> column(tx::make_dim(4, 1));
  BOOST_TEST((kernel_for(c, swapped(a, 0, 1) + 1.0f) == GpuKernel::kStrided));
  BOOST_TEST((kernel_for(c, c + row) == GpuKernel::kStrided));
  BOOST_TEST((kernel_for(c, c + column) == GpuKernel::kStrided));
  auto view = every_other_row(rows);
  BOOST_TEST((kernel_for(view, view * 2.0f) == GpuKernel::kStrided));
}

BOOST_AUTO_TEST_CASE(bias_rows_and_columns_against_aligned_rows_run_the_rows_kernel) {
  tx::Array<float, 2> c(tx::make_dim(4, 8)), x(tx::make_dim(4, 8));
  tx::Array<float, 1> bias(tx::make_dim(8));
  tx::Array<float, 2> column(tx::make_dim(4, 1));
  BOOST_TEST((kernel_for(c, tx::relu(x + bias)) == GpuKernel::kRowsVector));
  BOOST_TEST((kernel_for(c, x * column + 1.0f) == GpuKernel::kRowsVector));
  BOOST_TEST((kernel_for(c, bias + column) == GpuKernel::kRowsVector));
  // Rows that start 32 floats apart (every other row of a wider matrix), read and written.
  tx::Array<float, 2> wide(tx::make_dim(8, 16));
  const auto view = every_other_row(wide);
  BOOST_TEST((kernel_for(view, view * 2.0f) == GpuKernel::kRowsVector));
  // float16 rows take 8 elements per access: rows of 8 do, rows of 4 do not.
  tx::Array<tx::float16, 2> h(tx::make_dim(3, 8)), h4(tx::make_dim(3, 4));
  tx::Array<tx::float16, 1> hbias(tx::make_dim(8)), hbias4(tx::make_dim(4));
  BOOST_TEST((kernel_for(h, h + hbias) == GpuKernel::kRowsVector));
  BOOST_TEST((kernel_for(h4, h4 + hbias4) == GpuKernel::kStrided));
  // A bias that starts 4 bytes off a 16-byte boundary cannot be read in 16-byte vectors.
  tx::Array<float, 1> longer(tx::make_dim(9));
  BOOST_TEST((kernel_for(c, x + longer.slice(1, 9)) == GpuKernel::kStrided));
}

BOOST_AUTO_TEST_CASE(rows_of_2_to_the_31_elements_run_the_strided_kernel_in_boxes) {
  // The rows kernel runs in one box, so a row layout of 2^16 x 2^15 = 2^31 elements takes the
  // strided kernel, which cuts the space; one row fewer still takes the rows kernel. Each array
  // is one row of 2^15 floats repeated (row stride 0), so nothing of 2^31 elements is allocated.
  tx::Array<float, 1> row(tx::make_dim(1 << 15)), one(tx::make_dim(1));
  const tx::Array<float, 2> big(row.buffer(), tx::make_dim(1 << 16, 1 << 15), tx::make_dim(0, 1),
                                0);
  BOOST_TEST((kernel_for(big, big + one) == GpuKernel::kStrided));
  const tx::Array<float, 2> below(row.buffer(), tx::make_dim((1 << 16) - 1, 1 << 15),
                                  tx::make_dim(0, 1), 0);
  BOOST_TEST((kernel_for(below, below + one) == GpuKernel::kRowsVector));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(cuda_engine_parts_on_the_host)

BOOST_AUTO_TEST_CASE(fast_division_agrees_with_division_below_2_to_the_31) {
  constexpr std::uint32_t kLimit = (std::uint32_t{1} << 31) - 1;  // largest numerator and divisor
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint32_t> any(0, kLimit);
  std::vector<std::uint32_t> divisors;
  for (std::uint32_t d = 1; d <= 1000; ++d) divisors.push_back(d);
  for (int shift = 1; shift <= 30; ++shift) {
    for (std::uint32_t near : {(1u << shift) - 1, 1u << shift, (1u << shift) + 1}) {
      divisors.push_back(near);
    }
  }
  divisors.push_back(kLimit);
  for (int k = 0; k < 2000; ++k) divisors.push_back(std::max<std::uint32_t>(1, any(rng)));

  index_t wrong = 0;
  for (const std::uint32_t d : divisors) {
    const tx::detail::FastDivider32 divider(d);
    // Multiples and their neighbours (where rounding would show), the ends, random numerators.
    std::vector<std::uint32_t> numerators = {0, 1, kLimit, kLimit - 1, d - 1, d};
    for (std::uint32_t q : {1u, 2u, 3u, kLimit / d - 1, kLimit / d}) {
      const std::uint64_t m = std::uint64_t{q} * d;
      for (const std::uint64_t n : {m - 1, m, m + 1}) {
        if (n <= kLimit) numerators.push_back(static_cast<std::uint32_t>(n));
      }
    }
    for (int k = 0; k < 200; ++k) numerators.push_back(any(rng));
    for (const std::uint32_t n : numerators) {
      if (divider.divide(n) != n / d && wrong++ == 0) {
        BOOST_TEST_MESSAGE("first wrong quotient: " << n << " / " << d);
      }
    }
  }
  BOOST_TEST(wrong == 0);
}

BOOST_AUTO_TEST_CASE(both_index_widths_turn_flat_indices_into_row_major_indices) {
  std::mt19937_64 rng(8);
  const auto dims = tx::make_dim(3, 1, 7, 5, 2);
  const tx::detail::IndexSpace<5, tx::detail::FastDivider32> narrow(dims);
  const tx::detail::IndexSpace<5, tx::detail::Divider64> wide(dims);
  for (index_t i = 0; i < tx::product(dims); ++i) {
    BOOST_TEST((narrow.index_of(static_cast<std::uint32_t>(i)) == tx::delinearize(i, dims)));
    BOOST_TEST((wide.index_of(static_cast<std::uint64_t>(i)) == tx::delinearize(i, dims)));
  }
  // Beyond 32 bits.
  const auto huge = tx::make_dim(index_t{3} << 32, 1000, 7);
  const tx::detail::IndexSpace<3, tx::detail::Divider64> huge_space(huge);
  std::uniform_int_distribution<index_t> any(0, tx::product(huge) - 1);
  for (int k = 0; k < 1000; ++k) {
    const index_t i = any(rng);
    BOOST_TEST((huge_space.index_of(static_cast<std::uint64_t>(i)) == tx::delinearize(i, huge)));
  }
  const tx::detail::IndexSpace<0, tx::detail::FastDivider32> scalar{tx::Dim<0>()};
  BOOST_TEST((scalar.index_of(0) == tx::Dim<0>()));
}

BOOST_AUTO_TEST_CASE(plans_load_lanes_equal_to_their_elements) {
  // The dense kernel's loads are __host__ __device__: on host arrays they must read what flat()
  // reads, for leaves wider (double, int64) and narrower (float16) than the float result.
  std::mt19937_64 rng(9);
  const auto dims = tx::make_dim(3, 8);
  tx::Array<double, 2> wide(dims);
  tx::Array<tx::float16, 2> narrow(dims);
  tx::Array<std::int64_t, 2> whole(dims);
  tx::testing::fill_random(wide, rng);
  tx::testing::fill_random(narrow, rng);
  tx::testing::fill_random(whole, rng, -100.0, 100.0);
  const auto plan = tx::make_plan(
      tx::cast<float>(wide) * tx::cast<float>(narrow) - tx::cast<float>(whole) + 0.5f, dims);
  for (index_t i = 0; i < tx::product(dims); i += 4) {
    const tx::detail::Lanes<float, 4> lanes = plan.load<4>(i);
    for (int k = 0; k < 4; ++k) BOOST_TEST(lanes[k] == plan.flat(i + k));
  }
  const tx::detail::Lanes<float, 8> all = tx::make_plan(tx::cast<float>(narrow), dims).load<8>(8);
  for (int k = 0; k < 8; ++k) BOOST_TEST(all[k] == static_cast<float>(narrow(1, k)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(cuda_engine, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(each_assignment_is_one_kernel_launch) {
  std::mt19937_64 rng(1);
  const auto dims = tx::make_dim(64, 33);
  auto a = random_on_gpu<float>(dims, rng), b = random_on_gpu<float>(dims, rng);
  tx::Array<float, 1> row = random_on_gpu<float>(tx::make_dim(33), rng);
  tx::Array<float, 2> c(dims, gpu());
  tx::Array<float, 2> t(tx::make_dim(33, 64), gpu());
  tx::stats::reset();
  c = a * b + 2.0f * a - b / 3.0f;
  BOOST_TEST(tx::stats::passes() == 1u);
  c += tx::exp(-a) * row;
  BOOST_TEST(tx::stats::passes() == 2u);
  t = swapped(c, 0, 1) * 0.5f;
  BOOST_TEST(tx::stats::passes() == 3u);
  c = 1.0f;
  BOOST_TEST(tx::stats::passes() == 4u);
  tx::Array<float, 2> empty(tx::make_dim(0, 33), gpu());
  empty = empty * 2.0f + 1.0f;
  BOOST_TEST(tx::stats::passes() == 4u, "an empty destination launches nothing");
}

BOOST_AUTO_TEST_CASE(dense_float_runs_in_16_byte_vectors_with_a_scalar_tail) {
  std::mt19937_64 rng(2);
  check_dense_vector_path<float>(rng);
}

BOOST_AUTO_TEST_CASE(dense_double_runs_in_16_byte_vectors_with_a_scalar_tail) {
  std::mt19937_64 rng(3);
  check_dense_vector_path<double>(rng);
}

BOOST_AUTO_TEST_CASE(dense_float16_runs_in_16_byte_vectors_computed_in_float) {
  std::mt19937_64 rng(4);
  check_dense_vector_path<tx::float16>(rng);
}

BOOST_AUTO_TEST_CASE(dense_bfloat16_runs_in_16_byte_vectors_computed_in_float) {
  std::mt19937_64 rng(6);
  check_dense_vector_path<tx::bfloat16>(rng);
}

BOOST_AUTO_TEST_CASE(dense_int32_runs_in_16_byte_vectors_exactly) {
  std::mt19937_64 rng(5);
  check_dense_vector_path<std::int32_t>(rng);
}

BOOST_AUTO_TEST_CASE(operands_wider_and_narrower_than_the_destination_share_the_vector_kernel) {
  std::mt19937_64 rng(6);
  const auto dims = tx::make_dim(3, 1001);
  auto wide = random_on_gpu<double>(dims, rng);
  auto narrow = random_on_gpu<tx::float16>(dims, rng);
  auto whole = random_on_gpu<std::int64_t>(dims, rng, -100.0, 100.0);
  tx::Array<float, 2> c(dims, gpu());
  const auto e = tx::cast<float>(wide) * tx::cast<float>(narrow) + tx::cast<float>(whole);
  BOOST_TEST((kernel_for(c, e) == GpuKernel::kDenseVector));
  c = e;
  const auto hw = on_host(wide);
  const auto hn = on_host(narrow);
  const auto hi = on_host(whole);
  check_close(c, reference(dims, [&](const auto& i) {
                return static_cast<double>(static_cast<float>(hw[i])) * value(hn[i]) +
                       static_cast<double>(hi[i]);
              }));
}

BOOST_AUTO_TEST_CASE(a_float_destination_reads_float16_sixteen_bytes_at_a_time) {
  std::mt19937_64 rng(16);
  const auto probe = tx::cast<float>(tx::Array<tx::float16, 1>(tx::make_dim(1))) * 2.0f;
  using Plan = decltype(tx::make_plan(probe, tx::make_dim(1)));
  static_assert(tx::detail::kPassWidth<float, Plan> == 8,
                "eight float16 operands per 16-byte load, two 16-byte stores of float");
  for (const index_t n : {index_t{1}, index_t{7}, index_t{8}, index_t{9}, index_t{8 * 513 + 5}}) {
    BOOST_TEST_CONTEXT("n = " << n) {
      const auto h = random_on_gpu<tx::float16>(tx::make_dim(n), rng);
      tx::Array<float, 1> c(h.dims(), gpu());
      BOOST_TEST((kernel_for(c, tx::cast<float>(h) * 2.0f) == GpuKernel::kDenseVector));
      c = tx::cast<float>(h) * 2.0f;
      const auto hh = on_host(h);
      check_close(c, reference(h.dims(), [&](const auto& i) { return 2.0 * value(hh[i]); }));
    }
  }
}

BOOST_AUTO_TEST_CASE(bias_rows_and_columns_keep_16_byte_accesses) {
  std::mt19937_64 rng(17);
  const auto dims = tx::make_dim(67, 256);
  const auto x = random_on_gpu<float>(dims, rng, -2.0, 2.0);
  const auto bias = random_on_gpu<float>(tx::make_dim(256), rng);
  const auto column = random_on_gpu<float>(tx::make_dim(67, 1), rng);
  const auto hx = on_host(x), hc = on_host(column);
  const auto hb = on_host(bias);
  tx::Array<float, 2> c(dims, gpu());
  BOOST_TEST((kernel_for(c, tx::relu(x + bias)) == GpuKernel::kRowsVector));
  c = tx::relu(x + bias);
  check_close(c, reference(dims, [&](const auto& i) {
                return std::max(0.0, static_cast<double>(hx[i]) + hb(i[1]));
              }));
  c += x * column;  // a saver that reads the destination, and a column vector
  check_close(c, reference(dims, [&](const auto& i) {
                return std::max(0.0, static_cast<double>(hx[i]) + hb(i[1])) +
                       static_cast<double>(hx[i]) * hc(i[0], 0);
              }));
  // Written through a view whose rows are 512 floats apart.
  tx::Array<float, 2> wide(tx::make_dim(134, 256), gpu());
  wide = 0.0f;
  auto rows = every_other_row(wide);
  rows = x - bias;
  const auto hw = on_host(wide);
  index_t wrong = 0;
  for (index_t r = 0; r < 134; ++r) {
    for (index_t j = 0; j < 256; ++j) {
      const double expected = r % 2 == 0 ? hx(r / 2, j) - hb(j) : 0.0;
      wrong += hw(r, j) != static_cast<float>(expected);
    }
  }
  BOOST_TEST(wrong == 0);
  // float16, eight elements per access.
  const auto h = random_on_gpu<tx::float16>(dims, rng);
  const auto hbias = random_on_gpu<tx::float16>(tx::make_dim(256), rng);
  tx::Array<tx::float16, 2> hsum(dims, gpu());
  BOOST_TEST((kernel_for(hsum, tx::relu(h + hbias)) == GpuKernel::kRowsVector));
  hsum = tx::relu(h + hbias);
  const auto hh = on_host(h);
  const auto hhb = on_host(hbias);
  check_close(hsum, reference(dims, [&](const auto& i) {
                return std::max(0.0, value(hh[i]) + value(hhb(i[1])));
              }));
}

// The rows kernel loads two steps before it stores either, then finishes one step at a time:
// spaces large enough for every thread to loop, with an even and an odd number of steps a
// thread, the destination read (+=) and float16's eight elements a step.
BOOST_AUTO_TEST_CASE(large_bias_rows_loop_in_pairs_of_steps_and_a_last_single_step) {
  std::mt19937_64 rng(18);
  for (const index_t rows : {index_t{2051}, index_t{4099}}) {
    BOOST_TEST_CONTEXT(rows << " rows of 1032") {
      const auto dims = tx::make_dim(rows, index_t{1032});
      const auto x = random_on_gpu<float>(dims, rng, -2.0, 2.0);
      const auto bias = random_on_gpu<float>(tx::make_dim(1032), rng);
      auto c = random_on_gpu<float>(dims, rng);
      const auto hx = on_host(x), hc = on_host(c);
      const auto hb = on_host(bias);
      BOOST_TEST((kernel_for(c, tx::relu(x + bias)) == GpuKernel::kRowsVector));
      c += tx::relu(x + bias);
      check_close(c, reference(dims, [&](const auto& i) {
                    return hc[i] + std::max(0.0, static_cast<double>(hx[i]) + hb(i[1]));
                  }));
      const auto h = random_on_gpu<tx::float16>(dims, rng);
      const auto hbias = random_on_gpu<tx::float16>(tx::make_dim(1032), rng);
      tx::Array<tx::float16, 2> hsum(dims, gpu());
      BOOST_TEST((kernel_for(hsum, h * hbias - 1.0f) == GpuKernel::kRowsVector));
      hsum = h * hbias - 1.0f;
      const auto hh = on_host(h);
      const auto hhb = on_host(hbias);
      check_close(hsum, reference(dims, [&](const auto& i) {
                    return value(hh[i]) * value(hhb(i[1])) - 1.0;
                  }));
    }
  }
}

BOOST_AUTO_TEST_CASE(dense_views_off_16_bytes_run_one_element_per_step) {
  std::mt19937_64 rng(7);
  auto base = random_on_gpu<float>(tx::make_dim(1002), rng);
  auto target = tx::zeros<float>(tx::make_dim(1002), gpu());
  const auto a = base.slice(1, 1002);
  auto c = target.slice(1, 1002);
  BOOST_TEST((kernel_for(c, a * 2.0f + 1.0f) == GpuKernel::kDenseScalar));
  c = a * 2.0f + 1.0f;
  const auto hb = on_host(base);
  const auto ht = on_host(target);
  BOOST_TEST(ht(0) == 0.0f, "the element before the view is left alone");
  check_close(
      c, reference(tx::make_dim(1001), [&](const auto& i) { return 2.0 * hb(i[0] + 1) + 1.0; }));
}

BOOST_AUTO_TEST_CASE(transposed_operands_and_destinations_run_the_strided_kernel) {
  std::mt19937_64 rng(8);
  auto a = random_on_gpu<float>(tx::make_dim(37, 53), rng);
  auto b = random_on_gpu<float>(tx::make_dim(53, 37), rng);
  const auto ha = on_host(a), hb = on_host(b);
  tx::Array<float, 2> c(tx::make_dim(53, 37), gpu());
  BOOST_TEST((kernel_for(c, swapped(a, 0, 1) - b) == GpuKernel::kStrided));
  c = swapped(a, 0, 1) - b;
  check_close(c, reference(c.dims(), [&](const auto& i) {
                return static_cast<double>(ha(i[1], i[0])) - hb[i];
              }));

  tx::Array<float, 2> d(tx::make_dim(37, 53), gpu());
  auto dt = swapped(d, 0, 1);
  dt = b * 3.0f;
  check_close(d, reference(d.dims(), [&](const auto& i) { return 3.0 * hb(i[1], i[0]); }));
}

BOOST_AUTO_TEST_CASE(rank_5_permutations_run_the_strided_kernel) {
  std::mt19937_64 rng(9);
  auto a = random_on_gpu<double>(tx::make_dim(3, 4, 5, 6, 7), rng);
  const auto permuted = swapped(swapped(a, 0, 4), 1, 3);  // (7, 6, 5, 4, 3)
  tx::Array<double, 5> c(permuted.dims(), gpu());
  c = permuted * permuted + 1.0;
  const auto ha = on_host(a);
  check_close(c, reference(c.dims(), [&](const auto& i) {
                const double x = ha(i[4], i[3], i[2], i[1], i[0]);
                return x * x + 1.0;
              }));
}

BOOST_AUTO_TEST_CASE(sliced_views_with_gaps_are_read_and_written_in_place) {
  std::mt19937_64 rng(10);
  auto a = random_on_gpu<float>(tx::make_dim(9, 31), rng);
  auto c = random_on_gpu<float>(tx::make_dim(9, 31), rng);
  const auto ha = on_host(a), hc = on_host(c);
  auto view = every_other_row(c);
  view -= every_other_row(a) * 2.0f;
  check_close(c, reference(c.dims(), [&](const auto& i) {
                const double old = hc[i];
                return i[0] % 2 == 0 ? old - 2.0 * ha[i] : old;
              }));
}

BOOST_AUTO_TEST_CASE(broadcast_operands_run_the_strided_kernel) {
  std::mt19937_64 rng(11);
  const auto dims = tx::make_dim(65, 129);
  auto x = random_on_gpu<tx::float16>(dims, rng);
  auto row = random_on_gpu<tx::float16>(tx::make_dim(129), rng);
  auto column = random_on_gpu<tx::float16>(tx::make_dim(65, 1), rng);
  tx::Array<tx::float16, 2> c(dims, gpu());
  BOOST_TEST((kernel_for(c, x * row + column) == GpuKernel::kStrided));
  c = x * row + column;
  const auto hx = on_host(x), hcol = on_host(column);
  const auto hr = on_host(row);
  check_close(c, reference(dims, [&](const auto& i) {
                return value(hx[i]) * value(hr(i[1])) + value(hcol(i[0], 0));
              }));
}

BOOST_AUTO_TEST_CASE(the_indexed_kernel_agrees_with_itself_over_boxes) {
  // Spaces past 2^31 elements run a launch per box of fewer; boxes of at most 100 (rows of 13 in
  // blocks of 7 and 4) and of at most 10 (13-element rows split 10 + 3) must give what one launch
  // over the whole space gives.
  std::mt19937_64 rng(12);
  auto a = random_on_gpu<float>(tx::make_dim(7, 11, 13), rng);
  auto b = random_on_gpu<float>(tx::make_dim(13, 11, 7), rng);
  const auto at = swapped(a, 0, 2);
  const auto ha = on_host(a), hb = on_host(b);
  const auto expected = reference(b.dims(), [&](const auto& i) {
    return static_cast<double>(ha(i[2], i[1], i[0])) * hb[i] + 1.0;
  });
  const auto stream = tx::current_stream(0);
  for (const index_t limit : {tx::detail::kMaxIndexedBox, index_t{100}, index_t{10}}) {
    tx::Array<float, 3> c(b.dims(), gpu());
    tx::detail::launch_indexed<tx::saver::write, 4>(c, tx::make_plan(at * b + 1.0f, b.dims()),
                                                    stream, false, limit);
    BOOST_TEST_CONTEXT("boxes of at most " << limit << " elements") {
      check_close(c, expected);
    }
  }
}

BOOST_AUTO_TEST_CASE(more_than_2_to_the_31_elements_are_all_reached,
                     *needs_free_gpu_memory(2 * kHugeBytes)) {
  // x = rows + columns (strided, broadcast operands) and y = 2 * x (dense) over n * n float16
  // elements; every sum is an integer below 2048, exact in float16, so that any element written
  // at a wrapped index would show.
  const index_t n = kHugeSide;
  tx::Array<tx::float16, 2> rows_host(tx::make_dim(n, 1)), columns_host(tx::make_dim(1, n));
  auto row_value = [](index_t i) { return static_cast<double>(i * 7 % 1024); };
  auto column_value = [](index_t j) { return static_cast<double>(j % 1021); };
  for (index_t i = 0; i < n; ++i) rows_host(i, 0) = tx::float16(row_value(i));
  for (index_t j = 0; j < n; ++j) columns_host(0, j) = tx::float16(column_value(j));
  const auto rows = tx::to(rows_host, gpu()), columns = tx::to(columns_host, gpu());

  tx::Array<tx::float16, 2> x(tx::make_dim(n, n), gpu());
  BOOST_TEST((kernel_for(x, rows + columns) == GpuKernel::kStrided));
  x = rows + columns;
  tx::Array<tx::float16, 2> y(tx::make_dim(n, n), gpu());
  BOOST_TEST((kernel_for(y, x * 2.0f) == GpuKernel::kDenseVector));
  y = x * 2.0f;

  for (const index_t r : {index_t{0}, index_t{1}, n / 2, n - 2, n - 1}) {
    const auto hx = on_host(x.slice(r, r + 1)), hy = on_host(y.slice(r, r + 1));
    index_t wrong = 0;
    for (index_t j = 0; j < n; ++j) {
      const double sum = row_value(r) + column_value(j);
      wrong += value(hx(0, j)) != sum || value(hy(0, j)) != 2.0 * sum;
    }
    BOOST_TEST(wrong == 0, "row " << r << ": " << wrong << " wrong elements");
  }
}

BOOST_AUTO_TEST_CASE(lambdas_and_functors_run_in_the_kernel) {
  std::mt19937_64 rng(13);
  const auto dims = tx::make_dim(1000);
  auto a = random_on_gpu<float>(dims, rng, -3.0, 3.0);
  tx::Array<float, 1> leaky(dims, gpu()), smooth(dims, gpu());
  leaky = tx::map(a, [] TENSORX_HOST_DEVICE(float v) { return v > 0 ? v : 0.1f * v; });
  smooth = tx::F<smooth_l1>(a, 1.5f);
  const auto ha = on_host(a);
  check_close(leaky, reference(dims, [&](const auto& i) {
                const double v = ha[i];
                return v > 0 ? v : 0.1 * v;
              }));
  check_close(smooth, reference(dims, [&](const auto& i) {
                const double v = ha[i], s2 = 1.5 * 1.5, av = std::abs(v);
                return av < 1.0 / s2 ? 0.5 * v * v * s2 : av - 0.5 / s2;
              }));
}

BOOST_AUTO_TEST_CASE(kernels_run_on_the_current_stream) {
  const index_t n = 4096;
  tx::Stream stream(tx::CudaPlace(0));
  auto a = tx::zeros<float>(tx::make_dim(n), gpu());
  auto c = tx::zeros<float>(tx::make_dim(n), gpu());
  // Both kernels run once before the spin: under CUDA's lazy module loading, loading the
  // assignment's kernel while the spin runs may wait for the spin, and the stream would then be
  // idle at the query below whether or not the kernel was queued behind it.
  tx::testing::spin_then_fill(stream.handle(), a.data(), n, 0.0f, 0);
  c = a * 2.0f + 1.0f;
  tx::synchronize();
  {
    tx::StreamGuard guard(stream);
    tx::testing::spin_then_fill(stream.handle(), a.data(), n, 3.0f);
    // On the non-blocking stream this must wait for the fill; on any other it would read zeros.
    c = a * 2.0f + 1.0f;
    BOOST_TEST(cudaStreamQuery(stream.handle()) == cudaErrorNotReady,
               "the assignment is queued behind the spinning kernel");
    // The runtime may keep "not ready" as its last error; a later launch check must not see it.
    static_cast<void>(cudaGetLastError());
  }
  stream.synchronize();
  check_close(c, reference(c.dims(), [](const auto&) { return 7.0; }));
}

BOOST_AUTO_TEST_CASE(kernels_run_on_the_destination_device_and_leave_the_current_one) {
  if (tx::cuda::device_count() < 2) {
    BOOST_TEST_MESSAGE("one GPU only: nothing to check");
    return;
  }
  std::mt19937_64 rng(14);
  const auto dims = tx::make_dim(777);
  tx::Array<float, 1> host(dims);
  tx::testing::fill_random(host, rng);
  const auto a = tx::to(host, tx::CudaPlace(1));
  tx::Array<float, 1> c(dims, tx::CudaPlace(1));
  tx::cuda::set_device(0);
  c = a * a;
  BOOST_TEST(tx::cuda::current_device() == 0);
  check_close(c, reference(dims, [&](const auto& i) { return double(host[i]) * host[i]; }));
}

BOOST_AUTO_TEST_CASE(a_failed_launch_throws_cuda_error_with_its_name_and_place) {
  do_nothing<<<1, 2048>>>();  // more threads per block than any GPU has
  // Which error the runtime gives a launch it refuses is its own business (on the first H100 run,
  // CUDA 13's was not cudaErrorInvalidConfiguration); the check must name that error, describe it
  // and say where it happened.
  const cudaError_t refused = cudaPeekAtLastError();
  BOOST_TEST_REQUIRE(refused != cudaSuccess);
  const std::string name = cudaGetErrorName(refused);
  BOOST_TEST_MESSAGE("the refused launch: " << name);
  BOOST_CHECK_EXCEPTION(
      TENSORX_CUDA_CHECK(cudaGetLastError()), tx::CudaError, [&](const tx::CudaError& e) {
        return e.error_name() == name && e.line() > 0 &&
               tx::testing::message_has(
                   {name, cudaGetErrorString(refused), "engine_cuda_test.cu:"})(e);
      });
  BOOST_TEST(cudaGetLastError() == cudaSuccess);
  // The failure is not left behind for the next launch to report.
  std::mt19937_64 rng(15);
  auto a = random_on_gpu<float>(tx::make_dim(10), rng);
  tx::Array<float, 1> c(tx::make_dim(10), gpu());
  BOOST_CHECK_NO_THROW(c = a + 1.0f);
}

BOOST_AUTO_TEST_SUITE_END()
