// The DArray forms: axes chosen at run time, every element type and rank 1 to 4, keepdims, every
// axis (extent (1), since a DArray has no rank 0), and the errors for bad axes and for the mean of
// integers.
#include <boost/test/unit_test.hpp>

#include <cstdint>

#include <tensorx/tensorx.h>

#include "reduce/reduce_reference.h"
#include "support/errors.h"

namespace tx = tensorx;
using tx::testing::Reduction;

namespace {

/// `x` (a DArray of rank N) as an array of doubles on the host.
template <int N>
tx::Array<double, N> darray_values(const tx::DArray& x) {
  return tx::visit(
      [](auto& a) -> tx::Array<double, N> {
        using A = std::decay_t<decltype(a)>;
        if constexpr (A::rank == N) {
          return tx::testing::to_double(a);
        } else {
          throw tx::TypeError("unexpected rank");
        }
      },
      x);
}

/// Checks the DArray `result` (rank M) against the reference of `kind` over `mask` of `values`.
template <int M, int N>
void check_darray(const tx::DArray& result, const tx::Array<double, N>& values, unsigned mask,
                  Reduction kind) {
  BOOST_TEST_REQUIRE(tx::rank(result) == M);
  tx::Array<double, N> scale;
  const auto expected = tx::testing::reference_reduce(values, mask, kind, scale);
  tx::visit(
      [&](auto& a) {
        using A = std::decay_t<decltype(a)>;
        if constexpr (A::rank == M) {
          tx::testing::check_reduction<typename A::value_type>(a, expected, scale, mask);
        }
      },
      result);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(darray_reduce)

BOOST_AUTO_TEST_CASE(run_time_axes_of_every_rank_and_element_type) {
  const auto place = tx::testing::test_place();
  auto rng = tx::testing::make_rng(71);
  const auto a = tx::testing::random_array<float>(tx::make_dim(4, 5, 6), rng);
  const tx::DArray x = a;
  const auto values = tx::testing::to_double(a);
  check_darray<1>(tx::sum(x, {0, 2}), values, 5u, Reduction::kSum);
  check_darray<3>(tx::sum(x, {0, -1}, tx::keepdims), values, 5u, Reduction::kSum);
  check_darray<2>(tx::mean(x, {1}), values, 2u, Reduction::kMean);
  check_darray<2>(tx::max(x, {2}), values, 4u, Reduction::kMax);
  check_darray<3>(tx::min(x, {0}, tx::keepdims), values, 1u, Reduction::kMin);
  check_darray<2>(tx::prod(x, {1}), values, 2u, Reduction::kProd);
  check_darray<2>(tx::argmax(x, 1), values, 2u, Reduction::kArgMax);
  check_darray<3>(tx::argmin(x, -1, tx::keepdims), values, 4u, Reduction::kArgMin);
  check_darray<1>(tx::sum(x), values, 7u, Reduction::kSum);
  check_darray<3>(tx::sum(x, {}), values, 0u, Reduction::kSum);
  // One axis as a number, as argmax takes it; a braced list is still a list of axes.
  check_darray<2>(tx::sum(x, 1), values, 2u, Reduction::kSum);
  check_darray<3>(tx::mean(x, -1, tx::keepdims), values, 4u, Reduction::kMean);
  check_darray<2>(tx::max(x, std::int64_t{0}), values, 1u, Reduction::kMax);
  check_darray<2>(tx::min(x, 2), values, 4u, Reduction::kMin);
  check_darray<3>(tx::prod(x, 1, tx::keepdims), values, 2u, Reduction::kProd);
  check_darray<2>(tx::sum(x, {2}), values, 4u, Reduction::kSum);
  BOOST_TEST(tx::dims(tx::max(x)) == tx::make_ddim({1}));
  BOOST_TEST(tx::dtype(tx::argmax(x, 0)) == tx::DataType::kInt64);

  // A transposed view is copied densely first; every element type and rank runs.
  const tx::DArray t = tx::Array<float, 3>(tx::permute(a, tx::make_dim(2, 0, 1)).array());
  check_darray<2>(
      tx::sum(t, {1}),
      tx::testing::to_double(tx::Array<float, 3>(tx::permute(a, tx::make_dim(2, 0, 1)).array())),
      2u, Reduction::kSum);
  auto each_type = [&](auto value) {
    const tx::DArray ones = tx::make_darray(tx::make_ddim({3, 2, 2, 5}), value, place);
    const tx::DArray total = tx::sum(ones, {0, 3});
    BOOST_TEST(tx::dims(total) == tx::make_ddim({2, 2}));
    BOOST_TEST(static_cast<double>(tx::to(total, tx::CpuPlace())[tx::make_ddim({1, 1})]) ==
               15.0 * static_cast<double>(value));
    BOOST_TEST(tx::dtype(total) == tx::dtype(ones));
  };
  each_type(2.0f);
  each_type(2.0);
  each_type(tx::float16(2.0f));
  each_type(tx::bfloat16(2.0f));
  each_type(std::int32_t{2});
  each_type(std::int64_t{2});
}

BOOST_AUTO_TEST_CASE(bad_axes_and_element_types_throw) {
  const tx::DArray x = tx::make_darray(tx::make_ddim({2, 3}), 1.0f, tx::testing::test_place());
  BOOST_CHECK_EXCEPTION(tx::sum(x, {2}), tx::ShapeError,
                        tx::testing::message_is("axis 2 is out of range for a DArray of shape "
                                                "(2, 3) (axes are -2 to 1)"));
  BOOST_CHECK_EXCEPTION(tx::max(x, {-3}), tx::ShapeError, tx::testing::message_has({"axis -3"}));
  BOOST_CHECK_EXCEPTION(tx::sum(x, {1, -1}), tx::ShapeError,
                        tx::testing::message_has({"axis -1 appears twice", "(2, 3)"}));
  BOOST_CHECK_EXCEPTION(tx::argmax(x, 5), tx::ShapeError, tx::testing::message_has({"axis 5"}));
  BOOST_CHECK_EXCEPTION(tx::sum(x, -3), tx::ShapeError, tx::testing::message_has({"axis -3"}));
  const tx::DArray integers = tx::make_darray(tx::make_ddim({2, 3}), 1, tx::testing::test_place());
  BOOST_CHECK_EXCEPTION(tx::mean(integers, {0}), tx::TypeError,
                        tx::testing::message_has({"tx::mean", "int32"}));
  const tx::DArray empty = tx::make_darray(tx::make_ddim({2, 0}), 1.0, tx::testing::test_place());
  BOOST_CHECK_EXCEPTION(tx::min(empty, {1}), tx::ShapeError,
                        tx::testing::message_has({"tx::min", "(2, 0)"}));
  BOOST_TEST(
      static_cast<double>(tx::to(tx::prod(empty, {1}), tx::CpuPlace())[tx::make_ddim({0})]) == 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
