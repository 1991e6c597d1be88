// tx::cross_entropy(logits, labels): the mean over rows of logsumexp(row) - row[label], the loss
// of a classifier with integer labels (PyTorch's cross_entropy with reduction "mean"). Assigned,
// it checks every label before anything is written (for GPU labels a kernel, one more pass), then
// runs ONE pass: the per-row losses of a row-local pass (reduce/row_fusion.h), summed by the same
// pass (reduce/row_writer.h: write_mean_of_rows).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "tensorx/array/array.h"
#include "tensorx/array/global_ops.h"
#include "tensorx/core/error.h"
#include "tensorx/engine/assign.h"
#include "tensorx/engine/materialise.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/indirect_read.h"
#include "tensorx/layout/index_bounds.h"
#include "tensorx/normalize/softmax.h"
#include "tensorx/ops/functor.h"
#include "tensorx/reduce/reductions.h"
#include "tensorx/reduce/row_writer.h"

namespace tensorx {

/// The node of tx::cross_entropy: a rank-0 expression.
template <class Logits, class Labels>
class CrossEntropyExp : public Exp<CrossEntropyExp<Logits, Labels>> {
 public:
  /// The logits' element type.
  using value_type = typename Logits::value_type;
  /// 0: the loss is one number.
  static constexpr int rank = 0;
  static_assert(Logits::rank == 2, "tx::cross_entropy takes logits of rank 2: (rows, classes).");
  static_assert(Labels::rank == 1, "tx::cross_entropy takes labels of rank 1: one per row.");
  static_assert(std::is_same_v<typename Labels::value_type, std::int32_t> ||
                    std::is_same_v<typename Labels::value_type, std::int64_t>,
                "tx::cross_entropy's labels must be int32 or int64.");
  static_assert(is_floating_element_v<value_type>,
                "tx::cross_entropy needs floating-point logits.");

  /// The loss of `logits` against `labels` (checked when the node is assigned).
  CrossEntropyExp(Logits logits, Labels labels)
      : logits_(std::move(logits)), labels_(std::move(labels)) {}

  /// The logits, (rows, classes).
  const Logits& logits() const { return logits_; }
  /// The labels, one class per row.
  const Labels& labels() const { return labels_; }

  /// The extent of a number. Throws ShapeError unless there is one label per row.
  Dim<0> dims() const {
    const Dim<2> logits_dims = logits_.dims();
    const Dim<1> labels_dims = labels_.dims();
    if (labels_dims.at(0) != logits_dims.at(0)) {
      throw ShapeError(
          detail::message("tx::cross_entropy needs one label per row: logits of shape ",
                          logits_dims, " and labels of shape ", labels_dims));
    }
    return Dim<0>();
  }

 private:
  Logits logits_;
  Labels labels_;
};

namespace detail {

/// logits[r, labels[r]] for every row r: a rank-1 node over arrays whose labels have been checked
/// (each is still clamped into the row, so that no read is ever out of bounds).
template <class T, class I>
class LabelPickExp : public Exp<LabelPickExp<T, I>> {
 public:
  using value_type = T;
  static constexpr int rank = 1;

  LabelPickExp(Array<T, 2> logits, Array<I, 1> labels)
      : logits_(std::move(logits)), labels_(std::move(labels)) {}
  const Array<T, 2>& logits() const { return logits_; }
  const Array<I, 1>& labels() const { return labels_; }
  Dim<1> dims() const { return labels_.dims(); }

 private:
  Array<T, 2> logits_;
  Array<I, 1> labels_;
};

template <class T, class I>
struct LabelPickPlan {
  const T* logits;
  Dim<2> logits_strides;
  index_t classes;
  const I* labels;
  index_t label_stride;

