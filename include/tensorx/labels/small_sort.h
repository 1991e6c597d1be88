// A stable insertion sort for the handful of labels or operands that planning orders. Planning
// must stay well under a microsecond: std::stable_sort may allocate a buffer, and for ten
// elements nothing beats insertion.
#pragma once

#include <utility>

namespace tensorx {
namespace detail {

/// Sorts [first, last) by `before` (a strict weak order), keeping equal elements in order.
template <class T, class Before>
void small_stable_sort(T* first, T* last, Before&& before) {
  for (T* i = first + 1; i < last; ++i) {
    T value = std::move(*i);
    T* j = i;
    for (; j > first && before(value, *(j - 1)); --j) *j = std::move(*(j - 1));
    *j = std::move(value);
  }
}

}  // namespace detail
}  // namespace tensorx
