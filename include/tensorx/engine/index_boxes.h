// IndexBoxes: a row-major iteration space cut into boxes of at most `limit` elements, so that a
// GPU kernel whose index arithmetic is 32-bit (engine/cuda_launch.cuh's FastDivider32, which needs
// flat indices below 2^31) covers spaces of any size: one launch per box, each box's multi-indices
// offset by its origin. A space within the limit is one box, itself. Plain C++, so that the cutting
// is tested on any machine (test/engine/index_boxes_test.cpp).
#pragma once

#include <algorithm>

#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// The boxes of `dims` in row-major order. Past the limit, the split axis is the innermost whose
/// extent, times the extents inside it, exceeds the limit: every box spans the axes inside it
/// whole, the split axis in blocks of as many of those slices as fit, and one index of each axis
/// outside it. Every extent must be at least 1.
template <int N>
class IndexBoxes {
 public:
  IndexBoxes(const Dim<N>& dims, index_t limit) : dims_(dims) {
    if constexpr (N > 0) {
      index_t inner = 1;
      for (int d = N - 1; d >= 0; --d) {
        if (dims.at(d) > limit / inner) {
          split_ = d;
          block_ = std::max<index_t>(1, limit / inner);
          break;
        }
        inner *= dims.at(d);
      }
    }
  }

  /// Writes the next box's origin and extent and returns true; false once every box was given.
  bool next(Dim<N>& origin, Dim<N>& box) {
    if (done_) return false;
    origin = cursor_;
    box = dims_;
    if (split_ < 0) {
      done_ = true;
      return true;
    }
    if constexpr (N > 0) {
      for (int d = 0; d < split_; ++d) box.at(d) = 1;
      box.at(split_) = std::min(block_, dims_.at(split_) - cursor_.at(split_));
      // Advance: along the split axis, then an odometer over the axes outside it.
      cursor_.at(split_) += block_;
      if (cursor_.at(split_) < dims_.at(split_)) return true;
      cursor_.at(split_) = 0;
      for (int d = split_ - 1; d >= 0; --d) {
        if (++cursor_.at(d) < dims_.at(d)) return true;
        cursor_.at(d) = 0;
      }
    }
    done_ = true;
    return true;
  }

 private:
  Dim<N> dims_;
  Dim<N> cursor_;   // the origin of the next box
  int split_ = -1;  // -1: the whole space is one box
  index_t block_ = 0;
  bool done_ = false;
};

}  // namespace detail
}  // namespace tensorx
