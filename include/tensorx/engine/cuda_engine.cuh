// The CUDA engine: ONE kernel launch per assignment, on the stream the assignment ordered
// (engine/gpu_stream.h), from two kernels. V is the count of the narrowest element the pass
// touches (destination or operand) that fills 16 bytes. When the destination and every array
// operand are dense in the iteration space, the dense kernel evaluates V consecutive elements per
// thread-step with 16-byte accesses, two steps loaded before either is stored (one element per
// step where some pointer is not 16-byte aligned). Otherwise the indexed kernel runs. When every
// operand runs along the last axis with unit stride, or broadcasts along it (a bias row, a column
// vector, a scalar), and every row starts 16-byte aligned, it does the same along each row: `relu(x
// + bias)` keeps its 16-byte accesses. Anything else takes it one element per step: each element's
// multi-index is derived once from its flat index (a 32-bit multiply-shift division per dimension)
// and the leaves multiply-add their strides; past 2^31 elements, a launch per box of fewer keeps
// that 32-bit arithmetic. All are grid-stride loops over at most one full wave of blocks (the
// device's multiprocessor count times the kernel's resident blocks per multiprocessor).
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
#include "tensorx/engine/index_boxes.h"
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

/// Writes V computed values to target[0 .. V - 1] (aligned for LaneBlock<T, V>) through the
/// saver, in one vector access.
template <class Saver, class T, class C, int V>
__device__ TENSORX_FORCE_INLINE void save_lanes(T* target, Lanes<C, V> lanes) {
  if constexpr (Saver::reads_destination) {
    const Lanes<C, V> current = load_lanes<C, V>(target);
    TENSORX_UNROLL
    for (int k = 0; k < V; ++k) lanes[k] = Saver::apply(current[k], lanes[k]);
  }
  store_lanes(target, lanes);
}

/// Vectors each thread of the dense kernel loads before it stores any: the stores could write
/// what a later load reads as far as the compiler knows, so without this every thread had one
/// 16-byte load per operand in flight, and a pass with one operand (sigmoid, bias and relu) ran at
/// 0.92-0.93 of a device copy on an H100 while the triad, with three, ran at 1.0.
constexpr int kDenseVectorsInFlight = 2;

/// Elements v * V .. v * V + V - 1 of the pass, through the saver.
template <class Saver, int V, class T, class Plan>
__device__ TENSORX_FORCE_INLINE Lanes<compute_t<T>, V> dense_vector(const T* dst, const Plan& plan,
                                                                    index_t v) {
  using C = compute_t<T>;
  const index_t i = v * V;
  Lanes<C, V> lanes = load_of<V>(plan, i);
  if constexpr (Saver::reads_destination) {
    const Lanes<C, V> current = load_lanes<C, V>(dst + i);
    TENSORX_UNROLL
    for (int k = 0; k < V; ++k) lanes[k] = Saver::apply(current[k], lanes[k]);
  }
  return lanes;
}

/// Destination and leaves dense. With `vectors` (every pointer aligned for LaneBlock<T, V>):
/// elements i .. i + V - 1 per thread-step, kDenseVectorsInFlight steps loaded at once, then the
/// last count % V elements one per thread; without, one element per thread-step. The choice is
/// the launch's, the same for every thread. Each thread stores only the elements it loaded, so an
/// assignment whose destination is also its operand (x = x * 2) stays correct.
template <class Saver, int V, class T, class Plan>
__global__ void __launch_bounds__(kCudaThreads)
    dense_kernel(T* dst, Plan plan, index_t count, bool vectors) {
  using C = compute_t<T>;
  const index_t first = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  if constexpr (V > 1) {
    if (vectors) {
      constexpr int kInFlight = kDenseVectorsInFlight;
      const index_t full = count / V;
      index_t v = first;
      for (; v + (kInFlight - 1) * step < full; v += kInFlight * step) {
        Lanes<C, V> lanes[kInFlight];
        TENSORX_UNROLL
        for (int u = 0; u < kInFlight; ++u) {
          lanes[u] = dense_vector<Saver, V>(dst, plan, v + u * step);
        }
        TENSORX_UNROLL
        for (int u = 0; u < kInFlight; ++u) store_lanes(dst + (v + u * step) * V, lanes[u]);
      }
      for (; v < full; v += step) store_lanes(dst + v * V, dense_vector<Saver, V>(dst, plan, v));
      const index_t rest = full * V + first;
      if (rest < count) save_element<Saver>(dst + rest, plan.flat(rest));
      return;
    }
  }
  for (index_t i = first; i < count; i += step) save_element<Saver>(dst + i, plan.flat(i));
}

