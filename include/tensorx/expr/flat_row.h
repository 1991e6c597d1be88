// FlatRow<Plan>: the row a plan's flat_row() returns when its elements do not lie in a row of its
// own (a gather, a one_hot): element j is plan.flat(j). The CPU engine asks for it only where every
// leaf the plan reports is dense in the destination, which for such nodes is a degenerate extent
// (a single gathered element, a one_hot of depth 1), so that its per-element cost does not matter.
#pragma once

#include "tensorx/core/config.h"
#include "tensorx/expr/batch_of_lanes.h"

namespace tensorx {
namespace detail {

template <class Plan>
struct FlatRow {
  Plan plan;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE auto get(index_t j) const { return plan.flat(j); }
  template <class B>
  TENSORX_FORCE_INLINE B batch(index_t j) const {
    return batch_of_lanes<B>([&](index_t l) { return plan.flat(j + l); });
  }
};

}  // namespace detail
}  // namespace tensorx
