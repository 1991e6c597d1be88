// The CUDA half of row-local fusion (row_fusion.h): ONE kernel in which a team of threads owns a
// row. Rows of up to kWarpRowLength elements go to 8, 16 or 32 lanes of a warp, about 32 elements
// a lane (rows of 256 floats: four a warp, 32 a block); longer ones to a whole block. The team
// computes each fused reduction together (each thread a strided share of the row, then a butterfly
// of warp shuffles, and for a block one exchange through shared memory), every thread ending with
// the same value, innermost reductions first; then it writes the row (or, for a per-row pass, its
// one result). The order of every combination is fixed by the row length and the team, so results
// repeat bitwise for a given shape and device.
//
// Staging: before a team reduces a row, it copies the row of every array that a reduction reads
// (and that varies along the row) into its share of dynamic shared memory, with 16-byte copies
// (cp.async) where the row is aligned, and points the plan's leaves there; the reductions and the
// output then read the row on chip, so that the pass reads each operand from DRAM once. Where
// each row goes is the host's decision, once per launch (row_staging.h). A row whose operands
// outgrow staging_budget() is read from global memory by every sweep instead (L1 and L2 serve the
// re-reads).
//
// Stash: an element-wise part that a reduction and the output share (softmax's exp(x - max)) is
// written by that reduction's sweep to a row buffer after the staged rows, which the output reads
// instead of computing it again (row_stash.h): the softmax's output loop went from 68 to 19
// instructions per four floats (SASS, sm_90). A plan with such a part compiles both ways; the
// launch picks the stash where the plan allows it and shared memory holds it.
//
// Blocks: where every array leaf is broadcast along its rows or reads rows of unit stride that
// start 16-byte aligned, a thread reads its share of a row 16 bytes at a time (load_at_of), for
// the reductions and for the output, and writes the output the same way where the destination's
// rows are aligned too. Element by element, the index arithmetic of every leaf and the scalar
// loads and stores took most of the kernel's instructions (ncu on an H200, softmax of 8192 x 8192
// floats: 111 warp instructions per element, 0.69 issued per cycle and scheduler, DRAM 36% busy).
//
// Clusters: where a block's share of a row outgrows a third of a multiprocessor's shared memory,
// or a few long rows would leave most of the device idle with a block per row, the row is cut into
// slices over the blocks of a thread block cluster (compute capability 9.0 and later), each block
// staging its slice and the blocks' values meeting in distributed shared memory
// (cuda_row_cluster.cuh; choose_row_staging says when). Elsewhere, few very long rows take the
// materialising route (a reduction kernel per reduction, then one element-wise pass; see
// fused_pass_fills_device).
//
// Included by reduce/row_writer.h in CUDA translation units only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "tensorx/array/array.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/core/stats.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/engine/cuda_engine.cuh"
#include "tensorx/engine/cuda_launch.cuh"
#include "tensorx/place/device.h"
#include "tensorx/reduce/contiguous_row.h"
#include "tensorx/reduce/cuda_reduce.cuh"
#include "tensorx/reduce/cuda_row_cluster.cuh"
#include "tensorx/reduce/reducers.h"
#include "tensorx/reduce/row_fusion.h"
#include "tensorx/reduce/row_staging.h"
#include "tensorx/reduce/row_stash.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Rows up to this long are owned by lanes of one warp; longer ones by a block of kCudaThreads.
constexpr index_t kWarpRowLength = 1024;

constexpr int kWarpSize = 32;

/// The elements of a row each lane of a warp team takes: a team has as many lanes (a power of
/// two, 8 to 32) as give each about this many, so that a team's fixed costs per row (the plan
/// copy, staging's synchronisation, the combinations) are spread over more elements. Each lane
/// then reads 16-byte blocks of its team's row, eight lanes a whole 128-byte line.
constexpr index_t kRowElementsPerLane = 32;
constexpr int kMinTeamLanes = 8;

/// The lanes of a warp team for rows of `length` elements (at most kWarpRowLength).
constexpr int team_lanes_for(index_t length) {
  int lanes = kMinTeamLanes;
  while (lanes < kWarpSize && lanes * kRowElementsPerLane < length) lanes *= 2;
  return lanes;
}

/// The blocks of a fused kernel that its registers leave room for on one multiprocessor
/// (__launch_bounds__): 4 for the rows form holds it to 64 registers a thread, half the threads a
/// multiprocessor can hold; 3 for the per-row forms, which spilled at 64 (logsumexp,
/// cross_entropy) and need 72 without, and for a rows form with a stash (row_stash.h), which
/// spilled at 64 and whose row buffer beside the staged rows leaves room for 3 blocks anyway
/// (64 KiB a block for rows of 256 to 8192 floats). Left to itself, ptxas gave layer_norm's kernel
/// 110 registers (two blocks) once its staging offsets became constants it could keep in
/// registers (ptxas -v, sm_90). The kernels are bound by their instructions, whose latencies more
/// resident warps hide.
constexpr int fused_blocks_per_multiprocessor(bool rows, bool stash) {
  return rows && !stash ? 4 : 3;
}

/// The threads that own one row: `lanes` consecutive lanes of a warp (a power of two up to 32),
/// or, with `lanes` 0, the whole block, or with `blocks` above 1 the blocks of a cluster, each
/// block its slice of the row (cuda_row_cluster.cuh). The launch chooses, the same for every
/// thread, so that one kernel serves every team size (a kernel per team size doubled what each
/// expression compiles to). Every team of a launch has the same size, so a warp's teams take the
/// same branches. size() and rank() count the threads of a block, which share a slice.
struct RowTeam {
  int lanes;
  /// The blocks of the cluster that owns a row (1: none), each owning a slice of every row
  /// (row_slice), of slice_quanta * kRowSliceQuantum elements. The block's rank among them is
  /// read from its special register where it is needed: kept here, with a 64-bit slice length,
  /// it cost the rows kernels of layer_norm four registers at their bound of 64, and spills
  /// (SASS, sm_90).
  int blocks;
  int slice_quanta;

