// Element-wise expressions over DArrays: tx::visit hands typed arrays to a generic lambda whose
// body is an ordinary expression; mismatched element types or ranks throw TypeError.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/errors.h"
#include "support/reference.h"

namespace tx = tensorx;

BOOST_AUTO_TEST_SUITE(darray_expressions)

BOOST_AUTO_TEST_CASE(a_generic_lambda_runs_for_every_element_type) {
  const auto place = tx::testing::test_place();
  auto run = [&](auto value) {
    const auto dims = tx::make_ddim({3, 4});
    tx::DArray a = tx::make_darray(dims, value, place);
    tx::DArray b = tx::make_darray(dims, value, place);
    tx::DArray c = tx::make_darray(dims, value, place);
    tx::visit([](auto& out, auto& x, auto& y) { out = x * y + 1; }, c, a, b);
    const auto host = tx::to(c, tx::CpuPlace());
    const double expected = static_cast<double>(value) * static_cast<double>(value) + 1;
    BOOST_TEST(static_cast<double>(host[tx::make_ddim({2, 3})]) == expected);
  };
  run(2.0f);
  run(2.0);
  run(tx::float16(2.0f));
  run(std::int32_t{2});
  run(std::int64_t{2});
}

BOOST_AUTO_TEST_CASE(mismatched_types_or_ranks_throw_type_error) {
  const auto place = tx::testing::test_place();
  tx::DArray f = tx::make_darray(tx::make_ddim({3, 4}), 1.0f, place);
  tx::DArray d = tx::make_darray(tx::make_ddim({3, 4}), 1.0, place);
  tx::DArray r = tx::make_darray(tx::make_ddim({12}), 1.0f, place);
  auto add = [](auto& out, auto& x) { out = out + x; };
  BOOST_CHECK_EXCEPTION(tx::visit(add, f, d), tx::TypeError,
                        tx::testing::message_has({"Array<float32, 2>", "Array<float64, 2>"}));
  BOOST_CHECK_EXCEPTION(tx::visit(add, f, r), tx::TypeError,
                        tx::testing::message_has({"Array<float32, 2>", "Array<float32, 1>"}));
}

BOOST_AUTO_TEST_SUITE_END()
