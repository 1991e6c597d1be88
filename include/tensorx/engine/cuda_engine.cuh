// The CUDA engine: ONE kernel launch per assignment, on the stream the assignment ordered
// (engine/gpu_stream.h). V is the count of the narrowest element the pass touches (destination or
// operand) that fills 16 bytes. When the destination and every array operand are dense in the
// iteration space, the dense kernel evaluates V consecutive elements per thread-step with 16-byte
// accesses (one element per step where some pointer is not 16-byte aligned). When they all run
// along the last axis with unit stride, or broadcast along it (a bias row, a column vector, a
// scalar), and every row starts 16-byte aligned, the rows kernel does the same along each row:
// `relu(x + bias)` keeps its 16-byte accesses. Anything else runs the strided kernel: each
// element's multi-index is derived once from its flat index (32-bit multiply-shift division below
// 2^31 elements, 64-bit division beyond) and the leaves multiply-add their strides. All are
// grid-stride loops over at most one full wave of blocks (the device's multiprocessor count times
// the kernel's resident blocks per multiprocessor).
//
// Included by engine/assign.h in CUDA translation units only. Those that hand __host__ __device__
// lambdas to tx::map need nvcc's --extended-lambda, which tensorx::tensorx adds to CUDA sources.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "tensorx/array/array.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/core/lanes.h"
#include "tensorx/core/stats.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/engine/cuda_launch.cuh"
#include "tensorx/engine/layout_facts.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/plan_access.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Elements of `bytes` each in one 16-byte access (1 where they do not divide 16).
constexpr int vector_width(std::size_t bytes) {
  return bytes != 0 && 16 % bytes == 0 ? static_cast<int>(16 / bytes) : 1;
}

/// Elements of T in one 16-byte access.
template <class T>
constexpr int kVectorWidth = vector_width(sizeof(T));

/// Elements per thread-step of a pass writing T from `Plan`: one 16-byte access of the narrowest
/// of T and the elements the plan loads, so that a float destination reads float16 operands 16
/// bytes at a time (and writes its own 32 bytes as two 16-byte stores).
template <class T, class Plan>
constexpr int kPassWidth = vector_width(narrowest_load_v<Plan> != 0 &&
                                                narrowest_load_v<Plan> < sizeof(T)
                                            ? narrowest_load_v<Plan>
                                            : sizeof(T));

/// Writes one computed value to its destination element through the saver.
template <class Saver, class T, class C>
__device__ TENSORX_FORCE_INLINE void save_element(T* target, C value) {
  if constexpr (Saver::reads_destination) value = Saver::apply(static_cast<C>(*target), value);
  *target = to_storage<T>(value);
}

/// Destination and leaves dense, every pointer aligned for LaneBlock<T, V>: elements i .. i + V - 1
/// per thread-step, then the last count % V elements one per thread.
template <class Saver, int V, class T, class Plan>
__global__ void __launch_bounds__(kCudaThreads) dense_kernel(T* dst, Plan plan, index_t count) {
  using C = compute_t<T>;
  const index_t first = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  const index_t vectors = count / V;
  for (index_t v = first; v < vectors; v += step) {
    const index_t i = v * V;
    Lanes<C, V> lanes = load_of<V>(plan, i);
    if constexpr (Saver::reads_destination) {
      const Lanes<C, V> current = load_lanes<C, V>(dst + i);
      TENSORX_UNROLL
      for (int k = 0; k < V; ++k) lanes[k] = Saver::apply(current[k], lanes[k]);
    }
    store_lanes(dst + i, lanes);
  }
  const index_t rest = vectors * V + first;
  if (rest < count) save_element<Saver>(dst + rest, plan.flat(rest));
}

/// Destination and leaves with unit inner stride (or 0, broadcast along the row), rows a multiple
/// of V long and starting 16-byte aligned: V elements of one row per thread-step; a leaf loads V
/// elements at once, or one value for all of them where it is broadcast along the row.
template <class Saver, int V, class T, int N, class Plan>
__global__ void __launch_bounds__(kCudaThreads)
    rows_kernel(T* dst, Dim<N> dst_strides, IndexSpace<N, FastDivider32> space, Plan plan,
                std::uint32_t vectors) {
  using C = compute_t<T>;
  const std::uint32_t step = gridDim.x * blockDim.x;
  for (std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < vectors; v += step) {
    const Dim<N> index = space.index_of(v * V);
    T* const target = dst + linearize(index, dst_strides);
    Lanes<C, V> lanes = load_at_of<V>(plan, index);
    if constexpr (Saver::reads_destination) {
      const Lanes<C, V> current = load_lanes<C, V>(target);
      TENSORX_UNROLL
      for (int k = 0; k < V; ++k) lanes[k] = Saver::apply(current[k], lanes[k]);
    }
    store_lanes(target, lanes);
  }
}

/// Any layout: the multi-index of each element once from its flat index, then one multiply-add
/// per dimension for the destination and for each leaf.
template <class Saver, class T, int N, class Plan, class Divider>
__global__ void __launch_bounds__(kCudaThreads)
    strided_kernel(T* dst, Dim<N> dst_strides, IndexSpace<N, Divider> space, Plan plan,
                   typename Divider::index_type count) {
  using Index = typename Divider::index_type;
  const Index step = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) {
    const Dim<N> index = space.index_of(i);
    save_element<Saver>(dst + linearize(index, dst_strides), plan.at(index));
  }
}