  /// The team of the whole block.
  __device__ static RowTeam block() { return RowTeam{0, 1, 0}; }

  __device__ bool in_warp() const { return lanes != 0; }
  __device__ bool in_cluster() const { return blocks > 1; }
  /// The part of a row of `length` elements this thread's block owns: all of it but in a cluster.
  __device__ TENSORX_FORCE_INLINE RowSlice slice(index_t length) const {
    if (!in_cluster()) return RowSlice{0, length};
    return row_slice(length, index_t{slice_quanta} * kRowSliceQuantum, cluster_block_rank());
  }
  /// True in the one thread of the team that writes the team's single result.
  __device__ bool leads() const {
    return rank() == 0 && (!in_cluster() || cluster_block_rank() == 0);
  }
  __device__ int size() const { return in_warp() ? lanes : static_cast<int>(blockDim.x); }
  __device__ int rank() const {
    return in_warp() ? static_cast<int>(threadIdx.x) & (lanes - 1) : static_cast<int>(threadIdx.x);
  }
  /// log2(lanes), for the divisions by it.
  __device__ int lanes_shift() const { return __ffs(lanes) - 1; }
  /// The team's index in the block, and the teams of a block.
  __device__ int in_block() const {
    return in_warp() ? static_cast<int>(threadIdx.x) >> lanes_shift() : 0;
  }
  __device__ int per_block() const {
    return in_warp() ? static_cast<int>(blockDim.x) >> lanes_shift() : 1;
  }
  __device__ index_t first() const {
    if (in_cluster()) return cluster_index();
    return static_cast<index_t>(blockIdx.x) * per_block() + in_block();
  }
  __device__ index_t count() const {
    if (in_cluster()) return cluster_count();
    return static_cast<index_t>(gridDim.x) * per_block();
  }
  /// The team's lanes in its warp (every lane for a team of 32 or the block).
  __device__ unsigned lane_mask() const {
    if (!in_warp() || lanes == kWarpSize) return 0xffffffffu;
    const unsigned first_lane = threadIdx.x % kWarpSize & ~static_cast<unsigned>(lanes - 1);
    return ((1u << lanes) - 1u) << first_lane;
  }
  /// Waits for every thread of the team (of the block, in a cluster: what the blocks share goes
  /// through cluster_combine).
  __device__ void sync() const {
    if (in_warp()) {
      __syncwarp(lane_mask());
    } else {
      __syncthreads();
    }
  }
};

/// `value` of the lane `mask` away (lane ^ mask) among `lanes` (the calling team's lanes), for
/// any value of 4 or 8 bytes.
template <class A>
__device__ TENSORX_FORCE_INLINE A shuffle_xor(const A& value, int mask, unsigned lanes) {
  static_assert(sizeof(A) % 4 == 0, "shuffled values are whole 32-bit words");
  constexpr int kWords = static_cast<int>(sizeof(A) / 4);
  unsigned words[kWords];
  memcpy(words, &value, sizeof(A));
  TENSORX_UNROLL
  for (int w = 0; w < kWords; ++w) words[w] = __shfl_xor_sync(lanes, words[w], mask);
  A out;
  memcpy(&out, words, sizeof(A));
  return out;
}

/// Every thread's accumulator of the team combined; every thread of the team gets the same
/// result. Both lanes of a butterfly step combine the lower lane's value with the upper lane's,
/// in that order: max and min are not commutative bit for bit (+0 against -0, NaNs of different
/// payloads), and the lanes must not end with different zeros. A warp's team shuffles among its
/// lanes, a mask known only at run time; the block's team shuffles with the whole warp's constant
/// mask and combines the block's warps in an unrolled loop: with the run-time mask each shuffle
/// took a MATCH.ANY, a REDUX.OR, a VOTE.ANY and a divergent branch, and the block's max and sum
/// of a softmax row 282 instructions a thread where this path takes 79 (SASS, sm_90). The order
/// of the combinations is the same on both paths. A cluster's blocks then combine their values in
/// block order (cluster_combine).
template <class Op, class A>
__device__ A team_combine(A value, RowTeam team) {
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  if (team.in_warp()) {
    const unsigned lanes = team.lane_mask();
    TENSORX_UNROLL
    for (int mask = kWarpSize / 2; mask > 0; mask /= 2) {
      if (mask >= team.lanes) continue;  // the same for every lane of the warp: its teams are alike
      const A other = shuffle_xor(value, mask, lanes);
      value = (lane & mask) != 0 ? Op::combine(other, value) : Op::combine(value, other);
    }
    return value;
  }
  TENSORX_UNROLL
  for (int mask = kWarpSize / 2; mask > 0; mask /= 2) {
    const A other = shuffle_xor(value, mask, 0xffffffffu);
    value = (lane & mask) != 0 ? Op::combine(other, value) : Op::combine(value, other);
  }
  // The fused kernels run blocks of kCudaThreads threads.
  __shared__ A warps[kCudaThreads / kWarpSize];
  __syncthreads();  // every thread has read the previous combination's values
  if (lane == 0) warps[threadIdx.x / kWarpSize] = value;
  __syncthreads();
  value = warps[0];
  TENSORX_UNROLL
  for (int w = 1; w < kCudaThreads / kWarpSize; ++w) value = Op::combine(value, warps[w]);
  if (team.in_cluster()) value = cluster_combine<Op>(value, team.blocks);
  return value;
}

/// The static shared memory of a fused kernel, with a margin: team_combine's exchange and
/// cluster_combine's value.
constexpr std::size_t kFusedStaticShared = 1024;

/// The most shared memory a block stages rows in: rows of up to 51200 floats stay on chip. A row
/// re-read from global memory costs more than the occupancy that a large block share gives up:
/// once rows in flight outgrow L2 (50 MB on an H100: 200 rows of 256 KiB), every sweep goes to
/// DRAM again. Rows of 8192 floats leave room for seven blocks per multiprocessor of an H100.
constexpr std::size_t kMaxStagedBytesPerBlock = 200 * 1024;

