// Floating-point division as a GPU computes it (core/division.h): a zero dividend goes through a
// stand-in, and the result must have the bits of IEEE a / b, which the CPU computes directly, for
// every kind of dividend and divisor. The function is the device path itself, compiled for the
// host, so that these bits are checked where there is no GPU.
#include "tensorx/core/division.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

namespace tx = tensorx;

namespace {

using FloatingTypes = boost::mpl::list<float, double>;

template <class T>
bool same_result(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// Zeros, subnormals, the normal range's ends, infinities, NaN, ordinary numbers, and the
/// magnitudes where the stand-in's quotient d / b passes from normal to subnormal.
template <class T>
std::vector<T> edge_values() {
  using L = std::numeric_limits<T>;
  const T d = tx::detail::kDivisionStandIn<T>;
  std::vector<T> values = {T(0),
                           L::denorm_min(),
                           3 * L::denorm_min(),
                           L::min(),
                           L::max(),
                           L::infinity(),
                           L::quiet_NaN(),
                           T(1),
                           T(3),
                           T(0.9),
                           T(1e-30),
                           T(1e30),
                           d,
                           1 / d,
                           L::min() / d,
                           L::max() * d,
                           T(0x1p102),
                           T(0x1p103),
                           L::epsilon()};
  for (const T edge : {tx::detail::kReciprocalHigh<T>, tx::detail::kReciprocalLow<T>}) {
    values.push_back(edge);
    values.push_back(std::nextafter(edge, T(0)));
    values.push_back(std::nextafter(edge, L::infinity()));
  }
  const std::size_t n = values.size();
  for (std::size_t i = 0; i < n; ++i) values.push_back(-values[i]);
  return values;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(division)

BOOST_AUTO_TEST_CASE_TEMPLATE(the_gpu_path_gives_ieee_quotients_on_every_edge, T, FloatingTypes) {
  const auto values = edge_values<T>();
  int wrong = 0;
  for (const T a : values) {
    for (const T b : values) {
      const T got = tx::detail::divide_through_stand_in(a, b);
      if (!same_result(got, a / b)) {
        if (wrong++ < 5) BOOST_TEST_MESSAGE(a << " / " << b << ": " << got << ", not " << a / b);
      }
    }
  }
  BOOST_TEST(wrong == 0);
  // A zero's quotient keeps the signs: -0 / 3 = -0, 0 / -inf = -0, -0 / -tiny = +0.
  BOOST_TEST(std::signbit(tx::detail::divide_through_stand_in(-T(0), T(3))));
  BOOST_TEST(
      std::signbit(tx::detail::divide_through_stand_in(T(0), -std::numeric_limits<T>::infinity())));
  BOOST_TEST(!std::signbit(
      tx::detail::divide_through_stand_in(-T(0), -std::numeric_limits<T>::denorm_min())));
  BOOST_TEST(std::isnan(tx::detail::divide_through_stand_in(T(0), T(0))));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(the_gpu_path_gives_ieee_quotients_on_random_bits, T, FloatingTypes) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  std::mt19937_64 rng(20261202);
  int wrong = 0;
  for (int i = 0; i < 400000; ++i) {
    const Bits bits_a = static_cast<Bits>(rng()), bits_b = static_cast<Bits>(rng());
    T a, b;
    std::memcpy(&a, &bits_a, sizeof(T));
    std::memcpy(&b, &bits_b, sizeof(T));
    if (i % 2 == 0) a = std::copysign(T(0), a);  // half of them zero dividends
    const T got = tx::detail::divide_through_stand_in(a, b);
    wrong += !same_result(got, a / b);
  }
  BOOST_TEST(wrong == 0);
}

// The GPU's division by a divisor known for the whole pass (`x / 0.9f`): Markstein's correction
// of a r, with r = RN(1 / b) worked out once, must give IEEE's quotient for every dividend, and
// divisors outside its range must not take it.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_quotient_through_the_reciprocal_is_ieee_s, T, FloatingTypes) {
  const auto values = edge_values<T>();
  std::vector<T> divisors;
  for (const T b : values) {
    if (tx::detail::reciprocal_divides(b)) divisors.push_back(b);
  }
  BOOST_TEST(!tx::detail::reciprocal_divides(T(0)));
  BOOST_TEST(!tx::detail::reciprocal_divides(std::numeric_limits<T>::infinity()));
  BOOST_TEST(!tx::detail::reciprocal_divides(std::numeric_limits<T>::quiet_NaN()));
  BOOST_TEST(!tx::detail::reciprocal_divides(std::numeric_limits<T>::min()));
  BOOST_TEST(tx::detail::reciprocal_divides(-tx::detail::kReciprocalHigh<T>));
  BOOST_TEST(tx::detail::reciprocal_divides(tx::detail::kReciprocalLow<T>));
  BOOST_TEST(divisors.size() >= 10u);
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  std::mt19937_64 rng(20261203);
  // Exponents across the range's edges (2^-60 .. 2^60 for float, 2^-500 .. 2^500 for double).
  const int reach = sizeof(T) == 4 ? 70 : 520;
  std::uniform_int_distribution<int> exponent(-reach, reach);
  int wrong = 0;
  const auto check = [&](T a, T b) {
    const T got = tx::detail::divide_by_reciprocal(a, b, T(1) / b);
    if (!same_result(got, a / b) && wrong++ < 5) {
      BOOST_TEST_MESSAGE(a << " / " << b << ": " << got << ", not " << a / b);
    }
  };
  for (const T b : divisors) {
    for (const T a : values) check(a, b);
  }
  for (int i = 0; i < 400000; ++i) {
    // Random significands at exponents across the range's edges, and random bit patterns.
    const Bits bits_a = static_cast<Bits>(rng()), bits_b = static_cast<Bits>(rng());
    T a, b;
    std::memcpy(&a, &bits_a, sizeof(T));
    std::memcpy(&b, &bits_b, sizeof(T));
    const T significand_a = std::ldexp(T(1) + std::fabs(std::fmod(a, T(1))), 0);
    const T significand_b = std::ldexp(T(1) + std::fabs(std::fmod(b, T(1))), 0);
    const T near_a = std::copysign(std::ldexp(significand_a, exponent(rng)), a);
    const T near_b = std::copysign(std::ldexp(significand_b, exponent(rng)), b);
    if (tx::detail::reciprocal_divides(near_b)) {
      check(near_a, near_b);
      check(a, near_b);
    }
    if (tx::detail::reciprocal_divides(b)) check(a, b);
  }
  BOOST_TEST(wrong == 0);
}

BOOST_AUTO_TEST_CASE(integers_divide_with_every_input_defined) {
  BOOST_TEST(tx::detail::divide(7, 0) == 0);
  BOOST_TEST(tx::detail::divide(-7, 2) == -3);
  BOOST_TEST(tx::detail::divide(std::numeric_limits<std::int32_t>::min(), std::int32_t{-1}) ==
             std::numeric_limits<std::int32_t>::min());
  BOOST_TEST(tx::detail::divide(std::uint64_t{9}, std::uint64_t{0}) == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
