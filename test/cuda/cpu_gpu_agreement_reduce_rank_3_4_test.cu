// The CPU and the GPU agree on every reduction (sum, mean, max, min, prod, argmax, argmin) over
// every axis of ranks 3 and 4, over several axes and over all of them, with and without keepdims,
// in float, double and float16 (see cpu_gpu_agreement_reduce.h for the tolerances).
#include <string>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "cuda/cpu_gpu_agreement_reduce.h"
#include "support/cuda_test.h"

namespace tx = tensorx;
using tx::testing::agreement::check_axes;
using tx::testing::agreement::FloatTypes;
using tx::testing::agreement::make_inputs;
using tx::testing::agreement::shape_name;

BOOST_AUTO_TEST_SUITE(cpu_gpu_agreement_reductions_rank_3_and_4, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE_TEMPLATE(rank_3, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1203);
  for (const auto dims :
       {tx::make_dim(37, 41, 53), tx::make_dim(37, 1, 53), tx::make_dim(2, 3, 30011)}) {
    const auto in = make_inputs<T>(dims, rng);
    check_axes<0>(shape_name(dims), in);
    check_axes<1>(shape_name(dims), in);
    check_axes<2>(shape_name(dims), in);
    check_axes<0, 2>(shape_name(dims), in);
    check_axes<1, 2>(shape_name(dims), in);
    check_axes<>(shape_name(dims), in);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(rank_4, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1204);
  for (const auto dims : {tx::make_dim(7, 11, 13, 17), tx::make_dim(5, 1, 9, 3001)}) {
    const auto in = make_inputs<T>(dims, rng);
    check_axes<0>(shape_name(dims), in);
    check_axes<1>(shape_name(dims), in);
    check_axes<2>(shape_name(dims), in);
    check_axes<3>(shape_name(dims), in);
    check_axes<1, 3>(shape_name(dims), in);
    check_axes<0, 2, 3>(shape_name(dims), in);
    check_axes<>(shape_name(dims), in);
  }
}

BOOST_AUTO_TEST_SUITE_END()