/// The shared memory a block of the fused kernels may stage rows in on `device`: the device's
/// opt-in limit per block less the kernels' own (static) use, at most kMaxStagedBytesPerBlock.
inline std::size_t staging_budget(int device) {
  static const std::vector<std::size_t> budgets = [] {
    std::vector<std::size_t> result(static_cast<std::size_t>(cuda::device_count()));
    for (std::size_t d = 0; d < result.size(); ++d) {
      int optin = 0;
      TENSORX_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                                static_cast<int>(d)));
      const auto available = static_cast<std::size_t>(optin);
      result[d] = std::min(kMaxStagedBytesPerBlock,
                           available > kFusedStaticShared ? available - kFusedStaticShared : 0);
    }
    return result;
  }();
  return budgets[static_cast<std::size_t>(device)];
}

/// Starts copying 16 bytes from global memory at `source` to shared memory at `staged` (both
/// 16-byte aligned) without waiting for them (cp.async, sm_80 and later; a load and a store
/// before): wait_for_staged_copies waits for every copy the thread started.
__device__ TENSORX_FORCE_INLINE void copy_16_bytes_async(void* staged, const void* source) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const auto to = static_cast<unsigned>(__cvta_generic_to_shared(staged));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(source) : "memory");
#else
  *static_cast<uint4*>(staged) = *static_cast<const uint4*>(source);
#endif
}

/// Waits for the copies this thread started with copy_16_bytes_async (the team then syncs
/// before any thread reads what another copied).
__device__ TENSORX_FORCE_INLINE void wait_for_staged_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

/// Copies one row (`length` elements, `stride` apart from `source`) into `staged` (16-byte
/// aligned), the team's threads taking every team-size-th 16-byte block, without waiting for
/// them (copy_16_bytes_async), or where the row is not of unit stride and aligned, every
/// team-size-th element.
template <class T>
__device__ void stage_row(T* staged, const T* source, index_t stride, index_t length,
                          RowTeam team) {
  constexpr int V = 16 / sizeof(T) > 0 ? static_cast<int>(16 / sizeof(T)) : 1;
  index_t j = 0;
  if (stride == 1 && reinterpret_cast<std::uintptr_t>(source) % 16 == 0 && V > 1) {
    const index_t blocks = length / V;
    for (index_t b = team.rank(); b < blocks; b += team.size()) {
      copy_16_bytes_async(staged + b * V, source + b * V);
    }
    j = blocks * V;
  }
  for (j += team.rank(); j < length; j += team.size()) staged[j] = source[j * stride];
}

/// Stages one item's rows as a StagingLayout says (a visitor of for_each_row_leaf, over the plan
/// the team then binds): the copying leaves start copying their rows (in a cluster, the block's
/// slice of them) into `share` (the team's share of shared memory; the team waits for them before
/// it reads them), and every staged leaf is pointed at its row there, as if the whole row were
/// (the team reads only its slice).
struct StageItem {
  unsigned char* share;
  const StagingLayout& layout;
  RowTeam team;
  int next = 0;  // the leaf's ordinal: a constant in each leaf's code once the visit is inlined

  template <class T, int M>
  __device__ TENSORX_FORCE_INLINE void operator()(LeafPlan<T, M>& leaf, const Dim<M>& start,
                                                  index_t length, bool) {
    const int ordinal = next++;
    if (ordinal >= kMaxStagedLeaves || layout.offsets[ordinal] < 0) return;
    T* staged = reinterpret_cast<T*>(share + layout.offsets[ordinal]);
    const RowSlice slice = team.slice(length);
    if (((layout.copies >> ordinal) & 1u) != 0) {
      const index_t stride = leaf.strides.at(M - 1);
      stage_row(staged, leaf.data + linearize(start, leaf.strides) + slice.begin * stride, stride,
                slice.end - slice.begin, team);
    }
    leaf.data = staged - slice.begin;
    leaf.strides = Dim<M>();
    leaf.strides.at(M - 1) = 1;
  }
};

/// The accumulators a thread keeps while it reduces its share of a row: V (one per lane of a
/// 16-byte block) where the row is read in blocks, and at least four, so that four loads of the
/// row are in flight at once where it is read an element at a time.
template <int V>
constexpr int kRowAccumulators = V > 4 ? V : 4;

/// Where a reduction's sweep puts the values it reduces: nowhere (NoRowFill), or into the row
/// buffer of a stashed part (RowFill, row_stash.h), element j at buffer[j], in the team's share of
/// shared memory.
struct NoRowFill {
  template <class V>
  __device__ TENSORX_FORCE_INLINE void value(index_t, const V&) const {}
  template <class L>
  __device__ TENSORX_FORCE_INLINE void lanes(index_t, const L&) const {}
};

template <class P>
struct RowFill {
  P* buffer;

  __device__ TENSORX_FORCE_INLINE void value(index_t j, const P& v) const { buffer[j] = v; }
  /// Elements j .. j + V - 1, j a multiple of V (aligned in the 16-byte aligned buffer).
  template <int V>
  __device__ TENSORX_FORCE_INLINE void lanes(index_t j, const Lanes<P, V>& values) const {
    // One vector store to shared memory, not store_lanes, whose device form writes global memory.
    LaneBlock<P, V> block;
    TENSORX_UNROLL
    for (int k = 0; k < V; ++k) block.values[k] = values[k];
    *reinterpret_cast<LaneBlock<P, V>*>(buffer + j) = block;
  }
};

/// How a team's threads read the rows of a fused pass, the same for every thread of a launch
/// (FusedLaunch): element by element through the leaves' strides, or in 16-byte blocks (every
/// array leaf broadcast along its rows or reading aligned rows of unit stride), and of those the
/// contiguous ones (every leaf of unit stride, no row longer than kMaxContiguousRow) through
/// contiguous_row_of with a 32-bit index.
struct RowReads {
  bool blocks;
  bool contiguous;
};

