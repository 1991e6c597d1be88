// bfloat16 as a number: its type properties, arithmetic rounded once, comparisons, classification,
// numeric_limits and printing, each checked against the value decoded independently
// (core/bfloat16_reference.h).
#include "tensorx/core/bfloat16.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>

#include <boost/test/unit_test.hpp>

#include "core/bfloat16_reference.h"
#include "core/float16_reference.h"
#include "tensorx/core/compute_type.h"
#include "tensorx/core/float16.h"

namespace tx = tensorx;
using tx::bfloat16;
using tx::testing::bfloat16_round;
using tx::testing::bfloat16_value;
using tx::testing::exact;
using tx::testing::hex;
using tx::testing::Mismatches;

BOOST_AUTO_TEST_SUITE(bfloat16_test)

BOOST_AUTO_TEST_CASE(is_a_two_byte_value_that_computes_in_float) {
  static_assert(sizeof(bfloat16) == 2 && alignof(bfloat16) == 2);
  static_assert(std::is_trivially_copyable_v<bfloat16> && std::is_standard_layout_v<bfloat16>);
  static_assert(std::is_convertible_v<bfloat16, float>);
  static_assert(!std::is_convertible_v<float, bfloat16> && !std::is_convertible_v<int, bfloat16>);
  static_assert(std::is_constructible_v<bfloat16, double> &&
                std::is_constructible_v<bfloat16, std::int64_t>);
  static_assert(std::is_same_v<tx::compute_t<bfloat16>, float>);
  static_assert(tx::is_narrow_float_v<bfloat16> && tx::is_floating_element_v<bfloat16>);
  static_assert(!tx::is_narrow_float_v<float> && tx::is_floating_element_v<double>);
  const bfloat16 h(1.5f);
  static_assert(std::is_same_v<decltype(h + 1.0f), float>);
  static_assert(std::is_same_v<decltype(h + 1.0), double>);
  static_assert(std::is_same_v<decltype(h * h), bfloat16>);
  static_assert(std::is_same_v<decltype(-h), bfloat16>);
  // The two narrow types meet in float.
  static_assert(std::is_same_v<decltype(h + tx::float16(1.0f)), float>);
  BOOST_TEST(h + 1.0f == 2.5f);
  BOOST_TEST(bfloat16().bits() == 0);
  BOOST_TEST(bfloat16::from_bits(0x3fc0).bits() == 0x3fc0);
  BOOST_TEST(static_cast<float>(bfloat16(tx::float16(0.1f))) == 0.10009765625f);
}

