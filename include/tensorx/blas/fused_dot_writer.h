// How a fully connected layer is assigned: `c = tx::relu(tx::dot(a, w) + bias)`, the same with
// tx::gelu, with no activation (`tx::dot(a, w) + bias`, either order), or an activation of a bare
// product (`tx::relu(tx::dot(a, w))`); a scalar factor on the product becomes alpha. On the GPU it
// is ONE cuBLASLt matmul whose epilogue adds the bias and applies the activation (one pass); on
// the CPU it is the BLAS call into c and one fused element-wise pass over c. Other forms take the
// general route of every expression (the product into a temporary, then one pass): accumulating
// savers (+=, -=), a bias that broadcasts a single value or is not contiguous, and a destination
// that shares memory with an operand.
#pragma once

#include <type_traits>

#include "tensorx/blas/compiled_gemm.h"
#include "tensorx/blas/dot_writer.h"
#include "tensorx/ops/math.h"

namespace tensorx {
namespace detail {

/// A product of two matrices, or such a product with a scalar factor: what the GEMM computes.
template <class E, class = void>
struct GemmTerm : std::false_type {};
template <class L, class R>
struct GemmTerm<DotExp<L, R, false>, std::enable_if_t<L::rank == 2 && R::rank == 2>>
    : std::true_type {
  using Product = DotExp<L, R, false>;
  static const Product& product(const Product& e) { return e; }
  static double alpha(const Product&) { return 1.0; }
};
template <class E>
struct GemmTerm<E, std::enable_if_t<ScaledProduct<E>::value &&
                                    GemmTerm<typename ScaledProduct<E>::Product>::value>>
    : std::true_type {
  using Product = typename ScaledProduct<E>::Product;
  static const Product& product(const E& e) { return ScaledProduct<E>::product(e); }
  static double alpha(const E& e) { return alpha_of_scaled(e); }
};

/// What an epilogue reads: a GemmTerm alone, or plus a vector (the bias) on either side.
template <class E, class = void>
struct EpilogueInput : std::false_type {};
template <class E>
struct EpilogueInput<E, std::enable_if_t<GemmTerm<E>::value>> : std::true_type {
  using Gemm = E;
  static constexpr bool kHasBias = false;
  static const Gemm& gemm(const E& e) { return e; }
  static const Array<typename E::value_type, 1>* bias(const E&) { return nullptr; }
};
template <class T, class G>
struct EpilogueInput<MapExp<T, op::plus, G, Array<T, 1>>, std::enable_if_t<GemmTerm<G>::value>>
    : std::true_type {
  using Gemm = G;
  static constexpr bool kHasBias = true;
  template <class E>
  static const Gemm& gemm(const E& e) {
    return detail::pack_get<0>(e.args());
  }
  template <class E>
  static const Array<T, 1>* bias(const E& e) {
    return &detail::pack_get<1>(e.args());
  }
};
template <class T, class G>
struct EpilogueInput<MapExp<T, op::plus, Array<T, 1>, G>, std::enable_if_t<GemmTerm<G>::value>>
    : std::true_type {
  using Gemm = G;
  static constexpr bool kHasBias = true;
  template <class E>
  static const Gemm& gemm(const E& e) {
    return detail::pack_get<1>(e.args());
  }
  template <class E>
  static const Array<T, 1>* bias(const E& e) {
    return &detail::pack_get<0>(e.args());
  }
};

/// The activations cuBLASLt's epilogues apply, by tensorx functor.
template <class F>
struct EpilogueActivation {
  static constexpr bool kExists = false;
};
template <>
struct EpilogueActivation<op::relu> {
  static constexpr bool kExists = true;
  static constexpr GemmActivation kValue = GemmActivation::kRelu;
};
template <>
struct EpilogueActivation<op::gelu> {
  static constexpr bool kExists = true;
  static constexpr GemmActivation kValue = GemmActivation::kGelu;
};

/// An expression that one product with an epilogue computes: an activation of an EpilogueInput,
/// or an EpilogueInput with a bias and no activation (a bare product has its own DirectWriter).
template <class E, class = void>
struct FusedProduct : std::false_type {};
template <class E>
struct FusedProduct<E, std::enable_if_t<EpilogueInput<E>::value && EpilogueInput<E>::kHasBias>>
    : std::true_type {
  using Input = EpilogueInput<E>;
  static constexpr GemmActivation kActivation = GemmActivation::kIdentity;
  static const E& input(const E& e) { return e; }
  /// The activation, applied to the product plus bias `x` in the CPU's element-wise pass.
  template <class X>
  static X activate(const X& x) {
    return x;
  }
};
template <class T, class F, class X>
struct FusedProduct<MapExp<T, F, X>,
                    std::enable_if_t<EpilogueActivation<F>::kExists && EpilogueInput<X>::value>>
    : std::true_type {
  using Input = EpilogueInput<X>;
  static constexpr GemmActivation kActivation = EpilogueActivation<F>::kValue;
  template <class E>
  static const X& input(const E& e) {
    return detail::pack_get<0>(e.args());
  }
  template <class Y>
  static auto activate(const Y& y) {
    return make_map(F{}, y);
  }
};

/// True when `dst` shares memory with an array that `e` reads.
template <class T, int N, class E>
bool shares_memory(const Array<T, N>& dst, const E& e) {
  OperandList operands;
  collect_operands(e, operands);
  return overlaps_any(operand_ref(dst), operands);
}

/// dst = e for a FusedProduct e, after evaluate()'s checks.
template <class Saver, class TU, class E, class T>
void write_fused_product(const E& e, const Array<T, 2>& dst) {
  using Fused = FusedProduct<E>;
  using Input = typename Fused::Input;
  using Term = GemmTerm<typename Input::Gemm>;
  const auto& input = Fused::input(e);
  const auto& gemm_term = Input::gemm(input);
  const Array<T, 1>* bias = Input::bias(input);
  // cuBLASLt adds a contiguous vector of C's column count; the epilogue pass could take any
  // bias, but a bias that broadcasts one value or is strided is rare enough to take the general
  // route with everything else that does not fit.
  const bool bias_fits = bias == nullptr || (bias->dims().at(0) == dst.dims().at(1) &&
                                             (bias->strides().at(0) == 1 || bias->numel() == 1));
  // The BLAS writes dst before the epilogue reads the bias, and must not write what it reads.
  if (!std::is_same_v<Saver, saver::write> || !bias_fits || shares_memory(dst, input)) {
    evaluate_elementwise<Saver, TU>(dst, e);
    return;
  }
  const EvalContext<TU> context{dst.place()};
  const auto& product = Term::product(gemm_term);
  const auto a = operand_in_memory(product.lhs(), context);
  const auto b = operand_in_memory(product.rhs(), context);
  BiasRef bias_ref;
  if (bias != nullptr) bias_ref = {bias->data(), bias->buffer().get()};
  const bool fused = fused_gemm(Trans::kNo, Trans::kNo, Term::alpha(gemm_term), matrix_ref(a),
                                matrix_ref(b), bias_ref, Fused::kActivation, matrix_ref(dst));
  stats::record_pass();
  if (fused) return;
  if constexpr (Input::kHasBias) {
    evaluate_elementwise<saver::write, TU>(dst, Fused::activate(dst + *bias));
  } else {
    evaluate_elementwise<saver::write, TU>(dst, Fused::activate(dst));
  }
}

}  // namespace detail

/// dst = act(dot(a, w) + bias) and its relatives (see the top of this file): one cuBLASLt call on
/// the GPU, the BLAS call and one element-wise pass on the CPU. Being element-wise, it needs a
/// CUDA translation unit for GPU arrays, as every expression does.
template <class E>
struct DirectWriter<E, std::enable_if_t<detail::FusedProduct<E>::value>> {
  static constexpr bool kEnabled = true;

  template <class Saver, class TU, class T, int N>
  static void write(const E& e, const Array<T, N>& dst) {
    detail::write_fused_product<Saver, TU>(e, dst);
  }
};

}  // namespace tensorx