/// The longest row a contiguous sweep counts with a 32-bit index (its block index plus a team's
/// step stays below 2^31).
constexpr index_t kMaxContiguousRow = index_t{1} << 30;

/// Calls f(j, lanes of the V elements from j) for j = V * b, b = first, first + step, .. below
/// `full`, reading the row of `bound` from `index` (its last coordinate 0): through its
/// contiguous row (contiguous_row_of) with a 32-bit index where `contiguous`, else through
/// load_at at each block's multi-index.
template <int V, class Bound, int M, class F>
__device__ TENSORX_FORCE_INLINE void for_each_row_block(const Bound& bound, Dim<M> index,
                                                        index_t first, index_t full, index_t step,
                                                        bool contiguous, F&& f) {
  if (contiguous) {
    const auto row = contiguous_row_of(bound, index);
    const int end = static_cast<int>(full);
    for (int b = static_cast<int>(first); b < end; b += static_cast<int>(step)) {
      f(b * V, load_of<V>(row, b * V));
    }
  } else {
    for (index_t b = first; b < full; b += step) {
      index.at(M - 1) = b * V;
      f(b * V, load_at_of<V>(bound, index));
    }
  }
}

/// This thread's share of a reduction Op over the elements `slice` of the row of `bound` from
/// `index` (its last coordinate 0), before the team combines the shares: with reads.blocks,
/// every team-size-th block of V elements (16-byte loads where the row is staged or aligned, a
/// lane per accumulator; slice.begin is a multiple of V), then the slice's last elements that
/// make no whole block one at a time; without, every team-size-th element, four at a time. The
/// order is fixed by the slice and the team. `fill` gets every value reduced, where it is read
/// (before its conversion to C).
template <class Op, class C, int V, class Bound, int M, class Fill>
__device__ C reduce_row_share(const Bound& bound, Dim<M> index, RowSlice slice, RowTeam team,
                              RowReads reads, const Fill& fill) {
  constexpr int kAcc = kRowAccumulators<V>;
  C acc[kAcc];
  TENSORX_UNROLL
  for (int a = 0; a < kAcc; ++a) acc[a] = Op::template identity<C>();
  const index_t step = team.size();
  const index_t length = slice.end;
  index_t j = slice.begin + team.rank();
  if (V > 1 && reads.blocks) {
    // slice.begin is a multiple of V (row_slice).
    const index_t full = slice.begin / V + (slice.end - slice.begin) / V;
    for_each_row_block<V>(bound, index, slice.begin / V + team.rank(), full, step, reads.contiguous,
                          [&](index_t at, const auto& lanes) {
                            fill.lanes(at, lanes);
                            TENSORX_UNROLL
                            for (int k = 0; k < V; ++k) {
                              acc[k] = Op::combine(acc[k], static_cast<C>(lanes[k]));
                            }
                          });
    j = full * V + team.rank();
  } else {
    for (; j + 3 * step < length; j += 4 * step) {
      C values[4];
      TENSORX_UNROLL
      for (int u = 0; u < 4; ++u) {
        index.at(M - 1) = j + u * step;
        const auto value = bound.at(index);
        fill.value(j + u * step, value);
        values[u] = static_cast<C>(value);
      }
      TENSORX_UNROLL
      for (int u = 0; u < 4; ++u) acc[u] = Op::combine(acc[u], values[u]);
    }
  }
  for (; j < length; j += step) {
    index.at(M - 1) = j;
    const auto value = bound.at(index);
    fill.value(j, value);
    acc[0] = Op::combine(acc[0], static_cast<C>(value));
  }
  C mine = acc[0];
  TENSORX_UNROLL
  for (int a = 1; a < kAcc; ++a) mine = Op::combine(mine, acc[a]);
  return mine;
}

/// Computes the fused reductions of the row a team owns, together (see the file comment). `reads`:
/// how the team reads the rows (RowReads; staged rows count as aligned rows of unit stride).
/// kSlots: the reductions whose values it keeps for the row (kRowSlotsOf the pass's plan). With a
/// stashed Part (row_stash.h), the reduction of that part in slot `fill_slot` also writes the
/// values it reduces to `fill`; the host names a slot only where that reduction sweeps the output's
/// own rows and binding always reaches it (find_stash_source, stash_request), so that every element
/// of the buffer is written. In a cluster the buffer holds the block's slice of the row, and `fill`
/// points where element 0 of the row would be.
template <int kSlots, class Part = void>
class TeamRowReducer {
 public:
  __device__ TeamRowReducer(RowTeam team, RowReads reads, void* fill = nullptr, int fill_slot = -1)
      : team_(team), reads_(reads), fill_(fill), fill_slot_(fill_slot) {}

  template <class Op, class C, class OperandPlan, bool kExtraAxis, int M>
  __device__ RowConstPlan<C> reduce(const RowReducePlan<Op, C, OperandPlan, kExtraAxis>& plan,
                                    const Dim<M>& start) {
    return row_value(plan, values_, [&] {
      const auto& bound = bind_rows(plan.operand, start, *this);
      constexpr int V = kRowLoadWidth<Op, C, OperandPlan>;
      const RowSlice slice = team_.slice(plan.length);
      C mine;
      if constexpr (std::is_same_v<OperandPlan, Part>) {
        using P = typename Part::result_type;
        static_assert(std::is_same_v<plan_value_t<std::decay_t<decltype(bound)>>, P>,
                      "the stashed part's values are of its result type");
        if (plan.slot >= 0 && plan.slot == fill_slot_) {
          const RowFill<P> fill{static_cast<P*>(fill_)};
          mine = reduce_row_share<Op, C, V>(bound, start, slice, team_, reads_, fill);
        } else {
          mine = reduce_row_share<Op, C, V>(bound, start, slice, team_, reads_, NoRowFill{});
        }
      } else {
        mine = reduce_row_share<Op, C, V>(bound, start, slice, team_, reads_, NoRowFill{});
      }
      return Op::finalize(team_combine<Op>(mine, team_), plan.length);
    });
  }

