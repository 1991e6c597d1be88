// Type-erased strided copies and fills between any two places, implemented in the compiled layer
// (a CPU loop, cudaMemcpy for dense blocks, a CUDA kernel for strided device memory) so that
// Array's copy, fill and to() work from plain C++ translation units. GPU work is ordered across
// streams through the buffers the descriptors name (stream_order.h).
#pragma once

#include <cstddef>

#include "tensorx/core/config.h"
#include "tensorx/place/place.h"
#include "tensorx/shape/dim.h"

namespace tensorx {

class Allocation;

namespace detail {

/// Where a strided array's elements are: extents and strides counted in elements, row-major.
struct StridedBytes {
  void* data = nullptr;
  Place place;
  int rank = 0;
  index_t dims[kMaxRank] = {};
  index_t strides[kMaxRank] = {};
  /// The buffer `data` lies in, whose stream record orders GPU work on it; nullptr for memory that
  /// tensorx does not own (host values, device memory whose streams the caller orders itself).
  Allocation* buffer = nullptr;
};

/// The descriptor of `data` (inside `buffer`, if tensorx owns it) laid out with `dims` and
/// `strides` on `place`.
template <int N>
StridedBytes strided_bytes(void* data, const Place& place, const Dim<N>& dims,
                           const Dim<N>& strides, Allocation* buffer = nullptr) {
  StridedBytes s;
  s.data = data;
  s.place = place;
  s.buffer = buffer;
  s.rank = N;
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) {
      s.dims[i] = dims.at(i);
      s.strides[i] = strides.at(i);
    }
  }
  return s;
}

/// Copies every element of `src` to the same index of `dst` (equal extents, any places, any
/// strides; element_size is 1, 2, 4 or 8). GPU work goes on the current stream of the
/// destination's device (of the source's when the destination is the host), ordered after earlier
/// uses of both buffers on any stream; returns once host memory involved is complete.
void copy_strided(const StridedBytes& dst, const StridedBytes& src, std::size_t element_size);

/// Writes the element_size bytes at `value` to every element of `dst` (on a GPU: on the current
/// stream of its device, ordered after earlier uses of its buffer).
void fill_strided(const StridedBytes& dst, const void* value, std::size_t element_size);

}  // namespace detail
}  // namespace tensorx
