// A SIMD batch assembled lane by lane from scalar values, for row plans whose batch straddles two
// sources (a concat row crossing from one operand to the next) or whose elements come from
// data-dependent places (a gather evaluated densely). Host code only: batches are CPU vocabulary.
#pragma once

#include <cstddef>

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

/// The batch whose lane l is lane(l), for l in 0 .. B::size - 1.
template <class B, class LaneFunction>
TENSORX_FORCE_INLINE B batch_of_lanes(LaneFunction&& lane) {
  alignas(B) typename B::value_type values[B::size];
  for (std::size_t l = 0; l < B::size; ++l) values[l] = lane(static_cast<index_t>(l));
  return B::load_aligned(values);
}

}  // namespace detail
}  // namespace tensorx
