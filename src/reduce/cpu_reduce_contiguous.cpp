// The CPU side of the compiled reductions: the header's CPU engine (engine/cpu_reduce.h),
// instantiated here once for every reducer and element type, on the dense three-axis operand.
#include <type_traits>
#include <vector>

#include "reduce/reduce_backends.h"
#include "tensorx/core/stats.h"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/reduce/cpu_reduce.h"

namespace tensorx {
namespace detail {
namespace {

template <class Op, class T, class R>
void reduce_typed(const T* src, R* dst, const ThreeAxes& axes, SaveMode mode) {
  const Dim<3> dims = make_dim(axes.outer, axes.reduced, axes.inner);
  if (mode == SaveMode::kWrite) {
    if (axes.reduced == 0) {
      for (index_t o = 0; o < axes.outer; ++o) {
        for (index_t k = 0; k < axes.inner; ++k) {
          save_result<Op, saver::write>(dst + o * axes.dst_outer + k * axes.dst_inner,
                                        Op::template identity<compute_t<T>>(), 0);
        }
      }
      return;
    }
    ReduceSpace<3> space;
    space.dims = dims;
    space.mask = 2u;
    space.dst_strides = make_dim(axes.dst_outer, 0, axes.dst_inner);
    reduce_dense<Op, saver::write>(dst, space, LeafPlan<T, 3>{src, contiguous_strides(dims)});
    return;
  }
  // The other savers read the destination: the results go to a dense temporary first.
  std::vector<R> results(static_cast<std::size_t>(axes.outer * axes.inner));
  ThreeAxes dense = axes;
  dense.dst_outer = axes.inner;
  dense.dst_inner = 1;
  reduce_typed<Op>(src, results.data(), dense, SaveMode::kWrite);
  saver_switch(mode, [&](auto saver) {
    using Saver = decltype(saver);
    using C = compute_t<R>;
    for (index_t o = 0; o < axes.outer; ++o) {
      for (index_t k = 0; k < axes.inner; ++k) {
        R* target = dst + o * axes.dst_outer + k * axes.dst_inner;
        const auto value = static_cast<C>(results[static_cast<std::size_t>(o * axes.inner + k)]);
        *target = to_storage<R>(Saver::apply(static_cast<C>(*target), value));
      }
    }
  });
}

}  // namespace

void cpu_reduce_contiguous(ReduceOp op, DataType type, const void* src, void* dst,
                           const ThreeAxes& axes, SaveMode mode) {
  stats::record_pass();
  reduction_switch(op, type, [&](auto reducer, auto tag) {
    using Op = decltype(reducer);
    using T = typename decltype(tag)::type;
    using R = typename Op::template result_type<T>;
    reduce_typed<Op>(static_cast<const T*>(src), static_cast<R*>(dst), axes, mode);
  });
}

}  // namespace detail
}  // namespace tensorx
