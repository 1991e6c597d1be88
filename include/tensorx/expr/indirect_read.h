// IndirectRead: how a node reports, through for_each_array, an array that it reads at positions
// other than the destination element being written (a gather's table and indices, one_hot's
// indices, the later operands of a concat). The engine's alias check compares an operand's layout
// with the destination's to decide whether writing in place is safe; for these reads the layouts
// say nothing, so the check treats any overlap with the destination as a conflict and the
// assignment goes through a temporary.
#pragma once

#include <type_traits>

#include "tensorx/array/array.h"

namespace tensorx {
namespace detail {

/// An array read through an index mapping that is not the destination's (still an Array, so that
/// place checks and every other for_each_array visitor read it as one).
template <class T, int N>
class IndirectRead : public Array<T, N> {
 public:
  explicit IndirectRead(const Array<T, N>& array) : Array<T, N>(array) {}
};

/// Calls f with every array that `e` reads, each marked as read indirectly.
template <class E, class F>
void for_each_array_read_indirectly(const E& e, F&& f) {
  for_each_array(e, [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    f(IndirectRead<typename A::value_type, A::rank>(a));
  });
}

}  // namespace detail
}  // namespace tensorx
