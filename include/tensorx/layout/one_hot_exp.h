// tx::one_hot<T>(indices, depth): out[i..., j] = 1 where indices[i...] == j, else 0, for j in
// [0, depth): the integer indices' extent followed by `depth`, element type T (float by default).
// An element-wise node, ONE pass. An index outside [0, depth) gives a row of zeros (TensorFlow's
// convention, which also lets -1 mark "no class"), so there is nothing to check and nothing is
// ever read out of bounds.
#pragma once

#include <type_traits>
#include <utility>

#include "tensorx/core/error.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/indirect_read.h"
#include "tensorx/expr/plan_access.h"
#include "tensorx/layout/slice_exp.h"
#include "tensorx/shape/dim_parts.h"

namespace tensorx {

/// The one-hot node; see tx::one_hot. Column j stands for class first + j (a slice along the last
/// axis moves `first`).
template <class T, class Indices>
class OneHotExp : public Exp<OneHotExp<T, Indices>> {
 public:
  /// The result's element type.
  using value_type = T;
  /// The indices' integer type.
  using index_type = typename Indices::value_type;
  /// The indices' rank plus the class axis.
  static constexpr int rank = Indices::rank + 1;
  static_assert(std::is_integral_v<index_type>, "tx::one_hot takes integer indices.");
  static_assert(rank <= kMaxRank, "tx::one_hot's result would have a rank above 9.");

  /// Classes first .. first + depth - 1 of `indices`; throws ShapeError for a negative depth.
  OneHotExp(Indices indices, index_t depth, index_t first = 0)
      : indices_(std::move(indices)), depth_(depth), first_(first) {
    if (depth < 0) throw ShapeError(detail::message("tx::one_hot: negative depth ", depth));
  }

  /// The class indices.
  const Indices& indices() const { return indices_; }
  /// The number of classes (columns).
  index_t depth() const { return depth_; }
  /// The class of column 0.
  index_t first() const { return first_; }
  /// The indices' extent followed by depth().
  Dim<rank> dims() const { return detail::join(indices_.dims(), Dim<1>(depth_)); }

 private:
  Indices indices_;
  index_t depth_;
  index_t first_;
};

/// The one-hot encoding of integer `indices` (an array or expression of rank K) over `depth`
/// classes: rank K + 1, element type T, 1 where the last index equals the class, else 0 (a row
/// of zeros for an index outside [0, depth)). Throws ShapeError for a negative depth.
template <class T = float, class Indices, class = std::enable_if_t<is_expression_v<Indices>>>
OneHotExp<T, Indices> one_hot(const Indices& indices, index_t depth) {
  return OneHotExp<T, Indices>(indices, depth);
}

namespace detail {

/// A row of a one-hot along its class axis: 1 at the one column its index selects.
template <class C>
struct OneHotRow {
  index_t origin;  // the row's first column
  index_t step;    // 1, or 0 where a depth of 1 is broadcast along the row
  index_t hot;     // the selected column, relative to class `first`

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C get(index_t j) const {
    return (origin + j) * step == hot ? C(1) : C(0);
  }
};

/// The plan of a one-hot of rank K + 1 in an iteration space of rank M >= K + 1 (its axes are the
/// last K + 1, right-aligned). The index plan lives in the indices' own rank-K space.
template <class C, int M, int K, class IndexPlan>
struct OneHotPlan {
  IndexPlan indices;
  index_t first;
  index_t step;  // 0 for a depth of 1, which a larger expression may broadcast
  Dim<M> space;  // the iteration space, for flat indices

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C at(const Dim<M>& index) const {
    const Dim<K + 1> own = trailing<K + 1>(index);
    const auto hot = static_cast<index_t>(indices.at(leading<K>(own)));
    return hot == first + own.at(K) * step ? C(1) : C(0);
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C flat(index_t i) const {
    return at(delinearize(i, space));
  }
  OneHotRow<C> row(const Dim<M>& start) const {
    const Dim<K + 1> own = trailing<K + 1>(start);
    return {own.at(K), step, static_cast<index_t>(indices.at(leading<K>(own))) - first};
  }

  /// The index leaves, constant along the class axis.
  template <class Visitor>
  void visit_leaves(Visitor&& visitor) const {
    indices.visit_leaves([&](const void* data, const Dim<K>& strides, std::size_t size) {
      visitor(data, join(Dim<M - K - 1>(), join(strides, Dim<1>())), size);
    });
  }
};

}  // namespace detail

///@{
/// The node protocol (expr/exp.h) for OneHotExp: the indices prepared and planned in their own
/// extent, compared with each column's class; they count as read indirectly.
template <int M, class T, class Indices>
auto make_plan(const OneHotExp<T, Indices>& e, const Dim<M>& out_dims) {
  constexpr int K = Indices::rank;
  static_assert(M > K, "an operand cannot have a higher rank than the iteration space.");
  using IndexPlan = decltype(make_plan(e.indices(), e.indices().dims()));
  return detail::OneHotPlan<compute_t<T>, M, K, IndexPlan>{
      make_plan(e.indices(), e.indices().dims()), e.first(), e.depth() == 1 ? 0 : 1, out_dims};
}

template <class T, class Indices, class Context>
auto prepare(const OneHotExp<T, Indices>& e, const Context& context) {
  auto indices = prepare(e.indices(), context);
  return OneHotExp<T, std::decay_t<decltype(indices)>>(std::move(indices), e.depth(), e.first());
}

template <class T, class Indices, class F>
void for_each_array(const OneHotExp<T, Indices>& e, F&& f) {
  detail::for_each_array_read_indirectly(e.indices(), f);
}
///@}

/// A one-hot: a slice along an index axis slices the indices, along the class axis it narrows
/// the classes.
template <class T, class Indices, class TU>
auto push_slice(const OneHotExp<T, Indices>& e, int axis, index_t begin, index_t end,
                const detail::EvalContext<TU>& context) {
  constexpr int K = Indices::rank;
  const Indices& indices = e.indices();
  if constexpr (K == 0) {
    return OneHotExp<T, Indices>(indices, end - begin, e.first() + begin);
  } else {
    using Sliced = decltype(push_slice(indices, 0, 0, 0, context));
    if (axis < K) {
      return OneHotExp<T, Sliced>(push_slice(indices, axis, begin, end, context), e.depth(),
                                  e.first());
    }
    // A whole-range slice of the indices keeps the type of the branch above.
    return OneHotExp<T, Sliced>(push_slice(indices, 0, 0, indices.dims().at(0), context),
                                end - begin, e.first() + begin);
  }
}

}  // namespace tensorx
