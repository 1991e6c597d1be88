// Where the team that owns an item of a fused GPU pass (cuda_row_engine.cuh) stages the rows its
// reductions read, and the row buffer of a stashed part (row_stash.h), in its share of dynamic
// shared memory; and whether a row is owned by one team or cut into slices over the blocks of a
// thread block cluster, each block staging its slice (RowStaging). Decided once per launch on the
// host, since every item's rows have the same lengths and strides; the kernel then copies and
// points leaves without looking anything up. Host code (but for row_slice, which the kernel
// shares), so that CPU tests check the decisions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/reduce/row_fusion.h"
#include "tensorx/reduce/row_stash.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// The most distinct rows a team stages for one row of the pass.
constexpr int kMaxStagedRows = 8;

/// Bytes of shared memory one row of `length` elements of T takes, a multiple of 16.
template <class T>
TENSORX_HOST_DEVICE constexpr std::size_t staged_row_bytes(index_t length) {
  return (static_cast<std::size_t>(length) * sizeof(T) + 15) / 16 * 16;
}

/// The elements of a row that each block of a cluster owns are a multiple of this many (16-byte
/// aligned for every element type, and a whole number of 16-byte blocks of any V of the kernel).
constexpr index_t kRowSliceQuantum = 16;

/// The part of a row, elements [begin, end), that one block of a cluster owns.
struct RowSlice {
  index_t begin;
  index_t end;
};

/// The elements of a row that each of `blocks` blocks owns where the longest row of a pass is
/// `longest`: every row of the pass is cut into consecutive slices of this many, block k owning
/// the k-th (shorter rows leave the last blocks less, or nothing). One length for the whole
/// launch, so that a block finds its slice of any row with a multiplication (a 64-bit division
/// per row took a call and spilled registers in every fused kernel: SASS, sm_90).
constexpr index_t row_slice_length(index_t longest, int blocks) {
  const index_t share = (longest + blocks - 1) / blocks;
  return (share + kRowSliceQuantum - 1) / kRowSliceQuantum * kRowSliceQuantum;
}

/// The slice of a row of `length` that block `rank` owns, slices of `slice_length` elements
/// (a multiple of kRowSliceQuantum). A slice past the row's end is empty where it would begin, so
/// that every slice begins at a multiple of the quantum (the kernel's loops over 16-byte blocks
/// count from there).
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE RowSlice row_slice(index_t length, index_t slice_length,
                                                            int rank) {
  const index_t begin = slice_length * rank;
  if (begin >= length) return {begin, begin};
  return {begin, length - begin < slice_length ? length : begin + slice_length};
}

/// The elements of a row of `length` that one block stages: the row, or at most `slice_length`
/// of it where rows are cut into slices (slice_length above 0).
constexpr index_t staged_length(index_t length, index_t slice_length) {
  return slice_length > 0 && slice_length < length ? slice_length : length;
}

/// The most array leaves of a fused plan that a team may point at staged rows (the leaves after
/// them read global memory).
constexpr int kMaxStagedLeaves = 16;

/// Where a team stages the rows of each of its items, in its share of dynamic shared memory.
/// Decided once per launch on the host (StagingPlanner), since every item's rows have the same
/// lengths and strides: a team only copies and points, with nothing to look up per row (a table
/// of the rows staged so far, searched per leaf and row, took 256 bytes of stack frame in every
/// fused kernel, ptxas -v, sm_90).
struct StagingLayout {
  /// Per array leaf, in for_each_row_leaf's order: the byte offset of the staged row it reads
  /// (a multiple of 16), or -1 where it reads global memory.
  std::int32_t offsets[kMaxStagedLeaves];
  /// Bit k: leaf k copies its row in (the first leaf through which a reduction reads the row;
  /// the others read the copy).
  std::uint32_t copies;
  /// The bytes of a team's share (0: nothing is staged, every sweep reads global memory).
  std::uint32_t bytes;
  /// Where the row buffer of a stashed part starts (row_stash.h; after the staged rows), and the
  /// slot of the reduction that fills it; -1 and -1 without a stash.
  std::int32_t stash_offset;
  std::int32_t stash_slot;

  /// Nothing staged.
  static StagingLayout none() {
    StagingLayout layout;
    for (std::int32_t& offset : layout.offsets) offset = -1;
    layout.copies = 0;
    layout.bytes = 0;
    layout.stash_offset = -1;
    layout.stash_slot = -1;
    return layout;
  }
};

