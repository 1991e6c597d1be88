// bfloat16 conversions against the independent reference of core/bfloat16_reference.h: every one
// of the 65,536 encodings to float and back, float and double rounding at every midpoint between
// two encodings and at its neighbours, random values, integers, NaNs, and the SIMD batch
// conversions of the CPU loops, which must give the bits of the scalar ones.
#include "tensorx/core/bfloat16.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include <boost/test/unit_test.hpp>

#include "core/bfloat16_reference.h"
#include "core/float16_reference.h"
#include "tensorx/core/lanes.h"
#include "tensorx/core/simd_storage.h"

namespace tx = tensorx;
using tx::bfloat16;
using tx::testing::bfloat16_magnitudes;
using tx::testing::bfloat16_round;
using tx::testing::bfloat16_value;
using tx::testing::exact;
using tx::testing::hex;
using tx::testing::Mismatches;

namespace {

float float_from_bits(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

/// Checks bfloat16(x) against the reference for a float, double or integer x.
template <class X>
void check_bfloat16_rounding(Mismatches& mismatches, X x, std::uint16_t expected) {
  const std::uint16_t got = bfloat16(x).bits();
  mismatches.check(got == expected, [&] {
    return "bfloat16(" + exact(static_cast<double>(x)) + ") is " + hex(got) + ", expected " +
           hex(expected);
  });
}
template <class X>
void check_bfloat16_rounding(Mismatches& mismatches, X x) {
  check_bfloat16_rounding(mismatches, x, bfloat16_round(static_cast<long double>(x)));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bfloat16_conversion_test)

BOOST_AUTO_TEST_CASE(converts_every_encoding_to_the_exact_float) {
  Mismatches mismatches;
  for (int bits = 0; bits <= 0xffff; ++bits) {
    const float got = bfloat16::from_bits(static_cast<std::uint16_t>(bits));
    const long double expected = bfloat16_value(static_cast<std::uint16_t>(bits));
    const bool ok = std::isnan(expected)
                        ? std::isnan(got)
                        : got == expected && std::signbit(got) == std::signbit(expected);
    mismatches.check(ok, [&] {
      return hex(bits) + " converts to " + exact(got) + ", expected " +
             exact(static_cast<double>(expected));
    });
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(round_trips_every_encoding_through_float_and_double) {
  Mismatches mismatches;
  for (int bits = 0; bits <= 0xffff; ++bits) {
    const float value = bfloat16::from_bits(static_cast<std::uint16_t>(bits));
    // A NaN keeps its sign and payload and becomes quiet; every other value comes back unchanged.
    const int expected = std::isnan(value) ? (bits | 0x0040) : bits;
    const std::uint16_t via_float = bfloat16(value).bits();
    const std::uint16_t via_double = bfloat16(static_cast<double>(value)).bits();
    mismatches.check(via_float == expected && via_double == expected, [&] {
      return hex(bits) + " comes back as " + hex(via_float) + " (float), " + hex(via_double) +
             " (double)";
    });
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(rounds_every_midpoint_to_even_and_its_neighbours_to_the_nearer) {
  const auto& table = bfloat16_magnitudes();
  const float kInfinity = std::numeric_limits<float>::infinity();
  Mismatches mismatches;
  for (std::size_t low = 0; low + 1 < table.size(); ++low) {
    // A midpoint has 9 significant bits: exact in float, subnormal midpoints included.
    const auto midpoint = static_cast<float>((table[low] + table[low + 1]) / 2);
    const auto below = static_cast<std::uint16_t>(low);
    const auto above = static_cast<std::uint16_t>(low + 1);
    const auto even = low % 2 == 0 ? below : above;
    mismatches.check(
        midpoint == (table[low] + table[low + 1]) / 2 && bfloat16_round(midpoint) == even,
        [&] { return "the reference disagrees at midpoint " + exact(midpoint); });
    const double wide = midpoint;
    for (const int sign : {1, -1}) {
      const std::uint16_t sign_bit = sign < 0 ? 0x8000 : 0;
      check_bfloat16_rounding(mismatches, sign * midpoint, even | sign_bit);
      check_bfloat16_rounding(mismatches, sign * std::nextafter(midpoint, 0.0f), below | sign_bit);
      check_bfloat16_rounding(mismatches, sign * std::nextafter(midpoint, kInfinity),
                              above | sign_bit);
      check_bfloat16_rounding(mismatches, sign * wide, even | sign_bit);
      // One double ulp off the midpoint is exactly where rounding through float would go wrong:
      // float would round onto the midpoint, and the tie would then go to even.
      check_bfloat16_rounding(mismatches, sign * std::nextafter(wide, 0.0), below | sign_bit);
      check_bfloat16_rounding(mismatches, sign * std::nextafter(wide, 1e300), above | sign_bit);
    }
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(rounds_random_floats_and_doubles_like_the_reference) {
  std::mt19937_64 rng(20240611);
  Mismatches mismatches;
  for (int i = 0; i < (1 << 20); ++i) {
    const float x = float_from_bits(static_cast<std::uint32_t>(rng()));
    if (!std::isnan(x)) check_bfloat16_rounding(mismatches, x);
  }
  for (int i = 0; i < (1 << 18); ++i) {
    std::uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isnan(x)) check_bfloat16_rounding(mismatches, x);
    // The same near float's range, where bfloat16 has values.
    const double near = std::ldexp(std::uniform_real_distribution<double>(-1.0, 1.0)(rng),
                                   std::uniform_int_distribution<int>(-140, 130)(rng));
    check_bfloat16_rounding(mismatches, near);
  }
  mismatches.report();
}

BOOST_AUTO_TEST_CASE(rounds_at_the_overflow_and_underflow_boundaries) {
  const float max = bfloat16_value(0x7f7f);
  const float tie_to_infinity = std::ldexp(1.0f, 128 - 9) * 511;  // 2^128 (1 - 2^-9)
  const float subnormal = std::ldexp(1.0f, -133);
  const struct {
    float x;
    std::uint16_t expected;
  } cases[] = {
      {max, 0x7f7f},
      {std::nextafter(tie_to_infinity, 0.0f), 0x7f7f},
      {tie_to_infinity, 0x7f80},  // the tie goes to the even encoding, infinity
      {std::numeric_limits<float>::max(), 0x7f80},
      {-std::numeric_limits<float>::max(), 0xff80},
      {subnormal, 0x0001},
      {subnormal / 2, 0x0000},  // a tie between 0 and the smallest subnormal: even 0
      {std::nextafter(subnormal / 2, 1.0f), 0x0001},
      {-subnormal / 2, 0x8000},
      {std::numeric_limits<float>::denorm_min(), 0x0000},
      {std::numeric_limits<float>::min(), 0x0080},
      {std::nextafter(std::numeric_limits<float>::min(), 0.0f), 0x0080},  // rounds up to normal
      {0.0f, 0x0000},
      {-0.0f, 0x8000},
      {std::numeric_limits<float>::infinity(), 0x7f80},
      {-std::numeric_limits<float>::infinity(), 0xff80},
  };
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT("x = " << exact(c.x)) {
      BOOST_TEST(bfloat16(c.x).bits() == c.expected);
      BOOST_TEST(bfloat16(static_cast<double>(c.x)).bits() == c.expected);
      BOOST_TEST(bfloat16_round(c.x) == c.expected);
    }
  }
  // Doubles far outside float's range.
  BOOST_TEST(bfloat16(1e300).bits() == 0x7f80);
  BOOST_TEST(bfloat16(-1e-300).bits() == 0x8000);
}

BOOST_AUTO_TEST_CASE(nan_stays_nan_keeps_its_sign_and_becomes_quiet) {
  const bfloat16 cases[] = {
      bfloat16(std::numeric_limits<float>::quiet_NaN()),
      bfloat16(float_from_bits(0x7f800001u)),  // payload only in the dropped half
      bfloat16(float_from_bits(0xff800001u)),
      bfloat16(float_from_bits(0xffc00000u)),
      bfloat16(std::numeric_limits<double>::signaling_NaN()),
      bfloat16(-std::numeric_limits<double>::quiet_NaN()),
  };
  for (const bfloat16 h : cases) {
    BOOST_TEST_CONTEXT("bits " << hex(h.bits())) {
      BOOST_TEST(tx::isnan(h));
      BOOST_TEST((h.bits() & 0x0040) != 0);
      BOOST_TEST(std::isnan(static_cast<float>(h)));
    }
  }
  BOOST_TEST(cases[0].bits() == 0x7fc0);
  BOOST_TEST(cases[1].bits() == 0x7fc0);
  BOOST_TEST(cases[2].bits() == 0xffc0);
  BOOST_TEST(cases[3].bits() == 0xffc0);
  BOOST_TEST((cases[5].bits() & 0x8000) != 0);
}

BOOST_AUTO_TEST_CASE(converts_integers_with_one_rounding) {
  BOOST_TEST(bfloat16(0).bits() == 0x0000);
  BOOST_TEST(bfloat16(1).bits() == 0x3f80);
  BOOST_TEST(bfloat16(-2).bits() == 0xc000);
  BOOST_TEST(bfloat16(257).bits() == 0x4380);  // a tie between 256 and 258: even 256
  BOOST_TEST(bfloat16(259).bits() == 0x4382);  // a tie between 258 and 260: even 260
  // Just above the tie between 2^60 and 2^60 + 2^53: the integer rounds up, while through double
  // it would land on the tie itself and go to the even 2^60.
  const std::int64_t above_tie = (std::int64_t{1} << 60) + (std::int64_t{1} << 52) + 1;
  BOOST_TEST(bfloat16(static_cast<double>(above_tie)).bits() == 0x5d80);
  BOOST_TEST(bfloat16(above_tie).bits() == 0x5d81);
  BOOST_TEST(bfloat16(-above_tie).bits() == 0xdd81);
  BOOST_TEST(bfloat16(static_cast<std::uint64_t>(above_tie)).bits() == 0x5d81);
  Mismatches mismatches;
  for (const auto x : {std::numeric_limits<std::int64_t>::max(),
                       std::numeric_limits<std::int64_t>::min(), std::int64_t{-(1 << 24) - 3}}) {
    check_bfloat16_rounding(mismatches, x);
  }
  check_bfloat16_rounding(mismatches, std::numeric_limits<std::uint64_t>::max());
  check_bfloat16_rounding(mismatches, std::numeric_limits<std::int32_t>::min());
  for (int i = -70000; i <= 70000; ++i) check_bfloat16_rounding(mismatches, i);
  std::mt19937_64 rng(20240612);
  for (int i = 0; i < (1 << 16); ++i) {
    const auto x = static_cast<std::int64_t>(rng() >> (1 + rng() % 63));
    check_bfloat16_rounding(mismatches, x);
    check_bfloat16_rounding(mismatches, -x);
    check_bfloat16_rounding(mismatches, static_cast<std::uint64_t>(rng()));
  }
  mismatches.report();
}

#if TENSORX_HAS_SIMD
BOOST_AUTO_TEST_CASE(simd_batches_convert_exactly_like_single_values) {
  using B = tx::detail::simd_batch_t<float>;
  constexpr bool kInRegisters = tx::detail::batch_storage_v<bfloat16, B>;
  BOOST_TEST_MESSAGE("bfloat16 converts in SIMD registers on this target: " << kInRegisters);
  if constexpr (kInRegisters) {
    Mismatches mismatches;
    std::array<bfloat16, B::size> patterns, stored;
    std::array<float, B::size> floats;
    // Every encoding loads as its float, and every float of an encoding stores as the encoding
    // (NaNs made quiet).
    for (int first = 0; first <= 0xffff; first += static_cast<int>(B::size)) {
      for (std::size_t l = 0; l < B::size; ++l) {
        patterns[l] = bfloat16::from_bits(static_cast<std::uint16_t>(first + l));
      }
      tx::detail::load_batch<B>(patterns.data()).store_unaligned(floats.data());
      tx::detail::store_batch(stored.data(), B::load_unaligned(floats.data()));
      for (std::size_t l = 0; l < B::size; ++l) {
        const float want = patterns[l];
        mismatches.check(std::memcmp(&floats[l], &want, sizeof want) == 0 &&
                             stored[l].bits() == bfloat16(want).bits(),
                         [&] { return "batch lanes of " + hex(patterns[l].bits()); });
      }
    }
    // Random float bit patterns, NaNs, infinities and subnormals among them.
    std::mt19937_64 rng(20240613);
    for (int i = 0; i < (1 << 16); ++i) {
      for (float& f : floats) f = float_from_bits(static_cast<std::uint32_t>(rng()));
      tx::detail::store_batch(stored.data(), B::load_unaligned(floats.data()));
      for (std::size_t l = 0; l < B::size; ++l) {
        mismatches.check(stored[l].bits() == bfloat16(floats[l]).bits(), [&] {
          return "a batch lane stores " + exact(floats[l]) + " differently";
        });
      }
    }
    mismatches.report();
  }
}
#endif

BOOST_AUTO_TEST_CASE(a_16_byte_block_widens_like_single_values) {
  // convert_lanes widens a block's bfloat16 pairs through their 32-bit words (the GPU kernels'
  // 16-byte loads): every encoding, in either half of a word, gives its float's bits.
  Mismatches mismatches;
  tx::detail::LaneBlock<bfloat16, 8> block;
  for (int first = 0; first <= 0xffff; first += 8) {
    for (int l = 0; l < 8; ++l) {
      block.values[l] = bfloat16::from_bits(static_cast<std::uint16_t>(first + l));
    }
    const auto lanes = tx::detail::convert_lanes<float>(block);
    for (int l = 0; l < 8; ++l) {
      const float want = block.values[l];
      mismatches.check(std::memcmp(&lanes[l], &want, sizeof want) == 0, [&] {
        return "lane " + std::to_string(l) + " of " + hex(static_cast<std::uint16_t>(first + l));
      });
    }
  }
  mismatches.report();
}

BOOST_AUTO_TEST_SUITE_END()