 private:
  RowTeam team_;
  RowReads reads_;
  void* fill_;
  int fill_slot_;
  RowValues<kSlots> values_;
};

/// How the threads of a fused kernel take their rows: the same for every thread, chosen on the
/// host from the shapes, strides and addresses (fused_grid, launch_fused_rows).
struct FusedLaunch {
  /// The lanes of a warp that own a row (8 to 32, a power of two), or 0: the block owns it.
  int team_lanes;
  /// The blocks of a cluster that own a row together (team_lanes 0), each a slice of
  /// slice_length elements of every row; else 1 and 0.
  int cluster_blocks;
  index_t slice_length;
  /// Every array leaf is broadcast along its rows, or reads rows of unit stride that start
  /// 16-byte aligned: the rows are read in 16-byte blocks.
  bool read_blocks;
  /// read_blocks, and the destination's rows are of unit stride and start 16-byte aligned: the
  /// output is computed and written V elements at a time.
  bool write_blocks;
  /// read_blocks, no array leaf broadcast along its rows and no row longer than
  /// kMaxContiguousRow: the blocks are read through contiguous rows (for_each_row_block).
  bool contiguous_rows;
  /// Where each team stages an item's rows (bytes 0: none, every sweep reads global memory).
  StagingLayout staging;
};

/// How the teams of a launch read their rows.
__device__ TENSORX_FORCE_INLINE RowReads reads_of(const FusedLaunch& launch) {
  return RowReads{launch.read_blocks, launch.contiguous_rows};
}

/// The team of this thread in a launch.
__device__ TENSORX_FORCE_INLINE RowTeam team_of(const FusedLaunch& launch) {
  return RowTeam{launch.team_lanes, launch.cluster_blocks,
                 static_cast<int>(launch.slice_length / kRowSliceQuantum)};
}

/// For each item of a fused pass that `team` owns (team.first(), then every team.count()-th, up
/// to `items`), calls f(index, bound): `index` = index_of(item), `bound` the plan of the item
/// with its reductions computed by the team (bind_rows), its leaves pointed at the rows staged
/// in shared memory as launch.staging says (`row_length` the output's own row, if it has one; the
/// host planned the staging with the same). With a stashed Part (a rows pass whose
/// launch.staging has a stash), every occurrence of Part in the output reads the row buffer that
/// the reduction in launch.staging.stash_slot fills as it sweeps the row (row_stash.h). The
/// blocks of a cluster take their items together, each its slices of the rows.
///
/// Measured on an H200 (bench_normalize_cuda, 2026-11-28): staging the next item in a second
/// buffer while the team computes one (cp.async, then a wait at the next item) made rows of 256
/// to 4096 floats 4-40% slower, not faster; the bookkeeping of a second stage per row costs more
/// than the overlap gains while the kernel is bound by its instructions (ncu: 0.69 warp
/// instructions issued per cycle and scheduler). So a team stages an item, then computes it.
template <class Part, class Plan, class IndexOf, class F>
__device__ TENSORX_FORCE_INLINE void for_each_bound_item(const Plan& plan, index_t items,
                                                         IndexOf&& index_of, index_t row_length,
                                                         const FusedLaunch& launch, F&& f) {
  const RowTeam team = team_of(launch);
  extern __shared__ __align__(16) unsigned char staged_rows[];
  unsigned char* const share = staged_rows + team.in_block() * launch.staging.bytes;
  for (index_t item = team.first(); item < items; item += team.count()) {
    const auto index = index_of(item);
    Plan row_plan = plan;
    if (launch.staging.bytes > 0) {
      team.sync();  // every thread is done with the previous item's rows (and row buffer)
      StageItem stage{share, launch.staging, team};
      for_each_row_leaf<false>(row_plan, index, row_length, stage);
      wait_for_staged_copies();
      team.sync();  // the copies are complete and visible to the team
    }
    if constexpr (std::is_void_v<Part>) {
      TeamRowReducer<kRowSlotsOf<Plan>> reducer(team, reads_of(launch));
      f(index, bind_rows(row_plan, index, reducer));
    } else {
      using P = typename Part::result_type;
      // Where element 0 of the row would be: the buffer holds the block's slice of it.
      P* const buffer =
          reinterpret_cast<P*>(share + launch.staging.stash_offset) - team.slice(row_length).begin;
      TeamRowReducer<kRowSlotsOf<Plan>, Part> reducer(team, reads_of(launch), buffer,
                                                      launch.staging.stash_slot);
      // The output's reductions, the filling one among them (a reduction at the top of the
      // output: binding reaches it), are computed as they are bound.
      const auto output = with_buffer<Part>(row_plan, static_cast<const P*>(buffer));
      const auto bound = bind_rows(output, index, reducer);
      team.sync();  // the buffer is complete and visible to the team
      f(index, bound);
    }
  }
}

/// Writes the row of dst at `row` (`length` elements, `stride` apart) from `bound`, whose row
/// starts at `index` (its last coordinate 0), the team's threads taking every team-size-th
/// element of the block's slice, or with `blocks` every team-size-th block of V elements
/// (computed together, written in 16-byte stores; read through the contiguous row where
/// `contiguous`) and then the slice's last elements that make no whole block one at a time.
template <class Saver, int V, class T, class Bound, int N>
__device__ TENSORX_FORCE_INLINE void write_row(T* row, index_t stride, index_t length,
                                               const Bound& bound, Dim<N> index, RowTeam team,
                                               bool blocks, bool contiguous) {
  const RowSlice slice = team.slice(length);
  index_t j = slice.begin + team.rank();
  if (V > 1 && blocks) {
    // slice.begin is a multiple of V (row_slice).
    const index_t full = slice.begin / V + (slice.end - slice.begin) / V;
    // The destination's address is not kept opaque (as contiguous_row_of keeps the operands'):
    // the register it holds made layer_norm's kernel, at its bound of 64, spill three times as
    // many bytes (ptxas -v, sm_90), for four instructions fewer per block of the softmax's.
    for_each_row_block<V>(
        bound, index, slice.begin / V + team.rank(), full, team.size(), contiguous,
        [&](index_t at, const auto& lanes) { save_lanes<Saver>(row + at, lanes); });
    j = full * V + team.rank();
  }
  for (; j < slice.end; j += team.size()) {
    index.at(N - 1) = j;
    save_element<Saver>(row + j * stride, bound.at(index));
  }
}

