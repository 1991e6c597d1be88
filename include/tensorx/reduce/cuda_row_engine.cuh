// The CUDA half of row-local fusion (row_fusion.h): ONE kernel in which a team of threads owns a
// row. Rows of up to kWarpRowLength elements go to a warp each (eight rows per block); longer
// ones to a whole block. The team computes each fused reduction together (each thread a strided
// share of the row, then a butterfly of warp shuffles, and for a block one exchange through
// shared memory), every thread ending with the same value, innermost reductions first; then it
// writes the row (or, for a per-row pass, its one result). The re-reads of a row after its first
// are served by L1 and L2. The order of every combination is fixed by the row length and the
// team, so results repeat bitwise for a given shape and device.
//
// Few very long rows would leave most of the device idle with a team per row: those take the
// materialising route instead (a reduction kernel per reduction, then one element-wise pass; see
// fused_pass_fills_device).
//
// Included by reduce/row_writer.h in CUDA translation units only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tensorx/array/array.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/core/stats.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/engine/cuda_engine.cuh"
#include "tensorx/engine/cuda_launch.cuh"
#include "tensorx/place/device.h"
#include "tensorx/reduce/reducers.h"
#include "tensorx/reduce/row_fusion.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Rows up to this long are owned by one warp; longer ones by a block of kCudaThreads.
constexpr index_t kWarpRowLength = 1024;

constexpr int kWarpSize = 32;

/// The threads that own one row: a warp (kWarp) or the whole block.
template <bool kWarp>
struct RowTeam {
  static constexpr int kTeamsPerBlock = kWarp ? kCudaThreads / kWarpSize : 1;

  __device__ static int size() { return kWarp ? kWarpSize : static_cast<int>(blockDim.x); }
  __device__ static int rank() {
    return kWarp ? static_cast<int>(threadIdx.x) % kWarpSize : static_cast<int>(threadIdx.x);
  }
  __device__ static index_t first() {
    return static_cast<index_t>(blockIdx.x) * kTeamsPerBlock +
           (kWarp ? static_cast<index_t>(threadIdx.x) / kWarpSize : 0);
  }
  __device__ static index_t count() { return static_cast<index_t>(gridDim.x) * kTeamsPerBlock; }
};

/// `value` of the lane `mask` away (lane ^ mask) in the warp, for any value of 4 or 8 bytes.
template <class A>
__device__ TENSORX_FORCE_INLINE A shuffle_xor(const A& value, int mask) {
  static_assert(sizeof(A) % 4 == 0, "shuffled values are whole 32-bit words");
  constexpr int kWords = static_cast<int>(sizeof(A) / 4);
  unsigned words[kWords];
  memcpy(words, &value, sizeof(A));
  TENSORX_UNROLL
  for (int w = 0; w < kWords; ++w) words[w] = __shfl_xor_sync(0xffffffffu, words[w], mask);
  A out;
  memcpy(&out, words, sizeof(A));
  return out;
}

/// Every thread's accumulator of the team combined; every thread of the team gets the same
/// result (the combinations are commutative, so both lanes of a butterfly step agree).
template <class Op, bool kWarp, class A>
__device__ A team_combine(A value) {
  TENSORX_UNROLL
  for (int mask = kWarpSize / 2; mask > 0; mask /= 2) {
    value = Op::combine(value, shuffle_xor(value, mask));
  }
  if constexpr (!kWarp) {
    __shared__ A warps[kCudaThreads / kWarpSize];
    __syncthreads();  // every thread has read the previous combination's values
    if (threadIdx.x % kWarpSize == 0) warps[threadIdx.x / kWarpSize] = value;
    __syncthreads();
    value = warps[0];
    for (int w = 1; w < static_cast<int>(blockDim.x) / kWarpSize; ++w) {
      value = Op::combine(value, warps[w]);
    }
  }
  return value;
}

/// Computes the fused reductions of the row a team owns, together (see the file comment).
template <bool kWarp>
class TeamRowReducer {
 public:
  template <class Op, class C, class OperandPlan, bool kExtraAxis, int M>
  __device__ RowConstPlan<C> reduce(const RowReducePlan<Op, C, OperandPlan, kExtraAxis>& plan,
                                    const Dim<M>& start) {
    return row_value(plan, values_, [&] {
      using Team = RowTeam<kWarp>;
      const auto& bound = bind_rows(plan.operand, start, *this);
      // Four independent accumulators, so that four loads of the row are in flight at once.
      constexpr int kUnroll = 4;
      C acc[kUnroll];
      TENSORX_UNROLL
      for (int u = 0; u < kUnroll; ++u) acc[u] = Op::template identity<C>();
      const index_t step = Team::size();
      Dim<M> index = start;
      index_t j = Team::rank();
      for (; j + (kUnroll - 1) * step < plan.length; j += kUnroll * step) {
        C values[kUnroll];
        TENSORX_UNROLL
        for (int u = 0; u < kUnroll; ++u) {
          index.at(M - 1) = j + u * step;
          values[u] = static_cast<C>(bound.at(index));
        }
        TENSORX_UNROLL
        for (int u = 0; u < kUnroll; ++u) acc[u] = Op::combine(acc[u], values[u]);
      }
      for (; j < plan.length; j += step) {
        index.at(M - 1) = j;
        acc[0] = Op::combine(acc[0], static_cast<C>(bound.at(index)));
      }
      const C mine = Op::combine(Op::combine(acc[0], acc[1]), Op::combine(acc[2], acc[3]));
      return Op::finalize(team_combine<Op, kWarp>(mine), plan.length);
    });
  }

