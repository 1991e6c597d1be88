// DArray element types chosen by value type without narrowing (hardening issue, point 8), and
// tx::visit_floating for bodies that only compile for floating-point arrays (point 10).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <sstream>

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
  BOOST_TEST(tx::dtype(tx::make_darray(tx::make_ddim({1}), tx::bfloat16(1.5f))) ==
             tx::DataType::kBFloat16);
}

BOOST_AUTO_TEST_CASE(bfloat16_darrays_hold_every_rank_and_convert_their_elements) {
  tx::DArray x = tx::make_darray(tx::make_ddim({2, 3, 4, 5}), tx::bfloat16(0.5f));
  BOOST_TEST(tx::dtype(x) == tx::DataType::kBFloat16);
  BOOST_TEST(tx::rank(x) == 4);
  x[tx::make_ddim({1, 2, 3, 4})] = 1.0 / 3.0;  // rounded once to bfloat16: 0x3eab
  const auto typed = x.as<tx::bfloat16, 4>();
  BOOST_TEST(typed(1, 2, 3, 4).bits() == 0x3eab);
  BOOST_TEST(static_cast<double>(x[tx::make_ddim({0, 0, 0, 0})]) == 0.5);
  std::ostringstream printed;
  printed << tx::make_darray(tx::make_ddim({3}), tx::bfloat16(1.0f));
  BOOST_TEST(printed.str() == "DArray<bfloat16, (3)> on CpuPlace");
  BOOST_CHECK_EXCEPTION((x.as<tx::float16, 4>()), tx::TypeError,
                        tx::testing::message_has({"Array<float16, 4>", "Array<bfloat16, 4>"}));
  tx::visit_floating([](auto& a) { a = a * 2.0f; }, x);
  BOOST_TEST(static_cast<double>(x[tx::make_ddim({1, 1, 1, 1})]) == 1.0);
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