/// `layout` with a row buffer of `row_bytes` (a multiple of 16) after its staged rows, filled by
/// the reduction in `slot`. The caller keeps the sum within its shared memory budget.
inline StagingLayout with_stash(StagingLayout layout, std::size_t row_bytes, int slot) {
  layout.stash_offset = static_cast<std::int32_t>(layout.bytes);
  layout.stash_slot = slot;
  layout.bytes += static_cast<std::uint32_t>(row_bytes);
  return layout;
}

/// Builds a StagingLayout on the host, in two visits of a plan's leaves (for_each_row_leaf):
/// first the leaves reductions read, each distinct row copied once (equal data, rank, strides
/// and length: leaves of one rank are visited at the same start for every item, so those read
/// equal rows), up to kMaxStagedRows; then the other leaves (the output's), pointed at a copy of
/// the row they read where there is one. Where rows are cut into slices of `slice_length`
/// elements (above 0), a block stages its slice of each row (row_slice).
class StagingPlanner {
 public:
  explicit StagingPlanner(index_t slice_length = 0) : slice_length_(slice_length) {}

  /// Starts the visit of the leaves reductions read (`reduced`) or of the others.
  void begin_visit(bool reduced) {
    reduced_ = reduced;
    next_ = 0;
  }

  template <class T, int M>
  void operator()(LeafPlan<T, M>& leaf, const Dim<M>&, index_t length, bool in_reduction) {
    const int ordinal = next_++;
    if (in_reduction != reduced_ || ordinal >= kMaxStagedLeaves || length <= 0 ||
        leaf.strides.at(M - 1) == 0) {
      return;
    }
    for (int r = 0; r < count_; ++r) {
      const Row& row = rows_[r];
      bool same = row.data == leaf.data && row.length == length && row.rank == M;
      for (int d = 0; same && d < M; ++d) same = row.strides[d] == leaf.strides.at(d);
      if (same) {
        layout_.offsets[ordinal] = row.offset;
        return;
      }
    }
    const std::size_t bytes = staged_row_bytes<T>(staged_length(length, slice_length_));
    if (!reduced_ || count_ == kMaxStagedRows || bytes > kMaxOffset - layout_.bytes) return;
    Row& row = rows_[count_++];
    row = {leaf.data, length, M, {}, static_cast<std::int32_t>(layout_.bytes)};
    for (int d = 0; d < M; ++d) row.strides[d] = leaf.strides.at(d);
    layout_.offsets[ordinal] = row.offset;
    layout_.copies |= 1u << ordinal;
    layout_.bytes += static_cast<std::uint32_t>(bytes);
  }

  const StagingLayout& layout() const { return layout_; }

 private:
  // Offsets are int32 (a row that would end past them is not staged; no device has the shared
  // memory for one anyway).
  static constexpr std::size_t kMaxOffset = std::numeric_limits<std::int32_t>::max();
  struct Row {
    const void* data;
    index_t length;
    int rank;
    index_t strides[kMaxRank];
    std::int32_t offset;
  };
  StagingLayout layout_ = StagingLayout::none();
  Row rows_[kMaxStagedRows];
  int count_ = 0;
  int next_ = 0;
  bool reduced_ = true;
  index_t slice_length_;
};

/// Where each team of a launch of `plan` (rank-N enclosing space, `row_length` the output's own
/// row, 0 where it has none) stages its items' rows, in slices of `slice_length` elements where
/// that is above 0.
template <int N, class Plan>
StagingLayout staging_layout(const Plan& plan, index_t row_length, index_t slice_length = 0) {
  StagingPlanner planner(slice_length);
  Plan copy = plan;  // for_each_row_leaf visits mutable plans
  for (const bool reduced : {true, false}) {
    planner.begin_visit(reduced);
    for_each_row_leaf<false>(copy, Dim<N>(), row_length, planner);
  }
  return planner.layout();
}

/// The row buffer in which a rows pass of `plan` (rows of `row_length`, 0 for a per-row pass)
/// keeps its stashed part (row_stash.h): its bytes (for a slice of `slice_length` elements where
/// that is above 0) and the slot of the reduction that fills it; 0 bytes where the plan has no
/// such part or cannot use it (its occurrences differ, or no reduction at the top of the output
/// sweeps it along the output's rows).
struct StashRequest {
  std::size_t bytes = 0;
  int slot = -1;
};

template <class Plan>
StashRequest stash_request(const Plan& plan, index_t row_length, index_t slice_length = 0) {
  using Part = stash_part_t<Plan>;
  if constexpr (!std::is_void_v<Part>) {
    if (row_length > 0) {
      const auto source = find_stash_source<Part>(plan, row_length);
      if (source.usable && source.filling_slot >= 0) {
        return {
            staged_row_bytes<typename Part::result_type>(staged_length(row_length, slice_length)),
            source.filling_slot};
      }
    }
  }
  return {};
}

