// DArray: run-time element type and rank, the element proxy, visit, and the Majel global ops.
#include <boost/test/unit_test.hpp>

#include <sstream>
#include <type_traits>
#include <utility>

#include <tensorx/array/darray.h>
#include <tensorx/array/darray_ops.h>

#include "support/errors.h"
#include "support/random.h"

namespace tx = tensorx;

BOOST_AUTO_TEST_SUITE(darray)

BOOST_AUTO_TEST_CASE(make_darray_picks_the_element_type_from_the_value) {
  const auto dd = tx::make_ddim({2, 3});
  BOOST_TEST(tx::dtype(tx::make_darray(dd, 0.0f)) == tx::DataType::kFloat32);
  BOOST_TEST(tx::dtype(tx::make_darray(dd, 0.0)) == tx::DataType::kFloat64);
  BOOST_TEST(tx::dtype(tx::make_darray(dd, tx::float16(0.0f))) == tx::DataType::kFloat16);
  BOOST_TEST(tx::dtype(tx::make_darray(dd, 7)) == tx::DataType::kInt32);
  BOOST_TEST(tx::dtype(tx::make_darray(dd, std::int64_t{7})) == tx::DataType::kInt64);
  const auto x = tx::make_darray(tx::make_ddim({4, 1, 2}), 2.5, tx::CpuPlace());
  BOOST_TEST(tx::dims(x) == tx::make_ddim({4, 1, 2}));
  BOOST_TEST(tx::rank(x) == 3);
  BOOST_TEST(tx::numel(x) == 8);
  BOOST_TEST(tx::is_cpu_place(tx::place(x)));
  for (double v : tx::make_view(x.as<double, 3>())) BOOST_TEST(v == 2.5);
}

BOOST_AUTO_TEST_CASE(the_element_proxy_reads_and_writes_through_the_element_type) {
  tx::DArray x = tx::make_darray(tx::make_ddim({2, 3}), 0.0f);
  x[tx::make_ddim({0, 1})] = 1.0;
  x[tx::make_ddim({1, 2})] = 7;
  const double read = x[tx::make_ddim({0, 1})];
  BOOST_TEST(read == 1.0);
  BOOST_TEST((x.as<float, 2>()(1, 2) == 7.0f));
  tx::DArray ints = tx::make_darray(tx::make_ddim({3}), std::int64_t{0});
  const std::int64_t big = (std::int64_t{1} << 53) + 1;  // not representable as a double
  ints[tx::make_ddim({2})] = big;
  BOOST_TEST(ints[tx::make_ddim({2})].value<std::int64_t>() == big);
  ints[tx::make_ddim({0})] = x[tx::make_ddim({1, 2})];
  BOOST_TEST((ints.as<std::int64_t, 1>()(0) == 7));
}

BOOST_AUTO_TEST_CASE(wrong_element_types_and_ranks_throw_type_error_naming_both) {
  tx::DArray x = tx::make_darray(tx::make_ddim({2, 3}), 0.0);
  BOOST_CHECK_EXCEPTION(
      (x.as<float, 2>()), tx::TypeError,
      tx::testing::message_is(
          "expected an Array<float32, 2> but the DArray holds an Array<float64, 2>"));
  BOOST_CHECK_EXCEPTION((x.as<double, 3>()), tx::TypeError,
                        tx::testing::message_has({"Array<float64, 3>", "Array<float64, 2>"}));
  BOOST_CHECK_EXCEPTION(static_cast<double>(x[tx::make_ddim({0, 1, 2})]), tx::TypeError,
                        tx::testing::message_has({"(0, 1, 2)", "Array<float64, 2>"}));
  BOOST_CHECK_THROW(static_cast<double>(x[tx::make_ddim({2, 0})]), tx::IndexError);
  BOOST_CHECK_EXCEPTION(tx::make_darray(tx::make_ddim({1, 1, 1, 1, 1}), 0.0f), tx::TypeError,
                        tx::testing::message_has({"ranks 1 to 4", "5"}));
  tx::DArray y = tx::make_darray(tx::make_ddim({2, 3}), 0.0f);
  BOOST_CHECK_THROW(tx::copy(x, y), tx::TypeError);
  BOOST_CHECK_THROW(tx::copy(x, tx::make_darray(tx::make_ddim({6}), 0.0)), tx::TypeError);
}

