// The one routine that rewrites a loop nest over fewer, longer axes: extent-1 axes dropped, and an
// axis joined to the one outside it where every strided view of the nest steps across the pair as
// across one axis. Row-major like everything in tensorx: axis 0 is the outermost. The strided
// copies of the compiled layer and the reduction geometry (reduce/reduce_geometry.h) both run on
// it, so that a dense array of any rank becomes a single run.
#pragma once

#include "tensorx/core/config.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// A loop nest of `rank` axes, outermost first, with the strides of `Views` strided views over it
/// and one bit of kind per axis (bit d of `kinds`).
template <int Views>
struct MergedAxes {
  int rank = 0;
  index_t dims[kMaxRank] = {};
  index_t strides[Views][kMaxRank] = {};
  unsigned kinds = 0;

  bool kind(int axis) const { return (kinds >> axis) & 1u; }
};

/// The nest of extents `dims[0 .. rank)` and the views' strides `strides[v][0 .. rank)` merged:
/// extent-1 axes dropped; axis d joined to the run outside it when both have the same kind (bit d
/// of `kinds`) and, in every view, stepping the outer axis once steps the inner one past its end.
/// A nest whose axes all have extent 1 merges into rank 0; callers that need an axis add one.
template <int Views>
MergedAxes<Views> merge_axes(int rank, const index_t* dims, const index_t* const (&strides)[Views],
                             unsigned kinds = 0) {
  // Runs are found from the input alone and the result is written once, never read back while
  // it is being built: g++ 12.2 at -O1 miscompiles loops that store into a result struct and read
  // the stored axis back in a later iteration (reduction sums came out wrong, twice; see
  // test/opt_levels/). Keep every read on `dims`, `strides` and locals.
  MergedAxes<Views> out;
  int count = 0;
  int previous = -1;       // the previous axis of extent other than 1
  index_t run_extent = 1;  // the extent of the run being joined
  for (int d = 0; d <= rank; ++d) {
    const bool end = d == rank;
    if (!end && dims[d] == 1) continue;
    const bool kind = !end && ((kinds >> d) & 1u);
    // Axis d continues the run when both have the same kind and, in every view, stepping the
    // previous axis once steps axis d past its end.
    bool joins = !end && previous >= 0 && (((kinds >> previous) & 1u) != 0) == kind;
    for (int v = 0; v < Views && joins; ++v) {
      joins = strides[v][previous] == strides[v][d] * dims[d];
    }
    if (joins) {
      run_extent *= dims[d];
    } else {
      if (previous >= 0) {  // the run that ends at `previous` is complete
        out.dims[count] = run_extent;
        for (int v = 0; v < Views; ++v) out.strides[v][count] = strides[v][previous];
        if ((kinds >> previous) & 1u) out.kinds |= 1u << count;
        ++count;
      }
      if (!end) run_extent = dims[d];
    }
    if (!end) previous = d;
  }
  out.rank = count;
  return out;
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
