// What every CUDA kernel of tensorx shares: the block size, the grid of at most one full wave of
// resident blocks that grid-stride loops run on, and the index arithmetic that turns a flat index
// into a multi-index without the GPU's slow integer division. The engine, the reduction,
// transpose and gather kernels, and the compiled layer's strided copies all launch through it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tensorx/core/config.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/place/device.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Threads per block of the engine's kernels.
constexpr int kCudaThreads = 256;
/// Blocks of kCudaThreads resident per multiprocessor at full occupancy (2048 threads, sm_70 on):
/// a full wave for kernels light enough to reach it (resident_blocks says for a given kernel).
constexpr int kCudaBlocksPerMultiprocessor = 2048 / kCudaThreads;

/// Divides unsigned numbers below 2^31 by a fixed divisor in [1, 2^31) with a multiply-high, an
/// add and a shift (Granlund and Montgomery, "Division by invariant integers using
/// multiplication", 1994): GPUs have no integer divide instruction, and a 32-bit division in
/// software costs some twenty.
struct FastDivider32 {
  using index_type = std::uint32_t;

  FastDivider32() = default;
  explicit FastDivider32(index_t d) : divisor(static_cast<std::uint32_t>(d)) {
    while ((std::uint64_t{1} << shift) < divisor) ++shift;
    // 2^32 * (2^shift - d) / d + 1 is below 2^32 for every d in [1, 2^31).
    multiplier = static_cast<std::uint32_t>(
        (std::uint64_t{1} << 32) * ((std::uint64_t{1} << shift) - divisor) / divisor + 1);
  }

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE std::uint32_t divide(std::uint32_t n) const {
#if TENSORX_DEVICE_CODE
    const std::uint32_t high = __umulhi(n, multiplier);
#else
    const auto high = static_cast<std::uint32_t>((std::uint64_t{n} * multiplier) >> 32);
#endif
    // high <= n < 2^31, so the sum cannot wrap.
    return (high + n) >> shift;
  }

  std::uint32_t divisor = 1;
  std::uint32_t multiplier = 1;
  std::uint32_t shift = 0;
};

/// Plain 64-bit division, for iteration spaces of 2^31 elements or more.
struct Divider64 {
  using index_type = std::uint64_t;

  Divider64() = default;
  explicit Divider64(index_t d) : divisor(static_cast<std::uint64_t>(d)) {}

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE std::uint64_t divide(std::uint64_t n) const {
    return n / divisor;
  }

  std::uint64_t divisor = 1;
};

/// A row-major iteration space that turns an element's flat index into its multi-index with
/// N - 1 divisions by the inner extents, each through a precomputed Divider.
template <int N, class Divider>
struct IndexSpace {
  using index_type = typename Divider::index_type;

  IndexSpace() = default;
  /// Every extent must be at least 1.
  explicit IndexSpace(const Dim<N>& dims) {
    if constexpr (N > 1) {
      for (int d = 1; d < N; ++d) inner[d - 1] = Divider(dims.at(d));
    }
  }

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Dim<N> index_of(index_type flat) const {
    Dim<N> index;
    if constexpr (N > 0) {
      TENSORX_UNROLL
      for (int d = N - 1; d > 0; --d) {
        const index_type outer = inner[d - 1].divide(flat);
        index.at(d) = static_cast<index_t>(flat - outer * inner[d - 1].divisor);
        flat = outer;
      }
      index.at(0) = static_cast<index_t>(flat);
    }
    return index;
  }

  Divider inner[N > 1 ? N - 1 : 1];  // inner[d - 1] divides by the extent of dimension d
};

/// The number of multiprocessors of `device`, asked once per process.
inline int multiprocessor_count(int device) {
  static const std::vector<int> counts = [] {
    std::vector<int> result(static_cast<std::size_t>(cuda::device_count()));
    for (std::size_t d = 0; d < result.size(); ++d) {
      TENSORX_CUDA_CHECK(
          cudaDeviceGetAttribute(&result[d], cudaDevAttrMultiProcessorCount, static_cast<int>(d)));
    }
    return result;
  }();
  return counts[static_cast<std::size_t>(device)];
}

/// Blocks of `kernel` (launched with kCudaThreads threads and `shared_bytes` of dynamic shared
/// memory each) resident on one multiprocessor at once, at least 1. The kernel comes as the
/// runtime API's untyped entry, so that one function serves every kernel (the typed overload of
/// cuda_runtime.h is a template per kernel type, compiled for each kernel of every assignment).
inline int resident_blocks(const void* kernel, std::size_t shared_bytes = 0) {
  int blocks = 0;
  TENSORX_CUDA_CHECK(
      ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kCudaThreads, shared_bytes));
  return std::max(blocks, 1);
}

/// Blocks for `steps` thread-steps on `device`: enough to cover them, at most one full wave of
/// `resident` blocks per multiprocessor (the grid-stride loops take the rest; a second, partial
/// wave would leave most of the device idle), at least one.
inline unsigned grid_size(index_t steps, int device, int resident = kCudaBlocksPerMultiprocessor) {
  const index_t wave = index_t{multiprocessor_count(device)} * resident;
  return static_cast<unsigned>(
      std::max<index_t>(1, std::min((steps + kCudaThreads - 1) / kCudaThreads, wave)));
}

inline bool is_16_byte_aligned(const void* data) {
  return reinterpret_cast<std::uintptr_t>(data) % 16 == 0;
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
