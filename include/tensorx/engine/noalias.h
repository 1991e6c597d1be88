// tx::noalias(dst) = expr: the assignment without its aliasing check. The check (engine/assign.h)
// sends a pass through a temporary when an operand shares dst's buffer and the element ranges the
// two span there overlap; its interval test is conservative, so two disjoint column slices of one
// matrix (whose ranges interleave) take two passes. A caller who knows that no operand reads
// dst's memory at another index says so with noalias and gets one pass. Every other check stays.
#pragma once

#include <type_traits>
#include <utility>

#include "tensorx/array/array.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/engine/assign.h"
#include "tensorx/engine/assignable_view.h"
#include "tensorx/expr/saver.h"

namespace tensorx {

/// What tx::noalias returns: assigning an expression to it writes Target (an Array& for a named
/// array, which an assignment may allocate; an Array for a view) without the aliasing check.
template <class Target>
class NoAlias {
 public:
  /// Wraps the destination; tx::noalias makes one.
  explicit NoAlias(Target dst) : dst_(std::forward<Target>(dst)) {}

  ///@{
  /// Assigns an expression (not a number) to the destination in ONE pass, by the assignment
  /// rules of Array (ShapeError, PlaceError, ...) except the aliasing check.
  template <class E, class TU = detail::ThisTranslationUnit>
  NoAlias& operator=(const E& e) {
    return assign<saver::write, TU>(e);
  }
  template <class E, class TU = detail::ThisTranslationUnit>
  NoAlias& operator+=(const E& e) {
    return assign<saver::add, TU>(e);
  }
  template <class E, class TU = detail::ThisTranslationUnit>
  NoAlias& operator-=(const E& e) {
    return assign<saver::subtract, TU>(e);
  }
  template <class E, class TU = detail::ThisTranslationUnit>
  NoAlias& operator*=(const E& e) {
    return assign<saver::multiply, TU>(e);
  }
  template <class E, class TU = detail::ThisTranslationUnit>
  NoAlias& operator/=(const E& e) {
    return assign<saver::divide, TU>(e);
  }
  ///@}

 private:
  template <class Saver, class TU, class E>
  NoAlias& assign(const E& e) {
    static_assert(is_expression_v<E>,
                  "tx::noalias(dst) is assigned an expression; a number reads no memory, so assign "
                  "it to dst directly.");
    detail::evaluate<Saver, TU, detail::Aliasing::kVouched>(dst_, e);
    return *this;
  }

  Target dst_;
};

/// `dst`, to be assigned without the aliasing check: the caller vouches that no operand of the
/// assigned expression reads dst's memory at an index other than the element being written. If
/// one does, the result is undefined (elements may be read after they were overwritten).
template <class T, int N>
NoAlias<Array<T, N>&> noalias(Array<T, N>& dst) {
  return NoAlias<Array<T, N>&>(dst);
}
/// A temporary view (a.slice(...), tx::slice(a, ...), a[i]) to be assigned without the check.
template <class T, int N>
NoAlias<Array<T, N>> noalias(Array<T, N>&& view) {
  return NoAlias<Array<T, N>>(std::move(view));
}
/// A view node (tx::transpose(a), a slice of it) to be assigned without the check.
template <class V,
          class = std::enable_if_t<detail::is_view<V>::value && !detail::is_array<V>::value>>
auto noalias(const V& view) {
  return NoAlias<decltype(detail::view_of(view))>(detail::view_of(view));
}

}  // namespace tensorx
