// The two backends behind detail::reduce_contiguous, after its checks: the CPU engine and the
// GPU (the header's kernels, as a CUDA translation unit runs them). Callers have
// checked the element type against the reducer and that every result has an element to reduce
// when the reducer has no identity. Private to src/.
#pragma once

#include <type_traits>

#include "tensorx/reduce/compiled_reduce.h"
#include "tensorx/reduce/reduce_checks.h"

namespace tensorx {
namespace detail {

/// Calls f(reducer, tag) with the reducer of `op` and the TypeTag of `type`, for the pairs that
/// have a reduction: tx::mean needs floating-point elements (reduce_contiguous has rejected the
/// other pairs before a backend runs).
template <class F>
void reduction_switch(ReduceOp op, DataType type, F&& f) {
  reducer_switch(op, [&](auto reducer) {
    using Op = decltype(reducer);
    type_switch(type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (Op::kOp != ReduceOp::kMean || !std::is_integral_v<T>) f(reducer, tag);
    });
  });
}

/// The CPU side of reduce_contiguous.
void cpu_reduce_contiguous(ReduceOp op, DataType type, const void* src, void* dst,
                           const ThreeAxes& axes, SaveMode mode);

/// The GPU side of reduce_contiguous, on `device`'s current stream.
void gpu_reduce_contiguous(ReduceOp op, DataType type, const void* src, void* dst,
                           const ThreeAxes& axes, int device, SaveMode mode);

}  // namespace detail
}  // namespace tensorx
