// tx::einsum, NumPy's string form of labelled products: explicit and implicit results,
// diagonals, transposes, batches, DArray operands; each against a brute-force sum in double.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "blas/dot_reference.h"
#include "labels/einsum_reference.h"
#include "support/errors.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::einsum_reference;
using tx::testing::message_has;
using tx::testing::product_tolerance;
using tx::testing::random_array;
using tx::testing::ref;

BOOST_AUTO_TEST_SUITE(einsum)

BOOST_AUTO_TEST_CASE(matrix_products_explicit_and_implicit) {
  auto rng = tx::testing::make_rng(1501);
  const auto a = random_array<float>(tx::make_dim(4, 6), rng);
  const auto b = random_array<float>(tx::make_dim(6, 3), rng);
  const auto expected = einsum_reference("ij", tx::make_dim(4, 3), {ref(a, "ik"), ref(b, "kj")});
  const auto gemms = tx::stats::gemms();
  tx::Array<float, 2> c = tx::einsum("ik,kj->ij", a, b);
  BOOST_TEST(tx::stats::gemms() - gemms == 1u);
  check_close(c, expected, product_tolerance<float>(6));
  tx::Array<float, 2> d;
  d = tx::einsum("ik, kj", a, b);  // implicit: i and j appear once, in alphabetical order
  check_close(d, expected, product_tolerance<float>(6));
  tx::Array<float, 2> t;
  t = tx::einsum("ik,kj->ji", a, b);
  check_close(t, einsum_reference("ji", tx::make_dim(3, 4), {ref(a, "ik"), ref(b, "kj")}),
              product_tolerance<float>(6));
}

BOOST_AUTO_TEST_CASE(single_operand_forms) {
  auto rng = tx::testing::make_rng(1502);
  const auto m = random_array<double>(tx::make_dim(5, 5), rng);
  tx::Array<double, 1> diagonal = tx::einsum("ii->i", m);
  check_close(diagonal, einsum_reference("i", tx::make_dim(5), {ref(m, "ii")}));
  tx::Array<double, 0> trace = tx::einsum("ii", m);
  tx::testing::check_scalar(trace, einsum_reference("", tx::Dim<0>(), {ref(m, "ii")}), 1e-13);
  tx::Array<double, 2> transposed = tx::einsum("ij->ji", m);
  check_close(transposed, einsum_reference("ji", tx::make_dim(5, 5), {ref(m, "ij")}));
  tx::Array<double, 1> column_sums = tx::einsum("ij->j", m);
  check_close(column_sums, einsum_reference("j", tx::make_dim(5), {ref(m, "ij")}));
}

BOOST_AUTO_TEST_CASE(batched_products_and_chains) {
  auto rng = tx::testing::make_rng(1503);
  const auto x = random_array<double>(tx::make_dim(3, 4, 5), rng);
  const auto y = random_array<double>(tx::make_dim(3, 5, 2), rng);
  const auto w = random_array<double>(tx::make_dim(2, 6), rng);
  tx::Array<double, 3> z = tx::einsum("bij,bjk->bik", x, y);
  check_close(z, einsum_reference("bik", tx::make_dim(3, 4, 2), {ref(x, "bij"), ref(y, "bjk")}));
  tx::Array<double, 3> chain = tx::einsum("bij,bjk,kl->bil", x, y, w);
  check_close(chain, einsum_reference("bil", tx::make_dim(3, 4, 6),
                                      {ref(x, "bij"), ref(y, "bjk"), ref(w, "kl")}));
}

BOOST_AUTO_TEST_CASE(darray_operands_give_a_darray) {
  auto rng = tx::testing::make_rng(1504);
  const auto a = random_array<float>(tx::make_dim(4, 6), rng);
  const auto b = random_array<float>(tx::make_dim(6, 3), rng);
  const tx::DArray c = tx::einsum("ik,kj->ij", tx::DArray(a), tx::DArray(b));
  BOOST_TEST(tx::dims(c) == tx::make_ddim({4, 3}));
  check_close(c.as<float, 2>(),
              einsum_reference("ij", tx::make_dim(4, 3), {ref(a, "ik"), ref(b, "kj")}),
              product_tolerance<float>(6));
  // A DArray has no rank 0: a full contraction has extent (1).
  const tx::DArray dot = tx::einsum("ij,ij->", tx::DArray(a), a);
  BOOST_TEST(tx::dims(dot) == tx::make_ddim({1}));
  const auto expected = einsum_reference("", tx::Dim<0>(), {ref(a, "ij"), ref(a, "ij")});
  const tx::DArray host = tx::to(dot, tx::CpuPlace());  // the element is read on the host
  BOOST_TEST(std::abs(host[tx::make_ddim({0})].value<double>() - expected[tx::Dim<0>()]) < 1e-4);
}

BOOST_AUTO_TEST_CASE(malformed_strings_are_label_errors) {
  auto rng = tx::testing::make_rng(1505);
  const auto a = random_array<float>(tx::make_dim(4, 6), rng);
  tx::Array<float, 2> c;
  BOOST_CHECK_EXCEPTION(c = tx::einsum("ik,kj->ij", a), tx::LabelError,
                        message_has({"\"ik,kj->ij\"", "2 operands", "1 were given"}));
  BOOST_CHECK_EXCEPTION(c = tx::einsum("i1->i", a), tx::LabelError,
                        message_has({"'1' is not a letter"}));
  BOOST_CHECK_EXCEPTION(c = tx::einsum("ijk->ij", a), tx::LabelError,
                        message_has({"\"i,j,k\"", "3 axes", "rank 2"}));
  BOOST_CHECK_EXCEPTION(c = tx::einsum("ij->ij->ij", a), tx::LabelError,
                        message_has({"\"->\" appears twice"}));
  BOOST_CHECK_EXCEPTION(c = tx::einsum("ij->i", a), tx::LabelError,
                        message_has({"\"i\"", "1 axes", "rank 2"}));
  BOOST_TEST(!c.allocated());
}

BOOST_AUTO_TEST_SUITE_END()
