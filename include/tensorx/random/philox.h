// Philox4x32-R, the counter-based random bijection of Salmon, Moraes, Dror and Shaw, "Parallel
// random numbers: as easy as 1, 2, 3" (SC'11), as Random123 defines it: a 128-bit counter and a
// 64-bit key go through R rounds, each two 32 x 32 -> 64-bit products whose halves are XORed with
// the other words and the key, the key bumped by the Weyl constants between rounds. The same
// (counter, key) gives the same four words on every host and device; R = 10 is the published
// default (Crush-resistant with a safety margin).
#pragma once

#include <cstdint>

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

/// Four 32-bit words: a Philox counter, or the block of random bits it maps to.
struct PhiloxBlock {
  std::uint32_t words[4];
};

/// The 64-bit Philox4x32 key.
struct PhiloxKey {
  std::uint32_t words[2];
};

/// The high and low halves of a * b.
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE void multiply_high_low(std::uint32_t a, std::uint32_t b,
                                                                std::uint32_t& high,
                                                                std::uint32_t& low) {
  const std::uint64_t product = static_cast<std::uint64_t>(a) * b;
  high = static_cast<std::uint32_t>(product >> 32);
  low = static_cast<std::uint32_t>(product);
}

/// Philox4x32 with kRounds rounds applied to `counter` under `key`.
template <int kRounds = 10>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE PhiloxBlock philox4x32(PhiloxBlock counter,
                                                                PhiloxKey key) {
  // The multipliers and Weyl increments (golden ratio and sqrt(3) - 1) of the paper.
  constexpr std::uint32_t kMultiplier0 = 0xD2511F53u, kMultiplier1 = 0xCD9E8D57u;
  constexpr std::uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  std::uint32_t* x = counter.words;
  TENSORX_UNROLL
  for (int round = 0; round < kRounds; ++round) {
    if (round > 0) {
      key.words[0] += kWeyl0;
      key.words[1] += kWeyl1;
    }
    std::uint32_t high0, low0, high1, low1;
    multiply_high_low(kMultiplier0, x[0], high0, low0);
    multiply_high_low(kMultiplier1, x[2], high1, low1);
    const PhiloxBlock next = {
        {high1 ^ x[1] ^ key.words[0], low1, high0 ^ x[3] ^ key.words[1], low0}};
    counter = next;
  }
  return counter;
}

}  // namespace detail
}  // namespace tensorx
