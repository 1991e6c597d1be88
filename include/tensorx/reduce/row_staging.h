// Where the team that owns an item of a fused GPU pass (cuda_row_engine.cuh) stages the rows its
// reductions read, and the row buffer of a stashed part (row_stash.h), in its share of dynamic
// shared memory. Decided once per launch on the host, since every item's rows have the same
// lengths and strides; the kernel then copies and points leaves without looking anything up.
// Host code only, so that CPU tests check the decisions.
#pragma once

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
/// the row they read where there is one.
class StagingPlanner {
 public:
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
    const std::size_t bytes = staged_row_bytes<T>(length);
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
};

/// Where each team of a launch of `plan` (rank-N enclosing space, `row_length` the output's own
/// row, 0 where it has none) stages its items' rows.
template <int N, class Plan>
StagingLayout staging_layout(const Plan& plan, index_t row_length) {
  StagingPlanner planner;
  Plan copy = plan;  // for_each_row_leaf visits mutable plans
  for (const bool reduced : {true, false}) {
    planner.begin_visit(reduced);
    for_each_row_leaf<false>(copy, Dim<N>(), row_length, planner);
  }
  return planner.layout();
}

/// The row buffer in which a rows pass of `plan` (rows of `row_length`, 0 for a per-row pass)
/// keeps its stashed part (row_stash.h): its bytes and the slot of the reduction that fills it;
/// 0 bytes where the plan has no such part or cannot use it (its occurrences differ, or no
/// reduction at the top of the output sweeps it along the output's rows).
struct StashRequest {
  std::size_t bytes = 0;
  int slot = -1;
};

template <class Plan>
StashRequest stash_request(const Plan& plan, index_t row_length) {
  using Part = stash_part_t<Plan>;
  if constexpr (!std::is_void_v<Part>) {
    if (row_length > 0) {
      const auto source = find_stash_source<Part>(plan, row_length);
      if (source.usable && source.filling_slot >= 0) {
        return {staged_row_bytes<typename Part::result_type>(row_length), source.filling_slot};
      }
    }
  }
  return {};
}

}  // namespace detail
}  // namespace tensorx