/// The multi-index of `item` (below product(extent)) in `extent`, as delinearize gives it, without
/// dividing by the leading extent (no item reaches it) or by an extent of 1 (the rows form's last
/// axis): a 64-bit division takes about 20 instructions where the values fit 32 bits and a call
/// where they do not (SASS, sm_90), and a team pays it for every item.
template <int N>
__device__ TENSORX_FORCE_INLINE Dim<N> item_index(index_t item, const Dim<N>& extent) {
  Dim<N> index;
  if constexpr (N > 0) {
    TENSORX_UNROLL
    for (int d = N - 1; d > 0; --d) {
      const index_t size = extent.at(d);
      if (size == 1) {
        index.at(d) = 0;
      } else {
        index.at(d) = item % size;
        item /= size;
      }
    }
    index.at(0) = item;
  }
  return index;
}

/// The fused pass: with kRows, each team writes rows of dst of `length` elements (`items` rows,
/// `extent` dst's extent with the last axis 1); otherwise each team writes one element of dst
/// (`items` elements, `extent` dst's extent), computed from the rows its reductions reduce.
/// `launch` says who owns a row and how rows are read, written and staged (in dynamic shared
/// memory).
template <bool kRows, class Saver, class T, int N, class Plan>
__global__ void __launch_bounds__(
    kCudaThreads, fused_blocks_per_multiprocessor(kRows, !std::is_void_v<stash_part_t<Plan>>))
    fused_rows_kernel(T* dst, Dim<N> dst_strides, Dim<N> extent, index_t items, index_t length,
                      Plan plan, FusedLaunch launch) {
  const RowTeam team = team_of(launch);
  const index_t row_length = kRows ? length : 0;  // the output's own row, if it has one
  const auto index_of = [&](index_t item) { return item_index(item, extent); };
  const auto write = [&](const Dim<N>& index, const auto& bound) {
    if constexpr (kRows) {
      write_row<Saver, kPassWidth<T, Plan>>(dst + linearize(index, dst_strides),
                                            dst_strides.at(N - 1), length, bound, index, team,
                                            launch.write_blocks, launch.contiguous_rows);
    } else {
      const auto value = bound.at(index);
      if (team.leads()) save_element<Saver>(dst + linearize(index, dst_strides), value);
    }
  };
  // stash_part_t is void for a per-row pass: its top reductions drop the row's axis.
  using Part = stash_part_t<Plan>;
  if constexpr (!std::is_void_v<Part>) {
    if (launch.staging.stash_offset >= 0) {
      for_each_bound_item<Part>(plan, items, index_of, row_length, launch, write);
      return;
    }
  }
  for_each_bound_item<void>(plan, items, index_of, row_length, launch, write);
}

/// The mean of a per-row pass over `rows` items, in the same kernel: each team writes its items'
/// values to `values` (as fused_rows_kernel's per-row form), then the last block to finish (an
/// atomic ticket after __threadfence, as the reduction kernels' split results) sums all of them
/// in a fixed order, in double, and writes Saver(*dst, sum / rows): the order depends only on
/// `rows`, so the result repeats bitwise.
template <class Saver, class T, class C, class Plan>
__global__ void __launch_bounds__(kCudaThreads, fused_blocks_per_multiprocessor(false, false))
    fused_row_mean_kernel(T* dst, C* values, index_t rows, Plan plan, FusedLaunch launch,
                          unsigned* ticket) {
  const RowTeam team = team_of(launch);
  for_each_bound_item<void>(
      plan, rows, [](index_t item) { return make_dim(item); }, 0, launch,
      [&](const Dim<1>& index, const auto& bound) {
        const C value = static_cast<C>(bound.at(index));
        if (team.leads()) values[index.at(0)] = value;
      });
  __shared__ bool last;
  __threadfence();  // this block's values are visible before its ticket
  __syncthreads();
  if (threadIdx.x == 0) last = take_last_ticket(ticket, gridDim.x);
  __syncthreads();
  if (!last) return;
  __threadfence();  // pairs with the other blocks' fences before their tickets
  double sum = 0;
  for (index_t i = threadIdx.x; i < rows; i += blockDim.x) sum += load_partial(&values[i]);
  sum = team_combine<op::sum_reducer>(sum, RowTeam::block());
  if (threadIdx.x == 0) {
    save_element<Saver>(dst, static_cast<C>(sum / static_cast<double>(rows)));
  }
}

/// Who owns a row of a fused pass whose longest row (reduced or written) is `longest`: lanes of a
/// warp (team_lanes_for) or the block (lanes 0), whether the team stages its rows, and the blocks
/// of a cluster: kCluster forces forced_cluster_blocks, the other forced modes 1 (a team per
/// row, as they say), kAuto 0 (chosen from the shapes). forced_row_gpu_mode may force any of
/// them; kWarp forces whole warps. `longest` is kept for the launch's other choices (slices, the
/// 32-bit sweeps), so that the plan is walked for it once.
struct TeamChoice {
  int lanes;
  bool stage;
  int cluster_blocks;
  index_t longest;
};