/// Any layout, over one box of the iteration space (engine/index_boxes.h) of fewer than 2^31
/// elements, `space` its extents and `origin` its first multi-index. With `rows` (destination and
/// leaves with unit inner stride or 0, broadcast along the row; rows a multiple of V long and
/// starting 16-byte aligned; the box the whole space), V elements of one row per thread-step
/// (kDenseVectorsInFlight steps loaded before any is stored), a leaf loading V elements at once or
/// one value for all of them. Without, one element per thread-step: its multi-index from its flat
/// index, then one multiply-add per dimension for the destination and for each leaf. The choice is
/// the launch's, the same for every thread.
template <class Saver, int V, class T, int N, class Plan>
__global__ void __launch_bounds__(kCudaThreads)
    indexed_kernel(T* dst, Dim<N> dst_strides, IndexSpace<N, FastDivider32> space, Dim<N> origin,
                   Plan plan, std::uint32_t steps, bool rows) {
  const std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t step = gridDim.x * blockDim.x;
  if constexpr (V > 1 && N > 0) {
    if (rows) {
      // kDenseVectorsInFlight steps loaded before any is stored, as in the dense kernel.
      constexpr int kInFlight = kDenseVectorsInFlight;
      std::uint32_t v = first;
      for (; v + (kInFlight - 1) * step < steps; v += kInFlight * step) {
        T* targets[kInFlight];
        Lanes<compute_t<T>, V> lanes[kInFlight];
        TENSORX_UNROLL
        for (int u = 0; u < kInFlight; ++u) {
          const Dim<N> index = space.index_of((v + u * step) * V);
          targets[u] = dst + linearize(index, dst_strides);
          lanes[u] = load_at_of<V>(plan, index);
        }
        TENSORX_UNROLL
        for (int u = 0; u < kInFlight; ++u) save_lanes<Saver>(targets[u], lanes[u]);
      }
      for (; v < steps; v += step) {
        const Dim<N> index = space.index_of(v * V);
        save_lanes<Saver>(dst + linearize(index, dst_strides), load_at_of<V>(plan, index));
      }
      return;
    }
  }
  for (std::uint32_t i = first; i < steps; i += step) {
    Dim<N> index = space.index_of(i);
    if constexpr (N > 0) {
      TENSORX_UNROLL
      for (int d = 0; d < N; ++d) index.at(d) += origin.at(d);
    }
    save_element<Saver>(dst + linearize(index, dst_strides), plan.at(index));
  }
}

/// The paths an assignment can run as: two kernels (each kernel costs a host stub, a launch
/// function and a registration in every CUDA translation unit, so an assignment compiles no more
/// of them than its paths need), chosen between at launch.
enum class GpuKernel {
  kDenseVector,  ///< dense, every pointer 16-byte aligned: V elements per thread-step
  kDenseScalar,  ///< dense, some pointer not aligned: one element per thread-step
  kRowsVector,   ///< unit or broadcast inner strides, aligned rows: V elements of a row per step
  kStrided       ///< any layout: one element per thread-step, a launch per box of fewer than 2^31
};

/// Iteration spaces up to this many elements take one launch of the indexed kernel (its flat
/// indices stay below 2^31, as FastDivider32 needs).
constexpr index_t kMaxIndexedBox = std::numeric_limits<std::int32_t>::max();

