// How much work the CPU's row-local pass does, counted by a functor that counts its calls: the
// element-wise part that a reduction and the output share (softmax's exp(y - max)) is computed
// once per element, and the same reduction written with and without keepdims (logsumexp's two
// maxima) once per row. CPU only (not rerun as CUDA): device code cannot count on the host.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cmath>

#include <tensorx/tensorx.h>

#include "normalize/normalize_reference.h"

namespace tx = tensorx;

namespace {

std::atomic<long> calls{0};

/// The identity, counting its calls. It takes floats only, so every call is one element (the
/// engines call a functor without batch forms in their scalar loops).
struct counted_identity {
  float operator()(float x) const {
    calls.fetch_add(1, std::memory_order_relaxed);
    return x;
  }
};

constexpr tx::index_t kRows = 7, kLength = 1000;

tx::Array<float, 2> values() {
  std::mt19937_64 rng(31);
  return tx::testing::random_array<float>(tx::make_dim(kRows, kLength), rng);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(normalize_row_work)

BOOST_AUTO_TEST_CASE(softmax_reads_its_input_twice_and_computes_exp_once_per_element) {
  const tx::Array<float, 2> x = values();
  tx::Array<float, 2> p(x.dims()), expected(x.dims());
  expected = tx::softmax<1>(x);
  calls = 0;
  // y = counted(x): the max's sweep reads y once per element; the sum's sweep computes
  // exp(y - max) once per element and keeps it for the output, which reads y no more.
  p = tx::softmax<1>(tx::F<counted_identity>(x));
  BOOST_TEST(calls.load() == 2 * x.numel());
  // The scalar loops that the counting functor takes round otherwise than the SIMD ones.
  for (tx::index_t r = 0; r < kRows; ++r) {
    for (tx::index_t k = 0; k < kLength; ++k) {
      BOOST_TEST(p(r, k) == expected(r, k), boost::test_tools::tolerance(1e-5f));
    }
  }
}

BOOST_AUTO_TEST_CASE(logsumexp_without_keepdims_reduces_its_max_once_per_row) {
  const tx::Array<float, 2> x = values();
  tx::Array<float, 1> l(tx::make_dim(kRows));
  calls = 0;
  // The result's max (no keepdims) and the shift inside the sum (keepdims) are one max: its sweep
  // and the sum's read y, twice per element; a third sweep would mean the max was reduced again.
  l = tx::logsumexp<1>(tx::F<counted_identity>(x));
  BOOST_TEST(calls.load() == 2 * x.numel());
  for (tx::index_t r = 0; r < kRows; ++r) {
    double top = -INFINITY, sum = 0;
    for (tx::index_t k = 0; k < kLength; ++k) top = std::fmax(top, double(x(r, k)));
    for (tx::index_t k = 0; k < kLength; ++k) sum += std::exp(double(x(r, k)) - top);
    BOOST_TEST(double(l(r)) == top + std::log(sum), boost::test_tools::tolerance(1e-6));
  }
}

BOOST_AUTO_TEST_CASE(a_division_by_a_number_is_one_part_wherever_it_occurs) {
  // softmax of y / t, t a temperature: `y / number` plans with its divisor kept in the functor
  // (op::divides_by), and the max's and the sum's operands y / t are still found to be the same
  // part, as with a stateless functor: y is read twice per element, not three times.
  const tx::Array<float, 2> x = values();
  tx::Array<float, 2> p(x.dims()), expected(x.dims());
  expected = tx::softmax<1>(x / 0.7f);
  calls = 0;
  p = tx::softmax<1>(tx::F<counted_identity>(x) / 0.7f);
  BOOST_TEST(calls.load() == 2 * x.numel());
  for (tx::index_t r = 0; r < kRows; ++r) {
    for (tx::index_t k = 0; k < kLength; ++k) {
      BOOST_TEST(p(r, k) == expected(r, k), boost::test_tools::tolerance(1e-5f));
    }
  }
  // Different divisors are different parts: y / 0.5 in the output is not the max's operand
  // y / 0.25, so the output computes its own (y read by the max's sweep and by the output's, and
  // the values those of y / 0.5); taken for the same part, the output would read the max's
  // values from a row buffer.
  tx::Array<float, 2> q(x.dims());
  calls = 0;
  const auto y = tx::F<counted_identity>(x);
  q = y / 0.5f - tx::max<1>(y / 0.25f, tx::keepdims);
  BOOST_TEST(calls.load() == 2 * x.numel());
  for (tx::index_t r = 0; r < kRows; ++r) {
    double top = -INFINITY;
    for (tx::index_t k = 0; k < kLength; ++k) top = std::fmax(top, double(x(r, k)) / 0.25);
    for (tx::index_t k = 0; k < kLength; ++k) {
      BOOST_TEST(double(q(r, k)) == double(x(r, k)) / 0.5 - top,
                 boost::test_tools::tolerance(1e-5));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
