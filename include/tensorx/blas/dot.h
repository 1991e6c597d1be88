// tx::dot and tx::batch_dot: the matrix products of expressions (see expr/dot_exp.h for the node
// and engine/dot_assign.h for how it reaches the BLAS).
#pragma once

#include <type_traits>

#include "tensorx/blas/dot_exp.h"
#include "tensorx/blas/dot_writer.h"
#include "tensorx/blas/fused_dot_writer.h"

namespace tensorx {

/// The product of a and b, each a matrix (rank 2) or a vector (rank 1), of one element type
/// (float, double, float16, bfloat16): (M, K) x (K, N) -> (M, N), (M, K) x (K) -> (M), (K) x (K, N)
/// -> (N), (K) x (K) -> the rank-0 inner product. Transposed operands (tx::transpose of an array)
/// become BLAS transpose flags; other expressions are materialised first. A lazy DotExp: assigned,
/// it is one BLAS call (CPU BLAS or cuBLAS, on the current stream) on the destination's place.
/// Evaluating it throws ShapeError naming both shapes when the inner extents differ, PlaceError
/// for mixed places, BlasError when the BLAS fails, and otherwise as an assignment does.
template <class L, class R, class = std::enable_if_t<is_expression_v<L> && is_expression_v<R>>>
DotExp<L, R, false> dot(const L& a, const R& b) {
  return DotExp<L, R, false>(a, b);
}

/// The batch of products of two rank-3 operands, (B, M, K) x (B, K, N) -> (B, M, N), one
/// strided-batched BLAS call; an operand with a batch extent of 1 serves every matrix of the
/// other. Transpose the last two axes with tx::permute(x, make_dim(0, 2, 1)). Places and errors
/// as for tx::dot, and ShapeError, when assigned, where the batch extents are neither equal nor 1.
template <class L, class R, class = std::enable_if_t<is_expression_v<L> && is_expression_v<R>>>
DotExp<L, R, true> batch_dot(const L& a, const R& b) {
  return DotExp<L, R, true>(a, b);
}

}  // namespace tensorx
