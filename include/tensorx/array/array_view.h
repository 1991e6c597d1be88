// ArrayView and ViewIterator (after Majel): host iteration over a CPU array in row-major order,
// honouring strides, so range-for works on transposed and sliced views alike.
#pragma once

#include <cstddef>
#include <iterator>

#include "tensorx/array/array.h"

namespace tensorx {

/// A bidirectional iterator over the elements of a strided view, last index fastest. It does not
/// own the buffer: it stays valid while an Array sharing that buffer lives.
template <class View>
class ViewIterator {
 public:
  using value_type = typename View::value_type;
  using reference = value_type&;
  using pointer = value_type*;
  using difference_type = std::ptrdiff_t;
  using iterator_category = std::bidirectional_iterator_tag;
  static constexpr int rank = View::rank;

  ViewIterator() = default;
  /// The iterator at `index` of `view` (index == dims with a zero tail is the end).
  ViewIterator(const View& view, const Dim<rank>& index)
      : data_(view.array().data()),
        dims_(view.array().dims()),
        strides_(view.array().strides()),
        index_(index),
        position_(linearize(index, contiguous_strides(dims_))),
        offset_(linearize(index, strides_)) {}

  reference operator*() const { return data_[offset_]; }
  pointer operator->() const { return data_ + offset_; }
  /// The multi-dimensional index of the current element.
  const Dim<rank>& index() const { return index_; }

  ViewIterator& operator++() {
    ++position_;
    if constexpr (rank > 0) {
      int i = rank - 1;
      ++index_.at(i);
      offset_ += strides_.at(i);
      // Carry into outer dimensions; the outermost may run one past its extent (the end).
      while (i > 0 && index_.at(i) == dims_.at(i)) {
        offset_ -= strides_.at(i) * dims_.at(i);
        index_.at(i) = 0;
        --i;
        ++index_.at(i);
        offset_ += strides_.at(i);
      }
    }
    return *this;
  }
  ViewIterator& operator--() {
    --position_;
    if constexpr (rank > 0) {
      int i = rank - 1;
      // Borrow from outer dimensions while the current one is at its start.
      while (i > 0 && index_.at(i) == 0) {
        index_.at(i) = dims_.at(i) - 1;
        offset_ += strides_.at(i) * (dims_.at(i) - 1);
        --i;
      }
      --index_.at(i);
      offset_ -= strides_.at(i);
    }
    return *this;
  }
  ViewIterator operator++(int) {
    ViewIterator before = *this;
    ++*this;
    return before;
  }
  ViewIterator operator--(int) {
    ViewIterator before = *this;
    --*this;
    return before;
  }

  friend bool operator==(const ViewIterator& a, const ViewIterator& b) {
    return a.data_ == b.data_ && a.position_ == b.position_;
  }
  friend bool operator!=(const ViewIterator& a, const ViewIterator& b) { return !(a == b); }

 private:
  value_type* data_ = nullptr;
  Dim<rank> dims_;
  Dim<rank> strides_;
  Dim<rank> index_;
  index_t position_ = 0;  // row-major ordinal of the current element
  index_t offset_ = 0;    // its offset from data_ under the view's strides
};

/// An Array seen as a range of elements in row-major order (CPU arrays only).
template <class T, int N>
class ArrayView {
 public:
  using value_type = T;
  using iterator = ViewIterator<ArrayView>;
  static constexpr int rank = N;

  /// Throws PlaceError for an array that is not on the CPU.
  ArrayView(const Array<T, N>& array) : array_(array) {  // NOLINT: Majel converts implicitly.
    if (!is_cpu_place(array.place())) {
      throw PlaceError(detail::message("cannot iterate on the host over an array on ",
                                       array.place(), "; copy it with tx::to(a, tx::CpuPlace())"));
    }
  }

  const Array<T, N>& array() const { return array_; }
  const Dim<N>& dims() const { return array_.dims(); }
  index_t size() const { return array_.numel(); }

  iterator begin() const { return iterator(*this, Dim<N>()); }
  iterator end() const {
    Dim<N> past_the_end;
    if constexpr (N > 0) {
      // An empty view ends where it begins.
      if (size() > 0) past_the_end.head = array_.dims().head;
    } else {
      return ++begin();
    }
    return iterator(*this, past_the_end);
  }

 private:
  Array<T, N> array_;
};

/// The view of a CPU array; throws PlaceError for any other place.
template <class T, int N>
ArrayView<T, N> make_view(const Array<T, N>& array) {
  return array;
}

/// An iterator at `index` of a CPU array; throws IndexError for an index outside its extent.
template <class T, int N>
ViewIterator<ArrayView<T, N>> make_iterator(const Array<T, N>& array, const Dim<N>& index) {
  if (!contains(array.dims(), index)) {
    throw IndexError(
        detail::message("iterator index ", index, " is out of range for shape ", array.dims()));
  }
  return ViewIterator<ArrayView<T, N>>(make_view(array), index);
}

}  // namespace tensorx
