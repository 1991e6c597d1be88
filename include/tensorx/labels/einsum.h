// tx::einsum: NumPy's string form of a labelled product. "ik,kj->ij" labels the axes of each
// operand with one letter per axis and names the result's labels after "->"; without "->" the
// result has the labels that appear once, in alphabetical (ASCII) order, as in NumPy. A repeated
// letter within an operand reads its diagonal ("ii->i"). It lowers exactly as the labelled
// product a("i,k") * b("k,j") assigned to c("i,j") does.
//   tx::Array<float, 2> c = tx::einsum("ik,kj->ij", a, b);   // typed arrays: assigned to an Array
//   tx::DArray z = tx::einsum("bij,bjk->bik", x, y);          // with DArrays: a new DArray
#pragma once

#include <type_traits>
#include <utility>

#include "tensorx/array/array.h"
#include "tensorx/array/darray.h"
#include "tensorx/labels/einsum_spec.h"
#include "tensorx/labels/label.h"
#include "tensorx/labels/labelled_array.h"
#include "tensorx/labels/labelled_assign.h"
#include "tensorx/labels/labelled_darray.h"
#include "tensorx/labels/labelled_ops.h"

namespace tensorx {
namespace detail {

template <class T, int N>
LabelledArray<T, N> einsum_operand(const Array<T, N>& array, const LabelList& labels) {
  return LabelledArray<T, N>(array, labels);
}
template <class X, if_darray<X> = 0>
delayed_t<LabelledDArray, X> einsum_operand(const X& array, const LabelList& labels) {
  return delayed_t<LabelledDArray, X>(array, labels);
}

template <class... Operands, std::size_t... I>
auto einsum_product(const EinsumSpec& spec, std::index_sequence<I...>,
                    const Operands&... operands) {
  return (... * einsum_operand(operands, spec.inputs[I]));
}

template <class X>
constexpr bool is_einsum_operand_v = std::is_same_v<X, DArray> || is_array<X>::value;

}  // namespace detail

/// The labelled product of an einsum over typed arrays and its result's labels; assigning it to
/// an Array evaluates it (see Array::operator=).
template <class Rhs>
class EinsumExp {
 public:
  /// The labelled product `rhs` and the labels `output` of its result.
  EinsumExp(Rhs rhs, const LabelList& output) : rhs_(std::move(rhs)), output_(output) {}
  /// The labelled product.
  const Rhs& rhs() const { return rhs_; }
  /// The result's labels (the part of the spec after "->").
  const LabelList& output() const { return output_; }

 private:
  Rhs rhs_;
  LabelList output_;
};

/// The einsum of `spec` over arrays of one element type: an EinsumExp to assign to an Array of
/// the result's rank, or, when any operand is a DArray, the result computed into a new DArray
/// (a result without labels has extent (1), as a DArray has no rank 0). Throws LabelError for a
/// malformed spec or a subscript count that differs from an operand's rank, then as the labelled
/// assignment does (ShapeError naming a label and its extents, TypeError, PlaceError).
template <class... Operands>
auto einsum(const char* spec, const Operands&... operands) {
  static_assert(sizeof...(Operands) >= 1 && sizeof...(Operands) <= detail::kMaxEinsumOperands,
                "tx::einsum takes 1 to 8 operands.");
  static_assert((detail::is_einsum_operand_v<Operands> && ...),
                "tx::einsum takes Arrays and DArrays.");
  const detail::EinsumSpec parsed = detail::parse_einsum(spec, sizeof...(Operands));
  auto product =
      detail::einsum_product(parsed, std::index_sequence_for<Operands...>{}, operands...);
  if constexpr ((std::is_same_v<Operands, DArray> || ...)) {
    // Named through the product's type, so that DArray is compiled only where it is used.
    using D = detail::delayed_t<DArray, decltype(product)>;
    D result;
    detail::delayed_t<LabelledDArray, decltype(product)>(result, parsed.output, &result) = product;
    return result;
  } else {
    return EinsumExp<decltype(product)>(std::move(product), parsed.output);
  }
}

template <class T, int N>
template <class Rhs, class TU>
Array<T, N>::Array(const EinsumExp<Rhs>& e) {
  this->template operator=<Rhs, TU>(e);
}

/// c = tx::einsum(...): the labelled assignment of the product to this array's output labels.
template <class T, int N>
template <class Rhs, class TU>
Array<T, N>& Array<T, N>::operator=(const EinsumExp<Rhs>& e) {
  LabelledArray<T, N>(*this, e.output(), this).template operator=<Rhs, TU>(e.rhs());
  return *this;
}

}  // namespace tensorx
