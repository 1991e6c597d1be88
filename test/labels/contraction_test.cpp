// Labelled contractions: a product of two operands sharing a label absent on the left is ONE gemm
// or batch_gemm, whatever the order of the labels in memory (transposes become BLAS flags), with
// numbers folded into alpha and += into beta; operands whose label groups do not merge are copied
// once first. Each result is checked against a brute-force Einstein sum in double.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "blas/dot_reference.h"
#include "labels/einsum_reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::einsum_reference;
using tx::testing::product_tolerance;
using tx::testing::random_array;
using tx::testing::ref;

namespace {

// Passes and GEMMs an assignment starts.
struct Counts {
  std::uint64_t passes;
  std::uint64_t gemms;
};
template <class F>
Counts count(F&& assignment) {
  const auto passes = tx::stats::passes();
  const auto gemms = tx::stats::gemms();
  assignment();
  return {tx::stats::passes() - passes, tx::stats::gemms() - gemms};
}

// c("i,j") = a(..) * b(..) for every order of the labels in a and b: one GEMM, one pass.
template <class T>
void check_every_transpose(index_t m, index_t k, index_t n, std::mt19937_64& rng) {
  for (bool a_transposed : {false, true}) {
    for (bool b_transposed : {false, true}) {
      const auto a = random_array<T>(a_transposed ? tx::make_dim(k, m) : tx::make_dim(m, k), rng);
      const auto b = random_array<T>(b_transposed ? tx::make_dim(n, k) : tx::make_dim(k, n), rng);
      const char* a_labels = a_transposed ? "k,i" : "i,k";
      const char* b_labels = b_transposed ? "j,k" : "k,j";
      tx::Array<T, 2> c;
      const Counts counts = count([&] { c("i,j") = a(a_labels) * b(b_labels); });
      BOOST_TEST(counts.gemms == 1u);
      BOOST_TEST(counts.passes == 1u);
      BOOST_TEST(c.place() == tx::testing::test_place());
      const auto expected = einsum_reference(
          "ij", tx::make_dim(m, n),
          {ref(a, a_transposed ? "ki" : "ik"), ref(b, b_transposed ? "jk" : "kj")});
      check_close(c, expected, product_tolerance<T>(k));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(labelled_contraction)

BOOST_AUTO_TEST_CASE(matrix_products_in_every_label_order_are_one_gemm) {
  auto rng = tx::testing::make_rng(1201);
  for (int trial = 0; trial < 2; ++trial) {
    const auto e = tx::testing::random_dim<3>(rng, 2, 19);
    check_every_transpose<float>(e[0], e[1], e[2], rng);
    check_every_transpose<double>(e[0], e[1], e[2], rng);
  }
  check_every_transpose<tx::float16>(9, 33, 7, rng);
}

BOOST_AUTO_TEST_CASE(a_transposed_result_is_the_transposed_product) {
  auto rng = tx::testing::make_rng(1202);
  const auto a = random_array<double>(tx::make_dim(6, 5), rng);
  const auto b = random_array<double>(tx::make_dim(5, 7), rng);
  tx::Array<double, 2> c(tx::make_dim(7, 6), tx::testing::test_place());
  const Counts counts = count([&] { c("j,i") = a("i,k") * b("k,j"); });
  BOOST_TEST(counts.gemms == 1u);
  BOOST_TEST(counts.passes == 1u);
  check_close(c, einsum_reference("ji", tx::make_dim(7, 6), {ref(a, "ik"), ref(b, "kj")}));
}

BOOST_AUTO_TEST_CASE(batch_labels_make_one_batch_gemm) {
  auto rng = tx::testing::make_rng(1203);
  // Tensor Comprehensions' tbmm, Z(b,n,k) = X(b,n,m) Y(b,k,m), and the batch label elsewhere.
  const auto x = random_array<float>(tx::make_dim(5, 4, 6), rng);
  const auto y = random_array<float>(tx::make_dim(5, 3, 6), rng);
  tx::Array<float, 3> z;
  Counts counts = count([&] { z("b,n,k") = x("b,n,m") * y("b,k,m"); });
  BOOST_TEST(counts.gemms == 1u);
  BOOST_TEST(counts.passes == 1u);
  check_close(z, einsum_reference("bnk", tx::make_dim(5, 4, 3), {ref(x, "bnm"), ref(y, "bkm")}),
              product_tolerance<float>(6));

  const auto y2 = random_array<float>(tx::make_dim(3, 5, 6), rng);
  tx::Array<float, 3> z2(tx::make_dim(4, 5, 3), tx::testing::test_place());
  counts = count([&] { z2("n,b,k") = x("b,n,m") * y2("k,b,m"); });
  BOOST_TEST(counts.gemms == 1u);
  BOOST_TEST(counts.passes == 1u);
  check_close(z2, einsum_reference("nbk", tx::make_dim(4, 5, 3), {ref(x, "bnm"), ref(y2, "kbm")}),
              product_tolerance<float>(6));
}

BOOST_AUTO_TEST_CASE(several_labels_per_group_merge_into_one_matrix_axis) {
  auto rng = tx::testing::make_rng(1204);
  // Rows (a, b) and inner labels (k, l) are each one block of axes in every operand.
  const auto x = random_array<double>(tx::make_dim(3, 4, 5, 2), rng);
  const auto y = random_array<double>(tx::make_dim(5, 2, 6), rng);
  tx::Array<double, 3> c;
  const Counts counts = count([&] { c("a,b,j") = x("a,b,k,l") * y("k,l,j"); });
  BOOST_TEST(counts.gemms == 1u);
  BOOST_TEST(counts.passes == 1u);
  check_close(c, einsum_reference("abj", tx::make_dim(3, 4, 6), {ref(x, "abkl"), ref(y, "klj")}),
              product_tolerance<double>(10));
}

BOOST_AUTO_TEST_CASE(an_operand_whose_groups_do_not_merge_is_copied_once) {
  auto rng = tx::testing::make_rng(1205);
  // In x(a, k, b) the row labels a and b are apart: x is copied densely, then one GEMM.
  const auto x = random_array<float>(tx::make_dim(3, 5, 4), rng);
  const auto y = random_array<float>(tx::make_dim(5, 6), rng);
  tx::Array<float, 3> c;
  Counts counts = count([&] { c("a,b,j") = x("a,k,b") * y("k,j"); });
  BOOST_TEST(counts.gemms == 1u);
  BOOST_TEST(counts.passes == 2u);
  check_close(c, einsum_reference("abj", tx::make_dim(3, 4, 6), {ref(x, "akb"), ref(y, "kj")}),
              product_tolerance<float>(5));
  // A result whose row labels are apart goes through a dense temporary, copied back.
  tx::Array<float, 3> d(tx::make_dim(3, 6, 4), tx::testing::test_place());
  const auto x2 = random_array<float>(tx::make_dim(3, 4, 5), rng);
  counts = count([&] { d("a,j,b") = x2("a,b,k") * y("k,j"); });
  BOOST_TEST(counts.gemms == 1u);
  BOOST_TEST(counts.passes == 2u);
  check_close(d, einsum_reference("ajb", tx::make_dim(3, 6, 4), {ref(x2, "abk"), ref(y, "kj")}),
              product_tolerance<float>(5));
}

BOOST_AUTO_TEST_CASE(scalars_become_alpha_and_accumulation_beta) {
  auto rng = tx::testing::make_rng(1206);
  const auto a = random_array<double>(tx::make_dim(4, 7), rng);
  const auto b = random_array<double>(tx::make_dim(7, 5), rng);
  const auto start = random_array<double>(tx::make_dim(4, 5), rng);
  const auto product = einsum_reference("ij", tx::make_dim(4, 5), {ref(a, "ik"), ref(b, "kj")});
  const auto initial = tx::testing::on_host(start);
  auto expect = [&](double scale, double keep) {
    return tx::testing::reference(tx::make_dim(4, 5), [&](const tx::Dim<2>& i) {
      return keep * initial[i] + scale * product[i];
    });
  };
  auto c = tx::to(start, tx::testing::test_place());
  Counts counts = count([&] { c("i,j") += 0.5 * a("i,k") * b("k,j"); });
  BOOST_TEST(counts.gemms == 1u);
  BOOST_TEST(counts.passes == 1u);
  check_close(c, expect(0.5, 1.0));

  c = tx::to(start, tx::testing::test_place());
  counts = count([&] { c("i,j") -= a("i,k") * (b("k,j") * 3.0) / 2.0; });
  BOOST_TEST(counts.gemms == 1u);
  check_close(c, expect(-1.5, 1.0));

  c = tx::to(start, tx::testing::test_place());
  counts = count([&] { c("i,j") = -(a("i,k") * b("k,j")); });
  BOOST_TEST(counts.gemms == 1u);
  check_close(c, expect(-1.0, 0.0));

  c = tx::to(start, tx::testing::test_place());
  counts = count([&] { tx::assign(c("i,j"), 2.0 * a("i,k") * b("k,j"), tx::OpReq::kAddTo); });
  BOOST_TEST(counts.gemms == 1u);
  check_close(c, expect(2.0, 1.0));
  tx::assign(c("i,j"), a("i,k") * b("k,j"), tx::OpReq::kNullOp);
  check_close(c, expect(2.0, 1.0));
  tx::assign(c("i,j"), a("i,k") * b("k,j"), tx::OpReq::kWriteTo);
  check_close(c, expect(1.0, 0.0));
}

BOOST_AUTO_TEST_CASE(strided_operands_and_destination) {
  auto rng = tx::testing::make_rng(1207);
  const auto a = tx::testing::random_strided_matrix<float>(6, 5, rng);
  const auto b = random_array<float>(tx::make_dim(9, 7), rng).slice(2, 7);  // 5 x 7 rows
  auto c = tx::testing::random_strided_matrix<float>(6, 7, rng);
  c("i,j") = a("i,k") * b("k,j");
  check_close(c, einsum_reference("ij", tx::make_dim(6, 7), {ref(a, "ik"), ref(b, "kj")}),
              product_tolerance<float>(5));
  tx::Array<float, 2> t(tx::make_dim(7, 6), tx::testing::test_place());
  t("j,i") = b("k,j") * a("i,k");
  check_close(t, einsum_reference("ji", tx::make_dim(7, 6), {ref(b, "kj"), ref(a, "ik")}),
              product_tolerance<float>(5));
}

BOOST_AUTO_TEST_CASE(empty_extents) {
  auto rng = tx::testing::make_rng(1208);
  for (index_t k : {0, 3}) {
    for (index_t m : {0, 4}) {
      const auto a = random_array<double>(tx::make_dim(m, k), rng);
      const auto b = random_array<double>(tx::make_dim(k, 5), rng);
      auto c = random_array<double>(tx::make_dim(m, 5), rng);
      c("i,j") = a("i,k") * b("k,j");
      check_close(c, einsum_reference("ij", tx::make_dim(m, 5), {ref(a, "ik"), ref(b, "kj")}));
    }
  }
}

BOOST_AUTO_TEST_CASE(labels_only_one_factor_has_are_summed_first) {
  auto rng = tx::testing::make_rng(1209);
  const auto a = random_array<double>(tx::make_dim(4, 6, 3), rng);
  const auto b = random_array<double>(tx::make_dim(6, 5), rng);
  tx::Array<double, 2> c;
  // l is in a alone: a is summed over l (one reduction), then one GEMM.
  const Counts counts = count([&] { c("i,j") = a("i,k,l") * b("k,j"); });
  BOOST_TEST(counts.gemms == 1u);
  BOOST_TEST(counts.passes == 2u);
  check_close(c, einsum_reference("ij", tx::make_dim(4, 5), {ref(a, "ikl"), ref(b, "kj")}));
}

BOOST_AUTO_TEST_CASE(expression_factors_are_evaluated_first) {
  auto rng = tx::testing::make_rng(1210);
  const auto a = random_array<double>(tx::make_dim(4, 6), rng);
  const auto d = random_array<double>(tx::make_dim(6, 4), rng);
  const auto b = random_array<double>(tx::make_dim(6, 5), rng);
  tx::Array<double, 2> c;
  const Counts counts = count([&] { c("i,j") = (a("i,k") + 2.0 * d("k,i")) * b("k,j"); });
  BOOST_TEST(counts.gemms == 1u);
  BOOST_TEST(counts.passes == 2u);
  const auto sum = tx::testing::reference(tx::make_dim(4, 6), [&](const tx::Dim<2>& i) {
    return tx::testing::on_host(a)[i] + 2.0 * tx::testing::on_host(d)[tx::make_dim(i[1], i[0])];
  });
  check_close(c, einsum_reference("ij", tx::make_dim(4, 5), {ref(sum, "ik"), ref(b, "kj")}));
}

BOOST_AUTO_TEST_CASE(darray_operands_and_destinations) {
  auto rng = tx::testing::make_rng(1211);
  const tx::DArray a = random_array<float>(tx::make_dim(2, 4, 3), rng);
  const tx::DArray b = random_array<float>(tx::make_dim(2, 3, 5), rng);
  tx::DArray c;
  const Counts counts = count([&] { c("b,i,j") = a("b,i,k") * b("b,k,j"); });
  BOOST_TEST(counts.gemms == 1u);
  BOOST_TEST(tx::dtype(c) == tx::DataType::kFloat32);
  check_close(c.as<float, 3>(),
              einsum_reference("bij", tx::make_dim(2, 4, 5),
                               {ref(a.as<float, 3>(), "bik"), ref(b.as<float, 3>(), "bkj")}),
              product_tolerance<float>(3));
  // Typed and run-time typed operands mix when their element types agree.
  const auto w = random_array<float>(tx::make_dim(5, 6), rng);
  tx::Array<float, 3> d;
  d("b,i,l") = c("b,i,j") * w("j,l");
  check_close(
      d,
      einsum_reference("bil", tx::make_dim(2, 4, 6), {ref(c.as<float, 3>(), "bij"), ref(w, "jl")}),
      product_tolerance<float>(15));
}

BOOST_AUTO_TEST_CASE(integer_contractions_run_as_one_reduction) {
  tx::Array<std::int32_t, 2> a(tx::make_dim(3, 4));
  tx::Array<std::int32_t, 2> b(tx::make_dim(4, 2));
  for (index_t i = 0; i < a.numel(); ++i) a.data()[i] = static_cast<std::int32_t>(i % 5 - 2);
  for (index_t i = 0; i < b.numel(); ++i) b.data()[i] = static_cast<std::int32_t>(i % 3 + 1);
  const auto ga = tx::testing::on_test_place(a);
  const auto gb = tx::testing::on_test_place(b);
  tx::Array<std::int32_t, 2> c;
  const Counts counts = count([&] { c("i,j") = ga("i,k") * gb("k,j"); });
  BOOST_TEST(counts.gemms == 0u);
  BOOST_TEST(counts.passes == 1u);
  check_close(c, einsum_reference("ij", tx::make_dim(3, 2), {ref(a, "ik"), ref(b, "kj")}), 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
