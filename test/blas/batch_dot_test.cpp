// tx::batch_dot: one strided-batched BLAS call for a batch of products, with transposes of the
// last two axes and operands whose batch extent of 1 serves every matrix of the other.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "blas/dot_reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::on_host;
using tx::testing::random_array;

namespace {

const auto kSwapLastTwo = tx::make_dim(0, 2, 1);

// Matrix i of a host batch (matrix 0 when the batch extent is 1).
template <class T>
tx::Array<T, 2> matrix(const tx::Array<T, 3>& batch, index_t i) {
  return batch[batch.dims()[0] == 1 ? 0 : i];
}

// Checks every matrix of c against op(a[i]) * op(b[i]).
template <class T>
void check_batch(const tx::Array<T, 3>& c, const tx::Array<T, 3>& a, bool transpose_a,
                 const tx::Array<T, 3>& b, bool transpose_b, index_t k) {
  const auto hc = on_host(c), ha = on_host(a), hb = on_host(b);
  for (index_t i = 0; i < c.dims()[0]; ++i) {
    tx::testing::check_close(
        hc[i],
        tx::testing::matmul_reference(matrix(ha, i), transpose_a, matrix(hb, i), transpose_b),
        tx::testing::product_tolerance<T>(k));
  }
}

template <class T>
void check_every_batch_transpose(std::mt19937_64& rng) {
  const index_t batch = 4, m = 5, k = 6, n = 3;
  for (bool transpose_a : {false, true}) {
    for (bool transpose_b : {false, true}) {
      const auto a =
          random_array<T>(transpose_a ? tx::make_dim(batch, k, m) : tx::make_dim(batch, m, k), rng);
      const auto b =
          random_array<T>(transpose_b ? tx::make_dim(batch, n, k) : tx::make_dim(batch, k, n), rng);
      tx::Array<T, 3> c(tx::make_dim(batch, m, n), tx::testing::test_place());
      const auto before = tx::stats::passes();
      if (transpose_a && transpose_b) {
        c = tx::batch_dot(tx::permute(a, kSwapLastTwo), tx::permute(b, kSwapLastTwo));
      } else if (transpose_a) {
        c = tx::batch_dot(tx::permute(a, kSwapLastTwo), b);
      } else if (transpose_b) {
        c = tx::batch_dot(a, tx::permute(b, kSwapLastTwo));
      } else {
        c = tx::batch_dot(a, b);
      }
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_batch(c, a, transpose_a, b, transpose_b, k);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(batch_dot)

BOOST_AUTO_TEST_CASE(batches_in_every_transpose_combination) {
  auto rng = tx::testing::make_rng(701);
  check_every_batch_transpose<float>(rng);
  check_every_batch_transpose<double>(rng);
  check_every_batch_transpose<tx::float16>(rng);
  check_every_batch_transpose<tx::bfloat16>(rng);
}

BOOST_AUTO_TEST_CASE(a_batch_of_one_serves_every_matrix) {
  auto rng = tx::testing::make_rng(702);
  const auto weights = random_array<double>(tx::make_dim(1, 4, 3), rng);
  const auto inputs = random_array<double>(tx::make_dim(6, 2, 4), rng);
  tx::Array<double, 3> c;
  c = tx::batch_dot(inputs, weights);
  BOOST_TEST(c.dims() == tx::make_dim(6, 2, 3));
  check_batch(c, inputs, false, weights, false, 4);
  const auto left = random_array<double>(tx::make_dim(1, 3, 4), rng);
  tx::Array<double, 3> scaled = tx::batch_dot(left, tx::permute(inputs, kSwapLastTwo)) * 0.5;
  tx::Array<double, 3> twice = 2.0 * scaled;
  check_batch(twice, left, false, inputs, true, 4);
}

BOOST_AUTO_TEST_CASE(accumulates_and_handles_empty_batches) {
  auto rng = tx::testing::make_rng(703);
  const auto a = random_array<float>(tx::make_dim(3, 2, 5), rng);
  const auto b = random_array<float>(tx::make_dim(3, 5, 4), rng);
  tx::Array<float, 3> c = tx::zeros<float>(tx::make_dim(3, 2, 4), tx::testing::test_place());
  c += tx::batch_dot(a, b);
  c += tx::batch_dot(a, b);
  tx::Array<float, 3> half = 0.5f * c;
  check_batch(half, a, false, b, false, 10);
  tx::Array<float, 3> empty;
  const auto before = tx::stats::passes();
  empty = tx::batch_dot(random_array<float>(tx::make_dim(0, 2, 5), rng), b.slice(0, 1));
  BOOST_TEST(tx::stats::passes() == before);
  BOOST_TEST(empty.dims() == tx::make_dim(0, 2, 4));
}

BOOST_AUTO_TEST_SUITE_END()
