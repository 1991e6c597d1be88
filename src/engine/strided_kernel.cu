// The strided copies and fills inside one device: a dense transfer where both sides are dense,
// else a grid-stride kernel over the elements of any layout up to rank 9, on the engines' launch
// geometry and index dividers (engine/cuda_launch.cuh), instantiated per element size
// (memory/element_bits.h) and index width.
#include <cstring>
#include <limits>

#include "engine/element_bits.h"
#include "engine/strided_kernel.h"
#include "memory/gpu_memory.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/engine/cuda_launch.cuh"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {
namespace {

/// A merged layout with a divider per axis, so that a flat index becomes the operands' offsets
/// with one multiply-high per axis instead of a division.
template <int Operands, class Divider>
struct DividedLayout {
  StridedLayout<Operands> layout;
  Divider dividers[kMaxRank];

  explicit DividedLayout(const StridedLayout<Operands>& merged) : layout(merged) {
    for (int d = 0; d < merged.rank; ++d) dividers[d] = Divider(merged.dims[d]);
  }

  /// The offset in each operand of the flat-th element, in row-major order. Unrolled, so that the
  /// axis indices are compile-time constants and the layout is read from the kernel parameters
  /// instead of being copied to local memory.
  __device__ TENSORX_FORCE_INLINE void offsets_of(typename Divider::index_type flat,
                                                  index_t (&offsets)[Operands]) const {
    TENSORX_UNROLL
    for (int op = 0; op < Operands; ++op) offsets[op] = 0;
    TENSORX_UNROLL
    for (int d = kMaxRank - 1; d >= 0; --d) {
      if (d >= layout.rank) continue;
      if (d == 0) {
        TENSORX_UNROLL
        for (int op = 0; op < Operands; ++op) {
          offsets[op] += static_cast<index_t>(flat) * layout.strides[op][0];
        }
        break;
      }
      const auto outer = dividers[d].divide(flat);
      const auto position = static_cast<index_t>(flat - outer * dividers[d].divisor);
      TENSORX_UNROLL
      for (int op = 0; op < Operands; ++op) offsets[op] += position * layout.strides[op][d];
      flat = outer;
    }
  }
};

/// Calls f(offsets) with every element's operand offsets, in a grid-stride loop.
template <int Operands, class Divider, class F>
__device__ TENSORX_FORCE_INLINE void for_each_element(
    const DividedLayout<Operands, Divider>& layout, typename Divider::index_type count, F&& f) {
  using Index = typename Divider::index_type;
  const Index step = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) {
    index_t offsets[Operands];
    layout.offsets_of(i, offsets);
    f(offsets);
  }
}

template <class Bits, class Divider>
__global__ void __launch_bounds__(kCudaThreads)
    strided_copy_kernel(DividedLayout<2, Divider> layout, Bits* dst, const Bits* src,
                        typename Divider::index_type count) {
  for_each_element(layout, count,
                   [&](const index_t(&offsets)[2]) { dst[offsets[0]] = src[offsets[1]]; });
}

template <class Bits, class Divider>
__global__ void __launch_bounds__(kCudaThreads)
    strided_fill_kernel(DividedLayout<1, Divider> layout, Bits* dst, Bits value,
                        typename Divider::index_type count) {
  for_each_element(layout, count, [&](const index_t(&offsets)[1]) { dst[offsets[0]] = value; });
}

/// Calls launch(Divider{}) with the dividers a layout of `count` elements needs: 32-bit below
/// 2^31 elements (far cheaper per element), 64-bit beyond.
template <class Launch>
void with_divider(index_t count, Launch&& launch) {
  if (count <= std::numeric_limits<std::int32_t>::max()) {
    launch(FastDivider32{});
  } else {
    launch(Divider64{});
  }
}

void launch_strided_copy(const StridedLayout<2>& layout, void* dst, const void* src,
                         std::size_t element_size, int device, StreamHandle stream) {
  const index_t count = numel(layout);
  element_bits_switch(element_size, [&](auto bits) {
    using Bits = decltype(bits);
    with_divider(count, [&](auto divider) {
      using Divider = decltype(divider);
      strided_copy_kernel<Bits, Divider><<<grid_size(count, device), kCudaThreads, 0, stream>>>(
          DividedLayout<2, Divider>(layout), static_cast<Bits*>(dst), static_cast<const Bits*>(src),
          static_cast<typename Divider::index_type>(count));
    });
  });
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

void launch_strided_fill(const StridedLayout<1>& layout, void* dst, std::uint64_t value,
                         std::size_t element_size, int device, StreamHandle stream) {
  const index_t count = numel(layout);
  element_bits_switch(element_size, [&](auto bits) {
    using Bits = decltype(bits);
    Bits element;
    std::memcpy(&element, &value, sizeof(Bits));
    with_divider(count, [&](auto divider) {
      using Divider = decltype(divider);
      strided_fill_kernel<Bits, Divider><<<grid_size(count, device), kCudaThreads, 0, stream>>>(
          DividedLayout<1, Divider>(layout), static_cast<Bits*>(dst), element,
          static_cast<typename Divider::index_type>(count));
    });
  });
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void gpu_copy(const StridedLayout<2>& layout, void* dst, const void* src, std::size_t element_size,
              int device, StreamHandle stream) {
  if (layout.is_dense(0) && layout.is_dense(1)) {
    const CudaPlace place(device);
    gpu_transfer(dst, place, src, place, static_cast<std::size_t>(numel(layout)) * element_size,
                 stream);
    return;
  }
  cuda::DeviceGuard guard(device);
  launch_strided_copy(layout, dst, src, element_size, device, stream);
}

void gpu_fill(const StridedLayout<1>& layout, void* dst, const void* value,
              std::size_t element_size, int device, StreamHandle stream) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, value, element_size);
  cuda::DeviceGuard guard(device);
  launch_strided_fill(layout, dst, bits, element_size, device, stream);
}

}  // namespace detail
}  // namespace tensorx
