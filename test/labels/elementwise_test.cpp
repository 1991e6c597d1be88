// Labelled element-wise assignments: every label of the right side is on the left, so the
// operands are strided views permuted and broadcast by label and the whole right side is ONE pass
// over the left side; a repeated label reads a diagonal. Checked against plain loops in double.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "labels/einsum_reference.h"
#include "labels/pass_counts.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::passes_without_gemm;
using tx::testing::random_array;
using tx::testing::reference;

namespace {

template <class T>
void check_permuted_sum(std::mt19937_64& rng) {
  const auto d = tx::testing::random_dim<3>(rng, 1, 9);
  const auto a = random_array<T>(tx::make_dim(d[2], d[1], d[0]), rng);
  const auto b = random_array<T>(d, rng);
  tx::Array<T, 3> c;
  BOOST_TEST(passes_without_gemm([&] { c("i,j,k") = a("k,j,i") + 2.0f * b("i,j,k"); }) == 1u);
  const auto ha = on_host(a);
  const auto hb = on_host(b);
  check_close(c, reference(d, [&](const tx::Dim<3>& i) {
                return double(ha[tx::make_dim(i[2], i[1], i[0])]) + 2.0 * double(hb[i]);
              }));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(labelled_elementwise)

BOOST_AUTO_TEST_CASE(permuted_operands_in_one_pass) {
  auto rng = tx::testing::make_rng(1101);
  for (int trial = 0; trial < 3; ++trial) {
    check_permuted_sum<float>(rng);
    check_permuted_sum<double>(rng);
    check_permuted_sum<tx::float16>(rng);
  }
}

BOOST_AUTO_TEST_CASE(broadcast_by_label) {
  auto rng = tx::testing::make_rng(1102);
  const auto m = random_array<float>(tx::make_dim(5, 7), rng);
  const auto v = random_array<float>(tx::make_dim(7), rng);
  const auto u = random_array<float>(tx::make_dim(5), rng);
  tx::Array<float, 2> r;
  BOOST_TEST(passes_without_gemm([&] { r("i,j") = m("i,j") * v("j") - u("i") / 4.0f; }) == 1u);
  const auto hm = on_host(m);
  const auto hv = on_host(v);
  const auto hu = on_host(u);
  check_close(r, reference(tx::make_dim(5, 7), [&](const tx::Dim<2>& i) {
                return double(hm[i]) * double(hv[tx::make_dim(i[1])]) -
                       double(hu[tx::make_dim(i[0])]) / 4.0;
              }));
  // An outer product: no label is shared, so it is element-wise.
  tx::Array<float, 2> outer;
  BOOST_TEST(passes_without_gemm([&] { outer("i,j") = u("i") * v("j"); }) == 1u);
  check_close(outer,
              tx::testing::einsum_reference("ij", tx::make_dim(5, 7),
                                            {tx::testing::ref(u, "i"), tx::testing::ref(v, "j")}));
}

BOOST_AUTO_TEST_CASE(a_lone_permuted_operand_is_a_transposed_copy) {
  auto rng = tx::testing::make_rng(1103);
  const auto a = random_array<double>(tx::make_dim(37, 45), rng);
  tx::Array<double, 2> t;
  BOOST_TEST(passes_without_gemm([&] { t("j,i") = a("i,j"); }) == 1u);
  const auto ha = on_host(a);
  check_close(t, reference(tx::make_dim(45, 37),
                           [&](const tx::Dim<2>& i) { return ha[tx::make_dim(i[1], i[0])]; }));
  // In place: the destination is read through another index mapping, so a temporary is used.
  auto s = random_array<double>(tx::make_dim(6, 6), rng);
  const auto before = on_host(s);
  s("i,j") = s("j,i");
  check_close(s, reference(tx::make_dim(6, 6),
                           [&](const tx::Dim<2>& i) { return before[tx::make_dim(i[1], i[0])]; }));
}

BOOST_AUTO_TEST_CASE(accumulation_and_write_requests) {
  auto rng = tx::testing::make_rng(1104);
  const auto a = random_array<double>(tx::make_dim(4, 3), rng);
  const auto start = random_array<double>(tx::make_dim(3, 4), rng);
  const auto ha = on_host(a);
  const auto hs = on_host(start);
  auto expect = [&](double keep, double scale) {
    return reference(tx::make_dim(3, 4), [&](const tx::Dim<2>& i) {
      return keep * hs[i] + scale * ha[tx::make_dim(i[1], i[0])];
    });
  };
  auto c = tx::to(start, tx::testing::test_place());
  BOOST_TEST(passes_without_gemm([&] { c("j,i") += a("i,j"); }) == 1u);
  check_close(c, expect(1.0, 1.0));
  c = tx::to(start, tx::testing::test_place());
  c("j,i") -= 3.0 * a("i,j");
  check_close(c, expect(1.0, -3.0));
  c = tx::to(start, tx::testing::test_place());
  tx::assign(c("j,i"), a("i,j"), tx::OpReq::kAddTo);
  check_close(c, expect(1.0, 1.0));
  tx::assign(c("j,i"), a("i,j"), tx::OpReq::kWriteInplace);
  check_close(c, expect(0.0, 1.0));
}

BOOST_AUTO_TEST_CASE(strided_views_and_size_one_extents) {
  auto rng = tx::testing::make_rng(1105);
  const auto wide = random_array<float>(tx::make_dim(6, 9), rng);
  const auto a =
      tx::Array<float, 2>(wide.buffer(), tx::make_dim(6, 4), tx::make_dim(9, 2), wide.offset() + 1);
  const auto b = random_array<float>(tx::make_dim(1, 6), rng);
  auto c = random_array<float>(tx::make_dim(8, 6), rng).slice(2, 6);  // 4 x 6 rows
  BOOST_TEST(passes_without_gemm([&] { c("j,i") = a("i,j") * b("u,i"); }) == 1u);
  const auto ha = on_host(a);
  const auto hb = on_host(b);
  check_close(c, reference(tx::make_dim(4, 6), [&](const tx::Dim<2>& i) {
                return double(ha[tx::make_dim(i[1], i[0])]) * double(hb[tx::make_dim(0, i[1])]);
              }));
}

BOOST_AUTO_TEST_CASE(a_repeated_label_reads_the_diagonal) {
  auto rng = tx::testing::make_rng(1106);
  const auto a = random_array<double>(tx::make_dim(5, 5), rng);
  const auto x = random_array<double>(tx::make_dim(5, 3, 5), rng);
  tx::Array<double, 1> d;
  BOOST_TEST(passes_without_gemm([&] { d("i") = a("i,i"); }) == 1u);
  const auto ha = on_host(a);
  check_close(d, reference(tx::make_dim(5),
                           [&](const tx::Dim<1>& i) { return ha[tx::make_dim(i[0], i[0])]; }));
  tx::Array<double, 2> e;
  e("j,i") = x("i,j,i") * a("i,i");
  const auto hx = on_host(x);
  check_close(e, reference(tx::make_dim(3, 5), [&](const tx::Dim<2>& i) {
                return hx[tx::make_dim(i[1], i[0], i[1])] * ha[tx::make_dim(i[1], i[1])];
              }));
}

BOOST_AUTO_TEST_CASE(rank_zero_and_darray_operands) {
  auto rng = tx::testing::make_rng(1107);
  const auto s = random_array<float>(tx::Dim<0>(), rng);
  const auto v = random_array<float>(tx::make_dim(6), rng);
  tx::Array<float, 1> r;
  r("i") = v("i") * s("");
  const double hs = double(on_host(s)[tx::Dim<0>()]);
  const auto hv = on_host(v);
  check_close(r,
              reference(tx::make_dim(6), [&](const tx::Dim<1>& i) { return double(hv[i]) * hs; }));
  const tx::DArray x = random_array<double>(tx::make_dim(3, 4), rng);
  tx::DArray y;
  y("j,i") = x("i,j") * x("i,j");
  const auto hx = on_host(x.as<double, 2>());
  check_close(y.as<double, 2>(), reference(tx::make_dim(4, 3), [&](const tx::Dim<2>& i) {
                const double value = hx[tx::make_dim(i[1], i[0])];
                return value * value;
              }));
}

BOOST_AUTO_TEST_SUITE_END()
