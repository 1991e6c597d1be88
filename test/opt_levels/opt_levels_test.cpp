// The reductions and element-wise paths as users build them: test/CMakeLists.txt compiles this one
// source at -O0, -O1, -O2 and -O3 (test_opt_level_O<n>), each program linked against the same
// compiled layer. g++ 12.2 once miscompiled the reduction geometry at -O1 and -O2 only (sum<0> of
// a (7, 3) array gave 1 1 1 and wrote 21 results into 3), and a user's miscompiled copy of an
// inline template replaced the compiled layer's at link time; these cases catch both. Every result
// is checked against plain loops in double.
#include <boost/test/unit_test.hpp>

#include <cstdint>

#include <tensorx/tensorx.h>

#include "reduce/reduce_reference.h"

namespace tx = tensorx;
using tx::testing::Reduction;

namespace {

/// Assigns `reduction` to a new array and checks it against the reference `kind` over `mask`.
template <class E, int N>
void check_result(const E& reduction, const tx::Array<double, N>& values, unsigned mask,
                  Reduction kind) {
  tx::Array<typename E::value_type, E::rank> result;
  result = reduction;
  tx::Array<double, N> scale;
  const auto expected = tx::testing::reference_reduce(values, mask, kind, scale);
  tx::testing::check_reduction(result, expected, scale, mask);
}

/// tx::sum<Axes...> of `a`, with and without keepdims, and of its reversed-axes transpose where
/// the rank allows one (a strided operand takes the general path instead of the merged one).
template <int... Axes, class T, int N>
void check_sum_over(const tx::Array<T, N>& a) {
  constexpr unsigned mask = tx::detail::axis_mask<N, Axes...>();
  const auto values = tx::testing::to_double(a);
  check_result(tx::sum<Axes...>(a), values, mask, Reduction::kSum);
  check_result(tx::sum<Axes...>(a, tx::keepdims), values, mask, Reduction::kSum);
}

/// Every axis set of a rank-N array of extent `dims`, as static axes.
template <int N>
void check_every_axis_set(const tx::Dim<N>& dims, std::mt19937_64& rng) {
  const auto a = tx::testing::random_array<float>(dims, rng);
  if constexpr (N == 1) {
    check_sum_over<0>(a);
  } else if constexpr (N == 2) {
    check_sum_over<0>(a), check_sum_over<1>(a), check_sum_over<0, 1>(a);
  } else if constexpr (N == 3) {
    check_sum_over<0>(a), check_sum_over<1>(a), check_sum_over<2>(a);
    check_sum_over<0, 1>(a), check_sum_over<0, 2>(a), check_sum_over<1, 2>(a);
    check_sum_over<0, 1, 2>(a);
  } else {
    check_sum_over<0>(a), check_sum_over<1>(a), check_sum_over<2>(a), check_sum_over<3>(a);
    check_sum_over<0, 1>(a), check_sum_over<0, 2>(a), check_sum_over<0, 3>(a);
    check_sum_over<1, 2>(a), check_sum_over<1, 3>(a), check_sum_over<2, 3>(a);
    check_sum_over<0, 1, 2>(a), check_sum_over<0, 1, 3>(a), check_sum_over<0, 2, 3>(a);
    check_sum_over<1, 2, 3>(a), check_sum_over<0, 1, 2, 3>(a);
  }
}

/// Every axis set of `x` (rank N) through the DArray forms, which run in the compiled layer.
template <int N>
void check_darray_axis_sets(const tx::Array<double, N>& a) {
  const tx::DArray x = a;
  const auto values = tx::testing::to_double(a);
  for (unsigned mask = 1; mask < (1u << N); ++mask) {
    std::vector<int> axes;
    for (int i = 0; i < N; ++i) {
      if ((mask >> i) & 1u) axes.push_back(i);
    }
    const tx::DArray result = tx::sum(x, axes, tx::keepdims);
    tx::Array<double, N> scale;
    const auto expected = tx::testing::reference_reduce(values, mask, Reduction::kSum, scale);
    tx::visit(
        [&](auto& r) {
          using R = std::decay_t<decltype(r)>;
          if constexpr (R::rank == N && std::is_same_v<typename R::value_type, double>) {
            tx::testing::check_reduction(r, expected, scale, mask);
          } else {
            BOOST_FAIL("a keepdims sum of a double DArray has its rank and element type");
          }
        },
        result);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(optimisation_levels)

BOOST_AUTO_TEST_CASE(the_column_sum_that_g_plus_plus_12_miscompiled) {
  tx::Array<float, 2> a(tx::make_dim(7, 3));
  tx::fill(a, 1.0f);
  tx::Array<float, 1> s;
  s = tx::sum<0>(a);
  BOOST_TEST_REQUIRE(s.numel() == 3);
  for (int i = 0; i < 3; ++i) BOOST_TEST(s(i) == 7.0f);
  const tx::DArray d = tx::sum(tx::DArray(a), {0});
  BOOST_TEST(tx::dims(d) == tx::make_ddim({3}));
  for (int i = 0; i < 3; ++i) BOOST_TEST(static_cast<double>(d[tx::make_ddim({i})]) == 7.0);
}

BOOST_AUTO_TEST_CASE(every_axis_set_of_ranks_1_to_4_including_size_1_and_empty_axes) {
  auto rng = tx::testing::make_rng(901);
  for (int trial = 0; trial < 4; ++trial) {
    check_every_axis_set(tx::testing::random_dim<1>(rng, 1, 9), rng);
    check_every_axis_set(tx::testing::random_dim<2>(rng, 1, 9), rng);
    check_every_axis_set(tx::testing::random_dim<3>(rng, 1, 6), rng);
    check_every_axis_set(tx::testing::random_dim<4>(rng, 1, 5), rng);
  }
  check_every_axis_set(tx::make_dim(7, 1, 3), rng);
  check_every_axis_set(tx::make_dim(1, 5, 1, 4), rng);
  check_every_axis_set(tx::make_dim(3, 0, 2), rng);
}

BOOST_AUTO_TEST_CASE(every_axis_set_through_the_compiled_layer) {
  auto rng = tx::testing::make_rng(902);
  for (int trial = 0; trial < 3; ++trial) {
    check_darray_axis_sets(tx::testing::random_array<double>(tx::make_dim(7), rng));
    check_darray_axis_sets(
        tx::testing::random_array<double>(tx::testing::random_dim<2>(rng, 1, 8), rng));
    check_darray_axis_sets(
        tx::testing::random_array<double>(tx::testing::random_dim<3>(rng, 1, 6), rng));
    check_darray_axis_sets(
        tx::testing::random_array<double>(tx::testing::random_dim<4>(rng, 1, 5), rng));
  }
  check_darray_axis_sets(tx::testing::random_array<double>(tx::make_dim(7, 1, 3), rng));
}

BOOST_AUTO_TEST_CASE(every_reducer_on_strided_and_large_operands) {
  auto rng = tx::testing::make_rng(903);
  const auto m = tx::testing::random_array<float>(tx::make_dim(523, 611), rng, 0.5, 1.5);
  const auto values = tx::testing::to_double(m);
  check_result(tx::sum<0>(m), values, 1u, Reduction::kSum);
  check_result(tx::mean<1>(m), values, 2u, Reduction::kMean);
  check_result(tx::max<0>(m), values, 1u, Reduction::kMax);
  check_result(tx::min<1>(m, tx::keepdims), values, 2u, Reduction::kMin);
  check_result(tx::argmax<0>(m), values, 1u, Reduction::kArgMax);
  check_result(tx::argmin<1>(m), values, 2u, Reduction::kArgMin);
  check_result(tx::sum(m), values, 3u, Reduction::kSum);
  const auto small = tx::testing::random_array<float>(tx::make_dim(5, 9), rng, 0.5, 1.5);
  check_result(tx::prod<1>(small), tx::testing::to_double(small), 2u, Reduction::kProd);

  const auto transposed = tx::testing::to_double(tx::Array<float, 2>(tx::transpose(m)));
  check_result(tx::sum<0>(tx::transpose(m)), transposed, 1u, Reduction::kSum);
  check_result(tx::argmax<1>(tx::transpose(m)), transposed, 2u, Reduction::kArgMax);
}

BOOST_AUTO_TEST_CASE(element_wise_dense_strided_broadcast_and_threaded_paths) {
  auto rng = tx::testing::make_rng(904);
  for (const auto dims :
       {tx::make_dim(3, 5), tx::make_dim(1, 1), tx::make_dim(0, 4), tx::make_dim(517, 1031)}) {
    const auto a = tx::testing::random_array<float>(dims, rng);
    const auto b = tx::testing::random_array<float>(dims, rng);
    const auto bias = tx::testing::random_array<float>(tx::make_dim(dims[1]), rng);
    const auto ha = tx::testing::to_double(a), hb = tx::testing::to_double(b);
    const auto hbias = tx::testing::to_double(bias);

    tx::Array<float, 2> c;
    c = a * b + 2.0f * a;  // dense: the SIMD loop, threaded for the large shape
    tx::testing::check_close(c, tx::testing::reference(dims, [&](const auto& i) {
                               return ha[i] * hb[i] + 2.0 * ha[i];
                             }));
    c = 1.0f / (1.0f + tx::exp(-(a + bias)));  // a broadcast row, sigmoid
    tx::testing::check_close(c, tx::testing::reference(dims, [&](const auto& i) {
                               return 1.0 / (1.0 + std::exp(-(ha[i] + hbias(i[1]))));
                             }));
    tx::Array<float, 2> t(tx::make_dim(dims[1], dims[0]));
    t = tx::transpose(a) - 0.5f;  // a strided operand
    tx::testing::check_close(
        t, tx::testing::reference(t.dims(), [&](const auto& i) { return ha(i[1], i[0]) - 0.5; }));
  }
  tx::Array<std::int32_t, 1> n(tx::make_dim(1000)), k(tx::make_dim(1000)), q(tx::make_dim(1000));
  for (int i = 0; i < 1000; ++i) n(i) = i * 7 - 3000, k(i) = i % 13 + 1;
  q = n / k * k - n;  // the integer path: truncating division, then the remainder's negation
  for (int i = 0; i < 1000; ++i) BOOST_TEST(q(i) == n(i) / k(i) * k(i) - n(i));
}

BOOST_AUTO_TEST_SUITE_END()
