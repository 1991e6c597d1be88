// The assignment: one fused pass per statement, every OpReq and compound operator, allocation of
// unallocated destinations, and the checks that run before any work.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/errors.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::testing::check_close;
using tx::testing::random_array;
using tx::testing::read_broadcast;
using tx::testing::reference;

namespace {

// The triad c = a * b + 2 * d on one random shape of rank N, element type T.
template <class T, int N>
void check_triad(std::mt19937_64& rng) {
  const auto dims = tx::testing::random_dim<N>(rng, 1, 9);
  auto a = random_array<T>(dims, rng), b = random_array<T>(dims, rng),
       d = random_array<T>(dims, rng);
  tx::Array<T, N> c(dims, tx::testing::test_place());
  const auto before = tx::stats::passes();
  c = a * b + 2.0 * d;
  BOOST_TEST(tx::stats::passes() - before == 1u);
  const auto ha = tx::testing::on_host(a), hb = tx::testing::on_host(b),
             hd = tx::testing::on_host(d);
  check_close(c, reference(dims, [&](const auto& i) {
                return read_broadcast(ha, i) * read_broadcast(hb, i) + 2.0 * read_broadcast(hd, i);
              }));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(assign)

BOOST_AUTO_TEST_CASE(one_assignment_is_one_pass_on_random_shapes_and_types) {
  auto rng = tx::testing::make_rng(11);
  for (int trial = 0; trial < 4; ++trial) {
    check_triad<float, 1>(rng);
    check_triad<float, 2>(rng);
    check_triad<double, 3>(rng);
    check_triad<float, 4>(rng);
    check_triad<tx::float16, 2>(rng);
    check_triad<tx::bfloat16, 2>(rng);
    check_triad<tx::bfloat16, 3>(rng);
    check_triad<std::int32_t, 3>(rng);
    check_triad<std::int64_t, 1>(rng);
  }
}

BOOST_AUTO_TEST_CASE(large_arrays_take_the_threaded_and_vectorised_paths) {
  auto rng = tx::testing::make_rng(12);
  for (const auto dims : {tx::make_dim(517, 263), tx::make_dim(1, 300001)}) {
    auto a = random_array<float>(dims, rng), b = random_array<float>(dims, rng);
    tx::Array<float, 2> c;
    c = a - b * a;
    const auto ha = tx::testing::on_host(a), hb = tx::testing::on_host(b);
    check_close(c, reference(dims, [&](const auto& i) {
                  return static_cast<double>(ha[i]) -
                         static_cast<double>(hb[i]) * static_cast<double>(ha[i]);
                }));
  }
}

BOOST_AUTO_TEST_CASE(every_op_req_and_compound_operator) {
  auto rng = tx::testing::make_rng(13);
  const auto dims = tx::make_dim(7, 5);
  auto a = random_array<double>(dims, rng), b = random_array<double>(dims, rng, 1.0, 2.0);
  const auto ha = tx::testing::on_host(a), hb = tx::testing::on_host(b);
  auto expect = [&](auto f) {
    return reference(dims, [&](const auto& i) { return f(ha[i], hb[i]); });
  };
  tx::Array<double, 2> c(dims, tx::testing::test_place());
  c = a;  // aliases: c is now a handle to a's buffer
  BOOST_TEST(c.data() == a.data());
  c = tx::Array<double, 2>(dims, tx::testing::test_place());

  tx::assign(c, a + b, tx::OpReq::kWriteTo);
  check_close(c, expect([](double x, double y) { return x + y; }));
  tx::assign(c, a * b, tx::OpReq::kNullOp);
  check_close(c, expect([](double x, double y) { return x + y; }));
  tx::assign(c, a * b, tx::OpReq::kAddTo);
  check_close(c, expect([](double x, double y) { return x + y + x * y; }));
  tx::assign(c, b - a, tx::OpReq::kWriteInplace);
  check_close(c, expect([](double x, double y) { return y - x; }));
  c += a;
  check_close(c, expect([](double, double y) { return y; }));
  c -= 0.5;
  c *= b;
  c /= a + 3.0;
  check_close(c, expect([](double x, double y) { return (y - 0.5) * y / (x + 3.0); }));
  c = 4.0;
  check_close(c, expect([](double, double) { return 4.0; }));
}

BOOST_AUTO_TEST_CASE(an_unallocated_destination_takes_the_shape_and_place_of_the_operands) {
  auto rng = tx::testing::make_rng(14);
  auto a = random_array<float>(tx::make_dim(3, 1, 4), rng);
  auto b = random_array<float>(tx::make_dim(2, 1), rng);
  tx::Array<float, 3> c;
  c = a + b;
  BOOST_TEST(c.dims() == tx::make_dim(3, 2, 4));
  BOOST_TEST(c.place() == tx::testing::test_place());
  tx::Array<float, 3> d = a * 2.0f;
  BOOST_TEST(d.dims() == a.dims());
  tx::Array<float, 2> e;
  BOOST_CHECK_EXCEPTION(e += b, tx::ShapeError, tx::testing::message_has({"unallocated"}));
  BOOST_CHECK_EXCEPTION(e = 1.0f, tx::ShapeError, tx::testing::message_has({"unallocated"}));
}

BOOST_AUTO_TEST_CASE(a_shape_mismatch_throws_before_anything_is_written) {
  auto rng = tx::testing::make_rng(15);
  auto a = random_array<float>(tx::make_dim(4, 3), rng);
  auto c = tx::testing::zeros_on_test_place<float>(tx::make_dim(3, 4));
  const auto before = tx::stats::passes();
  BOOST_CHECK_EXCEPTION(
      c = a + 1.0f, tx::ShapeError,
      tx::testing::message_is(
          "cannot assign an expression of shape (4, 3) to an array of shape (3, 4)"));
  auto b = random_array<float>(tx::make_dim(4, 2), rng);
  BOOST_CHECK_EXCEPTION(
      c = a + b, tx::ShapeError,
      tx::testing::message_is("cannot broadcast shapes (4, 3) and (4, 2) together"));
  BOOST_TEST(tx::stats::passes() == before);
  check_close(c, reference(tx::make_dim(3, 4), [](const auto&) { return 0.0; }));
}

BOOST_AUTO_TEST_CASE(strided_destinations_are_written_through_their_strides) {
  auto rng = tx::testing::make_rng(16);
  auto a = random_array<float>(tx::make_dim(6, 4), rng);
  auto big = tx::testing::zeros_on_test_place<float>(tx::make_dim(10, 6));
  // The destination: rows 2..5 of big, transposed, i.e. a (6, 4) view with strides (1, 6).
  auto window = big.slice(2, 6);
  tx::transpose(window) = a * 3.0f;
  const auto ha = tx::testing::on_host(a);
  check_close(big, reference(tx::make_dim(10, 6), [&](const auto& i) {
                return i[0] >= 2 && i[0] < 6 ? 3.0 * ha(i[1], i[0] - 2) : 0.0;
              }));
}

BOOST_AUTO_TEST_CASE(dense_views_with_an_inner_extent_of_one_are_read_as_one_flat_row) {
  // A transposed row is dense (element i at data[i]) with an inner stride of its length: the
  // engine walks it as one row read through flat(), in chunks past kParallelGrain elements.
  auto rng = tx::testing::make_rng(19);
  for (const tx::index_t length : {tx::index_t{37}, tx::index_t{300001}}) {
    const auto dims = tx::make_dim(1, length);
    auto a = random_array<float>(dims, rng), b = random_array<float>(dims, rng);
    auto c = tx::testing::zeros_on_test_place<float>(dims);
    tx::transpose(c) = tx::transpose(a) * 2.0f + tx::transpose(b);
    const auto ha = tx::testing::on_host(a), hb = tx::testing::on_host(b);
    check_close(c, reference(dims, [&](const auto& i) {
                  return 2.0 * static_cast<double>(ha[i]) + static_cast<double>(hb[i]);
                }));
  }
}

BOOST_AUTO_TEST_CASE(empty_and_size_one_dimensions) {
  auto rng = tx::testing::make_rng(17);
  auto e = random_array<float>(tx::make_dim(0, 5), rng);
  tx::Array<float, 2> c;
  const auto before = tx::stats::passes();
  c = e * 2.0f;
  BOOST_TEST(c.dims() == tx::make_dim(0, 5));
  BOOST_TEST(tx::stats::passes() == before);
  auto one = random_array<double>(tx::make_dim(1, 1, 1), rng);
  tx::Array<double, 3> r = one - 1.0;
  check_close(r, reference(tx::make_dim(1, 1, 1),
                           [&](const auto& i) { return tx::testing::on_host(one)[i] - 1.0; }));
  auto s = tx::testing::scalar_on_test_place<double>();  // a default rank-0 array is on the CPU
  s = tx::testing::zeros_on_test_place<double>(tx::Dim<0>()) * 0.0 + 2.5;
  BOOST_TEST(s.item() == 2.5);
}

BOOST_AUTO_TEST_CASE(an_expression_kept_past_its_statement_still_owns_its_operands) {
  auto rng = tx::testing::make_rng(18);
  const auto dims = tx::make_dim(33);
  auto make = [&] {
    auto temporary = random_array<float>(dims, rng);
    return std::make_pair(temporary + 2.0f, tx::testing::on_host(temporary));
  };
  // Not a structured binding: lambdas capturing one need C++20, and nvcc rejects them in C++17.
  const auto made = make();
  const auto& expression = made.first;
  const auto& host_copy = made.second;
  tx::Array<float, 1> out = expression;
  check_close(out, reference(dims, [&](const auto& i) { return host_copy[i] + 2.0; }));
}

BOOST_AUTO_TEST_CASE(scalars_take_the_element_type_of_the_expression) {
  tx::Array<float, 1> a(tx::make_dim(3));
  static_assert(std::is_same_v<decltype(2.0 * a)::value_type, float>);
  static_assert(std::is_same_v<decltype(a / 3)::value_type, float>);
  tx::Array<std::int32_t, 1> i(tx::make_dim(3));
  static_assert(std::is_same_v<decltype(i * 2.7)::value_type, std::int32_t>);
}

#if defined(TENSORX_TEST_ON_GPU)
BOOST_AUTO_TEST_CASE(operands_on_another_place_throw_place_error) {
  auto host = tx::zeros<float>(tx::make_dim(4));
  tx::Array<float, 1> gpu(tx::make_dim(4), tx::CudaPlace(0));
  BOOST_CHECK_EXCEPTION(gpu = host + 1.0f, tx::PlaceError,
                        tx::testing::message_has({"CpuPlace", "CudaPlace(0)"}));
}
#endif

BOOST_AUTO_TEST_SUITE_END()