inline TeamChoice choose_teams(index_t longest) {
  const RowGpuMode mode = forced_row_gpu_mode;
  int lanes = 0;
  if (mode == RowGpuMode::kWarp) {
    lanes = kWarpSize;
  } else if (mode == RowGpuMode::kAuto && longest <= kWarpRowLength) {
    lanes = team_lanes_for(longest);
  }
  const int cluster = mode == RowGpuMode::kCluster ? std::max(2, forced_cluster_blocks)
                      : mode == RowGpuMode::kAuto  ? 0
                                                   : 1;
  return {lanes, mode != RowGpuMode::kBlockGlobal, cluster, longest};
}

/// The blocks of kernel kKernel resident on a multiprocessor with `block_bytes` of dynamic shared
/// memory each (at least 1), on the current device. The occupancy calculator is asked again only
/// when the size differs from the last one this thread asked about: the same expression on the
/// same shapes launches without asking it.
template <auto kKernel>
int resident_blocks_with(std::size_t block_bytes) {
  const void* entry = reinterpret_cast<const void*>(kKernel);
  if (block_bytes == 0) {
    static const int unstaged = resident_blocks(entry);
    return unstaged;
  }
  thread_local std::size_t last_bytes = 0;
  thread_local int last_resident = 0;
  if (block_bytes != last_bytes) {
    last_resident = resident_blocks(entry, block_bytes);
    last_bytes = block_bytes;
  }
  return last_resident;
}

/// The clusters of kernel kKernel, `cluster` blocks of `block_bytes` each, resident on `device`
/// (the current one) at once (resident_clusters), asked again only when the launch differs from
/// the last one this thread asked about, as resident_blocks_with.
template <auto kKernel>
int resident_clusters_with(int cluster, std::size_t block_bytes, int device) {
  static const std::unique_ptr<std::atomic<bool>[]> non_portable(
      new std::atomic<bool>[static_cast<std::size_t>(cuda::device_count())]());
  thread_local int last_device = -1;
  thread_local int last_cluster = 0;
  thread_local std::size_t last_bytes = 0;
  thread_local int last_resident = 0;
  if (device != last_device || cluster != last_cluster || block_bytes != last_bytes) {
    last_resident = resident_clusters(reinterpret_cast<const void*>(kKernel), cluster, block_bytes,
                                      non_portable[static_cast<std::size_t>(device)]);
    last_device = device;
    last_cluster = cluster;
    last_bytes = block_bytes;
  }
  return last_resident;
}

/// True when every array leaf of `plan` (rank-N enclosing space), those its reductions read
/// included, has_aligned_rows: FusedLaunch::read_blocks. (Staged rows are aligned whatever their
/// source; a leaf whose source is not keeps the whole pass to element reads.)
template <int N, class Plan>
bool reads_rows_in_blocks(const Plan& plan) {
  return every_row_leaf<N>(plan, [](const void* data, const auto& strides, std::size_t size) {
    return has_aligned_rows(data, strides, size);
  });
}

/// The limits of choose_row_staging for teams of `lanes` (0: a block) on `device`; `spread`: the
/// pass has too few long rows to keep the device busy with a team each.
inline StagingLimits staging_limits(int lanes, int device, bool spread) {
  const index_t teams = lanes != 0 ? kCudaThreads / lanes : 1;
  return {staging_budget(device) / static_cast<std::size_t>(teams),
          cluster_share(device, kFusedStaticShared), lanes == 0 ? max_cluster_blocks(device) : 1,
          spread ? index_t{multiprocessor_count(device)} : 0};
}

/// The launch of a fused kernel kKernel: its grid (at most one wave of the blocks, or of the
/// clusters, resident with its shared memory), the bytes of shared memory a block takes, and how
/// its teams work (see FusedLaunch; write_blocks left to the caller; `row_length` the output's own
/// row, 0 where it has none; `spread` as for staging_limits). Sets the kernel's shared memory
/// limit once per device.
struct FusedGrid {
  unsigned blocks;
  std::size_t block_bytes;
  FusedLaunch launch;
};

template <auto kKernel, int N, class Plan>
FusedGrid fused_grid(const Plan& plan, index_t items, index_t row_length, int device,
                     TeamChoice choice, bool spread) {
  const void* entry = reinterpret_cast<const void*>(kKernel);
  const index_t teams = choice.lanes != 0 ? kCudaThreads / choice.lanes : 1;
  const std::size_t budget = staging_budget(device);
  // The kernel's shared memory limit is raised once per device (setting it again is harmless,
  // so two threads that both see it unset do no wrong).
  static const std::unique_ptr<std::atomic<bool>[]> raised(
      new std::atomic<bool>[static_cast<std::size_t>(cuda::device_count())]());
  if (!raised[static_cast<std::size_t>(device)].load(std::memory_order_acquire)) {
    TENSORX_CUDA_CHECK(cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(budget)));
    raised[static_cast<std::size_t>(device)].store(true, std::memory_order_release);
  }
  FusedLaunch launch{};
  launch.team_lanes = choice.lanes;
  launch.cluster_blocks = 1;
  launch.read_blocks = reads_rows_in_blocks<N>(plan);
  launch.contiguous_rows =
      launch.read_blocks && reads_unit_rows<N>(plan) && choice.longest <= kMaxContiguousRow;
  RowStaging staging{1, 0, StagingLayout::none()};
  if (choice.stage) {
    StagingLimits limits = staging_limits(choice.lanes, device, spread);
    if (choice.cluster_blocks == 1) limits.max_blocks = 1;
    if (choice.cluster_blocks > 1 && limits.max_blocks > 1) {
      // A forced cluster: its slices staged where they fit the block's budget.
      const int blocks = std::min(choice.cluster_blocks, limits.max_blocks);
      const index_t slice_length = row_slice_length(choice.longest, blocks);
      staging = {blocks, slice_length,
                 staging_within<N>(plan, row_length, slice_length, limits.team_budget, true)};
    } else {
      staging = choose_row_staging<N>(plan, row_length, items, limits);
    }
    while (staging.blocks > 1) {
      const std::size_t block_bytes = staging.layout.bytes;
      const int clusters = resident_clusters_with<kKernel>(staging.blocks, block_bytes, device);
      if (clusters > 0) {
        launch.cluster_blocks = staging.blocks;
        launch.slice_length = staging.slice_length;
        launch.staging = staging.layout;
        const auto in_flight = static_cast<unsigned>(std::min<index_t>(items, clusters));
        return {in_flight * static_cast<unsigned>(staging.blocks), block_bytes, launch};
      }
      // No cluster of that size fits the device: a portable size, else a team per row.
      limits.max_blocks = staging.blocks > kPortableClusterBlocks ? kPortableClusterBlocks : 1;
      staging = choose_row_staging<N>(plan, row_length, items, limits);
    }
  }
  launch.staging = staging.layout;
  const std::size_t block_bytes =
      std::size_t{launch.staging.bytes} * static_cast<std::size_t>(teams);
  const index_t wave =
      index_t{multiprocessor_count(device)} * resident_blocks_with<kKernel>(block_bytes);
  const auto blocks =
      static_cast<unsigned>(std::max<index_t>(1, std::min((items + teams - 1) / teams, wave)));
  return {blocks, block_bytes, launch};
}

