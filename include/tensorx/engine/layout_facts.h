// How the destination and the leaves of a plan sit in the iteration space: dense (element i at
// position i), or with a unit (or zero) inner stride. The CPU and CUDA engines and the reductions
// choose their loops and kernels from these facts.
#pragma once

#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// How an operand or destination sits in the iteration space.
template <int N>
struct LayoutFacts {
  bool dense = true;       // element i at data[i]
  bool unit_inner = true;  // inner stride 0 or 1: the row can be loaded in batches

  void add(const Dim<N>& dims, const Dim<N>& strides) {
    if constexpr (N > 0) {
      const Dim<N> expected = contiguous_strides(dims);
      for (int i = 0; i < N; ++i) {
        if (dims.at(i) != 1 && strides.at(i) != expected.at(i)) dense = false;
      }
      const index_t inner = strides.at(N - 1);
      if (dims.at(N - 1) != 1 && inner != 0 && inner != 1) unit_inner = false;
    }
  }
};

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
