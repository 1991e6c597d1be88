// How the four 32-bit words of a Philox block become numbers: uniform in [0, 1) with as many random
// bits as the element type has significand bits, and standard normal by the Box-Muller transform.
// Each distribution says how many consecutive elements one block serves (kPerBlock) and computes
// them all at once.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tensorx/core/compute_type.h"
#include "tensorx/core/config.h"
#include "tensorx/random/philox.h"
#include "tensorx/random/reproducible_math.h"

namespace tensorx {
namespace detail {

/// The top kBits of the 64 bits w0:w1.
template <int kBits>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE std::uint64_t top_bits(std::uint32_t w0,
                                                                std::uint32_t w1) {
  return ((static_cast<std::uint64_t>(w0) << 32) | w1) >> (64 - kBits);
}

/// Uniform in [0, 1): k / 2^d for d random bits k, d the significand bits of T (24 for float, 53
/// for double, 11 for float16, 8 for bfloat16), so that every value is exact in T and 1 is never
/// reached. Element e of a block uses word e (two words, e * 2 and e * 2 + 1, for double).
template <class T>
struct UniformDistribution {
  using value_type = compute_t<T>;
  static constexpr int kDigits = std::numeric_limits<T>::digits;
  static constexpr int kWords = kDigits > 32 ? 2 : 1;
  static constexpr int kPerBlock = 4 / kWords;

  TENSORX_HOST_DEVICE static void values(const PhiloxBlock& block, value_type* out) {
    constexpr value_type kScale = static_cast<value_type>(1) / (std::uint64_t{1} << kDigits);
    TENSORX_UNROLL
    for (int e = 0; e < kPerBlock; ++e) {
      if constexpr (kWords == 1) {
        // At most 24 bits, converted as a 32-bit signed integer: one instruction on a GPU
        // (a 64-bit conversion was two of the conversion unit's I2F.U64, SASS sm_90) and on x86.
        const auto bits = static_cast<std::int32_t>(block.words[e] >> (32 - kDigits));
        out[e] = static_cast<value_type>(bits) * kScale;
      } else {
        const std::uint64_t bits = top_bits<kDigits>(block.words[2 * e], block.words[2 * e + 1]);
        out[e] = static_cast<value_type>(bits) * kScale;
      }
    }
  }
};

/// Standard normal by Box-Muller: from uniforms u1 in (0, 1] and u2 in [0, 1),
/// r = sqrt(-2 ln u1) gives r cos(2 pi u2) and r sin(2 pi u2), two independent normals. double
/// takes u1 and u2 with 53 bits each from the block's four words and gives two elements (cosine
/// first); the other types take 32-bit u1 and u2 from words (0, 1) and (2, 3) and give four, all
/// computed in double (reproducible_math.h) and rounded once to their compute type.
template <class T>
struct NormalDistribution {
  using value_type = compute_t<T>;
  static constexpr int kBits = std::is_same_v<T, double> ? 53 : 32;
  static constexpr int kPerBlock = std::is_same_v<T, double> ? 2 : 4;

  TENSORX_HOST_DEVICE static void values(const PhiloxBlock& block, value_type* out) {
    const std::uint32_t* w = block.words;
    TENSORX_UNROLL
    for (int pair = 0; pair < kPerBlock / 2; ++pair) {
      std::uint64_t k1 = w[2 * pair], k2 = w[2 * pair + 1];
      if constexpr (kBits > 32) {
        k1 = top_bits<kBits>(w[0], w[1]);
        k2 = top_bits<kBits>(w[2], w[3]);
      }
      // k1 + 1 > 0, so the logarithm is finite: |z| stays below sqrt(2 kBits ln 2).
      const double u1 =
          static_cast<double>(k1 + 1) / static_cast<double>(std::uint64_t{1} << kBits);
      const double r = ::sqrt(-2.0 * reproducible_log(u1));
      double sine, cosine;
      reproducible_sincos_of_turn<kBits>(k2, sine, cosine);
      out[2 * pair] = static_cast<value_type>(r * cosine);
      out[2 * pair + 1] = static_cast<value_type>(r * sine);
    }
  }
};

/// The elements of a Distribution, element i from the Philox block of counter
/// (i / kPerBlock, offset) under the key `seed`: a pure function of (seed, offset, i).
template <class Distribution>
struct PhiloxGenerator {
  using value_type = typename Distribution::value_type;
  static constexpr int kPerBlock = Distribution::kPerBlock;

  PhiloxKey key;
  std::uint64_t offset;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE void block_values(index_t block, value_type* out) const {
    const auto b = static_cast<std::uint64_t>(block);
    const PhiloxBlock counter = {
        {static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32),
         static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(offset >> 32)}};
    Distribution::values(philox4x32(counter, key), out);
  }

  TENSORX_HOST_DEVICE value_type operator()(index_t i) const {
    value_type values[kPerBlock];
    block_values(i / kPerBlock, values);
    // A select rather than values[i % kPerBlock]: a run-time index would move the array to
    // local memory on a GPU.
    value_type result = values[0];
    TENSORX_UNROLL
    for (int e = 1; e < kPerBlock; ++e) {
      if (i % kPerBlock == e) result = values[e];
    }
    return result;
  }

  /// Elements first .. first + kCount - 1 for a multiple `first` of kCount: whole blocks, with
  /// every lane index known at compile time, so that a GPU thread keeps them in registers.
  template <int kCount>
  TENSORX_HOST_DEVICE void fill_aligned(index_t first, value_type* out) const {
    if constexpr (kCount % kPerBlock == 0) {
      TENSORX_UNROLL
      for (int b = 0; b < kCount / kPerBlock; ++b)
        block_values(first / kPerBlock + b, out + b * kPerBlock);
    } else {
      TENSORX_UNROLL
      for (int k = 0; k < kCount; ++k) out[k] = (*this)(first + k);
    }
  }

  /// Elements first .. first + count - 1, one block per kPerBlock of them.
  TENSORX_HOST_DEVICE void fill(index_t first, index_t count, value_type* out) const {
    value_type values[kPerBlock];
    for (index_t k = 0; k < count;) {
      block_values((first + k) / kPerBlock, values);
      for (index_t e = (first + k) % kPerBlock; e < kPerBlock && k < count; ++e) {
        out[k++] = values[e];
      }
    }
  }
};

}  // namespace detail
}  // namespace tensorx
