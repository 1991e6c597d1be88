// The logarithm and the sine and cosine that tx::normal needs, computed with the same sequence of
// correctly rounded IEEE double operations on the host and on a GPU, so that normal draws are
// bitwise the same on both. The C library's and CUDA's log, sin and cos differ in their last bits,
// and a compiler may fuse a product and a sum into one FMA on one side only; here every product
// that meets a sum is an explicit fma, and no other product does, so no fusing is left to either
// compiler. (nvcc's --use_fast_math replaces division and square root and breaks this.)
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "tensorx/core/config.h"
#include "tensorx/core/float_bits.h"
#include "tensorx/core/float_ops.h"

namespace tensorx {
namespace detail {

/// The natural logarithm of a normal positive double u (within about 2 ulps).
TENSORX_HOST_DEVICE inline double reproducible_log(double u) {
  // u = m * 2^e with m in [sqrt(1/2), sqrt(2)), split off exactly through the bit pattern.
  const std::uint64_t bits = bits_of(u);
  int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  double m =
      double_from_bits((bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1023} << 52));
  if (m > 1.4142135623730951) {
    m = m * 0.5;
    ++exponent;
  }
  // log m = 2 atanh(s) = 2 (s + s^3 / 3 + s^5 / 5 + ...) with |s| <= 0.1716: terms to s^19 leave
  // an error below 2^-55 of the result. m - 1 is exact (Sterbenz).
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  constexpr double kSeries[] = {2.0 / 17, 2.0 / 15, 2.0 / 13, 2.0 / 11,
                                2.0 / 9,  2.0 / 7,  2.0 / 5,  2.0 / 3};
  double series = 2.0 / 19;
  for (const double c : kSeries) series = fused_multiply_add(series, s2, c);
  const double log_m = fused_multiply_add(s * s2, series, 2.0 * s);
  return fused_multiply_add(static_cast<double>(exponent), 0.6931471805599453, log_m);
}

/// sin and cos of 2 pi k / 2^kBits for an integer 0 <= k < 2^kBits (kBits at most 53): the
/// fraction of a turn splits exactly into an octant and a fraction f of it, and the polynomials
/// run on an angle of at most pi / 4.
template <int kBits>
TENSORX_HOST_DEVICE inline void reproducible_sincos_of_turn(std::uint64_t k, double& sine,
                                                            double& cosine) {
  static_assert(kBits >= 3 && kBits <= 53, "The fraction of a turn must fit a double.");
  const int octant = static_cast<int>(k >> (kBits - 3));
  const double f = static_cast<double>(k & ((std::uint64_t{1} << (kBits - 3)) - 1)) /
                   static_cast<double>(std::uint64_t{1} << (kBits - 3));
  // In odd octants the angle is measured back from the octant's end: 1 - f is exact.
  const double theta = ((octant & 1) != 0 ? 1.0 - f : f) * 0.78539816339744831;  // pi / 4
  const double t2 = theta * theta;
  // Taylor series to theta^15 and theta^16: below 2^-55 for theta <= pi / 4.
  constexpr double kSine[] = {1.0 / 6227020800, -1.0 / 39916800, 1.0 / 362880,
                              -1.0 / 5040,      1.0 / 120,       -1.0 / 6};
  double p = -1.0 / 1307674368000;
  for (const double c : kSine) p = fused_multiply_add(p, t2, c);
  const double sin_theta = fused_multiply_add(theta * t2, p, theta);
  constexpr double kCosine[] = {-1.0 / 87178291200, 1.0 / 479001600, -1.0 / 3628800, 1.0 / 40320,
                                -1.0 / 720,         1.0 / 24,        -1.0 / 2};
  double q = 1.0 / 20922789888000;
  for (const double c : kCosine) q = fused_multiply_add(q, t2, c);
  const double cos_theta = fused_multiply_add(t2, q, 1.0);
  // Octants 1, 2, 5 and 6 swap the roles of sine and cosine; the sine is negative in octants 4
  // to 7, the cosine in octants 2 to 5.
  const bool swap = ((octant + 1) & 2) != 0;
  const double s = swap ? cos_theta : sin_theta;
  const double c = swap ? sin_theta : cos_theta;
  sine = octant >= 4 ? -s : s;
  cosine = (octant >= 2 && octant <= 5) ? -c : c;
}

}  // namespace detail
}  // namespace tensorx
