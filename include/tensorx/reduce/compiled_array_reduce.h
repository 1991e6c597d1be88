// Reductions of a plain array run in the compiled layer: `r = tx::sum<1>(m)`, with m an Array, has
// no expression to fuse, so the translation unit calls the CPU loop (or, from a plain C++ unit, the
// GPU kernels) that libtensorx instantiated once, instead of instantiating the engine's row and
// column loops, dense and strided, for every reducer, element type and rank it meets. Those loops
// were half the object code of a unit of typical expressions and two thirds of test_reduce's
// (bench/HISTORY.md, 2026-11-24, fourth run). A reduction of an expression (`tx::sum(a * b)`) is
// still ONE fused loop or kernel instantiated in the unit.
//
// The compiled layer reduces every rank through one rank, kCompiledReduceRank: an array of lower
// rank is viewed with leading axes of extent 1, which the reduction merges away at run time, so it
// costs nothing.
#pragma once

#include <type_traits>

#include "tensorx/array/array.h"
#include "tensorx/core/data_type.h"
#include "tensorx/core/expression.h"
#include "tensorx/core/simd.h"
#include "tensorx/expr/saver.h"
#include "tensorx/reduce/reduce_geometry.h"
#include "tensorx/reduce/reducers.h"
#include "tensorx/shape/dim_parts.h"

namespace tensorx {
namespace detail {

/// The rank at which the compiled layer reduces arrays (that of a DArray's largest).
constexpr int kCompiledReduceRank = 4;

/// dst = Op over the axes in `mask` of src, for arrays of any strides on one place: dst has src's
/// extent with 1 on the reduced axes (their strides are not read), R is T or, for argmax and
/// argmin, int64. T is a DArray element type; mean takes floating-point elements only. The header
/// engines instantiated once in libtensorx (src/reduce/array_reductions.cpp): the CPU loop, or for
/// a GPU array the compiled kernels (a strided one copied densely first), on the current stream,
/// which the caller has ordered. Throws as an assignment of the reduction would.
template <class T, class R>
void reduce_array(ReduceOp op, const Array<T, kCompiledReduceRank>& src, unsigned mask,
                  const Array<R, kCompiledReduceRank>& dst);

/// True when the texts a and b are equal.
constexpr bool same_text(const char* a, const char* b) {
  return *a == *b && (*a == '\0' || same_text(a + 1, b + 1));
}

/// True when the CPU loops of this translation unit are those of the compiled layer, or narrower:
/// libtensorx is built for the platform's baseline instruction set unless its builder asked for
/// more, so a unit compiled for wider vectors (-mavx2, -march=native) keeps its own loops, and a
/// unit with no SIMD (no xsimd, or a CUDA unit, whose CPU loops are scalar) gains from them.
constexpr bool cpu_loops_match_compiled_layer() {
#if !TENSORX_HAS_SIMD
  return true;
#else
  constexpr const char* baseline =
#if defined(__x86_64__) || defined(_M_X64)
      "sse2";
#elif defined(__aarch64__)
      "neon64";
#else
      "";
#endif
  return same_text(xsimd::default_arch::name(), baseline);
#endif
}

/// True when libtensorx has reducer Op of T elements into R: R is Op's result type, and mean takes
/// floating-point elements only.
template <class Op, class T, class R>
constexpr bool compiled_reduction_exists() {
  return std::is_same_v<R, typename Op::template result_type<T>> &&
         !(Op::kOp == ReduceOp::kMean && std::is_integral_v<T>);
}

/// True when `dst = Op over some axes of operand` (Saver the assignment's, T dst's element type)
/// runs in the compiled layer: a plain array of a DArray element type and rank 1 to
/// kCompiledReduceRank, written (not accumulated), in a unit whose CPU loops are the library's.
template <class Op, class Saver, class T, class E>
constexpr bool runs_in_compiled_layer() {
  if constexpr (!is_array<E>::value) {
    return false;
  } else {
    using U = typename E::value_type;
    constexpr bool kPlainArray =
        E::rank >= 1 && E::rank <= kCompiledReduceRank && is_supported_element_v<U>;
    return kPlainArray && std::is_same_v<Saver, saver::write> &&
           compiled_reduction_exists<Op, U, T>() && cpu_loops_match_compiled_layer();
  }
}

/// `a` as an array of rank kCompiledReduceRank: axes of extent 1 put in front, their strides 0
/// (an axis of extent 1 is never stepped along).
template <class T, int M>
Array<T, kCompiledReduceRank> with_leading_axes(const Array<T, M>& a) {
  constexpr int kAdded = kCompiledReduceRank - M;
  Dim<kAdded> ones;
  if constexpr (kAdded > 0) {
    for (int i = 0; i < kAdded; ++i) ones.at(i) = 1;
  }
  return Array<T, kCompiledReduceRank>(a.buffer(), join(ones, a.dims()),
                                       join(Dim<kAdded>(), a.strides()), a.offset());
}

/// dst = Op over the axes in `mask` of the plain array `operand`, in the compiled layer (see
/// runs_in_compiled_layer): dst seen with every axis of the operand (extent 1 and stride 0 on the
/// reduced ones, as the reduction's space gives them), both with leading axes up to
/// kCompiledReduceRank.
template <class Op, class U, int M, class T, int N>
void reduce_in_compiled_layer(const Array<U, M>& operand, unsigned mask, const Array<T, N>& dst) {
  const auto space = make_reduce_space(operand.dims(), mask, dst);
  const Array<T, M> every_axis(dst.buffer(), space.kept_dims(), space.dst_strides, dst.offset());
  reduce_array(Op::kOp, with_leading_axes(operand), mask << (kCompiledReduceRank - M),
               with_leading_axes(every_axis));
}

}  // namespace detail
}  // namespace tensorx