/// Queues the dense kernel with V elements per thread-step where `vectors` (one otherwise) on
/// `stream` of dst's device, which must be current. Throws CudaError when the launch fails.
template <class Saver, int V, class T, int N, class Plan>
void launch_dense(const Array<T, N>& dst, const Plan& plan, StreamHandle stream, bool vectors) {
  const auto kernel = dense_kernel<Saver, V, T, Plan>;
  // Asked once per kernel, on the device of its first launch.
  static const int resident = resident_blocks(reinterpret_cast<const void*>(kernel));
  const index_t count = dst.numel();
  const index_t steps = vectors ? count / V : count;
  kernel<<<grid_size(steps, device_of(dst.place()), resident), kCudaThreads, 0, stream>>>(
      dst.data(), plan, count, vectors);
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

/// Queues the indexed kernel, V elements of a row per thread-step where `rows` (dst then has at
/// most `box_limit` elements), one element per thread-step otherwise, a launch per box of at most
/// `box_limit` elements (at most kMaxIndexedBox: the tests ask for smaller boxes), on `stream` of
/// dst's device, which must be current. Throws CudaError when a launch fails.
template <class Saver, int V, class T, int N, class Plan>
void launch_indexed(const Array<T, N>& dst, const Plan& plan, StreamHandle stream, bool rows,
                    index_t box_limit = kMaxIndexedBox) {
  const auto kernel = indexed_kernel<Saver, V, T, N, Plan>;
  static const int resident = resident_blocks(reinterpret_cast<const void*>(kernel));
  const int device = device_of(dst.place());
  IndexBoxes<N> boxes(dst.dims(), box_limit);
  Dim<N> origin, box;
  while (boxes.next(origin, box)) {
    const index_t steps = rows ? product(box) / V : product(box);
    kernel<<<grid_size(steps, device, resident), kCudaThreads, 0, stream>>>(
        dst.data(), dst.strides(), IndexSpace<N, FastDivider32>(box), origin, plan,
        static_cast<std::uint32_t>(steps), rows);
    TENSORX_CUDA_CHECK(cudaGetLastError());
  }
}

/// True when an array of `element_size` bytes read with `strides` suits the rows kernel: broadcast
/// along the last axis (any address), or unit inner stride with every row starting 16-byte
/// aligned. Every outer stride counts: a plan's leaf has stride 0 along the axes it broadcasts
/// (broadcast_strides), those of extent 1 included.
template <int N>
bool has_aligned_rows(const void* data, const Dim<N>& strides, std::size_t element_size) {
  if (strides.at(N - 1) == 0) return true;
  if (strides.at(N - 1) != 1 || !is_16_byte_aligned(data)) return false;
  for (int d = 0; d + 1 < N; ++d) {
    if (static_cast<std::size_t>(strides.at(d)) * element_size % 16 != 0) return false;
  }
  return true;
}

/// The same for an array laid over `dims` (a destination): an outer axis of extent 1 may have
/// any stride, since no second row is read along it.
template <int N>
bool has_aligned_rows(const void* data, const Dim<N>& dims, const Dim<N>& strides,
                      std::size_t element_size) {
  Dim<N> stepped = strides;
  for (int d = 0; d + 1 < N; ++d) {
    if (dims.at(d) == 1) stepped.at(d) = 0;
  }
  return has_aligned_rows(data, stepped, element_size);
}

/// The path that evaluates `plan` into `dst` (a host-side decision on pointers and strides).
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
  // Rows run in one box: past kMaxIndexedBox elements the strided path cuts the space.
  if (N > 0 && rows && dst.numel() <= kMaxIndexedBox) return GpuKernel::kRowsVector;
  return GpuKernel::kStrided;
}

/// Runs one pass evaluating `plan` into the GPU array `dst` (not empty) with `Saver`: one kernel
/// on `stream` of dst's device (one per box of 2^31 elements past them). Throws CudaError when
/// the launch fails.
template <class Saver, class T, int N, class Plan>
void run_gpu(CudaTranslationUnit, Saver, const Array<T, N>& dst, const Plan& plan,
             StreamHandle stream) {
  const int device = device_of(dst.place());
  cuda::DeviceGuard guard(device);
  stats::record_pass();
  constexpr int V = kPassWidth<T, Plan>;
  const GpuKernel path = choose_kernel(dst, plan);
  if (path == GpuKernel::kDenseVector || path == GpuKernel::kDenseScalar) {
    launch_dense<Saver, V>(dst, plan, stream, path == GpuKernel::kDenseVector);
  } else {
    launch_indexed<Saver, V>(dst, plan, stream, path == GpuKernel::kRowsVector);
  }
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