/// Queues kernel(args...) on `stream` as `grid` says: in clusters of grid.launch.cluster_blocks
/// blocks where it has them. Throws CudaError when the launch fails.
template <class... Params, class... Args>
void launch_fused(void (*kernel)(Params...), const FusedGrid& grid, StreamHandle stream,
                  const Args&... args) {
  if (grid.launch.cluster_blocks > 1) {
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = cluster_launch_config(grid.blocks, grid.launch.cluster_blocks,
                                                            grid.block_bytes, stream, &attribute);
    TENSORX_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, args...));
  } else {
    kernel<<<grid.blocks, kCudaThreads, grid.block_bytes, stream>>>(args...);
  }
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

/// True when a team per row keeps the device busy: at least one row per multiprocessor, or rows
/// short enough that a few teams finish them soon.
inline bool fused_pass_fills_device(index_t rows, index_t length, int device) {
  return rows >= multiprocessor_count(device) || length <= 8 * kWarpRowLength;
}

/// True when the fused pass of `plan` (rank-N enclosing space, `rows` items, `length` its longest
/// row, `row_length` the output's own) keeps the device busy: a team per row does
/// (fused_pass_fills_device), or its few long rows are spread over clusters (choose_row_staging).
/// Else the pass takes the materialising route.
template <int N, class Plan>
bool fused_pass_suits_device(const Plan& plan, index_t rows, index_t length, index_t row_length,
                             int device) {
  if (fused_pass_fills_device(rows, length, device)) return true;
  const StagingLimits limits = staging_limits(0, device, true);
  return limits.max_blocks > 1 && choose_row_staging<N>(plan, row_length, rows, limits).blocks > 1;
}

template <bool kRows, class Saver, class T, int N, class Plan>
void launch_fused_rows(const Array<T, N>& dst, const Dim<N>& extent, index_t items, index_t length,
                       const Plan& plan, StreamHandle stream, TeamChoice teams, bool spread) {
  constexpr auto kernel = fused_rows_kernel<kRows, Saver, T, N, Plan>;
  const int device = device_of(dst.place());
  FusedGrid grid = fused_grid<kernel, N>(plan, items, kRows ? length : 0, device, teams, spread);
  if constexpr (kRows) {
    grid.launch.write_blocks = grid.launch.read_blocks &&
                               has_aligned_rows(dst.data(), dst.dims(), dst.strides(), sizeof(T));
  }
  launch_fused(kernel, grid, stream, dst.data(), dst.strides(), extent, items, length, plan,
               grid.launch);
}

/// Runs the fused pass (kRows: the rows form; else the per-row form) of `plan` into the GPU array
/// dst (not empty) on `stream` of dst's device. Throws CudaError when the launch fails.
template <bool kRows, class Saver, class T, int N, class Plan>
void run_fused_gpu(CudaTranslationUnit, std::bool_constant<kRows>, Saver, const Array<T, N>& dst,
                   const Plan& plan, StreamHandle stream) {
  const int device = device_of(dst.place());
  cuda::DeviceGuard guard(device);
  stats::record_pass();
  Dim<N> extent = dst.dims();
  index_t length = 0;
  if constexpr (kRows) {
    length = extent.at(N - 1);
    extent.at(N - 1) = 1;
  }
  const index_t items = product(extent);
  const index_t longest = longest_row(plan, length);
  launch_fused_rows<kRows, Saver>(dst, extent, items, length, plan, stream, choose_teams(longest),
                                  !fused_pass_fills_device(items, longest, device));
}

/// dst (one element) = Saver(dst, the mean of the per-row pass of `plan` over `rows` rows): ONE
/// kernel (fused_row_mean_kernel) on `stream` of dst's device, the rows' values and its ticket in
/// a reduction's scratch memory. Throws CudaError when the launch fails.
template <class Saver, class T, int N, class Plan>
void run_fused_mean_gpu(CudaTranslationUnit, Saver, const Array<T, N>& dst, index_t rows,
                        const Plan& plan, StreamHandle stream) {
  using C = compute_t<T>;
  const int device = device_of(dst.place());
  cuda::DeviceGuard guard(device);
  stats::record_pass();
  const index_t longest = longest_row(plan, 0);
  constexpr auto kernel = fused_row_mean_kernel<Saver, T, C, Plan>;
  const FusedGrid grid = fused_grid<kernel, 1>(plan, rows, 0, device, choose_teams(longest),
                                               !fused_pass_fills_device(rows, longest, device));
  const ReduceScratch<C> scratch(rows, 1, dst.place());
  launch_fused(kernel, grid, stream, dst.data(), scratch.partials(), rows, plan, grid.launch,
               scratch.tickets());
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
