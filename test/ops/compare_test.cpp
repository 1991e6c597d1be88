// Comparisons (== != < <= > >=) and tx::where on expressions of every layout, numbers and SIMD
// batches: comparisons give 1 or 0 in the operands' element type, where picks by nonzero.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "ops/elementwise_check.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using tx::testing::check_binary;
using tx::testing::check_numbers;
using tx::testing::check_ternary;
using tx::testing::Values;

namespace {

using ElementTypes = boost::mpl::list<float, double, tx::float16, tx::bfloat16, std::int32_t>;

// Levels in steps of 0.5 (or 1 for integers) make equal operands frequent.
template <class T>
Values<T> levels() {
  return std::is_integral_v<T> ? Values<T>(-3.0, 3.0, 1.0) : Values<T>(-1.5, 1.5, 0.5);
}

// The operator on expressions, and its functor on numbers and batches.
template <class T, class Operator, class Functor, class Reference>
void check_comparison(const std::string& name, Operator apply, Functor functor, Reference reference,
                      std::mt19937_64& rng) {
  check_binary(name, apply, reference, levels<T>(), levels<T>(), rng);
  check_numbers(name, functor, reference, rng, levels<T>(), levels<T>());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ops_compare)

BOOST_AUTO_TEST_CASE_TEMPLATE(comparisons_give_one_or_zero, T, ElementTypes) {
  auto rng = tx::testing::make_rng(201);
  check_comparison<T>(
      "==", [](const auto& a, const auto& b) { return a == b; }, tx::op::equal{},
      [](double a, double b) { return a == b ? 1.0 : 0.0; }, rng);
  check_comparison<T>(
      "!=", [](const auto& a, const auto& b) { return a != b; }, tx::op::not_equal{},
      [](double a, double b) { return a != b ? 1.0 : 0.0; }, rng);
  check_comparison<T>(
      "<", [](const auto& a, const auto& b) { return a < b; }, tx::op::less{},
      [](double a, double b) { return a < b ? 1.0 : 0.0; }, rng);
  check_comparison<T>(
      "<=", [](const auto& a, const auto& b) { return a <= b; }, tx::op::less_equal{},
      [](double a, double b) { return a <= b ? 1.0 : 0.0; }, rng);
  check_comparison<T>(
      ">", [](const auto& a, const auto& b) { return a > b; }, tx::op::greater{},
      [](double a, double b) { return a > b ? 1.0 : 0.0; }, rng);
  check_comparison<T>(
      ">=", [](const auto& a, const auto& b) { return a >= b; }, tx::op::greater_equal{},
      [](double a, double b) { return a >= b ? 1.0 : 0.0; }, rng);
}

BOOST_AUTO_TEST_CASE(a_comparison_with_nan_is_false_except_not_equal) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  tx::Array<float, 1> host(tx::make_dim(3));
  host(0) = nan;
  host(1) = 1.0f;
  host(2) = -std::numeric_limits<float>::infinity();
  const auto x = tx::testing::on_test_place(host);
  const auto values = [](const tx::Array<float, 1>& result) {
    const auto h = tx::testing::on_host(result);
    return std::vector<float>{h(0), h(1), h(2)};
  };
  BOOST_TEST(values(x == x) == (std::vector<float>{0, 1, 1}), boost::test_tools::per_element());
  BOOST_TEST(values(x != x) == (std::vector<float>{1, 0, 0}), boost::test_tools::per_element());
  BOOST_TEST(values(x < nan) == (std::vector<float>{0, 0, 0}), boost::test_tools::per_element());
  BOOST_TEST(values(x >= 0.0f) == (std::vector<float>{0, 1, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(comparisons_keep_the_element_type_and_fuse) {
  const tx::Array<tx::float16, 2> h(tx::make_dim(2, 3));
  static_assert(std::is_same_v<decltype(h > 0.5)::value_type, tx::float16>);
  static_assert(std::is_same_v<decltype(2 <= tx::Array<int, 1>())::value_type, int>);
  auto rng = tx::testing::make_rng(202);
  const auto a = Values<float>(-1.0, 1.0).array(tx::make_dim(300, 450), rng);
  tx::Array<float, 2> mask(a.dims(), tx::testing::test_place());
  const auto before = tx::stats::passes();
  mask = (a > 0.0f) * (a < 0.5f) + (a == 0.0f);
  BOOST_TEST(tx::stats::passes() == before + 1);
  tx::testing::check_close(
      "a band mask", mask,
      tx::testing::reference_values(
          a.dims(), [](double v) { return (v > 0 && v < 0.5) || v == 0 ? 1.0 : 0.0; },
          tx::testing::on_host(a)));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(where_picks_by_nonzero_condition, T, ElementTypes) {
  auto rng = tx::testing::make_rng(203);
  // Conditions from -1.5 to 1.5 in steps of 0.5 (integers -3 to 3): zero about one time in six.
  const auto where = [](const auto& c, const auto& a, const auto& b) { return tx::where(c, a, b); };
  const auto reference = [](double c, double a, double b) { return c != 0 ? a : b; };
  check_ternary("where", where, reference, levels<T>(), Values<T>(-9.0, 9.0), Values<T>(-9.0, 9.0),
                rng);
  check_numbers("where", where, reference, rng, levels<T>(), Values<T>(-9.0, 9.0),
                Values<T>(-9.0, 9.0));
}

BOOST_AUTO_TEST_CASE(where_takes_a_comparison_as_in_the_design) {
  auto rng = tx::testing::make_rng(204);
  for (const auto dims : {tx::make_dim(17, 33), tx::make_dim(400, 400)}) {
    const auto a = Values<float>(-2.0, 2.0, 0.25).array(dims, rng);
    tx::Array<float, 2> c;
    c = tx::where(a > 0.0f, a, 0.1f * a);
    tx::testing::check_close(
        "leaky relu through where", c,
        tx::testing::reference_values(
            dims, [](double v) { return v > 0 ? v : 0.1 * v; }, tx::testing::on_host(a)));
  }
  // NaN is nonzero: it selects the first branch, on numbers and in expressions alike.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  BOOST_TEST(tx::where(nan, 1.0f, 2.0f) == 1.0f);
  tx::Array<float, 1> host(tx::make_dim(1));
  host(0) = nan;
  const tx::Array<float, 1> picked = tx::where(tx::testing::on_test_place(host), 1.0f, 2.0f);
  BOOST_TEST(tx::testing::on_host(picked)(0) == 1.0f);
}

BOOST_AUTO_TEST_CASE(narrow_float_scalars_are_numbers_like_any_other) {
  // A float16 or bfloat16 scalar joins expressions, comparisons and math functions, and is
  // assigned and compound-assigned, as a float or an int is.
  auto rng = tx::testing::make_rng(203);
  const auto source = Values<float>(-2.0, 2.0).array(tx::make_dim(4, 6), rng);
  const tx::Array<tx::bfloat16, 2> h = tx::cast<tx::bfloat16>(source);
  const auto values = tx::testing::on_host(tx::Array<float, 2>(tx::cast<float>(h)));
  tx::Array<tx::bfloat16, 2> r(h.dims(), tx::testing::test_place());
  r = h * tx::bfloat16(2.0f) + tx::bfloat16(0.5f) * (h > tx::bfloat16(0.25f)) -
      tx::maximum(h, tx::bfloat16(0.0f));
  tx::testing::check_close(
      "bfloat16 scalars", r,
      tx::testing::reference_values(
          h.dims(),
          [](double v) { return 2 * v + 0.5 * (v > 0.25 ? 1.0 : 0.0) - std::max(v, 0.0); },
          values));
  r = tx::bfloat16(0.25f);
  r += tx::float16(1.0f);
  r.slice(0, 1) = tx::bfloat16(3.0f);
  const auto assigned = tx::testing::on_host(tx::Array<float, 2>(tx::cast<float>(r)));
  BOOST_TEST(assigned(0, 5) == 3.0f);
  BOOST_TEST(assigned(3, 0) == 1.25f);
  tx::Array<float, 2> f(h.dims(), tx::testing::test_place());
  f = source * tx::float16(0.5f);
  BOOST_TEST(tx::testing::on_host(f)(1, 2) == 0.5f * tx::testing::on_host(source)(1, 2));
}

BOOST_AUTO_TEST_SUITE_END()
