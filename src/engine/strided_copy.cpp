// copy_strided and fill_strided: the checks, overlap handling and routing between the CPU loops,
// the GPU backend and dense transfers between places. Only dense blocks travel between places; a
// strided side is packed into (or unpacked from) a dense staging buffer on its own place. Each
// GPU step is ordered across streams (memory/stream_order.h) through the buffers it names.
#include "tensorx/memory/strided_copy.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/extent_text.h"
#include "engine/strided_kernel.h"
#include "engine/strided_layout.h"
#include "engine/strided_loop.h"
#include "memory/gpu_memory.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/memory/stream_order.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {
namespace {

void check_element_size(const char* operation, std::size_t element_size) {
  if (element_size != 1 && element_size != 2 && element_size != 4 && element_size != 8) {
    throw TypeError(
        message(operation, " handles elements of 1, 2, 4 or 8 bytes, not ", element_size));
  }
}

void check_shape(const char* operation, const StridedBytes& array) {
  if (array.rank < 0 || array.rank > kMaxRank) {
    throw ShapeError(message(operation, " handles ranks 0 to ", kMaxRank, ", not ", array.rank));
  }
  if (std::any_of(array.dims, array.dims + array.rank, [](index_t extent) { return extent < 0; })) {
    throw ShapeError(message(operation, " cannot handle the negative extents of ",
                             extent_text(array.dims, array.rank)));
  }
}

void check_same_extents(const StridedBytes& dst, const StridedBytes& src) {
  const bool same = dst.rank == src.rank && std::equal(dst.dims, dst.dims + dst.rank, src.dims);
  if (!same) {
    throw ShapeError(message("cannot copy an array of shape ", extent_text(src.dims, src.rank),
                             " to an array of shape ", extent_text(dst.dims, dst.rank)));
  }
}

index_t numel(const StridedBytes& array) {
  index_t count = 1;
  for (int d = 0; d < array.rank; ++d) count *= array.dims[d];
  return count;
}

StridedLayout<1> layout_of(const StridedBytes& array) {
  const index_t* const strides[1] = {array.strides};
  return make_strided_layout<1>(array.rank, array.dims, strides);
}

StridedLayout<2> layout_of(const StridedBytes& dst, const StridedBytes& src) {
  const index_t* const strides[2] = {dst.strides, src.strides};
  return make_strided_layout<2>(dst.rank, dst.dims, strides);
}

bool is_dense(const StridedBytes& array) {
  return layout_of(array).is_dense(0);
}

// A dense row-major array of `shape`'s extents in `buffer` (a staging buffer).
StridedBytes dense_like(Allocation& buffer, const StridedBytes& shape) {
  StridedBytes dense = shape;
  dense.data = buffer.data();
  dense.place = buffer.place();
  dense.buffer = &buffer;
  index_t stride = 1;
  for (int d = shape.rank - 1; d >= 0; --d) {
    dense.strides[d] = stride;
    stride *= shape.dims[d];
  }
  return dense;
}

// The first byte an array touches and one past its last (strides may be negative).
struct ByteRange {
  std::uintptr_t begin;
  std::uintptr_t end;
};

ByteRange byte_range(const StridedBytes& array, std::size_t element_size) {
  index_t low = 0;
  index_t high = 0;
  for (int d = 0; d < array.rank; ++d) {
    const index_t reach = (array.dims[d] - 1) * array.strides[d];
    (reach < 0 ? low : high) += reach;
  }
  const auto size = static_cast<index_t>(element_size);
  const auto base = reinterpret_cast<std::uintptr_t>(array.data);
  return {base + static_cast<std::uintptr_t>(low * size),
          base + static_cast<std::uintptr_t>(high * size + size)};
}

bool overlaps(const StridedBytes& a, const StridedBytes& b, std::size_t element_size) {
  if (a.place != b.place) return false;
  const ByteRange x = byte_range(a, element_size);
  const ByteRange y = byte_range(b, element_size);
  return x.begin < y.end && y.begin < x.end;
}

// Every element of dst is the very element of src it would be copied from.
bool same_mapping(const StridedBytes& dst, const StridedBytes& src) {
  if (dst.place != src.place || dst.data != src.data) return false;
  for (int d = 0; d < dst.rank; ++d) {
    if (dst.dims[d] != 1 && dst.strides[d] != src.strides[d]) return false;
  }
  return true;
}

// The stream that GPU work writing dst (and reading src, if any) goes on: the current stream of
// the destination's device, or of the source's when the destination is the host, made to follow
// the earlier uses of both buffers that the work conflicts with.
StreamHandle ordered_stream(const StridedBytes& dst, const StridedBytes* src) {
  StreamOrder order(device_of(is_gpu_place(dst.place) ? dst.place : src->place));
  if (src != nullptr) order.read(src->buffer);
  order.write(dst.buffer);
  return order.stream();
}

// Copies between two dense blocks on different places.
void transfer(const StridedBytes& dst, const StridedBytes& src, std::size_t bytes) {
  gpu_transfer(dst.data, dst.place, src.data, src.place, bytes, ordered_stream(dst, &src));
}

void copy_disjoint(const StridedBytes& dst, const StridedBytes& src, std::size_t element_size) {
  const StridedLayout<2> layout = layout_of(dst, src);
  if (is_cpu_place(dst.place) && is_cpu_place(src.place)) {
    cpu_copy(layout, dst.data, src.data, element_size);
    return;
  }
  if (dst.place == src.place) {
    gpu_copy(layout, dst.data, src.data, element_size, device_of(dst.place),
             ordered_stream(dst, &src));
    return;
  }
  const std::size_t bytes = static_cast<std::size_t>(numel(dst)) * element_size;
  std::optional<Allocation> src_staging;
  StridedBytes dense_src = src;
  if (!is_dense(src)) {
    src_staging.emplace(bytes, src.place);
    dense_src = dense_like(*src_staging, src);
    copy_disjoint(dense_src, src, element_size);
  }
  if (is_dense(dst)) {
    transfer(dst, dense_src, bytes);
    return;
  }
  Allocation dst_staging(bytes, dst.place);
  const StridedBytes dense_dst = dense_like(dst_staging, dst);
  transfer(dense_dst, dense_src, bytes);
  copy_disjoint(dst, dense_dst, element_size);
}

}  // namespace

