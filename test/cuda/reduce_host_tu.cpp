// The plain C++ part of test_cuda_reduce, compiled by g++: reductions of plain GPU arrays run
// through the compiled layer (the header's kernels, precompiled) from a translation unit that
// cannot launch kernels, for every axis form, strided views, savers and the DArray forms, bitwise
// the same on every run; an expression operand still says "compile it as CUDA". The functions of
// reduce_host_tu.h give reduce_cuda_test.cu the same reductions to compare with its own, bit for
// bit.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstring>
#include <random>

#include <tensorx/tensorx.h>

#include "cuda/reduce_host_tu.h"
#include "reduce/reduce_reference.h"
#include "support/cuda_test.h"
#include "support/errors.h"

#if defined(__CUDACC__)
#error "reduce_host_tu.cpp tests plain C++ translation units: it must be compiled by g++"
#endif

namespace tx = tensorx;
using tx::testing::Reduction;

namespace {

tx::Place gpu() {
  return tx::CudaPlace(0);
}

template <class E, int N>
void check_on_gpu(const E& reduction, const tx::Array<double, N>& values, unsigned mask,
                  Reduction kind) {
  tx::Array<typename E::value_type, E::rank> result;
  if constexpr (E::rank == 0) result = tx::Array<typename E::value_type, 0>(tx::Dim<0>(), gpu());
  result = reduction;
  BOOST_TEST(tx::is_gpu_place(result.place()));
  tx::Array<double, N> scale;
  tx::testing::check_reduction(result, tx::testing::reference_reduce(values, mask, kind, scale),
                               scale, mask);
}

}  // namespace

namespace tensorx {
namespace testing {
namespace host_tu {

Array<float, 0> sum(const Array<float, 1>& a) {
  Array<float, 0> s(Dim<0>(), a.place());
  s = tx::sum(a);
  return s;
}

Array<float16, 0> sum(const Array<float16, 1>& a) {
  Array<float16, 0> s(Dim<0>(), a.place());
  s = tx::sum(a);
  return s;
}

Array<float, 1> row_means(const Array<float, 2>& m) {
  Array<float, 1> r;
  r = tx::mean<1>(m);
  return r;
}

Array<float, 1> column_sums(const Array<float, 2>& m) {
  Array<float, 1> r;
  r = tx::sum<0>(m);
  return r;
}

Array<std::int64_t, 1> row_argmax(const Array<float, 2>& m) {
  Array<std::int64_t, 1> r;
  r = tx::argmax<1>(m);
  return r;
}

void add_row_sums(Array<float16, 1>& r, const Array<float16, 2>& m) {
  r += tx::sum<1>(m);
}

}  // namespace host_tu
}  // namespace testing
}  // namespace tensorx