/// How the rows of a fused pass are staged: by one team each (blocks 1, slice_length 0), or cut
/// into slices of slice_length elements over the `blocks` blocks of a cluster, each block staging
/// its slice (cuda_row_engine.cuh), and where a team puts what it stages.
struct RowStaging {
  int blocks;
  index_t slice_length;
  StagingLayout layout;
};

/// The longest row of a fused pass of `plan` whose output's own row is `row_length` (0 where it
/// has none): the longest that a reduction reduces, nested ones included (a kept reduction inside
/// another's operand may reduce rows of another length), or the output's.
template <class Plan>
index_t longest_row(const Plan& plan, index_t row_length) {
  index_t longest = row_length;
  Plan copy = plan;  // for_each_row_reduction visits mutable plans
  for_each_row_reduction(copy, [&](const auto& r) { longest = std::max(longest, r.length); });
  return longest;
}

/// What bounds choose_row_staging, from the device, the kernel and the team.
struct StagingLimits {
  /// The shared memory a team may stage in (a block's budget over the teams of a block).
  std::size_t team_budget;
  /// The share that a block of a cluster keeps to: a third of a multiprocessor's shared memory
  /// (cluster_share), so that three blocks share one, one copying in its slices while the
  /// others compute.
  std::size_t cluster_share;
  /// The most blocks of a cluster: 1 where there are none (teams within a block, devices before
  /// compute capability 9.0, or code compiled for them).
  int max_blocks;
  /// Where a launch has too few long rows to keep the device busy with a team each: the blocks
  /// to spread them over (the device's multiprocessors); else 0.
  index_t spread_to;
};

/// The layout of `plan`'s rows in slices of `slice_length` (staging_layout), with the stash's row
/// buffer where `stash` allows it and it fits, if the whole fits `limit` bytes; else bytes 0
/// (nothing staged).
template <int N, class Plan>
StagingLayout staging_within(const Plan& plan, index_t row_length, index_t slice_length,
                             std::size_t limit, bool stash) {
  const StagingLayout rows = staging_layout<N>(plan, row_length, slice_length);
  if (rows.bytes > limit) return StagingLayout::none();
  const StashRequest request =
      stash ? stash_request(plan, row_length, slice_length) : StashRequest{};
  if (request.bytes > 0 && request.bytes <= limit - rows.bytes) {
    return with_stash(rows, request.bytes, request.slot);
  }
  return rows;
}

/// Chooses how a launch of `plan` over `items` items stages its rows (see RowStaging). A team
/// stages its rows whole where they fit its budget (with the stash where it fits beside them), as
/// it did before clusters. A block team takes a cluster instead where that share outgrows
/// limits.cluster_share or does not fit at all (a block alone on its multiprocessor leaves DRAM
/// idle while it computes: softmax of 16384-float rows ran at 0.60 of a copy with one 128 KiB
/// block a multiprocessor, and rows too long to stage, re-read from DRAM by every sweep, at
/// 0.30-0.44; H200, 2026-11-28), or where its few long rows would leave the device idle
/// (limits.spread_to): the fewest blocks whose slices fit the cluster share with the stash, else
/// without it, and for few rows at least enough blocks to give every multiprocessor one.
template <int N, class Plan>
RowStaging choose_row_staging(const Plan& plan, index_t row_length, index_t items,
                              const StagingLimits& limits) {
  const RowStaging whole{1, 0, staging_within<N>(plan, row_length, 0, limits.team_budget, true)};
  if (limits.max_blocks < 2) return whole;
  if (whole.layout.bytes == 0 && staging_layout<N>(plan, row_length).bytes == 0) {
    return whole;  // no row to stage: cutting rows saves nothing
  }
  const bool spread = items < limits.spread_to;
  if (!spread && whole.layout.bytes > 0 && whole.layout.bytes <= limits.cluster_share) {
    return whole;
  }
  const bool has_stash = stash_request(plan, row_length).bytes > 0;
  const index_t longest = longest_row(plan, row_length);
  for (const bool stash : {true, false}) {
    if (stash && !has_stash) continue;
    for (int blocks = 2; blocks <= limits.max_blocks; ++blocks) {
      const index_t slice_length = row_slice_length(longest, blocks);
      const StagingLayout layout =
          staging_within<N>(plan, row_length, slice_length, limits.cluster_share, stash);
      if (layout.bytes == 0 || (stash && layout.stash_offset < 0)) continue;
      if (spread && items * blocks < limits.spread_to && blocks < limits.max_blocks) continue;
      return {blocks, slice_length, layout};
    }
  }
  return whole;
}

}  // namespace detail
}  // namespace tensorx
