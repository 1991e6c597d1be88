// Independent references for the bfloat16 tests: an encoding decoded field by field with
// std::ldexp, and rounding found by searching the sorted bfloat16 magnitudes in long double, whose
// 64 significand bits hold every float, double and 64-bit integer exactly (x86-64).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace tensorx {
namespace testing {

static_assert(std::numeric_limits<long double>::digits >= 64,
              "The bfloat16 reference needs a long double that holds every 64-bit integer.");

/// The value of a bfloat16 encoding (NaN for NaNs): 1 sign bit, 8 exponent bits (bias 127), 7
/// fraction bits.
inline long double bfloat16_value(std::uint16_t bits) {
  const long double sign = (bits & 0x8000) != 0 ? -1.0L : 1.0L;
  const int exponent = (bits >> 7) & 0xff;
  const int fraction = bits & 0x7f;
  if (exponent == 0xff) {
    return fraction == 0 ? sign * std::numeric_limits<long double>::infinity() : std::nanl("");
  }
  if (exponent == 0) return sign * std::ldexp(static_cast<long double>(fraction), -133);
  return sign * std::ldexp(static_cast<long double>(128 + fraction), exponent - 134);
}

/// Entry i is the value of the non-negative encoding i for i <= 0x7f7f (the largest finite value);
/// the last entry is 2^128, the next value bfloat16 would have with an unbounded exponent, which
/// IEEE rounding maps to infinity.
inline const std::vector<long double>& bfloat16_magnitudes() {
  static const std::vector<long double> table = [] {
    std::vector<long double> values;
    for (int bits = 0; bits <= 0x7f7f; ++bits) {
      values.push_back(bfloat16_value(static_cast<std::uint16_t>(bits)));
    }
    values.push_back(std::ldexp(1.0L, 128));
    return values;
  }();
  return table;
}

/// The bfloat16 encoding nearest to x (not NaN), ties to the even encoding.
inline std::uint16_t bfloat16_round(long double x) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const long double magnitude = std::fabs(x);
  const auto& table = bfloat16_magnitudes();
  if (magnitude >= table.back()) return sign | 0x7f80;
  const auto above = std::upper_bound(table.begin(), table.end(), magnitude);
  const auto below = above - 1;
  // From the smallest subnormal up, adjacent values are within a factor of two, so both
  // differences are exact (Sterbenz); below it, x - 0 is exact and the other difference is far
  // from a tie, which lies at x = half the smallest subnormal, where it is exact again.
  const long double to_below = magnitude - *below;
  const long double to_above = *above - magnitude;
  auto index = below - table.begin();
  if (to_above < to_below || (to_above == to_below && index % 2 != 0)) ++index;
  return static_cast<std::uint16_t>(sign | index);
}

}  // namespace testing
}  // namespace tensorx