/// Queues the dense kernel with V elements per thread-step on `stream` of dst's device, which
/// must be current. Throws CudaError when the launch fails.
template <class Saver, int V, class T, int N, class Plan>
void launch_dense(const Array<T, N>& dst, const Plan& plan, StreamHandle stream) {
  const auto kernel = dense_kernel<Saver, V, T, Plan>;
  // Asked once per kernel, on the device of its first launch.
  static const int resident = resident_blocks(reinterpret_cast<const void*>(kernel));
  const index_t count = dst.numel();
  kernel<<<grid_size(count / V, device_of(dst.place()), resident), kCudaThreads, 0, stream>>>(
      dst.data(), plan, count);
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

/// Queues the rows kernel with V elements per thread-step on `stream` of dst's device, which must
/// be current. Throws CudaError when the launch fails.
template <class Saver, int V, class T, int N, class Plan>
void launch_rows(const Array<T, N>& dst, const Plan& plan, StreamHandle stream) {
  const auto kernel = rows_kernel<Saver, V, T, N, Plan>;
  static const int resident = resident_blocks(reinterpret_cast<const void*>(kernel));
  const index_t vectors = dst.numel() / V;
  kernel<<<grid_size(vectors, device_of(dst.place()), resident), kCudaThreads, 0, stream>>>(
      dst.data(), dst.strides(), IndexSpace<N, FastDivider32>(dst.dims()), plan,
      static_cast<std::uint32_t>(vectors));
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

/// Queues the strided kernel with Divider's index arithmetic (FastDivider32 needs fewer than 2^31
/// elements) on `stream` of dst's device, which must be current. Throws CudaError when the launch
/// fails.
template <class Saver, class Divider, class T, int N, class Plan>
void launch_strided(const Array<T, N>& dst, const Plan& plan, StreamHandle stream) {
  const auto kernel = strided_kernel<Saver, T, N, Plan, Divider>;
  static const int resident = resident_blocks(reinterpret_cast<const void*>(kernel));
  const index_t count = dst.numel();
  kernel<<<grid_size(count, device_of(dst.place()), resident), kCudaThreads, 0, stream>>>(
      dst.data(), dst.strides(), IndexSpace<N, Divider>(dst.dims()), plan,
      static_cast<typename Divider::index_type>(count));
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

/// The kernels an assignment can run as.
enum class GpuKernel {
  kDenseVector,  ///< dense, every pointer 16-byte aligned: V elements per thread-step
  kDenseScalar,  ///< dense, some pointer not aligned: one element per thread-step
  kRowsVector,   ///< unit or broadcast inner strides, aligned rows: V elements of a row per step
  kStrided32,    ///< any layout, fewer than 2^31 elements: 32-bit index arithmetic
  kStrided64     ///< any layout, 2^31 elements or more: 64-bit index arithmetic
};

/// True when an array of `element_size` bytes laid over `dims` with `strides` suits the rows
/// kernel: broadcast along the last axis (any address), or unit inner stride with every row
/// starting 16-byte aligned.
template <int N>
bool has_aligned_rows(const void* data, const Dim<N>& dims, const Dim<N>& strides,
                      std::size_t element_size) {
  if (strides.at(N - 1) == 0) return true;
  if (strides.at(N - 1) != 1 || !is_16_byte_aligned(data)) return false;
  for (int d = 0; d + 1 < N; ++d) {
    const auto row_bytes = static_cast<std::size_t>(strides.at(d)) * element_size;
    if (dims.at(d) != 1 && row_bytes % 16 != 0) return false;
  }
  return true;
}

/// The kernel that evaluates `plan` into `dst` (a host-side decision on pointers and strides).
template <class T, int N, class Plan>
GpuKernel choose_kernel(const Array<T, N>& dst, const Plan& plan) {
  LayoutFacts<N> facts;
  facts.add(dst.dims(), dst.strides());
  bool aligned = is_16_byte_aligned(dst.data());
  bool rows = true;
  if constexpr (N > 0) {
    rows = dst.strides().at(N - 1) == 1 && dst.dims().at(N - 1) % kPassWidth<T, Plan> == 0 &&
           has_aligned_rows(dst.data(), dst.dims(), dst.strides(), sizeof(T));
  }
  plan.visit_leaves([&](const void* data, const Dim<N>& strides, std::size_t element_size) {
    facts.add(dst.dims(), strides);
    aligned = aligned && is_16_byte_aligned(data);
    if constexpr (N > 0) {
      rows = rows && has_aligned_rows(data, dst.dims(), strides, element_size);
    }
  });
  if (facts.dense) return aligned ? GpuKernel::kDenseVector : GpuKernel::kDenseScalar;
  const bool small = dst.numel() <= std::numeric_limits<std::int32_t>::max();
  if (N > 0 && rows && small) return GpuKernel::kRowsVector;
  return small ? GpuKernel::kStrided32 : GpuKernel::kStrided64;
}

/// Runs one pass evaluating `plan` into the GPU array `dst` (not empty) with `Saver`: one kernel
/// on `stream` of dst's device. Throws CudaError when the launch fails.
template <class Saver, class T, int N, class Plan>
void run_gpu(CudaTranslationUnit, Saver, const Array<T, N>& dst, const Plan& plan,
             StreamHandle stream) {
  const int device = device_of(dst.place());
  cuda::DeviceGuard guard(device);
  stats::record_pass();
  switch (choose_kernel(dst, plan)) {
    case GpuKernel::kDenseVector:
      return launch_dense<Saver, kPassWidth<T, Plan>>(dst, plan, stream);
    case GpuKernel::kDenseScalar:
      return launch_dense<Saver, 1>(dst, plan, stream);
    case GpuKernel::kRowsVector:
      if constexpr (N > 0) return launch_rows<Saver, kPassWidth<T, Plan>>(dst, plan, stream);
      return;
    case GpuKernel::kStrided32:
      return launch_strided<Saver, FastDivider32>(dst, plan, stream);
    case GpuKernel::kStrided64:
      return launch_strided<Saver, Divider64>(dst, plan, stream);
  }
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
