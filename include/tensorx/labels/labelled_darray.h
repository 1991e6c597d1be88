// x("i,k") on a DArray: the run-time typed counterpart of LabelledArray. Its element type and rank
// are read when the assignment runs; every labelled operand of one assignment must share one
// element type (TypeError otherwise), and DArrays mix freely with typed arrays of that type.
// LabelledDArray is BasicLabelledDArray<void>, a template for the reason DArray is one
// (array/darray.h): it holds a DArray.
#pragma once

#include "tensorx/array/darray.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/expr/saver.h"
#include "tensorx/labels/label.h"
#include "tensorx/labels/labelled_exp.h"

namespace tensorx {
namespace detail {
// The labelled assignment into a DArray (labelled_assign.h); an unallocated dst is allocated
// through `owner`, with the operands' element type and the labels' extents.
template <class Saver, class TU, class D, class Rhs>
void assign_labelled_darray(const D& dst, D* owner, const LabelList& labels, const Rhs& rhs);

}  // namespace detail

/// x("i,k") of a DArray (LabelledDArray): as LabelledArray, with the element type and rank read
/// when the assignment runs.
template <class Lazy>
class BasicLabelledDArray : public LabelledLeaf<BasicLabelledDArray<Lazy>> {
  using DArray = BasicDArray<Lazy>;

 public:
  /// void: the element type is known when the assignment runs.
  using value_type = void;
  /// The most distinct labels this leaf brings: kMaxDArrayRank.
  static constexpr int max_labels = kMaxDArrayRank;
  /// One leaf.
  static constexpr int leaf_count = 1;

  /// `array` with `labels`, one per axis of an allocated array (LabelError otherwise). `owner`
  /// is the DArray object that an assignment to this unallocated DArray allocates.
  BasicLabelledDArray(const DArray& array, const LabelList& labels, DArray* owner = nullptr)
      : array_(array), labels_(labels) {
    if (detail::darray_allocated(array)) {
      detail::check_label_count(labels, rank(array));
    } else {
      owner_ = owner;
    }
  }
  /// A copy, labelling the same DArray.
  BasicLabelledDArray(const BasicLabelledDArray&) = default;

  /// The labelled DArray.
  const DArray& array() const { return array_; }
  /// Its labels, one per axis.
  const LabelList& labels() const { return labels_; }

  /// As LabelledArray's, plus TypeError when the element types differ.
  template <class Rhs, class TU = detail::ThisTranslationUnit>
  const BasicLabelledDArray& operator=(const Rhs& rhs) const {
    return assign<saver::write, TU>(rhs);
  }
  /// The copy assignment z("i,j") = x("j,i") is not a template, so every translation unit that
  /// includes tensorx would compile the labelled assignment for all 24 typed arrays (2.3 s of the
  /// 4 s the public header took): the compiled layer holds it (src/labels/labelled_darray_copy.cpp,
  /// built as CUDA when tensorx has CUDA, so it runs GPU arrays too).
  const BasicLabelledDArray& operator=(const BasicLabelledDArray& rhs) const;
  /// Adds a labelled expression to the labelled elements, as LabelledArray's +=.
  template <class Rhs, class TU = detail::ThisTranslationUnit>
  const BasicLabelledDArray& operator+=(const Rhs& rhs) const {
    return assign<saver::add, TU>(rhs);
  }
  /// Subtracts a labelled expression from the labelled elements, as LabelledArray's -=.
  template <class Rhs, class TU = detail::ThisTranslationUnit>
  const BasicLabelledDArray& operator-=(const Rhs& rhs) const {
    return assign<saver::subtract, TU>(rhs);
  }

 private:
  template <class Saver, class TU, class Rhs>
  const BasicLabelledDArray& assign(const Rhs& rhs) const {
    static_assert(is_labelled_v<Rhs>,
                  "The right side of a labelled assignment must be labelled too: "
                  "z(\"i,j\") = x(\"i,k\") * y(\"k,j\").");
    detail::assign_labelled_darray<Saver, TU>(array_, owner_, labels_, rhs);
    return *this;
  }

  DArray array_;
  LabelList labels_;
  DArray* owner_ = nullptr;
};

template <class Lazy>
BasicLabelledDArray<Lazy> BasicDArray<Lazy>::operator()(const char* labels) const {
  return BasicLabelledDArray<Lazy>(*this, parse_labels(labels));
}

template <class Lazy>
BasicLabelledDArray<Lazy> BasicDArray<Lazy>::operator()(const char* labels) {
  return BasicLabelledDArray<Lazy>(*this, parse_labels(labels), this);
}

}  // namespace tensorx
