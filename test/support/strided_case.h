// Random strided views over byte buffers, and the reference copy and fill that copy_strided and
// fill_strided are checked against: shared by the CPU tests (test/memory) and the GPU ones.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tensorx/memory/strided_copy.h"

namespace tensorx {
namespace testing {

/// A view of a buffer: extents, strides in elements (negative or 0 allowed) and the element
/// offset of index (0, ..., 0).
struct StridedView {
  std::vector<index_t> dims;
  std::vector<index_t> strides;
  index_t offset = 0;

  int rank() const { return static_cast<int>(dims.size()); }

  index_t numel() const {
    return std::accumulate(dims.begin(), dims.end(), index_t{1}, std::multiplies<index_t>());
  }

  /// The buffer offset of the element at row-major position `linear`.
  index_t offset_of(index_t linear) const {
    index_t result = offset;
    for (int d = rank() - 1; d >= 0; --d) {
      result += linear % dims[d] * strides[d];
      linear /= dims[d];
    }
    return result;
  }

  /// The descriptor of this view over `buffer` (on `place`) with elements of `element_size`.
  detail::StridedBytes over(void* buffer, const Place& place, std::size_t element_size) const {
    detail::StridedBytes bytes;
    bytes.data = static_cast<char*>(buffer) + offset * static_cast<index_t>(element_size);
    bytes.place = place;
    bytes.rank = rank();
    std::copy(dims.begin(), dims.end(), bytes.dims);
    std::copy(strides.begin(), strides.end(), bytes.strides);
    return bytes;
  }

  std::string describe() const {
    std::ostringstream out;
    out << "dims (";
    for (int d = 0; d < rank(); ++d) out << (d ? ", " : "") << dims[d];
    out << ") strides (";
    for (int d = 0; d < rank(); ++d) out << (d ? ", " : "") << strides[d];
    out << ") offset " << offset;
    return out.str();
  }
};

/// `rank` random extents in [1, max_extent], each 1 with probability 1/5; an empty case (one
/// extent 0) with probability 1/10.
inline std::vector<index_t> random_extents(int rank, index_t max_extent, std::mt19937& rng) {
  std::vector<index_t> dims(static_cast<std::size_t>(rank));
  for (index_t& extent : dims) {
    extent = rng() % 5 == 0 ? 1 : std::uniform_int_distribution<index_t>(1, max_extent)(rng);
  }
  if (rank > 0 && rng() % 10 == 0) dims[rng() % dims.size()] = 0;
  return dims;
}

/// A random view with extents `dims` into a buffer of `buffer_elements(view)` elements: its
/// storage is padded (a slice), its dimensions permuted (a transpose) or reversed (negative
/// strides), and, where `broadcast` allows, some strides are 0. Without broadcast, distinct indices
/// are distinct elements.
inline StridedView random_view(const std::vector<index_t>& dims, bool broadcast,
                               std::mt19937& rng) {
  const auto rank = dims.size();
  std::vector<std::size_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  if (rng() % 3 == 0) std::shuffle(order.begin(), order.end(), rng);

  StridedView view;
  view.dims = dims;
  view.strides.assign(rank, 0);
  index_t stride = 1;
  for (auto position = rank; position-- > 0;) {
    const std::size_t d = order[position];
    view.strides[d] = stride;
    const index_t padding = rng() % 3 == 0 ? static_cast<index_t>(rng() % 3) : 0;
    stride *= std::max<index_t>(dims[d], 1) + padding;
  }
  index_t low = 0;
  for (std::size_t d = 0; d < rank; ++d) {
    if (rng() % 5 == 0) view.strides[d] = -view.strides[d];
    if (broadcast && rng() % 5 == 0) view.strides[d] = 0;
    if (dims[d] > 0 && view.strides[d] < 0) low += (dims[d] - 1) * view.strides[d];
  }
  view.offset = -low + static_cast<index_t>(rng() % 3);
  return view;
}

/// The number of elements a buffer needs for every index of `view` to fall inside it.
inline index_t buffer_elements(const StridedView& view) {
  index_t high = view.offset;
  for (int d = 0; d < view.rank(); ++d) {
    if (view.dims[d] > 0 && view.strides[d] > 0) high += (view.dims[d] - 1) * view.strides[d];
  }
  return high + 3;
}

/// Random bytes, to catch elements that a copy forgets or writes out of place.
inline std::vector<unsigned char> random_bytes(std::size_t count, std::mt19937& rng) {
  std::vector<unsigned char> bytes(count);
  for (unsigned char& byte : bytes) byte = static_cast<unsigned char>(rng());
  return bytes;
}

/// What copy_strided must do: read every element of `src`, then write each to the same index of
/// `dst` (so the two views may share a buffer). Buffers are host memory.
inline void reference_copy(unsigned char* dst_buffer, const StridedView& dst,
                           const unsigned char* src_buffer, const StridedView& src,
                           std::size_t element_size) {
  const index_t count = src.numel();
  std::vector<unsigned char> elements(static_cast<std::size_t>(count) * element_size);
  for (index_t i = 0; i < count; ++i) {
    std::memcpy(&elements[static_cast<std::size_t>(i) * element_size],
                src_buffer + src.offset_of(i) * static_cast<index_t>(element_size), element_size);
  }
  for (index_t i = 0; i < count; ++i) {
    std::memcpy(dst_buffer + dst.offset_of(i) * static_cast<index_t>(element_size),
                &elements[static_cast<std::size_t>(i) * element_size], element_size);
  }
}

/// What fill_strided must do: write the element at `value` to every index of `dst`.
inline void reference_fill(unsigned char* dst_buffer, const StridedView& dst, const void* value,
                           std::size_t element_size) {
  for (index_t i = 0; i < dst.numel(); ++i) {
    std::memcpy(dst_buffer + dst.offset_of(i) * static_cast<index_t>(element_size), value,
                element_size);
  }
}

}  // namespace testing
}  // namespace tensorx
