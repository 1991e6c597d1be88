// The DArray reductions (reduce/darray_reductions.h): the axes checked, then the compiled
// reduction of plain arrays (src/reduce/array_reductions.cpp), every rank through one view of rank
// 4.
#include "tensorx/reduce/darray_reductions.h"

#include <vector>

#include "tensorx/reduce/compiled_array_reduce.h"
#include "tensorx/reduce/reduce_checks.h"

namespace tensorx {
namespace detail {
namespace {
static_assert(kMaxDArrayRank == kCompiledReduceRank,
              "a DArray of every rank is reduced as a plain array");

/// The mask of the axes in `list` for a DArray of extent `dims`. Throws ShapeError naming the axis
/// and the shape for an axis outside [-rank, rank) or one given twice.
unsigned darray_axis_mask(const AxisList& list, const DDim& dims) {
  const int rank = arity(dims);
  unsigned mask = 0;
  for (int axis : list.axes()) {
    if (axis < -rank || axis >= rank) {
      throw ShapeError(message("axis ", axis, " is out of range for a DArray of shape ", dims,
                               " (axes are -", rank, " to ", rank - 1, ")"));
    }
    const int normalized = axis < 0 ? axis + rank : axis;
    if ((mask >> normalized) & 1u) {
      throw ShapeError(message("axis ", axis, " appears twice in the axes of a reduction of a ",
                               "DArray of shape ", dims));
    }
    mask |= 1u << normalized;
  }
  return mask;
}

/// Reducer Op over the axes in `mask` of `x` (of rank kMaxDArrayRank) into a new array of the
/// reduced extent, keeping the reduced axes with extent 1.
template <class Op, class T>
Array<typename Op::template result_type<T>, kMaxDArrayRank> reduce_padded(
    const Array<T, kMaxDArrayRank>& x, unsigned mask) {
  using R = typename Op::template result_type<T>;
  Array<R, kMaxDArrayRank> result(reduced_extent<kMaxDArrayRank>(x.dims(), mask), x.place());
  reduce_array(Op::kOp, x, mask, result);
  return result;
}

/// Reducer Op over the axes in `mask` of x, as a new DArray (see the file comment).
template <class Op>
DArray reduce_darray(const DArray& x, unsigned mask, bool keep_dims) {
  return visit(
      [&](auto& a) -> DArray {
        using A = std::decay_t<decltype(a)>;
        constexpr int M = A::rank;
        if constexpr (Op::kOp == ReduceOp::kMean && std::is_integral_v<typename A::value_type>) {
          throw TypeError(message("tx::mean needs floating-point elements, but the DArray holds ",
                                  dtype(x), "; convert it first"));
        } else {
          check_reducible<Op>(a.dims(), mask);
          const auto result = reduce_padded<Op>(with_leading_axes(a), mask << (kMaxDArrayRank - M));
          const int rank = M - count_axes(mask);
          if (keep_dims || rank == M) return reshape(result, reduced_extent<M>(a.dims(), mask));
          if (rank == 0) return reshape(result, make_dim(1));
          return darray_rank_switch(rank, [&](auto r) -> DArray {
            return reshape(result, reduced_extent<r>(a.dims(), mask));
          });
        }
      },
      x);
}

/// Every axis of x.
unsigned all_axes(const DArray& x) {
  return (1u << rank(x)) - 1u;
}

}  // namespace
}  // namespace detail

/// The sum of x over every axis, or over `axes`; tx::keepdims keeps them with extent 1.
template <class X, detail::if_darray<X>>
DArray sum(const X& x) {
  return detail::reduce_darray<op::sum_reducer>(x, detail::all_axes(x), false);
}
template <class X, detail::if_darray<X>>
DArray sum(const X& x, const AxisList& axes) {
  return detail::reduce_darray<op::sum_reducer>(x, detail::darray_axis_mask(axes, dims(x)), false);
}
template <class X, detail::if_darray<X>>
DArray sum(const X& x, const AxisList& axes, KeepDims) {
  return detail::reduce_darray<op::sum_reducer>(x, detail::darray_axis_mask(axes, dims(x)), true);
}

/// The mean of x (floating-point elements; TypeError for integers), NaN over no elements.
template <class X, detail::if_darray<X>>
DArray mean(const X& x) {
  return detail::reduce_darray<op::mean_reducer>(x, detail::all_axes(x), false);
}
template <class X, detail::if_darray<X>>
DArray mean(const X& x, const AxisList& axes) {
  return detail::reduce_darray<op::mean_reducer>(x, detail::darray_axis_mask(axes, dims(x)), false);
}
template <class X, detail::if_darray<X>>
DArray mean(const X& x, const AxisList& axes, KeepDims) {
  return detail::reduce_darray<op::mean_reducer>(x, detail::darray_axis_mask(axes, dims(x)), true);
}

/// The largest element (NaN if any is NaN); ShapeError over no elements.
template <class X, detail::if_darray<X>>
DArray max(const X& x) {
  return detail::reduce_darray<op::max_reducer>(x, detail::all_axes(x), false);
}
template <class X, detail::if_darray<X>>
DArray max(const X& x, const AxisList& axes) {
  return detail::reduce_darray<op::max_reducer>(x, detail::darray_axis_mask(axes, dims(x)), false);
}
template <class X, detail::if_darray<X>>
DArray max(const X& x, const AxisList& axes, KeepDims) {
  return detail::reduce_darray<op::max_reducer>(x, detail::darray_axis_mask(axes, dims(x)), true);
}

/// The smallest element (NaN if any is NaN); ShapeError over no elements.
template <class X, detail::if_darray<X>>
DArray min(const X& x) {
  return detail::reduce_darray<op::min_reducer>(x, detail::all_axes(x), false);
}
template <class X, detail::if_darray<X>>
DArray min(const X& x, const AxisList& axes) {
  return detail::reduce_darray<op::min_reducer>(x, detail::darray_axis_mask(axes, dims(x)), false);
}
template <class X, detail::if_darray<X>>
DArray min(const X& x, const AxisList& axes, KeepDims) {
  return detail::reduce_darray<op::min_reducer>(x, detail::darray_axis_mask(axes, dims(x)), true);
}

/// The product of the elements (1 over none).
template <class X, detail::if_darray<X>>
DArray prod(const X& x) {
  return detail::reduce_darray<op::prod_reducer>(x, detail::all_axes(x), false);
}
template <class X, detail::if_darray<X>>
DArray prod(const X& x, const AxisList& axes) {
  return detail::reduce_darray<op::prod_reducer>(x, detail::darray_axis_mask(axes, dims(x)), false);
}
template <class X, detail::if_darray<X>>
DArray prod(const X& x, const AxisList& axes, KeepDims) {
  return detail::reduce_darray<op::prod_reducer>(x, detail::darray_axis_mask(axes, dims(x)), true);
}

/// The int64 positions of the largest elements along `axis`; ShapeError for an empty axis.
template <class X, detail::if_darray<X>>
DArray argmax(const X& x, int axis) {
  return detail::reduce_darray<op::argmax_reducer>(x, detail::darray_axis_mask({axis}, dims(x)),
                                                   false);
}
template <class X, detail::if_darray<X>>
DArray argmax(const X& x, int axis, KeepDims) {
  return detail::reduce_darray<op::argmax_reducer>(x, detail::darray_axis_mask({axis}, dims(x)),
                                                   true);
}

/// The int64 positions of the smallest elements along `axis`; ShapeError for an empty axis.
template <class X, detail::if_darray<X>>
DArray argmin(const X& x, int axis) {
  return detail::reduce_darray<op::argmin_reducer>(x, detail::darray_axis_mask({axis}, dims(x)),
                                                   false);
}
template <class X, detail::if_darray<X>>
DArray argmin(const X& x, int axis, KeepDims) {
  return detail::reduce_darray<op::argmin_reducer>(x, detail::darray_axis_mask({axis}, dims(x)),
                                                   true);
}

template DArray sum(const DArray&);
template DArray sum(const DArray&, const AxisList&);
template DArray sum(const DArray&, const AxisList&, KeepDims);
template DArray mean(const DArray&);
template DArray mean(const DArray&, const AxisList&);
template DArray mean(const DArray&, const AxisList&, KeepDims);
template DArray max(const DArray&);
template DArray max(const DArray&, const AxisList&);
template DArray max(const DArray&, const AxisList&, KeepDims);
template DArray min(const DArray&);
template DArray min(const DArray&, const AxisList&);
template DArray min(const DArray&, const AxisList&, KeepDims);
template DArray prod(const DArray&);
template DArray prod(const DArray&, const AxisList&);
template DArray prod(const DArray&, const AxisList&, KeepDims);
template DArray argmax(const DArray&, int);
template DArray argmax(const DArray&, int, KeepDims);
template DArray argmin(const DArray&, int);
template DArray argmin(const DArray&, int, KeepDims);

}  // namespace tensorx
