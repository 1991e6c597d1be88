// tx::arange, tx::full, tx::eye and tx::linspace against plain loops: values, element types,
// broadcasting, fusion into one pass, and the errors for values they cannot take.
#include <cmath>
#include <cstdint>
#include <string>

#include <boost/test/unit_test.hpp>

#include "support/errors.h"
#include "support/reference.h"
#include "support/test_place.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using tx::testing::check_close;
using tx::testing::message_has;
using tx::testing::on_host;
using tx::testing::reference;
using tx::testing::test_place;

namespace {

template <class T, int N, class E>
tx::Array<T, N> evaluate(const E& e) {
  tx::Array<T, N> out(e.dims(), test_place());
  out = e;
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(generators)

BOOST_AUTO_TEST_CASE(arange_counts_from_start_by_step) {
  check_close(evaluate<float, 1>(tx::arange<float>(1000)),
              reference(tx::make_dim(1000), [](const auto& i) { return double(i[0]); }));
  check_close(evaluate<double, 1>(tx::arange<double>(37, -2.5, 0.25)),
              reference(tx::make_dim(37), [](const auto& i) { return -2.5 + 0.25 * i[0]; }));
  const auto integers = on_host(evaluate<std::int64_t, 1>(tx::arange<std::int64_t>(5, 10, -3)));
  for (int i = 0; i < 5; ++i) BOOST_TEST(integers(i) == 10 - 3 * i);
  const auto narrow = on_host(evaluate<tx::bfloat16, 1>(tx::arange<tx::bfloat16>(3, 1.0f, 0.5f)));
  BOOST_TEST(static_cast<float>(narrow(2)) == 2.0f);
  BOOST_TEST((evaluate<float, 1>(tx::arange<float>(0)).numel() == 0));
}

BOOST_AUTO_TEST_CASE(full_and_eye_match_their_definitions) {
  check_close(evaluate<float, 3>(tx::full<float>(tx::make_dim(2, 3, 4), 2.5f)),
              reference(tx::make_dim(2, 3, 4), [](const auto&) { return 2.5; }));
  check_close(
      evaluate<double, 2>(tx::eye<double>(4)),
      reference(tx::make_dim(4, 4), [](const auto& i) { return i[0] == i[1] ? 1.0 : 0.0; }));
  check_close(
      evaluate<std::int32_t, 2>(tx::eye<std::int32_t>(3, 5)),
      reference(tx::make_dim(3, 5), [](const auto& i) { return i[0] == i[1] ? 1.0 : 0.0; }));
  BOOST_TEST((evaluate<float, 2>(tx::eye<float>(3, 0)).numel() == 0));
}

BOOST_AUTO_TEST_CASE(linspace_includes_both_ends) {
  const auto x = on_host(evaluate<double, 1>(tx::linspace<double>(-1.0, 2.0, 7)));
  for (int i = 0; i < 7; ++i) BOOST_TEST(std::abs(x(i) - (-1.0 + 0.5 * i)) <= 1e-15);
  BOOST_TEST(x(6) == 2.0);
  const auto thirds = on_host(evaluate<float, 1>(tx::linspace<float>(0.0, 1.0, 4)));
  BOOST_TEST(thirds(1) == static_cast<float>(1.0 / 3.0));
  BOOST_TEST(thirds(3) == 1.0f);
  BOOST_TEST((on_host(evaluate<float, 1>(tx::linspace<float>(3.0, 9.0, 1)))(0) == 3.0f));
  BOOST_TEST((evaluate<float, 1>(tx::linspace<float>(3.0, 9.0, 0)).numel() == 0));
}

BOOST_AUTO_TEST_CASE(generators_broadcast_and_fuse_into_one_pass) {
  auto rng = tx::testing::make_rng(93);
  const auto m = tx::testing::random_array<float>(tx::make_dim(200, 301), rng);
  const auto hm = on_host(m);
  tx::Array<float, 2> c(m.dims(), test_place());
  const auto before = tx::stats::passes();
  // A row of column numbers, the identity and a constant, in one pass over c.
  c = m * tx::arange<float>(301) + tx::eye<float>(200, 301) -
      tx::full<float>(tx::make_dim(200, 1), 1.0f);
  BOOST_TEST(tx::stats::passes() - before == 1u);
  check_close(c, reference(m.dims(), [&](const auto& i) {
                return double(hm[i]) * i[1] + (i[0] == i[1] ? 1.0 : 0.0) - 1.0;
              }));
  // A generator alone is a pass too, and so is one under a reduction. It reads no array, so its
  // destination says where it runs.
  auto total = tx::testing::scalar_on_test_place<double>();
  total = tx::sum(tx::arange<double>(1001));
  BOOST_TEST(total.item() == 500500.0);
}

BOOST_AUTO_TEST_CASE(values_they_cannot_take_are_errors_naming_them) {
  BOOST_CHECK_EXCEPTION(tx::arange<float>(-3), tx::ShapeError, message_has({"tx::arange", "-3"}));
  BOOST_CHECK_EXCEPTION(tx::arange<float>(4, 1.0f, 0.0f), tx::ValueError,
                        message_has({"tx::arange", "nonzero step", "tx::full"}));
  BOOST_CHECK_EXCEPTION(tx::linspace<double>(0.0, 1.0, -1), tx::ShapeError,
                        message_has({"tx::linspace", "-1"}));
  BOOST_CHECK_EXCEPTION(tx::eye<float>(2, -5), tx::ShapeError, message_has({"tx::eye", "(2, -5)"}));
  BOOST_CHECK_EXCEPTION((tx::full<float>(tx::make_dim(-1, 2), 0.0f)), tx::ShapeError,
                        message_has({"tx::full", "(-1, 2)"}));
}

BOOST_AUTO_TEST_SUITE_END()