BOOST_AUTO_TEST_CASE(visit_hands_the_typed_array_to_a_generic_lambda) {
  tx::DArray x = tx::make_darray(tx::make_ddim({3, 4}), std::int32_t{5});
  const auto sum = tx::visit(
      [](auto& a) {
        double total = 0;
        for (auto v : tx::make_view(a)) total += static_cast<double>(v);
        return total;
      },
      x);
  BOOST_TEST(sum == 60.0);
  // A mutable DArray hands over its own handle, so rebinding it is seen by the DArray.
  tx::visit([](auto& a) { a = a.slice(0, 1); }, x);
  BOOST_TEST(tx::dims(x) == tx::make_ddim({1, 4}));
  tx::DArray y = tx::make_darray(tx::make_ddim({1, 4}), std::int32_t{2});
  // The lambda body is instantiated for every element type and rank, so it stays generic.
  tx::visit(
      [](auto& a, auto& b) {
        auto first = tx::make_view(a).begin();
        *first = *first + *std::prev(tx::make_view(b).end());
      },
      x, y);
  BOOST_TEST((x.as<std::int32_t, 2>()(0, 0) == 7));
}

BOOST_AUTO_TEST_CASE(an_array_converts_to_a_darray_that_shares_its_buffer) {
  tx::Array<tx::float16, 4> a(tx::make_dim(1, 2, 3, 4));
  tx::DArray x = a;
  BOOST_TEST(tx::dtype(x) == tx::DataType::kFloat16);
  BOOST_TEST((x.as<tx::float16, 4>().data() == a.data()));
  std::ostringstream printed;
  printed << x;
  BOOST_TEST(printed.str() == "DArray<float16, (1, 2, 3, 4)> on CpuPlace");
}

BOOST_AUTO_TEST_CASE(copies_and_moves_rebind_the_handle_and_keep_the_typed_array) {
  // DArray's copy, move and assignment are compiled in libtensorx: each keeps the element type,
  // rank and buffer, and assignment replaces an alternative of another type and rank.
  static_assert(std::is_nothrow_move_constructible_v<tx::DArray>);
  static_assert(std::is_nothrow_move_assignable_v<tx::DArray>);
  tx::Array<double, 3> a(tx::make_dim(2, 3, 4));
  tx::Array<std::int32_t, 1> b(tx::make_dim(5));
  const tx::DArray x = a;
  tx::DArray copy = x;
  BOOST_TEST((copy.as<double, 3>().data() == a.data()));
  tx::DArray moved = std::move(copy);
  BOOST_TEST((moved.as<double, 3>().data() == a.data()));
  tx::DArray assigned = b;
  assigned = x;
  BOOST_TEST((assigned.as<double, 3>().data() == a.data()));
  assigned = tx::DArray(b);
  BOOST_TEST((assigned.as<std::int32_t, 1>().data() == b.data()));
  BOOST_TEST(tx::dims(x) == tx::make_ddim({2, 3, 4}));
}

BOOST_AUTO_TEST_CASE(global_ops_dispatch_on_type_and_rank) {
  auto z = tx::zeros<float>(tx::make_ddim({2, 6}));
  auto o = tx::ones<std::int64_t>(tx::make_ddim({12}));
  tx::fill(z, 3);
  for (float v : tx::make_view(z.as<float, 2>())) BOOST_TEST(v == 3.0f);
  for (auto v : tx::make_view(o.as<std::int64_t, 1>())) BOOST_TEST(v == 1);
  auto r = tx::reshape(z, tx::make_ddim({3, 2, 2}));
  BOOST_TEST(tx::rank(r) == 3);
  BOOST_TEST((r.as<float, 3>().data() == z.as<float, 2>().data()));
  BOOST_CHECK_THROW(tx::reshape(z, tx::make_ddim({5})), tx::ShapeError);
  auto copy = tx::to(r, tx::CpuPlace());
  r[tx::make_ddim({2, 1, 1})] = -1.0f;
  BOOST_TEST(static_cast<double>(copy[tx::make_ddim({2, 1, 1})]) == 3.0);
  tx::copy(copy, r);
  BOOST_TEST(static_cast<double>(copy[tx::make_ddim({2, 1, 1})]) == -1.0);
  BOOST_CHECK_THROW(tx::copy(copy, tx::zeros<float>(tx::make_ddim({3, 2, 1}))), tx::ShapeError);
}

BOOST_AUTO_TEST_SUITE_END()