 private:
  RowValues values_;
};

/// The fused pass: with kRows, each team writes rows of dst of `length` elements (`items` rows,
/// `extent` dst's extent with the last axis 1); otherwise each team writes one element of dst
/// (`items` elements, `extent` dst's extent), computed from the rows its reductions reduce.
template <bool kRows, bool kWarp, class Saver, class T, int N, class Plan>
__global__ void __launch_bounds__(kCudaThreads)
    fused_rows_kernel(T* dst, Dim<N> dst_strides, Dim<N> extent, index_t items, index_t length,
                      Plan plan) {
  using Team = RowTeam<kWarp>;
  for (index_t item = Team::first(); item < items; item += Team::count()) {
    const Dim<N> index = delinearize(item, extent);
    TeamRowReducer<kWarp> reducer;
    const auto& bound = bind_rows(plan, index, reducer);
    if constexpr (kRows) {
      T* const row = dst + linearize(index, dst_strides);
      Dim<N> at = index;
      for (index_t j = Team::rank(); j < length; j += Team::size()) {
        at.at(N - 1) = j;
        save_element<Saver>(row + j * dst_strides.at(N - 1), bound.at(at));
      }
    } else {
      const auto value = bound.at(index);
      if (Team::rank() == 0) save_element<Saver>(dst + linearize(index, dst_strides), value);
    }
  }
}

template <bool kRows, bool kWarp, class Saver, class T, int N, class Plan>
void launch_fused_rows(const Array<T, N>& dst, const Dim<N>& extent, index_t items,
                       index_t length, const Plan& plan, StreamHandle stream) {
  const auto kernel = fused_rows_kernel<kRows, kWarp, Saver, T, N, Plan>;
  static const int resident = resident_blocks(reinterpret_cast<const void*>(kernel));
  const index_t wave = index_t{multiprocessor_count(device_of(dst.place()))} * resident;
  constexpr index_t kTeams = RowTeam<kWarp>::kTeamsPerBlock;
  const auto blocks =
      static_cast<unsigned>(std::max<index_t>(1, std::min((items + kTeams - 1) / kTeams, wave)));
  kernel<<<blocks, kCudaThreads, 0, stream>>>(dst.data(), dst.strides(), extent, items, length,
                                              plan);
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

/// The longest row that a top reduction of `plan` reduces.
template <class Plan>
index_t longest_reduced_row(const Plan& plan) {
  index_t longest = 0;
  for_each_top_reduction(plan, [&](const auto& r) { longest = std::max(longest, r.length); });
  return longest;
}

/// Runs the fused pass (kRows: the rows form; else the per-row form) of `plan` into the GPU array
/// dst (not empty) on `stream` of dst's device. Throws CudaError when the launch fails.
template <bool kRows, class Saver, class T, int N, class Plan>
void run_fused_gpu(CudaTranslationUnit, std::bool_constant<kRows>, Saver, const Array<T, N>& dst,
                   const Plan& plan, StreamHandle stream) {
  cuda::DeviceGuard guard(device_of(dst.place()));
  stats::record_pass();
  Dim<N> extent = dst.dims();
  index_t length = 0;
  if constexpr (kRows) {
    length = extent.at(N - 1);
    extent.at(N - 1) = 1;
  }
  const index_t items = product(extent);
  const index_t reduced = kRows ? std::max(length, longest_reduced_row(plan))
                                : longest_reduced_row(plan);
  if (reduced <= kWarpRowLength) {
    launch_fused_rows<kRows, true, Saver>(dst, extent, items, length, plan, stream);
  } else {
    launch_fused_rows<kRows, false, Saver>(dst, extent, items, length, plan, stream);
  }
}

/// True when a team per row keeps the device busy: at least one row per multiprocessor, or rows
/// short enough that a few teams finish them soon.
inline bool fused_pass_fills_device(index_t rows, index_t length, int device) {
  return rows >= multiprocessor_count(device) || length <= 8 * kWarpRowLength;
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
