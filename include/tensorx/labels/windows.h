// tx::windows: the sliding windows of an array's last K axes as a zero-copy strided view (im2col
// without the copy). For x of extent (..., h, w) and a (kh, kw) window, the view has extent
// (..., oh, ow, kh, kw) with oh = (h - kh) / sh + 1 for steps (sh, sw), and element
// (..., i, j, p, q) is x(..., i * sh + p, j * sw + q). A convolution is then a labelled
// contraction over the window axes:
//   o("n,f,i,j") = tx::windows(x, tx::make_dim(3, 3))("n,c,i,j,p,q") * w("f,c,p,q");
// Windows overlap in memory, so the view is for reading: a write through it would reach one
// element of x through several windows.
#pragma once

#include "tensorx/array/array.h"
#include "tensorx/core/error.h"
#include "tensorx/shape/dim.h"

namespace tensorx {

/// The windows of extent `window` over the last K axes of `x`, advancing by `step` (1 per axis
/// by default), sharing x's buffer. Throws ShapeError naming the shapes when a window or step is
/// below 1 or a window is larger than its axis.
template <class T, int N, int K>
Array<T, N + K> windows(const Array<T, N>& x, const Dim<K>& window, const Dim<K>& step) {
  static_assert(K >= 1 && K <= N, "tx::windows slides over 1 to N of the array's last axes.");
  static_assert(N + K <= kMaxRank, "tx::windows would make a view of rank above 9.");
  Dim<N + K> dims;
  Dim<N + K> strides;
  for (int i = 0; i < N; ++i) {
    dims.at(i) = x.dims().at(i);
    strides.at(i) = x.strides().at(i);
  }
  for (int i = 0; i < K; ++i) {
    const int axis = N - K + i;
    const index_t extent = x.dims().at(axis);
    if (window.at(i) < 1 || step.at(i) < 1 || window.at(i) > extent) {
      throw ShapeError(detail::message("tx::windows cannot slide a window of ", window,
                                       " with steps ", step, " over the last ", K,
                                       " axes of shape ", x.dims()));
    }
    dims.at(axis) = (extent - window.at(i)) / step.at(i) + 1;
    strides.at(axis) = x.strides().at(axis) * step.at(i);
    dims.at(N + i) = window.at(i);
    strides.at(N + i) = x.strides().at(axis);
  }
  return Array<T, N + K>(x.buffer(), dims, strides, x.offset());
}

/// The windows of extent `window` over the last K axes of `x`, advancing by 1.
template <class T, int N, int K>
Array<T, N + K> windows(const Array<T, N>& x, const Dim<K>& window) {
  Dim<K> step;
  for (int i = 0; i < K; ++i) step.at(i) = 1;
  return windows(x, window, step);
}

}  // namespace tensorx
