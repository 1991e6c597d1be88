// ArrayView and ViewIterator (after Majel): host iteration over a CPU array in row-major order,
// honouring strides, so range-for works on transposed and sliced views alike.
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

#include "tensorx/array/array.h"

namespace tensorx {

/// A bidirectional iterator over the elements of a strided view, last index fastest. It does not
/// own the buffer: it stays valid while an Array sharing that buffer lives.
template <class View>
class ViewIterator {
 public:
  ///@{
  /// The standard iterator types.
  using value_type = typename View::value_type;
  using reference = value_type&;
  using pointer = value_type*;
  using difference_type = std::ptrdiff_t;
  using iterator_category = std::bidirectional_iterator_tag;
  ///@}
  /// The rank of the view.
  static constexpr int rank = View::rank;

  /// An iterator over nothing, equal only to other default-constructed ones.
  ViewIterator() = default;
  /// The iterator at `index` of `view` (index == dims with a zero tail is the end).
  ViewIterator(const View& view, const Dim<rank>& index)
      : data_(view.array().data()),
        dims_(view.array().dims()),
        strides_(view.array().strides()),
        index_(index),
        position_(linearize(index, contiguous_strides(dims_))),
        offset_(linearize(index, strides_)) {}

  /// The current element (not checked: dereferencing the end is undefined).
  reference operator*() const { return data_[offset_]; }
  /// The address of the current element.
  pointer operator->() const { return data_ + offset_; }
  /// The multi-dimensional index of the current element.
  const Dim<rank>& index() const { return index_; }

  /// The next element in row-major order.
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
  /// The previous element in row-major order.
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
  /// Advances, returning the iterator as it was.
  ViewIterator operator++(int) {
    ViewIterator before = *this;
    ++*this;
    return before;
  }
  /// Steps back, returning the iterator as it was.
  ViewIterator operator--(int) {
    ViewIterator before = *this;
    --*this;
    return before;
  }

  /// Equal when both point at the same element of the same buffer.
  friend bool operator==(const ViewIterator& a, const ViewIterator& b) {
    return a.data_ == b.data_ && a.position_ == b.position_;
  }
  /// !(a == b).
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
  /// The element type.
  using value_type = T;
  /// The iterator type (also for a const view).
  using iterator = ViewIterator<ArrayView>;
  /// The rank of the array.
  static constexpr int rank = N;

  /// A view of `array`, sharing its buffer; throws PlaceError for an array that is not on the CPU.
  ArrayView(const Array<T, N>& array) : array_(array) {  // NOLINT: Majel converts implicitly.
    if (!is_cpu_place(array.place())) {
      throw PlaceError(detail::message("cannot iterate on the host over an array on ",
                                       array.place(), "; copy it with tx::to(a, tx::CpuPlace())"));
    }
  }

  /// The array viewed.
  const Array<T, N>& array() const { return array_; }
  /// Its extent.
  const Dim<N>& dims() const { return array_.dims(); }
  /// Its number of elements.
  index_t size() const { return array_.numel(); }

  /// The first element (index all zeros).
  iterator begin() const { return iterator(*this, Dim<N>()); }
  /// One past the last element.
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

namespace detail {
/// Enables a function for views over an array (tx::transpose(a), tx::slice(a, axis, b, e), a
/// labelled array): nodes whose array() is the strided Array they view.
template <class V>
using if_array_view =
    std::enable_if_t<is_array<std::decay_t<decltype(std::declval<const V&>().array())>>::value,
                     int>;
}  // namespace detail

/// The view of a view node over a CPU array: `for (float e : tx::make_view(tx::transpose(a)))`
/// visits a's elements in the transpose's row-major order.
template <class V, detail::if_array_view<V> = 0>
auto make_view(const V& view) {
  return make_view(view.array());
}

/// An iterator at `index` of a CPU array; throws IndexError for an index outside its extent,
/// PlaceError for an array that is not on the CPU.
template <class T, int N>
ViewIterator<ArrayView<T, N>> make_iterator(const Array<T, N>& array, const Dim<N>& index) {
  if (!contains(array.dims(), index)) {
    throw IndexError(
        detail::message("iterator index ", index, " is out of range for shape ", array.dims()));
  }
  return ViewIterator<ArrayView<T, N>>(make_view(array), index);
}

}  // namespace tensorx