  template <int M>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE compute_t<T> at(const Dim<M>& index) const {
    return flat(index.at(M - 1));
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE compute_t<T> flat(index_t row) const {
    index_t label = static_cast<index_t>(labels[row * label_stride]);
    label = label < 0 ? 0 : (label >= classes ? classes - 1 : label);
    return static_cast<compute_t<T>>(
        logits[row * logits_strides.at(0) + label * logits_strides.at(1)]);
  }
  template <class Visitor>
  void visit_leaves(Visitor&&) const {}
};

template <class T, class I, class Context>
const LabelPickExp<T, I>& prepare(const LabelPickExp<T, I>& e, const Context&) {
  return e;
}
template <int M, class T, class I>
LabelPickPlan<T, I> make_plan(const LabelPickExp<T, I>& e, const Dim<M>&) {
  return {e.logits().data(), e.logits().strides(), e.logits().dims().at(1), e.labels().data(),
          e.labels().strides().at(0)};
}
template <class T, class I, class F>
void for_each_array(const LabelPickExp<T, I>& e, F&& f) {
  f(IndirectRead<T, 2>(e.logits()));
  f(IndirectRead<I, 1>(e.labels()));
}

/// Throws IndexError for the first label outside [0, classes), naming it and its row. GPU labels
/// are checked by a kernel (layout/index_bounds.h), which synchronises and reads back one label.
template <class TU, class I>
void check_labels(TU tu, const Array<I, 1>& labels, index_t classes) {
  check_rows(tu, labels, classes, [classes](I label, const Dim<1>& row) {
    throw IndexError(message("tx::cross_entropy: label ", label, " of row ", row.at(0),
                             " is out of range for ", classes, " classes"));
  });
}

}  // namespace detail

/// Inside a larger expression the loss is computed once, into a temporary.
template <class Logits, class Labels, class TU>
auto prepare(const CrossEntropyExp<Logits, Labels>& e, const detail::EvalContext<TU>& context) {
  return detail::materialise(e, context);
}
/// The node protocol (expr/exp.h): logits and labels are read at positions of their own.
template <class Logits, class Labels, class F>
void for_each_array(const CrossEntropyExp<Logits, Labels>& e, F&& f) {
  detail::for_each_array_read_indirectly(e.logits(), f);
  detail::for_each_array_read_indirectly(e.labels(), f);
}

/// The loss is written by its own pass (see the file comment).
template <class Logits, class Labels>
struct DirectWriter<CrossEntropyExp<Logits, Labels>> {
  /// True: never evaluated element by element.
  static constexpr bool kEnabled = true;

  /// dst = Saver(dst, the loss): the labels checked, then the per-row losses and their mean in
  /// one pass (reduce/row_writer.h: write_mean_of_rows), the losses kept in the compute type.
  template <class Saver, class TU, class T, int N>
  static void write(const CrossEntropyExp<Logits, Labels>& e, const Array<T, N>& dst) {
    using C = compute_t<T>;
    const detail::EvalContext<TU> context{dst.place()};
    const Array<T, 2> logits = detail::materialise(e.logits(), context);
    const auto labels = detail::materialise(e.labels(), context);
    detail::check_labels(TU{}, labels, logits.dims().at(1));
    const auto losses =
        logsumexp<1>(logits) - detail::LabelPickExp<T, typename Labels::value_type>(logits, labels);
    Array<T, N> result = dst;
    // The mean of the losses as two assignments: for no rows (NaN, without a pass over rows), and
    // for write_mean_of_rows' GPU route of few long rows.
    const auto losses_then_mean = [&] {
      Array<C, 1> values(labels.dims(), dst.place());
      detail::evaluate<saver::write, TU, detail::Aliasing::kCheck>(values, cast<C>(losses));
      detail::evaluate<Saver, TU, detail::Aliasing::kCheck>(result, cast<T>(mean(values)));
    };
    if (labels.numel() == 0) {
      losses_then_mean();
    } else {
      detail::write_mean_of_rows<Saver, TU>(losses, dst, losses_then_mean);
    }
  }
};

/// The mean cross-entropy of rows of `logits` (rows, classes) against int32 or int64 `labels`
/// (one class per row): mean over rows r of logsumexp(logits[r]) - logits[r, labels[r]]. Lazy:
/// assigned to a rank-0 array (or used in an expression) it checks first that the shapes agree
/// (ShapeError) and that every label is in [0, classes) (IndexError naming the label and its
/// row), then writes. NaN for no rows.
template <class Logits, class Labels>
auto cross_entropy(const Logits& logits, const Labels& labels) {
  static_assert(is_expression_v<Logits> && is_expression_v<Labels>,
                "tx::cross_entropy takes arrays or expressions.");
  return CrossEntropyExp<Logits, Labels>(logits, labels);
}

}  // namespace tensorx
