// The CPU and the GPU agree on every reduction (sum, mean, max, min, prod, argmax, argmin) over
// every axis of ranks 1 and 2 (and over an empty axis), over several axes and over all of them,
// with and without keepdims, in float, double and float16 (see cpu_gpu_agreement_reduce.h for the
// tolerances).
#include <string>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "cuda/cpu_gpu_agreement_reduce.h"
#include "support/cuda_test.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::agreement::check_axes;
using tx::testing::agreement::check_bitwise;
using tx::testing::agreement::FloatTypes;
using tx::testing::agreement::make_inputs;
using tx::testing::agreement::random_array;
using tx::testing::agreement::shape_name;
using tx::testing::agreement::type_name;

BOOST_AUTO_TEST_SUITE(cpu_gpu_agreement_reductions_rank_1_and_2, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE_TEMPLATE(rank_1, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1201);
  for (const index_t n : {index_t{1}, index_t{37}, index_t{100003}, (index_t{1} << 20) + 7}) {
    const auto dims = tx::make_dim(n);
    const auto in = make_inputs<T>(dims, rng);
    check_axes<0>(shape_name(dims), in);
    check_axes<>(shape_name(dims), in);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(rank_2, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1202);
  // Square-ish, few long rows, many short rows, and size-1 extents.
  for (const auto dims : {tx::make_dim(301, 457), tx::make_dim(3, 70001), tx::make_dim(20011, 5),
                          tx::make_dim(1, 457), tx::make_dim(301, 1)}) {
    const auto in = make_inputs<T>(dims, rng);
    check_axes<0>(shape_name(dims), in);
    check_axes<1>(shape_name(dims), in);
    check_axes<-1>(shape_name(dims), in);
    check_axes<>(shape_name(dims), in);
  }
}

// The identities: 0 for sum, 1 for prod, NaN for mean (max, min, argmax and argmin throw).
BOOST_AUTO_TEST_CASE_TEMPLATE(empty_reductions, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1205);
  const auto x = random_array<T>(tx::make_dim(0, 5), rng, -1, 1);
  const std::string what = " over an empty axis (" + type_name<T>() + ")";
  check_bitwise("sum" + what, x, [](const auto& a) { return tx::sum<0>(a); });
  check_bitwise("prod" + what, x, [](const auto& a) { return tx::prod<0>(a); });
  check_bitwise("mean" + what, x, [](const auto& a) { return tx::mean<0>(a, tx::keepdims); });
}

BOOST_AUTO_TEST_SUITE_END()
