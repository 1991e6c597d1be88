// tx::stats counts the passes over memory that tensorx starts (CPU loops and CUDA launches), so
// that tests can assert "one assignment, one pass". One relaxed atomic add per pass: free.
#pragma once

#include <atomic>
#include <cstdint>

namespace tensorx {
namespace stats {
namespace detail {
inline std::atomic<std::uint64_t> pass_count{0};
}  // namespace detail

/// The number of passes started since the program began (or since reset()).
inline std::uint64_t passes() {
  return detail::pass_count.load(std::memory_order_relaxed);
}

/// Sets the pass count back to zero.
inline void reset() {
  detail::pass_count.store(0, std::memory_order_relaxed);
}

/// Called by the engines once for every loop or kernel launch they start.
inline void record_pass() {
  detail::pass_count.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace stats
}  // namespace tensorx