BOOST_AUTO_TEST_SUITE(reduce_from_plain_cpp, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(plain_gpu_arrays_reduce_through_the_compiled_layer) {
  auto rng = tx::testing::make_rng(91);
  tx::Array<float, 3> host(tx::make_dim(6, 70, 33));
  tx::testing::fill_random(host, rng, 0.5, 1.5);
  const auto a = tx::to(host, gpu());
  const auto values = tx::testing::to_double(host);
  check_on_gpu(tx::sum(a), values, 7u, Reduction::kSum);
  check_on_gpu(tx::mean<2>(a), values, 4u, Reduction::kMean);
  check_on_gpu(tx::max<1, 2>(a), values, 6u, Reduction::kMax);
  check_on_gpu(tx::min<0>(a, tx::keepdims), values, 1u, Reduction::kMin);  // columns
  check_on_gpu(tx::prod<1>(a), values, 2u, Reduction::kProd);              // the middle axis
  check_on_gpu(tx::argmax<1>(a), values, 2u, Reduction::kArgMax);
  check_on_gpu(tx::argmin<2>(a), values, 4u, Reduction::kArgMin);
  check_on_gpu(tx::sum<0, 2>(a), values, 5u, Reduction::kSum);  // kept axis first, by a copy
  // A transposed view is copied densely first.
  const auto swapped = tx::permute(a, tx::make_dim(2, 1, 0)).array();
  check_on_gpu(tx::sum<2>(swapped), tx::testing::to_double(swapped), 4u, Reduction::kSum);
}

BOOST_AUTO_TEST_CASE(savers_and_strided_destinations) {
  auto rng = tx::testing::make_rng(92);
  tx::Array<double, 2> host(tx::make_dim(40, 7));
  tx::testing::fill_random(host, rng, 1.0, 2.0);
  const auto m = tx::to(host, gpu());
  auto r = tx::to(tx::ones<double>(tx::make_dim(7)), gpu());
  r += tx::sum<0>(m);
  r *= tx::max<0>(m);
  tx::assign(r, tx::min<0>(m), tx::OpReq::kAddTo);
  const auto got = tx::to(r, tx::CpuPlace());
  for (int c = 0; c < 7; ++c) {
    double sum = 0, largest = host(0, c), smallest = host(0, c);
    for (int i = 0; i < 40; ++i) {
      sum += host(i, c);
      largest = std::max(largest, host(i, c));
      smallest = std::min(smallest, host(i, c));
    }
    BOOST_TEST(std::abs(got(c) - ((1 + sum) * largest + smallest)) <= 1e-12 * got(c));
  }
  // Column 2 of a GPU matrix (stride 7) receives the row sums.
  auto out = tx::to(tx::zeros<double>(tx::make_dim(40, 7)), gpu());
  auto column = tx::transpose(out).array()[2];
  column = tx::sum<1>(m);
  const auto written = tx::to(out, tx::CpuPlace());
  for (int i = 0; i < 40; ++i) {
    double sum = 0;
    for (int c = 0; c < 7; ++c) sum += host(i, c);
    BOOST_TEST(std::abs(written(i, 2) - sum) <= 1e-12 * sum);
    BOOST_TEST(written(i, 1) == 0.0);
  }
}

BOOST_AUTO_TEST_CASE(compiled_reductions_give_the_same_bits_on_every_run) {
  auto rng = tx::testing::make_rng(93);
  tx::Array<float, 1> host(tx::make_dim(tx::index_t{1} << 24));
  tx::testing::fill_random(host, rng, 0.0, 1.0);
  const auto a = tx::to(host, gpu());
  tx::Array<float, 0> first(tx::Dim<0>(), gpu());
  first = tx::sum(a);
  const float bits = first.item();
  for (int run = 0; run < 9; ++run) {
    tx::Array<float, 0> again(tx::Dim<0>(), gpu());
    const auto before = tx::stats::passes();
    again = tx::sum(a);
    BOOST_TEST(tx::stats::passes() - before == 1u, "one kernel, as in a CUDA translation unit");
    const float value = again.item();
    BOOST_TEST(std::memcmp(&value, &bits, sizeof bits) == 0, "run " << run + 1);
  }
  double exact = 0;
  for (tx::index_t i = 0; i < host.numel(); ++i) exact += host(i);
  BOOST_TEST(std::abs(bits - exact) / exact <= 4 * 0x1p-23);
}

BOOST_AUTO_TEST_CASE(darray_forms_and_expression_operands) {
  const tx::DArray x = tx::make_darray(tx::make_ddim({3, 4}), 2.0f, gpu());
  const tx::DArray s = tx::sum(x, {1});
  BOOST_TEST(tx::is_gpu_place(tx::place(s)));
  BOOST_TEST(static_cast<double>(tx::to(s, tx::CpuPlace())[tx::make_ddim({2})]) == 8.0);
  const auto a = tx::to(tx::ones<float>(tx::make_dim(3, 4)), gpu());
  tx::Array<float, 1> r;
  BOOST_CHECK_EXCEPTION(r = tx::sum<1>(a * 2.0f), tx::Error,
                        tx::testing::message_has({"compiled as plain C++", "compile it as CUDA"}));
  BOOST_TEST(!r.allocated());
}

BOOST_AUTO_TEST_SUITE_END()
