// The shape of a reduction as the engines see it: the operand's iteration space, which axes are
// reduced, and the destination's strides over the kept axes. For an operand that is dense in its
// space, merged() rewrites the same reduction over fewer, longer axes (extent-1 axes dropped,
// neighbours of one kind joined), so that a reduction of a contiguous array of any rank runs as
// one of a few canonical loops: rows (the last axis reduced), columns (the last axis kept) or the
// three-axis form (outer, reduced, inner) that the GPU kernels and the compiled layer take.
#pragma once

#include "tensorx/array/array.h"
#include "tensorx/core/error.h"
#include "tensorx/shape/dim.h"
#include "tensorx/shape/merge_axes.h"

namespace tensorx {
namespace detail {

/// A reduction of one block of axes: element (o, r, k) of the operand at flat position
/// (o * reduced + r) * inner + k, result (o, k) at o * dst_outer + k * dst_inner.
struct ThreeAxes {
  index_t outer = 1;
  index_t reduced = 1;
  index_t inner = 1;
  index_t dst_outer = 0;
  index_t dst_inner = 0;
};

TENSORX_ENGINE_NAMESPACE_BEGIN

template <int N>
struct ReduceSpace {
  Dim<N> dims;         // the operand's iteration space
  unsigned mask = 0;   // bit i set: axis i is reduced
  Dim<N> dst_strides;  // the destination's strides over the kept axes, 0 on the reduced ones

  bool is_reduced(int axis) const { return (mask >> axis) & 1u; }
  /// dims with every reduced axis set to 1: the space of the results.
  Dim<N> kept_dims() const { return select_dims(false); }
  /// dims with every kept axis set to 1: the space one result reduces over.
  Dim<N> reduced_dims() const { return select_dims(true); }
  index_t outputs() const { return product(kept_dims()); }
  index_t reduced_count() const { return product(reduced_dims()); }

 private:
  Dim<N> select_dims(bool reduced) const {
    Dim<N> out;
    for (int i = 0; i < N; ++i) out.at(i) = is_reduced(i) == reduced ? dims.at(i) : 1;
    return out;
  }
};

/// a + b, element by element (a kept index plus a reduced index is an operand index).
template <int N>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Dim<N> add_dims(const Dim<N>& a, const Dim<N>& b) {
  if constexpr (N == 0) {
    return a;
  } else {
    Dim<N> sum;
    sum.head = a.head + b.head;
    sum.tail = add_dims(a.tail, b.tail);
    return sum;
  }
}

/// The rank of the space a reduction of a rank-M operand runs in: a rank-0 operand is seen as
/// one element of extent (1).
template <int M>
constexpr int space_rank = M > 0 ? M : 1;

/// The space of reducing an operand of extent `dims` over `mask` into `dst`, whose axes are the
/// kept axes in order, or every axis (keepdims, the reduced ones of extent 1).
template <int M, class T, int N>
ReduceSpace<space_rank<M>> make_reduce_space(const Dim<M>& dims, unsigned mask,
                                             const Array<T, N>& dst) {
  ReduceSpace<space_rank<M>> space;
  if constexpr (M == 0) {
    space.dims.at(0) = 1;
    space.mask = 1;
  } else {
    space.dims = dims;
    space.mask = mask;
    if constexpr (N > 0) {
      int next = 0;
      for (int i = 0; i < M; ++i) {
        const bool reduced = space.is_reduced(i);
        if (N == M) {
          space.dst_strides.at(i) = reduced ? 0 : dst.strides().at(next);
          ++next;
        } else if (!reduced) {
          space.dst_strides.at(i) = dst.strides().at(next++);
        }
      }
    }
  }
  return space;
}

/// The same reduction over the fewest axes, for an operand that is dense in `space` (element i of
/// its row-major order at flat position i): extent-1 axes dropped, neighbouring reduced axes
/// joined, and neighbouring kept axes joined where the destination's strides allow (a dense
/// operand's own strides always do). The merged axes are right-aligned; the leading ones left
/// over have extent 1 and are kept.
template <int N>
ReduceSpace<N> merged(const ReduceSpace<N>& space) {
  index_t dims[N], dst_strides[N];
  for (int i = 0; i < N; ++i) {
    dims[i] = space.dims.at(i);
    dst_strides[i] = space.dst_strides.at(i);
  }
  const index_t* const strides[1] = {dst_strides};
  const MergedAxes<1> axes = merge_axes<1>(N, dims, strides, space.mask);
  // Written once, never read back while built (see merge_axes for the compiler bug this avoids).
  ReduceSpace<N> out;
  unsigned mask = 0;
  for (int i = 0; i < N; ++i) out.dims.at(i) = 1;
  for (int run = 0; run < axes.rank; ++run) {
    const int axis = N - axes.rank + run;
    out.dims.at(axis) = axes.dims[run];
    out.dst_strides.at(axis) = axes.strides[0][run];
    if (axes.kind(run)) mask |= 1u << axis;
  }
  out.mask = mask;
  return out;
}

/// True, with `form` set, when the merged space `space` has at most one reduced axis, with at
/// most one kept axis before it and one after it (or, reducing nothing, at most two kept axes).
template <int N>
bool three_axes_form(const ReduceSpace<N>& space, ThreeAxes* form) {
  int axes[N];
  int count = 0, reduced_at = -1;
  for (int i = 0; i < N; ++i) {
    if (space.dims.at(i) == 1) continue;
    if (space.is_reduced(i)) {
      if (reduced_at >= 0) return false;
      reduced_at = count;
    }
    axes[count++] = i;
  }
  // Without a reduced axis, a last kept axis is the inner one.
  const int split = reduced_at >= 0 ? reduced_at : (count == 2 ? 1 : 0);
  const int after = reduced_at >= 0 ? reduced_at + 1 : split;
  if (split > 1 || count - after > 1) return false;
  ThreeAxes f;
  if (split == 1) {
    f.outer = space.dims.at(axes[0]);
    f.dst_outer = space.dst_strides.at(axes[0]);
  }
  if (reduced_at >= 0) f.reduced = space.dims.at(axes[reduced_at]);
  if (count - after == 1) {
    f.inner = space.dims.at(axes[after]);
    f.dst_inner = space.dst_strides.at(axes[after]);
  }
  *form = f;
  return true;
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
