// Independent references for the float16 tests: binary16 decoded field by field with std::ldexp,
// and rounding found by searching the sorted binary16 values in double precision.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace tensorx {
namespace testing {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline std::string hex(std::uint16_t bits) {
  std::ostringstream out;
  out << "0x" << std::hex << std::setw(4) << std::setfill('0') << bits;
  return out.str();
}

inline std::string exact(double value) {
  std::ostringstream out;
  out << std::hexfloat << value;
  return out.str();
}

/// The value of a binary16 encoding, decoded field by field (NaN for NaNs).
inline double reference_value(std::uint16_t bits) {
  const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1f;
  const int fraction = bits & 0x3ff;
  if (exponent == 31) return fraction == 0 ? sign * kInf : std::nan("");
  if (exponent == 0) return sign * std::ldexp(fraction, -24);
  return sign * std::ldexp(1024 + fraction, exponent - 25);
}

/// Entry i is the value of the non-negative encoding i for i <= 0x7bff; entry 0x7c00 is 65536,
/// the next value binary16 would have with an unbounded exponent, which IEEE rounding maps to
/// infinity (so x >= 65520 rounds to inf, and 65520 itself is a tie that goes to the even 0x7c00).
inline const std::vector<double>& magnitudes() {
  static const std::vector<double> table = [] {
    std::vector<double> values;
    for (int bits = 0; bits < 0x7c00; ++bits) {
      values.push_back(reference_value(static_cast<std::uint16_t>(bits)));
    }
    values.push_back(65536.0);
    return values;
  }();
  return table;
}

/// The binary16 encoding nearest to x (not NaN), ties to the even encoding.
inline std::uint16_t reference_round(double x) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double magnitude = std::fabs(x);
  const auto& table = magnitudes();
  if (magnitude >= table.back()) return sign | 0x7c00;
  const auto above = std::upper_bound(table.begin(), table.end(), magnitude);
  const auto below = above - 1;
  // Adjacent binary16 values are within a factor of two, so both differences are exact.
  const double to_below = magnitude - *below;
  const double to_above = *above - magnitude;
  auto index = below - table.begin();
  if (to_above < to_below || (to_above == to_below && index % 2 != 0)) ++index;
  return static_cast<std::uint16_t>(sign | index);
}

/// Counts failed checks in a large loop and keeps the first one, so a failure reports one line.
class Mismatches {
 public:
  template <class Describe>
  void check(bool ok, Describe describe) {
    if (!ok && count_++ == 0) first_ = describe();
  }
  void report() const { BOOST_TEST(count_ == 0, count_ << " mismatches, the first: " << first_); }

 private:
  long count_ = 0;
  std::string first_;
};

}  // namespace testing
}  // namespace tensorx
