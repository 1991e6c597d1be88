// The type-erased GEMM entry points of the compiled layer (src/blas/): every typed and DArray form
// of tx::gemm and tx::batch_gemm, and the fused products of engine/fused_dot_assign.h, end here,
// where the checks, the layout mapping onto column-major BLAS and the choice between CPU BLAS,
// cuBLAS and cuBLASLt happen once for every element type.
#pragma once

#include "tensorx/blas/matrix_ref.h"
#include "tensorx/blas/trans.h"

namespace tensorx {
namespace detail {

/// The element-wise function a fused product applies after adding its bias.
enum class GemmActivation { kIdentity, kRelu, kGelu };

/// C = alpha * op(A) * op(B) + beta * C, written in place in C, for float32, float64, float16 or
/// bfloat16 matrices (the two-byte types accumulate in float). Before any work: TypeError unless A,
/// B and C share one of those element types, ShapeError naming all three shapes unless op(A) is M x
/// K, op(B) K x N and C M x N, PlaceError unless all three are on one place. beta == 0 never reads
/// C.
void gemm(Trans trans_a, Trans trans_b, double alpha, const MatrixRef& a, const MatrixRef& b,
          double beta, const MatrixRef& c);

/// C[i] = alpha * op(A[i]) * op(B[i]) + beta * C[i] for every matrix i of C; a batch of one
/// matrix in A or B serves every i. The checks of gemm, plus ShapeError unless the batch extents
/// of A and B are each 1 or that of C.
void batch_gemm(Trans trans_a, Trans trans_b, double alpha, const MatrixBatchRef& a,
                const MatrixBatchRef& b, double beta, const MatrixBatchRef& c);

/// The bias a fused product adds to every row of C: a contiguous vector of C's column count and
/// element type on C's place, in `buffer` (nullptr `data`: no bias).
struct BiasRef {
  const void* data = nullptr;
  Allocation* buffer = nullptr;
};

/// C = activation(alpha * op(A) * op(B) + bias) as ONE call of the GPU's BLAS where there is one:
/// a cuBLASLt matmul with a bias and activation epilogue (kGelu is the tanh form of
/// tensorx::gelu); returns true then. Where there is none (on the CPU, in a build without CUDA,
/// for an inner extent of 0, a C that is not row-major, a bias not 16-byte aligned, operands that
/// cuBLASLt declines) it writes C = alpha * op(A) * op(B) with gemm's call, from the same dense
/// copies of the operands if it made any, and returns false: the caller then applies the bias
/// and the activation in one element-wise pass. The checks of gemm come first.
bool fused_gemm(Trans trans_a, Trans trans_b, double alpha, const MatrixRef& a, const MatrixRef& b,
                const BiasRef& bias, GemmActivation activation, const MatrixRef& c);

}  // namespace detail
}  // namespace tensorx
