// The CUDA kernels behind strided copies and fills inside one device: a grid-stride loop over the
// elements of any layout up to rank 9, instantiated per element size and index width. Elements
// travel as opaque unsigned integers of their size.
#include <algorithm>
#include <cstring>
#include <limits>

#include "cuda/cuda_check.h"
#include "cuda/strided_kernel.h"

namespace tensorx {
namespace detail {
namespace {

template <std::size_t Size>
struct BitsOf;
template <>
struct BitsOf<1> {
  using type = std::uint8_t;
};
template <>
struct BitsOf<2> {
  using type = std::uint16_t;
};
template <>
struct BitsOf<4> {
  using type = std::uint32_t;
};
template <>
struct BitsOf<8> {
  using type = std::uint64_t;
};

constexpr int kThreads = 256;
// Enough blocks to fill any current GPU; the grid-stride loop covers larger arrays.
constexpr index_t kMaxBlocks = 4096;

// The element offset in each operand of the linear-th element, in row-major order. Unrolled, the
// dimension indices are compile-time constants, so the layout is read from the kernel parameters
// instead of being copied to local memory.
template <int Operands, class Index>
__device__ __forceinline__ void offsets_of(const StridedLayout<Operands>& layout, Index linear,
                                           index_t (&offsets)[Operands]) {
#pragma unroll
  for (int op = 0; op < Operands; ++op) offsets[op] = 0;
#pragma unroll
  for (int d = 0; d < kMaxRank; ++d) {
    if (d == layout.rank - 1) {
#pragma unroll
      for (int op = 0; op < Operands; ++op) {
        offsets[op] += static_cast<index_t>(linear) * layout.strides[op][d];
      }
      break;
    }
    const auto extent = static_cast<Index>(layout.dims[d]);
    const Index outer = linear / extent;
    const auto position = static_cast<index_t>(linear - outer * extent);
#pragma unroll
    for (int op = 0; op < Operands; ++op) offsets[op] += position * layout.strides[op][d];
    linear = outer;
  }
}

template <class Element, class Index>
__global__ void strided_copy_kernel(StridedLayout<2> layout, Element* dst, const Element* src,
                                    Index count) {
  const Index step = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) {
    index_t offsets[2];
    offsets_of(layout, i, offsets);
    dst[offsets[0]] = src[offsets[1]];
  }
}

template <class Element, class Index>
__global__ void strided_fill_kernel(StridedLayout<1> layout, Element* dst, Element value,
                                    Index count) {
  const Index step = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) {
    index_t offsets[1];
    offsets_of(layout, i, offsets);
    dst[offsets[0]] = value;
  }
}

unsigned blocks_for(index_t count) {
  return static_cast<unsigned>(std::min((count + kThreads - 1) / kThreads, kMaxBlocks));
}

// 32-bit indices make the per-element divisions far cheaper; they serve whenever the last index
// plus one grid stride still fits in 32 unsigned bits.
bool fits_32_bits(index_t count) {
  return count <= std::numeric_limits<std::int32_t>::max();
}

template <std::size_t Size>
void copy_elements(const StridedLayout<2>& layout, void* dst, const void* src,
                   StreamHandle stream) {
  using Element = typename BitsOf<Size>::type;
  const index_t count = numel(layout);
  auto* to = static_cast<Element*>(dst);
  const auto* from = static_cast<const Element*>(src);
  if (fits_32_bits(count)) {
    strided_copy_kernel<<<blocks_for(count), kThreads, 0, stream>>>(
        layout, to, from, static_cast<std::uint32_t>(count));
  } else {
    strided_copy_kernel<<<blocks_for(count), kThreads, 0, stream>>>(layout, to, from, count);
  }
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

template <std::size_t Size>
void fill_elements(const StridedLayout<1>& layout, void* dst, std::uint64_t bits,
                   StreamHandle stream) {
  using Element = typename BitsOf<Size>::type;
  Element value;
  std::memcpy(&value, &bits, Size);
  const index_t count = numel(layout);
  auto* to = static_cast<Element*>(dst);
  if (fits_32_bits(count)) {
    strided_fill_kernel<<<blocks_for(count), kThreads, 0, stream>>>(
        layout, to, value, static_cast<std::uint32_t>(count));
  } else {
    strided_fill_kernel<<<blocks_for(count), kThreads, 0, stream>>>(layout, to, value, count);
  }
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_strided_copy(const StridedLayout<2>& layout, void* dst, const void* src,
                         std::size_t element_size, StreamHandle stream) {
  switch (element_size) {
    case 1:
      return copy_elements<1>(layout, dst, src, stream);
    case 2:
      return copy_elements<2>(layout, dst, src, stream);
    case 4:
      return copy_elements<4>(layout, dst, src, stream);
    default:
      return copy_elements<8>(layout, dst, src, stream);
  }
}

void launch_strided_fill(const StridedLayout<1>& layout, void* dst, std::uint64_t value,
                         std::size_t element_size, StreamHandle stream) {
  switch (element_size) {
    case 1:
      return fill_elements<1>(layout, dst, value, stream);
    case 2:
      return fill_elements<2>(layout, dst, value, stream);
    case 4:
      return fill_elements<4>(layout, dst, value, stream);
    default:
      return fill_elements<8>(layout, dst, value, stream);
  }
}

}  // namespace detail
}  // namespace tensorx
