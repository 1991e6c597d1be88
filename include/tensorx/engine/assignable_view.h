// Views of arrays as expression nodes (tx::slice of an array, or of another view): what counts as
// one, the Array it stands for, and the assignment operators that write through it. Writing to a
// view evaluates the right-hand side into that Array in ONE pass, with the engine's checks and
// alias handling; a node that returned a plain Array instead would alias on `view = other_array`.
#pragma once

#include <type_traits>
#include <utility>

#include "tensorx/array/array.h"
#include "tensorx/core/narrow_float.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/engine/assign.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/saver.h"

namespace tensorx {
namespace detail {

/// True for arrays and for nodes that are views of an array, which say so with a member array().
template <class E, class = void>
struct is_view : is_array<E> {};
template <class E>
struct is_view<E, std::void_t<decltype(std::declval<const E&>().array())>> : std::true_type {};

/// The Array that `e` is, or that the view node `e` stands for.
template <class E>
auto view_of(const E& e) {
  if constexpr (is_array<E>::value) {
    return e;
  } else {
    return e.array();
  }
}

}  // namespace detail

/// Base of a view node `Derived` (CRTP): `view = expr`, `view += expr`, ... and the same with a
/// number write Derived::array() in ONE pass. A Derived declares
/// `using AssignableView<Derived>::operator=;` and its own copy assignment calling assign_through.
template <class Derived>
class AssignableView {
 public:
  /// Writes an expression or a number through the view, into the array it stands for, in ONE
  /// pass, by the assignment rules of Array (ShapeError, PlaceError, ... before writing
  /// anything; a temporary where an operand overlaps the view's elements).
  template <class V, class TU = detail::ThisTranslationUnit>
  const Derived& operator=(const V& v) const {
    return assign_through<saver::write, TU>(v);
  }
  /// Adds an expression or a number to the viewed elements, as operator= writes them.
  template <class V, class TU = detail::ThisTranslationUnit>
  const Derived& operator+=(const V& v) const {
    return assign_through<saver::add, TU>(v);
  }
  /// Subtracts an expression or a number from the viewed elements, as operator= writes them.
  template <class V, class TU = detail::ThisTranslationUnit>
  const Derived& operator-=(const V& v) const {
    return assign_through<saver::subtract, TU>(v);
  }
  /// Multiplies the viewed elements by an expression or a number, as operator= writes them.
  template <class V, class TU = detail::ThisTranslationUnit>
  const Derived& operator*=(const V& v) const {
    return assign_through<saver::multiply, TU>(v);
  }
  /// Divides the viewed elements by an expression or a number, as operator= writes them.
  template <class V, class TU = detail::ThisTranslationUnit>
  const Derived& operator/=(const V& v) const {
    return assign_through<saver::divide, TU>(v);
  }

 protected:
  /// The one implementation of the operators: evaluates `v` with `Saver` into Derived::array().
  template <class Saver, class TU, class V>
  const Derived& assign_through(const V& v) const {
    static_assert(detail::is_view<Derived>::value,
                  "Only a view of an array can be assigned to: this one views an expression, "
                  "not an array.");
    const Derived& self = static_cast<const Derived&>(*this);
    auto view = self.array();
    using T = typename decltype(view)::value_type;
    if constexpr (is_expression_v<V>) {
      detail::evaluate<Saver, TU>(view, v);
    } else {
      static_assert(is_scalar_number_v<V>, "A view is assigned an expression or a number.");
      detail::evaluate_scalar<Saver, TU>(view, static_cast<T>(v));
    }
    return self;
  }
};

}  // namespace tensorx
