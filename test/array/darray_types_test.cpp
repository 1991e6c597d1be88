// DArray element types chosen by value type without narrowing (hardening issue, point 8), and
// tx::visit_floating for bodies that only compile for floating-point arrays (point 10).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>

#include <tensorx/tensorx.h>

#include "support/errors.h"

namespace tx = tensorx;

BOOST_AUTO_TEST_SUITE(darray_types)

BOOST_AUTO_TEST_CASE(make_darray_picks_a_type_that_holds_the_value) {
  const tx::DArray big = tx::make_darray(tx::make_ddim({1}), 4000000000u);
  BOOST_TEST(tx::dtype(big) == tx::DataType::kInt64);
  BOOST_TEST(static_cast<std::int64_t>(big[tx::make_ddim({0})]) == 4000000000);
  BOOST_TEST(tx::dtype(tx::make_darray(tx::make_ddim({1}), std::uint16_t{65535})) ==
             tx::DataType::kInt32);
  BOOST_TEST(tx::dtype(tx::make_darray(tx::make_ddim({1}), -5)) == tx::DataType::kInt32);
  BOOST_TEST(tx::dtype(tx::make_darray(tx::make_ddim({1}), std::int64_t{1} << 40)) ==
             tx::DataType::kInt64);
  BOOST_TEST(tx::dtype(tx::make_darray(tx::make_ddim({1}), 1.5f)) == tx::DataType::kFloat32);
}

BOOST_AUTO_TEST_CASE(visit_floating_instantiates_the_body_for_floating_point_arrays_only) {
  tx::DArray x = tx::make_darray(tx::make_ddim({3}), 1.0f);
  tx::visit_floating([](auto& a) { a = tx::exp(a); }, x);
  BOOST_TEST(std::abs(static_cast<double>(x[tx::make_ddim({2})]) - std::exp(1.0)) < 1e-6);
  tx::DArray h = tx::make_darray(tx::make_ddim({2}), tx::float16(0.0f));
  const tx::index_t count = tx::visit_floating(
      [](auto& a) {
        a = tx::exp(a);
        return a.numel();
      },
      h);
  BOOST_TEST(count == 2);
  BOOST_TEST(static_cast<double>(h[tx::make_ddim({1})]) == 1.0);
  tx::DArray ints = tx::make_darray(tx::make_ddim({2}), 3);
  BOOST_CHECK_EXCEPTION(tx::visit_floating([](auto& a) { a = tx::exp(a); }, ints), tx::TypeError,
                        tx::testing::message_has({"tx::visit_floating", "int32"}));
}

BOOST_AUTO_TEST_SUITE_END()
