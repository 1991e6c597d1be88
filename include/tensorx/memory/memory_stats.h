// GPU memory as tensorx holds it. Each device has one stream-ordered pool of tensorx's own
// (created on the device's first allocation): freed blocks stay cached there for the next
// allocation, and at each synchronisation the pool hands back to the driver whatever it caches
// beyond its limit, by default an eighth of the device's memory. An allocation that fails
// empties the cache and tries once more before it throws OutOfMemoryError.
#pragma once

#include <cstddef>

namespace tensorx {
namespace cuda {

/// Byte counts of one device's tensorx pool.
struct MemoryStats {
  std::size_t allocated_bytes = 0;       ///< bytes of the Allocations alive on the device
  std::size_t reserved_bytes = 0;        ///< bytes the pool holds from the driver (live + cached)
  std::size_t peak_allocated_bytes = 0;  ///< the highest allocated_bytes since the last reset
};

/// The pool's counts for `device`; throws DeviceError unless the device is usable.
MemoryStats memory_stats(int device);

/// Starts peak_allocated_bytes of `device` again from the bytes allocated now; throws DeviceError
/// unless the device is usable.
void reset_peak_memory_stats(int device);

/// Waits for the work queued on every device, then hands every cached (freed) block back to the
/// driver, so that other libraries in the process can have the memory. A no-op without GPUs.
void empty_cache();

/// The default cache limit of a device: an eighth of its memory.
constexpr std::size_t kDefaultCacheFraction = 8;

/// Sets how many freed bytes `device`'s pool may keep cached across synchronisations (the CUDA
/// pool's release threshold); 0 returns every freed block at the next synchronisation. Throws
/// DeviceError unless the device is usable.
void set_memory_cache_limit(int device, std::size_t bytes);

/// The cache limit of `device` (memory / kDefaultCacheFraction unless set); throws DeviceError
/// unless the device is usable.
std::size_t memory_cache_limit(int device);

}  // namespace cuda
}  // namespace tensorx
