// a("i,k"): an Array with its axes labelled, the leaf of a labelled expression and the left side
// of a labelled assignment (c("i,j") = a("i,k") * b("k,j")). It holds the array handle and the
// parsed labels by value, so a labelled expression kept past its statement never dangles.
#pragma once

#include "tensorx/array/array.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/expr/saver.h"
#include "tensorx/labels/label.h"
#include "tensorx/labels/labelled_exp.h"

namespace tensorx {
namespace detail {
// The labelled assignment (labelled_assign.h): dst's elements named by `labels` = Saver(dst, rhs).
// An unallocated dst is allocated through `owner` (the Array object it was labelled from).
template <class Saver, class TU, class T, int N, class Rhs>
void assign_labelled(const Array<T, N>& dst, Array<T, N>* owner, const LabelList& labels,
                     const Rhs& rhs);
}  // namespace detail

/// a("i,k"): an Array<T, N> with one label per axis, a leaf of labelled expressions and the left
/// side of a labelled assignment. Made by Array::operator()(labels).
template <class T, int N>
class LabelledArray : public LabelledLeaf<LabelledArray<T, N>> {
 public:
  /// The element type.
  using value_type = T;
  /// The array's rank.
  static constexpr int rank = N;
  /// The most distinct labels this leaf brings: N.
  static constexpr int max_labels = N;
  /// One leaf.
  static constexpr int leaf_count = 1;

  /// `array` with `labels`, one per axis (LabelError otherwise). `owner` is the Array object that
  /// an assignment to this unallocated array allocates (null: a const array, which cannot be).
  LabelledArray(const Array<T, N>& array, const LabelList& labels, Array<T, N>* owner = nullptr)
      : array_(array), labels_(labels), owner_(array.allocated() ? nullptr : owner) {
    detail::check_label_count(labels, N);
  }
  /// A copy, labelling the same array.
  LabelledArray(const LabelledArray&) = default;

  /// The labelled array.
  const Array<T, N>& array() const { return array_; }
  /// Its labels, one per axis.
  const LabelList& labels() const { return labels_; }

  /// Writes a labelled expression into the labelled elements (see labelled_assign.h): one GEMM
  /// chain, one reduction or one element-wise pass on the array's place (an unallocated array is
  /// allocated on the operands' place). Throws before writing anything: LabelError, ShapeError
  /// naming a label and its extents, PlaceError, TypeError for a DArray operand of another element
  /// type, Error from plain C++ for a GPU array that needs a kernel.
  template <class Rhs, class TU = detail::ThisTranslationUnit>
  const LabelledArray& operator=(const Rhs& rhs) const {
    return assign<saver::write, TU>(rhs);
  }
  /// c("i,j") = a("j,i"): writes elements, as the templated operator= does (not a rebinding).
  const LabelledArray& operator=(const LabelledArray& rhs) const {
    return assign<saver::write, detail::ThisTranslationUnit>(rhs);
  }
  /// Adds a labelled expression to the labelled elements, as operator= writes them; the array
  /// must be allocated (ShapeError otherwise).
  template <class Rhs, class TU = detail::ThisTranslationUnit>
  const LabelledArray& operator+=(const Rhs& rhs) const {
    return assign<saver::add, TU>(rhs);
  }
  /// Subtracts a labelled expression from the labelled elements, as operator+= adds.
  template <class Rhs, class TU = detail::ThisTranslationUnit>
  const LabelledArray& operator-=(const Rhs& rhs) const {
    return assign<saver::subtract, TU>(rhs);
  }

 private:
  template <class Saver, class TU, class Rhs>
  const LabelledArray& assign(const Rhs& rhs) const {
    static_assert(is_labelled_v<Rhs>,
                  "The right side of a labelled assignment must be labelled too: "
                  "c(\"i,j\") = a(\"i,k\") * b(\"k,j\").");
    detail::assign_labelled<Saver, TU>(array_, owner_, labels_, rhs);
    return *this;
  }

  Array<T, N> array_;
  LabelList labels_;
  Array<T, N>* owner_;
};

template <class T, int N>
template <class Labels, class>
LabelledArray<T, N> Array<T, N>::operator()(const Labels& labels) const {
  return LabelledArray<T, N>(*this, parse_labels(labels));
}

template <class T, int N>
template <class Labels, class>
LabelledArray<T, N> Array<T, N>::operator()(const Labels& labels) {
  return LabelledArray<T, N>(*this, parse_labels(labels), this);
}

}  // namespace tensorx
