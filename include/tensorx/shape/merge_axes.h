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
  // Every read of `out` looks at a run already complete: g++ 12.2 miscompiled an earlier form
  // that wrote an axis and read it back in the same step (see reduce/reduce_geometry.h).
  MergedAxes<Views> out;
  for (int d = 0; d < rank; ++d) {
    const index_t extent = dims[d];
    if (extent == 1) continue;
    const bool kind = (kinds >> d) & 1u;
    const int last = out.rank - 1;
    bool joins = last >= 0 && out.kind(last) == kind;
    for (int v = 0; v < Views && joins; ++v) joins = out.strides[v][last] == strides[v][d] * extent;
    if (joins) {
      out.dims[last] *= extent;
      for (int v = 0; v < Views; ++v) out.strides[v][last] = strides[v][d];
      continue;
    }
    out.dims[out.rank] = extent;
    for (int v = 0; v < Views; ++v) out.strides[v][out.rank] = strides[v][d];
    if (kind) out.kinds |= 1u << out.rank;
    ++out.rank;
  }
  return out;
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
