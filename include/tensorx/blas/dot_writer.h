// How a product is assigned: as the whole right-hand side of `dst = dot(a, b)` (or +=, -=,
// tx::assign with any OpReq, and with a scalar factor on either side) it writes dst with ONE BLAS
// call through the DirectWriter hook of assign.h. The saver becomes beta (write: 0, add and
// subtract: 1, subtract also negating alpha) and the scalar factor becomes alpha; operands that
// are not arrays in memory (expressions, broadcasts) are materialised first, while transposed
// arrays stay strided views that the compiled layer turns into BLAS transpose flags.
#pragma once

#include <type_traits>

#include "tensorx/array/array.h"
#include "tensorx/blas/compiled_gemm.h"
#include "tensorx/blas/dot_exp.h"
#include "tensorx/blas/matrix_ref.h"
#include "tensorx/core/stats.h"
#include "tensorx/engine/assign.h"
#include "tensorx/engine/materialise.h"
#include "tensorx/expr/scalar_exp.h"
#include "tensorx/layout/permute_exp.h"
#include "tensorx/ops/arithmetic.h"

namespace tensorx {
namespace detail {

/// True for an operand the BLAS reads where it is: an array or a permuted (transposed) array.
template <class E>
struct is_blas_operand : is_array<E> {};
template <class E, int N>
struct is_blas_operand<PermuteExp<E, N>> : is_array<E> {};

/// The array in memory that a product operand is, materialised on the context's place if needed.
template <class E, class TU>
auto operand_in_memory(const E& e, const EvalContext<TU>& context) {
  return materialise(prepare(e, context), context);
}

/// A rank-2, 1 or 0 array as the matrix the BLAS multiplies: a vector is a 1 x K row where
/// `vector_is_row`, else a K x 1 column; a scalar is 1 x 1.
template <class T, int N>
MatrixRef as_matrix(const Array<T, N>& array, bool vector_is_row) {
  if constexpr (N == 2) {
    return matrix_ref(array);
  } else {
    MatrixRef ref;
    ref.data = array.data();
    ref.type = data_type_of<T>();
    ref.place = array.place();
    ref.buffer = array.buffer().get();
    ref.rows = ref.cols = 1;
    ref.row_stride = ref.col_stride = 1;
    if constexpr (N == 1) {
      (vector_is_row ? ref.cols : ref.rows) = array.dims().at(0);
      ref.row_stride = ref.col_stride = array.strides().at(0);
    }
    return ref;
  }
}

/// Savers the BLAS applies itself through beta (and the sign of alpha).
template <class Saver>
constexpr bool is_blas_saver_v =
    std::is_same_v<Saver, saver::write> || std::is_same_v<Saver, saver::add> ||
    std::is_same_v<Saver, saver::subtract>;

/// dst = Saver(dst, alpha * product): ONE BLAS call where the saver folds into beta; multiply and
/// divide write the product into a temporary and apply the saver in one more pass.
template <class Saver, class TU, class L, class R, bool kBatched, class T, int N>
void write_dot(const DotExp<L, R, kBatched>& product, double alpha, const Array<T, N>& dst) {
  if constexpr (is_blas_saver_v<Saver>) {
    const EvalContext<TU> context{dst.place()};
    const auto a = operand_in_memory(product.lhs(), context);
    const auto b = operand_in_memory(product.rhs(), context);
    const double signed_alpha = std::is_same_v<Saver, saver::subtract> ? -alpha : alpha;
    const double beta = Saver::reads_destination ? 1.0 : 0.0;
    if constexpr (kBatched) {
      batch_gemm(Trans::kNo, Trans::kNo, signed_alpha, matrix_ref(a), matrix_ref(b), beta,
                 matrix_ref(dst));
    } else {
      gemm(Trans::kNo, Trans::kNo, signed_alpha, as_matrix(a, true), as_matrix(b, false), beta,
           as_matrix(dst, L::rank == 1));
    }
    stats::record_pass();
  } else {
    const Array<T, N> temporary(dst.dims(), dst.place());
    write_dot<saver::write, TU>(product, alpha, temporary);
    evaluate_elementwise<Saver, TU>(dst, temporary);
  }
}

/// True when a product reads only arrays where they are (plain or transposed), so that the
/// compiled layer computes it from any translation unit, into GPU memory too.
template <class Product>
constexpr bool reads_arrays_in_place_v = is_blas_operand<typename Product::lhs_type>::value&&
    is_blas_operand<typename Product::rhs_type>::value;

/// A product with a scalar factor on either side, `s * dot(a, b)` or `dot(a, b) * s`: the
/// factor becomes alpha.
template <class E>
struct ScaledProduct : std::false_type {};
template <class T, class L, class R, bool kBatched>
struct ScaledProduct<MapExp<T, op::multiplies, ScalarExp<T>, DotExp<L, R, kBatched>>>
    : std::true_type {
  using Product = DotExp<L, R, kBatched>;
  template <class E>
  static const Product& product(const E& e) {
    return detail::pack_get<1>(e.args());
  }
  template <class E>
  static T scale(const E& e) {
    return detail::pack_get<0>(e.args()).value();
  }
};
template <class T, class L, class R, bool kBatched>
struct ScaledProduct<MapExp<T, op::multiplies, DotExp<L, R, kBatched>, ScalarExp<T>>>
    : std::true_type {
  using Product = DotExp<L, R, kBatched>;
  template <class E>
  static const Product& product(const E& e) {
    return detail::pack_get<0>(e.args());
  }
  template <class E>
  static T scale(const E& e) {
    return detail::pack_get<1>(e.args()).value();
  }
};

/// The scalar factor of a ScaledProduct as the BLAS's alpha, rounded to the compute type first
/// (a float16 expression's factor is the float it computes with).
template <class E>
double alpha_of_scaled(const E& e) {
  return static_cast<double>(
      static_cast<compute_t<typename E::value_type>>(ScaledProduct<E>::scale(e)));
}

}  // namespace detail

/// dst = dot(a, b), dst += ..., dst -= ...: one BLAS call.
template <class L, class R, bool kBatched>
struct DirectWriter<DotExp<L, R, kBatched>> {
  /// The node written.
  using Node = DotExp<L, R, kBatched>;
  /// True: a product is never evaluated element by element.
  static constexpr bool kEnabled = true;