BOOST_AUTO_TEST_CASE(arithmetic_is_the_exact_result_rounded_once) {
  // Each operation is computed in double and rounded to bfloat16: 53 >= 2 * 8 + 2 bits make that
  // second rounding harmless for +, -, * and / (Figueroa), so this is the correctly rounded result.
  std::mt19937_64 rng(20240614);
  Mismatches mismatches;
  for (int i = 0; i < (1 << 18); ++i) {
    const auto a = bfloat16::from_bits(static_cast<std::uint16_t>(rng()));
    const auto b = bfloat16::from_bits(static_cast<std::uint16_t>(rng()));
    const auto x = static_cast<double>(bfloat16_value(a.bits()));
    const auto y = static_cast<double>(bfloat16_value(b.bits()));
    bfloat16 compound = a;
    compound *= b;
    const struct {
      const char* op;
      bfloat16 got;
      double exact;
    } results[] = {{"+", a + b, x + y},
                   {"-", a - b, x - y},
                   {"*", a * b, x * y},
                   {"/", a / b, x / y},
                   {"*=", compound, x * y}};
    for (const auto& r : results) {
      const bool ok =
          std::isnan(r.exact) ? tx::isnan(r.got) : r.got.bits() == bfloat16_round(r.exact);
      mismatches.check(ok, [&] {
        return hex(a.bits()) + " " + r.op + " " + hex(b.bits()) + " is " + hex(r.got.bits()) +
               ", exact " + exact(r.exact);
      });
    }
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(compound_assignment_computes_in_the_wider_type) {
  bfloat16 h(1.5f);
  h += 1;
  BOOST_TEST(h.bits() == 0x4020);  // 2.5
  h *= 2.0f;
  BOOST_TEST(h.bits() == 0x40a0);  // 5
  h -= bfloat16(1.0f);
  BOOST_TEST(h.bits() == 0x4080);  // 4
  h /= 8.0;
  BOOST_TEST(h.bits() == 0x3f00);  // 0.5
  // A double operand is added in double: in float, 1 + 2^-8 + 2^-30 would round onto the
  // midpoint 1 + 2^-8 and then to the even 1.
  bfloat16 one(1.0f);
  one += std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
  BOOST_TEST(one.bits() == 0x3f81);
}

BOOST_AUTO_TEST_CASE(negation_flips_only_the_sign_bit_and_comparisons_follow_the_values) {
  Mismatches mismatches;
  std::mt19937_64 rng(20240615);
  for (int bits = 0; bits <= 0xffff; ++bits) {
    const auto a = bfloat16::from_bits(static_cast<std::uint16_t>(bits));
    const auto b = bits % 4 == 0 ? -a : bfloat16::from_bits(static_cast<std::uint16_t>(rng()));
    const long double x = bfloat16_value(a.bits());
    const long double y = bfloat16_value(b.bits());
    mismatches.check((-a).bits() == (bits ^ 0x8000) && (+a).bits() == bits,
                     [&] { return "negating " + hex(a.bits()) + " gives " + hex((-a).bits()); });
    const bool ok = (a == b) == (x == y) && (a != b) == (x != y) && (a < b) == (x < y) &&
                    (a <= b) == (x <= y) && (a > b) == (x > y) && (a >= b) == (x >= y);
    mismatches.check(ok, [&] { return "comparing " + hex(a.bits()) + " with " + hex(b.bits()); });
    mismatches.check(tx::isnan(a) == std::isnan(x) && tx::isinf(a) == std::isinf(x) &&
                         tx::isfinite(a) == std::isfinite(x),
                     [&] { return "misclassified " + hex(a.bits()); });
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(numeric_limits_describe_bfloat16) {
  using limits = std::numeric_limits<bfloat16>;
  static_assert(limits::is_specialized && limits::is_signed && !limits::is_integer);
  static_assert(limits::has_infinity && limits::has_quiet_NaN && limits::max().bits() == 0x7f7f);
  BOOST_TEST(limits::digits == 8);
  const auto value = [](bfloat16 h) { return bfloat16_value(h.bits()); };
  BOOST_TEST(value(limits::max()) == std::ldexp(255.0L, 120));  // (2 - 2^-7) 2^127
  BOOST_TEST(value(limits::lowest()) == -value(limits::max()));
  BOOST_TEST(value(limits::min()) == std::ldexp(1.0L, -126));
  BOOST_TEST(value(limits::denorm_min()) == std::ldexp(1.0L, -133));
  BOOST_TEST(value(limits::epsilon()) == std::ldexp(1.0L, -7));
  BOOST_TEST(value(limits::round_error()) == 0.5L);
  BOOST_TEST((std::isinf(value(limits::infinity())) && value(limits::infinity()) > 0));
  BOOST_TEST((tx::isnan(limits::quiet_NaN()) && (limits::quiet_NaN().bits() & 0x0040) != 0));
  BOOST_TEST(
      (tx::isnan(limits::signaling_NaN()) && (limits::signaling_NaN().bits() & 0x0040) == 0));
  // The exponent fields follow their definitions in the standard; the range is float's.
  BOOST_TEST(std::ldexp(1.0L, limits::min_exponent - 1) == value(limits::min()));
  BOOST_TEST(limits::min_exponent == std::numeric_limits<float>::min_exponent);
  BOOST_TEST(limits::max_exponent == std::numeric_limits<float>::max_exponent);
  BOOST_TEST(limits::max_exponent10 == std::numeric_limits<float>::max_exponent10);
  BOOST_TEST(limits::min_exponent10 == std::numeric_limits<float>::min_exponent10);
  // max_digits10 decimal digits always read back as the value, digits10 digits always survive.
  Mismatches mismatches;
  for (int bits = 0; bits <= 0x7f7f; ++bits) {
    std::ostringstream out;
    out.precision(limits::max_digits10);
    out << static_cast<float>(bfloat16::from_bits(static_cast<std::uint16_t>(bits)));
    mismatches.check(bfloat16(std::strtof(out.str().c_str(), nullptr)).bits() == bits,
                     [&] { return hex(bits) + " printed as " + out.str(); });
  }
  for (int mantissa = 10; mantissa < 100; ++mantissa) {
    const double decimal = mantissa / 10.0;
    std::ostringstream original, back;
    original.precision(limits::digits10);
    back.precision(limits::digits10);
    original << decimal;
    back << static_cast<float>(bfloat16(decimal));
    mismatches.check(original.str() == back.str(), [&] { return original.str() + " survives"; });
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(prints_the_float_value) {
  const auto printed = [](bfloat16 h) {
    std::ostringstream out;
    out << h;
    return out.str();
  };
  BOOST_TEST(printed(bfloat16(1.5f)) == "1.5");
  BOOST_TEST(printed(bfloat16(-0.0f)) == "-0");
  BOOST_TEST(printed(bfloat16(256)) == "256");
  BOOST_TEST(printed(bfloat16(0.1f)) == "0.100098");  // the stream's default 6 digits
  BOOST_TEST(printed(std::numeric_limits<bfloat16>::infinity()) == "inf");
}

BOOST_AUTO_TEST_SUITE_END()
