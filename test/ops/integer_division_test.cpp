// Integer division never traps (hardening issue, point 1): x / 0 is 0 and the most negative value
// divided by -1 is itself, for `/` and `/=`, on dense (vectorisable), strided, broadcast and
// threaded operands, int32 and int64 alike; against a plain loop that applies the same rule.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <limits>
#include <random>

#include <tensorx/tensorx.h>

#include "support/reference.h"
#include "support/test_place.h"

namespace tx = tensorx;

namespace {

template <class I>
I reference_divide(I a, I b) {
  if (b == 0) return 0;
  if (a == std::numeric_limits<I>::min() && b == -1) return a;
  return a / b;
}

/// Random integers with zeros, -1 and the most negative value sprinkled in.
template <class I>
tx::Array<I, 1> random_integers(tx::index_t n, std::mt19937_64& rng) {
  tx::Array<I, 1> host(tx::make_dim(n));
  std::uniform_int_distribution<int> pick(0, 9);
  std::uniform_int_distribution<I> value(-1000, 1000);
  for (tx::index_t i = 0; i < n; ++i) {
    const int kind = pick(rng);
    host(i) = kind == 0   ? I(0)
              : kind == 1 ? I(-1)
              : kind == 2 ? std::numeric_limits<I>::min()
                          : value(rng);
  }
  return tx::testing::on_test_place(host);
}

template <class I>
void check_division(tx::index_t n, std::mt19937_64& rng) {
  const auto a = random_integers<I>(n, rng), b = random_integers<I>(n, rng);
  const auto ha = tx::testing::on_host(a), hb = tx::testing::on_host(b);
  tx::Array<I, 1> c;
  c = a / b;  // dense
  auto hc = tx::testing::on_host(c);
  for (tx::index_t i = 0; i < n; ++i) BOOST_TEST(hc(i) == reference_divide(ha(i), hb(i)));
  c = tx::reshape(a, tx::make_dim(n)) * I(1);
  c /= b;  // the divide saver, on the vectorised path for other types
  hc = tx::testing::on_host(c);
  for (tx::index_t i = 0; i < n; ++i) BOOST_TEST(hc(i) == reference_divide(ha(i), hb(i)));
  if (n >= 2) {
    const tx::index_t half = n / 2;
    const tx::Array<I, 2> strided(a.buffer(), tx::make_dim(half, 1), tx::make_dim(2, 1), 0);
    tx::Array<I, 2> d;
    d = strided / I(0);  // a strided operand and a zero number
    const auto hd = tx::testing::on_host(d);
    for (tx::index_t i = 0; i < half; ++i) BOOST_TEST(hd(i, 0) == I(0));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(integer_division)

BOOST_AUTO_TEST_CASE(division_by_zero_and_overflow_are_defined_for_int32_and_int64) {
  auto rng = tx::testing::make_rng(1501);
  for (tx::index_t n : {1, 7, 64, 1000, 300001}) {  // scalar, SIMD-sized and threaded
    check_division<std::int32_t>(n, rng);
    check_division<std::int64_t>(n, rng);
  }
}

BOOST_AUTO_TEST_CASE(a_number_divided_by_an_array_with_zeros) {
  tx::Array<std::int32_t, 1> z(tx::make_dim(5), tx::testing::test_place());
  z = 0;
  tx::Array<std::int32_t, 1> q;
  q = std::int32_t{7} / z;
  const auto hq = tx::testing::on_host(q);
  for (int i = 0; i < 5; ++i) BOOST_TEST(hq(i) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