  /// True when the operands are arrays read in place (plain or transposed): the compiled layer's
  /// BLAS then serves a GPU destination from plain C++.
  static bool runs_without_cuda(const Node&) { return detail::reads_arrays_in_place_v<Node>; }

  /// dst = Saver(dst, the product), one BLAS call on dst's place.
  template <class Saver, class TU, class T, int N>
  static void write(const Node& node, const Array<T, N>& dst) {
    detail::write_dot<Saver, TU>(node, 1.0, dst);
  }
};

/// dst = s * dot(a, b) or dot(a, b) * s (and +=, -=): one BLAS call with alpha = s.
template <class E>
struct DirectWriter<E, std::enable_if_t<detail::ScaledProduct<E>::value>> {
  /// The product and its factor, as the writer reads them.
  using Scaled = detail::ScaledProduct<E>;
  /// True: a scaled product is never evaluated element by element.
  static constexpr bool kEnabled = true;

  /// As for the product alone.
  static bool runs_without_cuda(const E&) {
    return detail::reads_arrays_in_place_v<typename Scaled::Product>;
  }

  /// dst = Saver(dst, s * the product), one BLAS call with alpha = s on dst's place.
  template <class Saver, class TU, class T, int N>
  static void write(const E& e, const Array<T, N>& dst) {
    detail::write_dot<Saver, TU>(Scaled::product(e), detail::alpha_of_scaled(e), dst);
  }
};

}  // namespace tensorx
