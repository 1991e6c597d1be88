// float16 as a number: its type properties, arithmetic rounded once, comparisons, classification,
// numeric_limits and printing, each checked against the value decoded independently.
#include "tensorx/core/float16.h"

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include <boost/test/unit_test.hpp>

#include "core/float16_reference.h"

namespace tx = tensorx;
using tx::float16;
using tx::testing::exact;
using tx::testing::hex;
using tx::testing::Mismatches;
using tx::testing::reference_round;
using tx::testing::reference_value;

namespace {

template <class T, class = void>
constexpr bool can_add_assign = false;
template <class T>
constexpr bool
    can_add_assign<T, std::void_t<decltype(std::declval<float16&>() += std::declval<T>())>> = true;

/// Whether every decimal with `digits` significant digits in [1e-4, 1e4), where binary16 is normal,
/// prints the same after a trip through float16 (the property that defines digits10).
bool decimals_survive_float16(int digits) {
  int first_mantissa = 1;
  for (int i = 1; i < digits; ++i) first_mantissa *= 10;
  for (int exponent = -4; exponent < 4; ++exponent) {
    for (int mantissa = first_mantissa; mantissa < 10 * first_mantissa; ++mantissa) {
      const double value =
          std::stod(std::to_string(mantissa) + "e" + std::to_string(exponent - digits + 1));
      std::ostringstream original;
      std::ostringstream back;
      original << std::setprecision(digits) << value;
      back << std::setprecision(digits) << static_cast<float>(float16(value));
      if (original.str() != back.str()) return false;
    }
  }
  return true;
}

/// Whether every finite float16 printed with `digits` significant digits reads back as itself
/// (the property that defines max_digits10).
bool values_survive_decimal(int digits) {
  for (int bits = 0; bits < 0x7c00; ++bits) {
    std::ostringstream out;
    out << std::setprecision(digits) << reference_value(static_cast<std::uint16_t>(bits));
    if (float16(std::stod(out.str())).bits() != bits) return false;
  }
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(float16_test)

BOOST_AUTO_TEST_CASE(is_a_two_byte_value_that_converts_to_float_implicitly_only) {
  static_assert(sizeof(float16) == 2 && alignof(float16) == 2);
  static_assert(std::is_trivially_copyable_v<float16> && std::is_standard_layout_v<float16>);
  static_assert(std::is_convertible_v<float16, float>);
  static_assert(!std::is_convertible_v<float, float16> && !std::is_convertible_v<int, float16>);
  static_assert(std::is_constructible_v<float16, float> && std::is_constructible_v<float16, int>);
  const float16 h(1.5f);
  static_assert(std::is_same_v<decltype(h + 1.0f), float>);
  static_assert(std::is_same_v<decltype(2.0f * h), float>);
  static_assert(std::is_same_v<decltype(h + 1), float>);
  static_assert(std::is_same_v<decltype(h + 1.0), double>);
  static_assert(std::is_same_v<decltype(h + h), float16>);
  static_assert(std::is_same_v<decltype(-h), float16>);
  BOOST_TEST(h + 1.0f == 2.5f);
  const float16 zero;
  BOOST_TEST(zero.bits() == 0);
  BOOST_TEST(float16().bits() == 0);
  BOOST_TEST(float16{}.bits() == 0);
  BOOST_TEST(float16::from_bits(0x3e00).bits() == 0x3e00);
}

BOOST_AUTO_TEST_CASE(arithmetic_is_the_exact_result_rounded_once) {
  // Sums, differences and products of two binary16 values are exact in double; quotients are
  // rounded once to double, whose 53 bits make the second rounding to binary16 harmless.
  std::mt19937_64 rng(20240603);
  Mismatches mismatches;
  for (int i = 0; i < (1 << 18); ++i) {
    const auto a = float16::from_bits(static_cast<std::uint16_t>(rng()));
    const auto b = float16::from_bits(static_cast<std::uint16_t>(rng()));
    const double x = reference_value(a.bits());
    const double y = reference_value(b.bits());
    float16 compound = a;
    compound += b;
    const struct {
      const char* op;
      float16 got;
      double exact;
    } results[] = {{"+", a + b, x + y},
                   {"-", a - b, x - y},
                   {"*", a * b, x * y},
                   {"/", a / b, x / y},
                   {"+=", compound, x + y}};
    for (const auto& r : results) {
      const bool ok =
          std::isnan(r.exact) ? tx::isnan(r.got) : r.got.bits() == reference_round(r.exact);
      mismatches.check(ok, [&] {
        return hex(a.bits()) + " " + r.op + " " + hex(b.bits()) + " is " + hex(r.got.bits()) +
               ", exact " + exact(r.exact);
      });
    }
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(compound_assignment_takes_an_integer_float_or_double_operand) {
  static_assert(can_add_assign<float16> && can_add_assign<int> && can_add_assign<std::uint64_t> &&
                can_add_assign<float> && can_add_assign<double>);
  static_assert(!can_add_assign<long double> && !can_add_assign<int*>);
  float16 h(1.5f);
  h += 1.0f;
  BOOST_TEST(h.bits() == 0x4100);  // 2.5
  h *= 2;
  BOOST_TEST(h.bits() == 0x4500);  // 5
  h -= float16(1.0f);
  BOOST_TEST(h.bits() == 0x4400);  // 4
  h /= 8.0;
  BOOST_TEST(h.bits() == 0x3800);  // 0.5
  h += 65504.0;
  BOOST_TEST(h.bits() == 0x7bff);  // 65504.5 rounds back to 65504
  // A double operand is added in double: in float, 1 + 2^-11 + 2^-30 would round onto the
  // midpoint 1 + 2^-11 and then to the even 1.
  float16 one(1.0f);
  one += std::ldexp(1.0, -11) + std::ldexp(1.0, -30);
  BOOST_TEST(one.bits() == 0x3c01);
}

BOOST_AUTO_TEST_CASE(negation_flips_only_the_sign_bit) {
  Mismatches mismatches;
  for (int bits = 0; bits <= 0xffff; ++bits) {
    const auto h = float16::from_bits(static_cast<std::uint16_t>(bits));
    mismatches.check((-h).bits() == (bits ^ 0x8000) && (+h).bits() == bits,
                     [&] { return "negating " + hex(h.bits()) + " gives " + hex((-h).bits()); });
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(compares_like_the_values) {
  std::mt19937_64 rng(20240604);
  Mismatches mismatches;
  for (int i = 0; i < (1 << 18); ++i) {
    const auto a = float16::from_bits(static_cast<std::uint16_t>(rng()));
    // Every fourth pair compares a value with itself or its negation, where ties happen.
    const auto b =
        i % 4 == 0 ? (i % 8 == 0 ? a : -a) : float16::from_bits(static_cast<std::uint16_t>(rng()));
    const double x = reference_value(a.bits());
    const double y = reference_value(b.bits());
    const bool ok = (a == b) == (x == y) && (a != b) == (x != y) && (a < b) == (x < y) &&
                    (a <= b) == (x <= y) && (a > b) == (x > y) && (a >= b) == (x >= y);
    mismatches.check(ok, [&] { return "comparing " + hex(a.bits()) + " with " + hex(b.bits()); });
  }
  mismatches.report();
  BOOST_TEST((float16(0.0f) == float16(-0.0f)));  // extra parentheses: no tolerance decomposition
  BOOST_TEST(
      !(std::numeric_limits<float16>::quiet_NaN() == std::numeric_limits<float16>::quiet_NaN()));
}

BOOST_AUTO_TEST_CASE(classifies_every_encoding) {
  Mismatches mismatches;
  for (int bits = 0; bits <= 0xffff; ++bits) {
    const auto h = float16::from_bits(static_cast<std::uint16_t>(bits));
    const double x = reference_value(h.bits());
    mismatches.check(tx::isnan(h) == std::isnan(x) && tx::isinf(h) == std::isinf(x) &&
                         tx::isfinite(h) == std::isfinite(x),
                     [&] { return "misclassified " + hex(h.bits()); });
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(numeric_limits_describe_binary16) {
  using limits = std::numeric_limits<float16>;
  static_assert(limits::is_specialized && limits::is_signed && !limits::is_integer);
  static_assert(limits::is_iec559 && limits::has_infinity && limits::has_quiet_NaN);
  static_assert(limits::max().bits() == 0x7bff);  // usable in constant expressions
  BOOST_TEST(limits::digits == 11);
  BOOST_TEST(limits::radix == 2);
  BOOST_TEST(static_cast<float>(limits::max()) == 65504.0f);
  BOOST_TEST(static_cast<float>(limits::lowest()) == -65504.0f);
  BOOST_TEST(static_cast<float>(limits::min()) == std::ldexp(1.0f, -14));
  BOOST_TEST(static_cast<float>(limits::denorm_min()) == std::ldexp(1.0f, -24));
  BOOST_TEST(static_cast<float>(limits::epsilon()) == std::ldexp(1.0f, -10));
  BOOST_TEST(static_cast<float>(limits::round_error()) == 0.5f);
  BOOST_TEST(std::isinf(static_cast<float>(limits::infinity())));
  BOOST_TEST(static_cast<float>(limits::infinity()) > 0.0f);
  BOOST_TEST(tx::isnan(limits::quiet_NaN()));
  BOOST_TEST((limits::quiet_NaN().bits() & 0x0200) != 0);
  BOOST_TEST(tx::isnan(limits::signaling_NaN()));
  BOOST_TEST((limits::signaling_NaN().bits() & 0x0200) == 0);
  // The exponent and digit fields follow their definitions in the standard.
  BOOST_TEST(std::ldexp(1.0, limits::min_exponent - 1) == reference_value(limits::min().bits()));
  BOOST_TEST(std::ldexp(1.0, limits::max_exponent - 1) <= reference_value(limits::max().bits()));
  BOOST_TEST(std::ldexp(1.0, limits::max_exponent) > reference_value(limits::max().bits()));
  BOOST_TEST(std::pow(10.0, limits::min_exponent10) >= reference_value(limits::min().bits()));
  BOOST_TEST(std::pow(10.0, limits::min_exponent10 - 1) < reference_value(limits::min().bits()));
  BOOST_TEST(std::pow(10.0, limits::max_exponent10) <= reference_value(limits::max().bits()));
  BOOST_TEST(std::pow(10.0, limits::max_exponent10 + 1) > reference_value(limits::max().bits()));
  // digits10 and max_digits10 are the largest and smallest digit counts with their property.
  BOOST_TEST(decimals_survive_float16(limits::digits10));
  BOOST_TEST(!decimals_survive_float16(limits::digits10 + 1));
  BOOST_TEST(values_survive_decimal(limits::max_digits10));
  BOOST_TEST(!values_survive_decimal(limits::max_digits10 - 1));
}

BOOST_AUTO_TEST_CASE(prints_the_float_value) {
  const auto printed = [](float16 h) {
    std::ostringstream out;
    out << h;
    return out.str();
  };
  BOOST_TEST(printed(float16(1.5f)) == "1.5");
  BOOST_TEST(printed(float16(-0.0f)) == "-0");
  BOOST_TEST(printed(float16(65504)) == "65504");
  BOOST_TEST(printed(std::numeric_limits<float16>::infinity()) == "inf");
  std::ostringstream out;
  out << std::setprecision(3) << float16(0.1f);  // 0.0999755859375: the stream's format applies
  BOOST_TEST(out.str() == "0.1");
}

BOOST_AUTO_TEST_SUITE_END()