void copy_strided(const StridedBytes& dst, const StridedBytes& src, std::size_t element_size) {
  check_element_size("copy_strided", element_size);
  check_shape("copy_strided", dst);
  check_shape("copy_strided", src);
  check_same_extents(dst, src);
  check_place(dst.place);
  check_place(src.place);
  if (numel(dst) == 0 || same_mapping(dst, src)) return;
  if (overlaps(dst, src, element_size)) {
    // Read all of src before writing any of dst, as if src had been copied first.
    Allocation temporary(static_cast<std::size_t>(numel(src)) * element_size, src.place);
    const StridedBytes dense = dense_like(temporary, src);
    copy_disjoint(dense, src, element_size);
    copy_disjoint(dst, dense, element_size);
    return;
  }
  copy_disjoint(dst, src, element_size);
}

void fill_strided(const StridedBytes& dst, const void* value, std::size_t element_size) {
  check_element_size("fill_strided", element_size);
  check_shape("fill_strided", dst);
  check_place(dst.place);
  if (numel(dst) == 0) return;
  const StridedLayout<1> layout = layout_of(dst);
  if (is_cpu_place(dst.place)) {
    cpu_fill(layout, dst.data, value, element_size);
  } else {
    gpu_fill(layout, dst.data, value, element_size, device_of(dst.place),
             ordered_stream(dst, nullptr));
  }
}

}  // namespace detail
}  // namespace tensorx
