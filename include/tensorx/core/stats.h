// tx::stats counts the passes over memory that tensorx starts (CPU loops and CUDA launches), so
// that tests can assert "one assignment, one pass", and the GEMMs it asks a BLAS for, so that they
// can assert "one contraction, one GEMM". One relaxed atomic add per pass or GEMM: free.
#pragma once

#include <atomic>
#include <cstdint>

namespace tensorx {
/// Counters of the passes and GEMMs that tensorx starts, for tests that assert fusion.
namespace stats {
namespace detail {
inline std::atomic<std::uint64_t> pass_count{0};
inline std::atomic<std::uint64_t> gemm_count{0};
}  // namespace detail

/// The number of passes started since the program began (or since reset()).
inline std::uint64_t passes() {
  return detail::pass_count.load(std::memory_order_relaxed);
}

/// The number of GEMM and batched GEMM calls made to a BLAS (CPU BLAS, cuBLAS or cuBLASLt) since
/// the program began (or since reset()); a batch is one call.
inline std::uint64_t gemms() {
  return detail::gemm_count.load(std::memory_order_relaxed);
}

/// Sets the pass and GEMM counts back to zero.
inline void reset() {
  detail::pass_count.store(0, std::memory_order_relaxed);
  detail::gemm_count.store(0, std::memory_order_relaxed);
}

/// Called by the engines once for every loop or kernel launch they start.
inline void record_pass() {
  detail::pass_count.fetch_add(1, std::memory_order_relaxed);
}

/// Called by the compiled layer once for every GEMM it hands to a BLAS.
inline void record_gemm() {
  detail::gemm_count.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace stats
}  // namespace tensorx
