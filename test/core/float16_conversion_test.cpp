// float16 conversions against independent references: every one of the 65,536 encodings to float,
// and float, double and integer rounding to binary16 at every midpoint and on random values.
#include "tensorx/core/float16.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>

#include <boost/test/unit_test.hpp>

#include "core/float16_reference.h"
#include "tensorx/core/float_bits.h"

namespace tx = tensorx;
using tx::float16;
using tx::testing::exact;
using tx::testing::hex;
using tx::testing::kInf;
using tx::testing::magnitudes;
using tx::testing::Mismatches;
using tx::testing::reference_round;
using tx::testing::reference_value;

namespace {

/// Checks float16(x) for a float or double x against reference_round.
template <class Real>
void check_float16_rounding(Mismatches& mismatches, Real x) {
  const std::uint16_t got = float16(x).bits();
  const std::uint16_t expected = reference_round(x);
  mismatches.check(got == expected, [&] {
    return "float16(" + exact(x) + ") is " + hex(got) + ", expected " + hex(expected);
  });
}

/// A random finite float or double near the binary16 range, binade [2^-27, 2^18), any sign.
template <class Real, class Bits>
Real random_real(std::mt19937_64& rng) {
  constexpr int kMantissaBits = std::numeric_limits<Real>::digits - 1;
  const int exponent = std::uniform_int_distribution<int>(-27, 17)(rng);
  const Bits mantissa = rng() & ((Bits(1) << kMantissaBits) - 1);
  const Real magnitude = std::ldexp(static_cast<Real>(mantissa | (Bits(1) << kMantissaBits)),
                                    exponent - kMantissaBits);
  return (rng() & 1) != 0 ? -magnitude : magnitude;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(float16_conversion_test)

BOOST_AUTO_TEST_CASE(converts_every_encoding_to_the_exact_float) {
  Mismatches mismatches;
  for (int bits = 0; bits <= 0xffff; ++bits) {
    const float got = float16::from_bits(static_cast<std::uint16_t>(bits));
    const double expected = reference_value(static_cast<std::uint16_t>(bits));
    const bool ok = std::isnan(expected)
                        ? std::isnan(got)
                        : got == expected && std::signbit(got) == std::signbit(expected);
    mismatches.check(ok, [&] {
      return hex(bits) + " converts to " + exact(got) + ", expected " + exact(expected);
    });
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(round_trips_every_encoding_through_float_and_double) {
  Mismatches mismatches;
  for (int bits = 0; bits <= 0xffff; ++bits) {
    const float value = float16::from_bits(static_cast<std::uint16_t>(bits));
    // A NaN keeps its sign and payload and becomes quiet; every other value comes back unchanged.
    const int expected = std::isnan(value) ? (bits | 0x0200) : bits;
    const std::uint16_t via_float = float16(value).bits();
    const std::uint16_t via_double = float16(static_cast<double>(value)).bits();
    mismatches.check(via_float == expected && via_double == expected, [&] {
      return hex(bits) + " comes back as " + hex(via_float) + " (float), " + hex(via_double) +
             " (double)";
    });
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(rounds_midpoints_to_even_and_their_neighbours_to_the_nearer) {
  const auto& table = magnitudes();
  BOOST_TEST(
      (std::adjacent_find(table.begin(), table.end(), std::greater_equal<>()) == table.end()));
  Mismatches mismatches;
  for (std::size_t low = 0; low + 1 < table.size(); ++low) {
    const double midpoint = (table[low] + table[low + 1]) / 2;
    const auto even = static_cast<std::uint16_t>(low % 2 == 0 ? low : low + 1);
    const auto below = static_cast<std::uint16_t>(low);
    const auto above = static_cast<std::uint16_t>(low + 1);
    mismatches.check(static_cast<float>(midpoint) == midpoint && reference_round(midpoint) == even,
                     [&] { return "the reference disagrees at midpoint " + exact(midpoint); });
    const float midpoint_f = static_cast<float>(midpoint);
    const struct {
      float x;
      std::uint16_t expected;
    } float_cases[] = {{midpoint_f, even},
                       {std::nextafter(midpoint_f, 0.0f), below},
                       {std::nextafter(midpoint_f, 1e30f), above}};
    // Doubles one double-ulp off the midpoint are exactly where rounding through float would go
    // wrong: float would round them onto the midpoint, and the tie would then go to even.
    const struct {
      double x;
      std::uint16_t expected;
    } double_cases[] = {{midpoint, even},
                        {std::nextafter(midpoint, 0.0), below},
                        {std::nextafter(midpoint, kInf), above}};
    for (const auto& c : float_cases) {
      for (const float x : {c.x, -c.x}) {
        const std::uint16_t expected = std::signbit(x) ? c.expected | 0x8000 : c.expected;
        const std::uint16_t got = float16(x).bits();
        mismatches.check(got == expected, [&] {
          return "float16(" + exact(x) + "f) is " + hex(got) + ", expected " + hex(expected);
        });
      }
    }
    for (const auto& c : double_cases) {
      for (const double x : {c.x, -c.x}) {
        const std::uint16_t expected = std::signbit(x) ? c.expected | 0x8000 : c.expected;
        const std::uint16_t got = float16(x).bits();
        mismatches.check(got == expected, [&] {
          return "float16(" + exact(x) + ") is " + hex(got) + ", expected " + hex(expected);
        });
      }
    }
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(rounds_random_floats_like_the_reference) {
  std::mt19937_64 rng(20240601);
  Mismatches mismatches;
  for (int i = 0; i < (1 << 20); ++i)
    check_float16_rounding(mismatches, random_real<float, std::uint32_t>(rng));
  // Arbitrary encodings too, most of them far outside the binary16 range.
  for (int i = 0; i < (1 << 16); ++i) {
    std::uint32_t bits = static_cast<std::uint32_t>(rng());
    float x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isnan(x)) check_float16_rounding(mismatches, x);
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(rounds_random_doubles_like_the_reference) {
  std::mt19937_64 rng(20240602);
  Mismatches mismatches;
  for (int i = 0; i < (1 << 20); ++i) {
    check_float16_rounding(mismatches, random_real<double, std::uint64_t>(rng));
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(rounds_a_double_once_where_going_through_float_rounds_twice) {
  // Just above the midpoint of 1 (0x3c00) and 1 + 2^-10 (0x3c01): the nearest is 0x3c01, but float
  // rounds x onto the midpoint itself, and that tie goes to the even 0x3c00.
  const double normal = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30);
  BOOST_TEST(float16(static_cast<float>(normal)).bits() == 0x3c00);
  BOOST_TEST(float16(normal).bits() == 0x3c01);
  BOOST_TEST(float16(-normal).bits() == 0xbc01);
  // The same among subnormals: just above 2.5 * 2^-24, between 0x0002 and 0x0003.
  const double subnormal = std::ldexp(2.5, -24) + std::ldexp(1.0, -60);
  BOOST_TEST(float16(static_cast<float>(subnormal)).bits() == 0x0002);
  BOOST_TEST(float16(subnormal).bits() == 0x0003);
}

BOOST_AUTO_TEST_CASE(rounds_at_the_overflow_and_underflow_boundaries) {
  const float tiny = std::ldexp(1.0f, -24);
  const struct {
    float x;
    std::uint16_t expected;
  } cases[] = {
      {65504.0f, 0x7bff},                        // the largest finite value
      {std::nextafter(65520.0f, 0.0f), 0x7bff},  // nearer to 65504 than to 65536
      {65520.0f, 0x7c00},                        // the tie overflows to infinity
      {1e30f, 0x7c00},
      {-65520.0f, 0xfc00},
      {tiny, 0x0001},      // the smallest subnormal
      {tiny / 2, 0x0000},  // a tie between 0 and 2^-24: even 0
      {std::nextafter(tiny / 2, 1.0f), 0x0001},
      {-tiny / 2, 0x8000},
      {1.5f * tiny, 0x0002},     // a tie between 0x0001 and 0x0002
      {1023 * tiny, 0x03ff},     // the largest subnormal
      {1023.5f * tiny, 0x0400},  // rounds up into the smallest normal
      {std::ldexp(1.0f, -14), 0x0400},
      {std::numeric_limits<float>::denorm_min(), 0x0000},
      {-std::numeric_limits<float>::denorm_min(), 0x8000},
      {0.0f, 0x0000},
      {-0.0f, 0x8000},
      {std::numeric_limits<float>::infinity(), 0x7c00},
      {-std::numeric_limits<float>::infinity(), 0xfc00},
  };
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT("x = " << exact(c.x)) {
      BOOST_TEST(float16(c.x).bits() == c.expected);
      BOOST_TEST(float16(static_cast<double>(c.x)).bits() == c.expected);
      BOOST_TEST(reference_round(c.x) == c.expected);
    }
  }
}

BOOST_AUTO_TEST_CASE(nan_stays_nan_and_becomes_quiet) {
  const auto from_float_bits = [](std::uint32_t bits) {
    float x;
    std::memcpy(&x, &bits, sizeof x);
    return float16(x);
  };
  const float16 quiet(std::numeric_limits<float>::quiet_NaN());
  const float16 signaling = from_float_bits(0x7f800001u);  // payload only in the low bits
  const float16 negative = from_float_bits(0xffc00000u);
  const float16 from_double(std::numeric_limits<double>::signaling_NaN());
  for (const float16 h : {quiet, signaling, negative, from_double}) {
    BOOST_TEST_CONTEXT("bits " << hex(h.bits())) {
      BOOST_TEST(tx::isnan(h));
      BOOST_TEST((h.bits() & 0x0200) != 0);
      BOOST_TEST(std::isnan(static_cast<float>(h)));
    }
  }
  BOOST_TEST((negative.bits() & 0x8000) != 0);
  // Widening keeps the sign and payload and makes a signalling NaN quiet, as F16C does; the
  // device gives the same bits (test/cuda/narrow_float_cuda_test.cu).
  const auto widened_bits = [](std::uint16_t bits) {
    return tx::detail::bits_of(static_cast<float>(float16::from_bits(bits)));
  };
  BOOST_TEST(widened_bits(0xfe00) == 0xffc00000u);
  BOOST_TEST(widened_bits(0xfd01) == 0xffe02000u);
  BOOST_TEST(widened_bits(0x7c01) == 0x7fc02000u);
  BOOST_TEST(widened_bits(0x7c00) == 0x7f800000u, "infinity stays infinity");
}

BOOST_AUTO_TEST_CASE(converts_integers_with_one_rounding) {
  BOOST_TEST(float16(0).bits() == 0x0000);
  BOOST_TEST(float16(1).bits() == 0x3c00);
  BOOST_TEST(float16(-2).bits() == 0xc000);
  BOOST_TEST(float16(2049).bits() == 0x6800);  // tie between 2048 and 2050: even 2048
  BOOST_TEST(float16(2051).bits() == 0x6802);  // tie between 2050 and 2052: even 2052
  BOOST_TEST(float16(65519).bits() == 0x7bff);
  BOOST_TEST(float16(65520).bits() == 0x7c00);
  BOOST_TEST(float16(std::numeric_limits<std::int64_t>::max()).bits() == 0x7c00);
  BOOST_TEST(float16(std::numeric_limits<std::int64_t>::min()).bits() == 0xfc00);
  BOOST_TEST(float16(std::numeric_limits<std::uint64_t>::max()).bits() == 0x7c00);
  BOOST_TEST(float16(static_cast<unsigned char>(255)).bits() == 0x5bf8);
  BOOST_TEST(float16(static_cast<short>(-300)).bits() == 0xdcb0);
  Mismatches mismatches;
  for (int i = -70000; i <= 70000; ++i) {
    const std::uint16_t got = float16(i).bits();
    mismatches.check(got == reference_round(i), [&] {
      return "float16(" + std::to_string(i) + ") is " + hex(got) + ", expected " +
             hex(reference_round(i));
    });
  }
  mismatches.report();
}

BOOST_AUTO_TEST_SUITE_END()
