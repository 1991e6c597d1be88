// Labelled reductions: a label that is missing on the left (and that no two factors of a product
// share) is summed over the whole right side in ONE reduction pass that reads the element-wise
// expression without a temporary, along any axis. Checked against brute-force sums in double.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "blas/dot_reference.h"
#include "labels/einsum_reference.h"
#include "labels/pass_counts.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::einsum_reference;
using tx::testing::passes_without_gemm;
using tx::testing::product_tolerance;
using tx::testing::random_array;
using tx::testing::ref;

namespace {

template <class T>
void check_axis_sums(std::mt19937_64& rng) {
  const auto d = tx::testing::random_dim<3>(rng, 1, 40);
  const auto a = random_array<T>(d, rng);
  tx::Array<T, 1> inner;
  tx::Array<T, 1> outer;
  tx::Array<T, 2> middle;
  auto all = tx::testing::scalar_on_test_place<T>();  // a default rank-0 array is on the CPU
  BOOST_TEST(passes_without_gemm([&] { inner("i") = a("i,j,k"); }) == 1u);
  BOOST_TEST(passes_without_gemm([&] { outer("k") = a("i,j,k"); }) == 1u);
  BOOST_TEST(passes_without_gemm([&] { middle("k,i") = a("i,j,k"); }) == 1u);
  BOOST_TEST(passes_without_gemm([&] { all("") = a("i,j,k"); }) == 1u);
  const double tol = product_tolerance<T>(d[1] * d[2]);
  check_close(inner, einsum_reference("i", tx::make_dim(d[0]), {ref(a, "ijk")}), tol);
  check_close(outer, einsum_reference("k", tx::make_dim(d[2]), {ref(a, "ijk")}), tol);
  check_close(middle, einsum_reference("ki", tx::make_dim(d[2], d[0]), {ref(a, "ijk")}), tol);
  tx::testing::check_scalar(all, einsum_reference("", tx::Dim<0>(), {ref(a, "ijk")}),
                            product_tolerance<T>(d[0] * d[1] * d[2]));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(labelled_reduction)

BOOST_AUTO_TEST_CASE(sums_over_any_labels_in_one_pass) {
  auto rng = tx::testing::make_rng(1301);
  for (int trial = 0; trial < 2; ++trial) {
    check_axis_sums<float>(rng);
    check_axis_sums<double>(rng);
  }
  check_axis_sums<tx::float16>(rng);
}

BOOST_AUTO_TEST_CASE(reductions_read_element_wise_expressions) {
  auto rng = tx::testing::make_rng(1302);
  const auto a = random_array<double>(tx::make_dim(6, 8), rng);
  const auto b = random_array<double>(tx::make_dim(8, 6), rng);
  const auto v = random_array<double>(tx::make_dim(8), rng);
  tx::Array<double, 1> s;
  // Each term carries j: sum_j (a(i,j) + 2 b(j,i)) in one pass.
  BOOST_TEST(passes_without_gemm([&] { s("i") = a("i,j") + 2.0 * b("j,i"); }) == 1u);
  const auto sum_a = einsum_reference("i", tx::make_dim(6), {ref(a, "ij")});
  const auto sum_b = einsum_reference("i", tx::make_dim(6), {ref(b, "ji")}, 2.0);
  check_close(s, tx::testing::reference(tx::make_dim(6),
                                        [&](const tx::Dim<1>& i) { return sum_a[i] + sum_b[i]; }));
  // A matrix-vector product reads each element of the matrix once: one reduction, no GEMM.
  BOOST_TEST(passes_without_gemm([&] { s("i") = a("i,j") * v("j"); }) == 1u);
  check_close(s, einsum_reference("i", tx::make_dim(6), {ref(a, "ij"), ref(v, "j")}));
  // Batched inner products likewise.
  BOOST_TEST(passes_without_gemm([&] { s("i") = a("i,j") * b("j,i"); }) == 1u);
  check_close(s, einsum_reference("i", tx::make_dim(6), {ref(a, "ij"), ref(b, "ji")}));
  // += adds the sums.
  auto t = tx::to(s, tx::testing::test_place());
  t("i") += a("i,j") * b("j,i");
  check_close(t, einsum_reference("i", tx::make_dim(6), {ref(a, "ij"), ref(b, "ji")}, 2.0));
}

BOOST_AUTO_TEST_CASE(the_trace_is_a_sum_over_the_diagonal) {
  auto rng = tx::testing::make_rng(1303);
  const auto a = random_array<float>(tx::make_dim(9, 9), rng);
  auto trace = tx::testing::scalar_on_test_place<float>();
  BOOST_TEST(passes_without_gemm([&] { trace("") = a("i,i"); }) == 1u);
  double expected = 0;
  const auto host = tx::testing::on_host(a);
  for (index_t i = 0; i < 9; ++i) expected += host[tx::make_dim(i, i)];
  BOOST_TEST(std::abs(double(trace.item()) - expected) < 1e-5);
}

BOOST_AUTO_TEST_CASE(empty_sums_are_zero) {
  auto rng = tx::testing::make_rng(1304);
  const auto a = random_array<double>(tx::make_dim(3, 0), rng);
  auto s = random_array<double>(tx::make_dim(3), rng);
  s("i") = a("i,j");
  check_close(s, einsum_reference("i", tx::make_dim(3), {ref(a, "ij")}));
}

BOOST_AUTO_TEST_CASE(darray_reductions) {
  auto rng = tx::testing::make_rng(1305);
  const tx::DArray x = random_array<float>(tx::make_dim(4, 5, 6), rng);
  tx::DArray s;
  s("k,i") = x("i,j,k");
  check_close(s.as<float, 2>(),
              einsum_reference("ki", tx::make_dim(6, 4), {ref(x.as<float, 3>(), "ijk")}),
              product_tolerance<float>(5));
}

BOOST_AUTO_TEST_SUITE_END()
