// detail::reduce_array (reduce/compiled_array_reduce.h): the reductions of plain arrays, for the
// translation units that call them instead of instantiating the engine, and for the DArray
// reductions. Every reducer and element type, once, at rank kCompiledReduceRank: 40 instantiations
// of the header's engines (mean has no integer form): the CPU loops, and the compiled kernels'
// dispatch for GPU arrays.
#include <type_traits>

#include "tensorx/reduce/reduce_checks.h"
#include "tensorx/reduce/reduce_writer.h"

namespace tensorx {
namespace detail {

template <class T, class R>
void reduce_array(ReduceOp op, const Array<T, kCompiledReduceRank>& src, unsigned mask,
                  const Array<R, kCompiledReduceRank>& dst) {
  reducer_switch(op, [&](auto reducer) {
    using Op = decltype(reducer);
    if constexpr (compiled_reduction_exists<Op, T, R>()) {
      write_reduction_in_unit<Op, saver::write, HostTranslationUnit>(src, mask, dst);
    } else {
      throw TypeError(message("tx::", Op::kName, " of ", data_type_of<T>(),
                              " elements has no result of type ", data_type_of<R>()));
    }
  });
}

// Each element type into itself (the value reducers) and into int64 (argmax, argmin).
#define TENSORX_REDUCE_ARRAY(T)                                                               \
  template void reduce_array<T, T>(ReduceOp, const Array<T, kCompiledReduceRank>&, unsigned,  \
                                   const Array<T, kCompiledReduceRank>&);                     \
  template void reduce_array<T, std::int64_t>(ReduceOp, const Array<T, kCompiledReduceRank>&, \
                                              unsigned,                                       \
                                              const Array<std::int64_t, kCompiledReduceRank>&);
TENSORX_REDUCE_ARRAY(float)
TENSORX_REDUCE_ARRAY(double)
TENSORX_REDUCE_ARRAY(float16)
TENSORX_REDUCE_ARRAY(bfloat16)
TENSORX_REDUCE_ARRAY(std::int32_t)
#undef TENSORX_REDUCE_ARRAY
// int64 into int64 serves both the value reducers and argmax/argmin.
template void reduce_array<std::int64_t, std::int64_t>(
    ReduceOp, const Array<std::int64_t, kCompiledReduceRank>&, unsigned,
    const Array<std::int64_t, kCompiledReduceRank>&);

}  // namespace detail
}  // namespace tensorx
