// DotExp: a matrix product (tx::dot: matrix and vector forms) or a batch of them (tx::batch_dot).
// It is never evaluated element by element: as the whole right-hand side of an assignment it
// writes the destination with one BLAS call (engine/dot_assign.h); inside a larger expression,
// prepare() materialises it into a temporary first, so each product element is computed once.
#pragma once

#include <type_traits>
#include <utility>

#include "tensorx/array/array.h"
#include "tensorx/core/error.h"
#include "tensorx/core/narrow_float.h"
#include "tensorx/engine/materialise.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/saver.h"

namespace tensorx {

/// The product of L and R: with kBatched, rank-3 (batch, M, K) x (batch, K, N) -> (batch, M, N);
/// otherwise rank 2 or 1 operands, the inner extents (the last of L, the first of R) contracted.
template <class L, class R, bool kBatched>
class DotExp : public Exp<DotExp<L, R, kBatched>> {
  static_assert(std::is_same_v<typename L::value_type, typename R::value_type>,
                "tx::dot needs operands of one element type; convert one with tx::cast<T>(...).");
  static_assert(is_floating_element_v<typename L::value_type>,
                "tx::dot multiplies float, double, float16 or bfloat16 operands.");
  static_assert(kBatched || (L::rank >= 1 && L::rank <= 2 && R::rank >= 1 && R::rank <= 2),
                "tx::dot takes matrices (rank 2) and vectors (rank 1); use tx::batch_dot for "
                "batches of matrices.");
  static_assert(!kBatched || (L::rank == 3 && R::rank == 3),
                "tx::batch_dot takes two rank-3 operands (batch, rows, columns).");

 public:
  /// The operands' element type.
  using value_type = typename L::value_type;
  /// The left operand's type.
  using lhs_type = L;
  /// The right operand's type.
  using rhs_type = R;
  /// True for tx::batch_dot.
  static constexpr bool kIsBatched = kBatched;
  /// The product's rank: 3 batched, else L's and R's less the two contracted axes.
  static constexpr int rank = kBatched ? 3 : L::rank + R::rank - 2;

  /// The product of `lhs` and `rhs` (checked by dims(), when the node is assigned).
  DotExp(L lhs, R rhs) : lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}

  /// The left operand.
  const L& lhs() const { return lhs_; }
  /// The right operand.
  const R& rhs() const { return rhs_; }

  /// The product's extent. Throws ShapeError naming both shapes when the inner extents differ or
  /// (batch_dot) the batch extents are neither equal nor 1.
  Dim<rank> dims() const {
    const auto l = lhs_.dims();
    const auto r = rhs_.dims();
    const char* name = kBatched ? "tx::batch_dot" : "tx::dot";
    const index_t l_inner = l.at(L::rank - 1);
    const index_t r_inner = r.at(kBatched ? 1 : 0);
    if (l_inner != r_inner) {
      throw ShapeError(detail::message(name, " cannot multiply shapes ", l, " and ", r,
                                       ": the inner extents ", l_inner, " and ", r_inner,
                                       " differ"));
    }
    Dim<rank> out;
    if constexpr (kBatched) {
      const index_t l_batch = l.at(0), r_batch = r.at(0);
      if (l_batch != r_batch && l_batch != 1 && r_batch != 1) {
        throw ShapeError(detail::message(name, " cannot multiply shapes ", l, " and ", r,
                                         ": the batch extents ", l_batch, " and ", r_batch,
                                         " are neither equal nor 1"));
      }
      out = make_dim(l_batch == 1 ? r_batch : l_batch, l.at(1), r.at(2));
    } else if constexpr (rank > 0) {
      int next = 0;
      for (int i = 0; i + 1 < L::rank; ++i) out.at(next++) = l.at(i);
      for (int i = 1; i < R::rank; ++i) out.at(next++) = r.at(i);
    }
    return out;
  }

 private:
  L lhs_;
  R rhs_;
};

namespace detail {
template <class E>
struct is_dot_exp : std::false_type {};
template <class L, class R, bool kBatched>
struct is_dot_exp<DotExp<L, R, kBatched>> : std::true_type {};
}  // namespace detail

/// Inside a larger expression a product is materialised once, on the destination's place.
template <class L, class R, bool kBatched, class TU>
auto prepare(const DotExp<L, R, kBatched>& d, const detail::EvalContext<TU>& context) {
  return detail::materialise(d, context);
}

/// The node protocol (expr/exp.h): the arrays both operands read.
template <class L, class R, bool kBatched, class F>
void for_each_array(const DotExp<L, R, kBatched>& d, F&& f) {
  for_each_array(d.lhs(), f);
  for_each_array(d.rhs(), f);
}

}  // namespace tensorx
