// Reductions of plain arrays run in the compiled layer (reduce/compiled_array_reduce.h): which
// ones go there; that every reducer and element type, ranks 1 to 4, on dense arrays, row ranges
// with an offset, column ranges and transposed views, with keepdims and axes of extent 1, reduces
// as plain loops in double do; that float arrays get the bits the fused loop of this unit gives
// for the same values (the same loops, instantiated once in libtensorx at rank 4), short and long,
// threaded; and that the reductions left to the unit (accumulating savers, rank 5) still reduce.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>
#include <cstring>
#include <iomanip>
#include <sstream>

#include "reduce/reduce_reference.h"

namespace tx = tensorx;
using tx::testing::check_reduction_of;
using tx::testing::random_array;
using tx::testing::Reduction;

namespace {

/// Bitwise equality of two results of one shape, reported with the first differing element.
template <class T, int N>
void check_same_bits(const tx::Array<T, N>& got, const tx::Array<T, N>& fused, const char* what) {
  BOOST_TEST_REQUIRE(got.dims() == fused.dims());
  const auto a = tx::testing::on_host(got);
  const auto b = tx::testing::on_host(fused);
  const auto b_view = tx::make_view(b);
  auto fused_element = b_view.begin();
  tx::index_t bad = 0, position = 0;
  std::ostringstream first;
  first << std::setprecision(17);
  for (const T x : tx::make_view(a)) {
    const T y = *fused_element++;
    if (std::memcmp(&x, &y, sizeof(T)) != 0 && bad++ == 0) {
      first << "at flat position " << position << ": " << static_cast<double>(x) << " against "
            << static_cast<double>(y);
    }
    ++position;
  }
  BOOST_TEST(bad == 0,
             what << ": " << bad << " results differ from the fused loop's; first " << first.str());
}

/// `reduce` (a generic lambda taking an expression) of the plain array x, checked against the
/// reference; with kFused, also of x times an array of ones, the same values through the fused
/// loop of this unit, which must give the same bits. (Each fused form is an engine instantiated
/// here: they are kept to the float cases, which cover the loops' every path.)
template <bool kFused, class F, class T, int N>
void check_reduction(const tx::Array<T, N>& x, unsigned mask, Reduction kind, F reduce,
                     const char* what) {
  const auto plain = reduce(x);
  check_reduction_of(plain, tx::testing::to_double(x), mask, kind);
  if constexpr (kFused) {
    using R = typename decltype(plain)::value_type;
    constexpr int M = decltype(plain)::rank;
    tx::Array<R, M> got, fused;
    if constexpr (M == 0) {
      got = tx::testing::scalar_on_test_place<R>();
      fused = tx::testing::scalar_on_test_place<R>();
    }
    got = plain;
    fused = reduce(x * tx::ones<T>(x.dims(), x.place()));
    check_same_bits(got, fused, what);
  }
}

/// Along Axis of x: sum, max with keepdims and argmax against the fused loop (with the sum and max
/// of every axis); the other reducers against the reference only.
template <int Axis, bool kFused, class T, int N>
void check_every_reducer_of(const tx::Array<T, N>& x) {
  constexpr unsigned mask = 1u << Axis;
  constexpr unsigned all = (1u << N) - 1u;
  check_reduction<kFused>(
      x, mask, Reduction::kSum, [](const auto& e) { return tx::sum<Axis>(e); }, "sum");
  check_reduction<kFused>(
      x, mask, Reduction::kMax, [](const auto& e) { return tx::max<Axis>(e, tx::keepdims); },
      "max, keepdims");
  check_reduction<kFused>(
      x, mask, Reduction::kArgMax, [](const auto& e) { return tx::argmax<Axis>(e); }, "argmax");
  check_reduction<kFused>(
      x, all, Reduction::kSum, [](const auto& e) { return tx::sum(e); }, "sum of every axis");
  check_reduction<kFused>(
      x, all, Reduction::kMax, [](const auto& e) { return tx::max(e, tx::keepdims); },
      "max of every axis, keepdims");
  check_reduction<false>(
      x, mask, Reduction::kMin, [](const auto& e) { return tx::min<Axis>(e); }, "min");
  check_reduction<false>(
      x, mask, Reduction::kProd, [](const auto& e) { return tx::prod<Axis>(e); }, "prod");
  check_reduction<false>(
      x, mask, Reduction::kArgMin, [](const auto& e) { return tx::argmin<Axis>(e, tx::keepdims); },
      "argmin, keepdims");
  if constexpr (!std::is_integral_v<T>) {
    check_reduction<false>(
        x, mask, Reduction::kMean, [](const auto& e) { return tx::mean<Axis>(e); }, "mean");
  }
}

/// A random rank-N array of T with extents in [1, 9] (values near 1, so that products stay in
/// range), and views of it: rows 1 .. of axis 0 (an offset), a range of the last axis (strided)
/// and the axes reversed (transposed strides); each reduced along its first and last axes (and
/// against the fused loop for kFused).
template <class T, int N, bool kFused = false>
void check_views_of_rank(std::mt19937_64& rng) {
  auto dims = tx::testing::random_dim<N>(rng, 1, 9);
  dims[0] += 1;
  dims[N - 1] += 2;
  const auto a = random_array<T>(dims, rng, 0.5, 1.5);
  tx::Dim<N> reversed;
  for (int i = 0; i < N; ++i) reversed[i] = N - 1 - i;
  const tx::Array<T, N> views[] = {a, a.slice(1, dims[0]), tx::slice(a, N - 1, 1, dims[N - 1]),
                                   tx::detail::permuted_view(a, reversed)};
  for (const auto& x : views) {
    check_every_reducer_of<0, kFused>(x);
    if constexpr (N > 1) check_every_reducer_of<N - 1, kFused>(x);
  }
}

template <class T>
void check_every_rank(std::mt19937_64& rng) {
  check_views_of_rank<T, 1>(rng);
  check_views_of_rank<T, 2>(rng);
  check_views_of_rank<T, 3>(rng);
  check_views_of_rank<T, 4>(rng);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compiled_layer)

BOOST_AUTO_TEST_CASE(plain_array_reductions_written_as_their_result_type_go_there) {
  using tx::detail::runs_in_compiled_layer;
  using A = tx::Array<float, 2>;
  constexpr bool kMatch = tx::detail::cpu_loops_match_compiled_layer();
#if defined(__x86_64__) && !defined(__AVX__) && !defined(__CUDACC__)
  // The tests are built for x86-64's baseline, as libtensorx is.
  static_assert(kMatch, "an SSE2 translation unit's loops are the compiled layer's");
#endif
  static_assert(runs_in_compiled_layer<tx::op::sum_reducer, tx::saver::write, float, A>() ==
                kMatch);
  static_assert(runs_in_compiled_layer<tx::op::argmax_reducer, tx::saver::write, std::int64_t,
                                       tx::Array<tx::bfloat16, 4>>() == kMatch);
  // Not a plain array, an accumulating saver, rank 5, another result type, mean of integers.
  using Product = decltype(std::declval<A>() * std::declval<A>());
  static_assert(!runs_in_compiled_layer<tx::op::sum_reducer, tx::saver::write, float, Product>());
  static_assert(!runs_in_compiled_layer<tx::op::sum_reducer, tx::saver::add, float, A>());
  static_assert(
      !runs_in_compiled_layer<tx::op::sum_reducer, tx::saver::write, float, tx::Array<float, 5>>());
  static_assert(!runs_in_compiled_layer<tx::op::sum_reducer, tx::saver::write, double, A>());
  static_assert(!runs_in_compiled_layer<tx::op::mean_reducer, tx::saver::write, std::int32_t,
                                        tx::Array<std::int32_t, 2>>());
  BOOST_TEST(kMatch == tx::detail::cpu_loops_match_compiled_layer());
}

BOOST_AUTO_TEST_CASE(float_views_of_ranks_2_and_4_give_the_fused_loops_bits) {
  auto rng = tx::testing::make_rng(71);
  for (int trial = 0; trial < 3; ++trial) {
    check_views_of_rank<float, 2, true>(rng);
    check_views_of_rank<float, 4, true>(rng);
  }
}

BOOST_AUTO_TEST_CASE(views_of_every_rank_and_element_type) {
  auto rng = tx::testing::make_rng(72);
  check_every_rank<float>(rng);
  check_every_rank<double>(rng);
  check_every_rank<tx::float16>(rng);
  check_every_rank<tx::bfloat16>(rng);
  check_every_rank<std::int32_t>(rng);
  check_every_rank<std::int64_t>(rng);
}

BOOST_AUTO_TEST_CASE(long_rows_and_columns_take_the_threaded_paths_with_the_same_bits) {
  auto rng = tx::testing::make_rng(73);
  for (const auto dims : {tx::make_dim(3, 70001), tx::make_dim(70001, 3), tx::make_dim(1, 1)}) {
    const auto a = random_array<float>(dims, rng);
    check_every_reducer_of<0, true>(a);
    check_every_reducer_of<1, true>(a);
    check_every_reducer_of<1, true>(tx::detail::permuted_view(a, tx::make_dim(1, 0)));
  }
}

BOOST_AUTO_TEST_CASE(reductions_left_to_the_translation_unit_still_reduce) {
  auto rng = tx::testing::make_rng(74);
  // An accumulating saver: r += sum<1>(m).
  const auto m = random_array<float>(tx::make_dim(7, 12), rng);
  const auto values = tx::testing::to_double(m);
  auto r = random_array<float>(tx::make_dim(7), rng);
  const auto before = tx::testing::to_double(r);
  r += tx::sum<1>(m);
  tx::Array<double, 2> scale;
  const auto sums = tx::testing::reference_reduce(values, 2u, Reduction::kSum, scale);
  const auto host = tx::testing::on_host(r);
  for (tx::index_t i = 0; i < 7; ++i) {
    BOOST_TEST(static_cast<double>(host(i)) == before(i) + sums(i, 0),
               boost::test_tools::tolerance(1e-5));
  }
  // Rank 5, beyond the compiled layer's rank.
  const auto five = random_array<double>(tx::make_dim(2, 3, 1, 4, 5), rng);
  check_reduction_of(tx::sum<1, 3>(five), tx::testing::to_double(five), 10u, Reduction::kSum);
  check_reduction_of(tx::argmax<4>(five), tx::testing::to_double(five), 16u, Reduction::kArgMax);
}

BOOST_AUTO_TEST_SUITE_END()
