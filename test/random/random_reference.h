// An independent scalar reference for the random numbers: Philox4x32 written from the paper with
// its key schedule in closed form (round r uses key + r * W), the uniform bits scaled with ldexp,
// and Box-Muller in long double with the C library's log, cos and sin.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace tensorx {
namespace testing {

struct Words {
  std::uint32_t w[4];
};

/// Philox4x32 with `rounds` rounds of (counter, key).
inline Words reference_philox(Words x, std::uint32_t k0, std::uint32_t k1, int rounds = 10) {
  for (int r = 0; r < rounds; ++r) {
    const std::uint32_t round_k0 = k0 + static_cast<std::uint32_t>(r) * 0x9E3779B9u;
    const std::uint32_t round_k1 = k1 + static_cast<std::uint32_t>(r) * 0xBB67AE85u;
    const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * x.w[0];
    const std::uint64_t p1 = std::uint64_t{0xCD9E8D57u} * x.w[2];
    x = Words{
        {static_cast<std::uint32_t>(p1 >> 32) ^ x.w[1] ^ round_k0, static_cast<std::uint32_t>(p1),
         static_cast<std::uint32_t>(p0 >> 32) ^ x.w[3] ^ round_k1, static_cast<std::uint32_t>(p0)}};
  }
  return x;
}

/// The block that draw (seed, offset) gives its elements of block number `block`.
inline Words reference_block(std::uint64_t seed, std::uint64_t offset, std::uint64_t block) {
  return reference_philox(
      Words{{static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
             static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(offset >> 32)}},
      static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

/// Element i of tx::uniform<T>(..., seed, offset) as a double, for T with `digits` significand
/// bits: from word i % 4 of block i / 4, or for 53 digits from words 2 (i % 2) and 2 (i % 2) + 1
/// of block i / 2.
inline double reference_uniform(std::uint64_t seed, std::uint64_t offset, std::uint64_t i,
                                int digits) {
  if (digits <= 32) {
    const Words block = reference_block(seed, offset, i / 4);
    return std::ldexp(static_cast<double>(block.w[i % 4] >> (32 - digits)), -digits);
  }
  const Words block = reference_block(seed, offset, i / 2);
  const std::uint64_t high = block.w[2 * (i % 2)], low = block.w[2 * (i % 2) + 1];
  return std::ldexp(static_cast<double>((high << 21) | (low >> 11)), -53);
}

/// Element i of tx::normal<T>(..., seed, offset) in long double: Box-Muller of (u1, u2) with u1 =
/// (k1 + 1) / 2^bits and u2 = k2 / 2^bits, cosine for even i, sine for odd i; 32-bit k from the
/// words 2 p and 2 p + 1 of block i / 4, p = (i % 4) / 2, or 53-bit k from words (0, 1) and
/// (2, 3) of block i / 2 when `wide`.
inline long double reference_normal(std::uint64_t seed, std::uint64_t offset, std::uint64_t i,
                                    bool wide) {
  std::uint64_t k1, k2;
  int bits;
  if (wide) {
    const Words b = reference_block(seed, offset, i / 2);
    k1 = (std::uint64_t{b.w[0]} << 21) | (b.w[1] >> 11);
    k2 = (std::uint64_t{b.w[2]} << 21) | (b.w[3] >> 11);
    bits = 53;
  } else {
    const Words b = reference_block(seed, offset, i / 4);
    const std::uint64_t pair = (i % 4) / 2;
    k1 = b.w[2 * pair];
    k2 = b.w[2 * pair + 1];
    bits = 32;
  }
  const long double u1 = std::ldexp(static_cast<long double>(k1) + 1, -bits);
  const long double u2 = std::ldexp(static_cast<long double>(k2), -bits);
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double r = std::sqrt(-2 * std::log(u1));
  return i % 2 == 0 ? r * std::cos(2 * pi * u2) : r * std::sin(2 * pi * u2);
}

}  // namespace testing
}  // namespace tensorx
