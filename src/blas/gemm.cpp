// detail::gemm and detail::batch_gemm: check, map the row-major operands onto one column-major
// BLAS call, run it on the operands' place, and write C back when it went through a temporary.
#include "tensorx/blas/compiled_gemm.h"

#include <utility>

#include "blas/blas_operand.h"
#include "blas/gemm_call.h"
#include "blas/gemm_checks.h"

namespace tensorx {
namespace detail {
namespace {

void run_gemm(GemmRequest request, double alpha, double beta) {
  check_gemm(request);
  const MatrixRef& c = request.c.matrix;
  if (c.rows == 0 || c.cols == 0 || request.c.count == 0) return;

  // An empty inner extent leaves C = beta * C. BLAS libraries have disagreed on K = 0 (rocBLAS
  // once returned without scaling C; PyTorch steps around cuBLAS there), so such a product runs as
  // a K = 1 product of zeros with alpha = 0, which every BLAS gets right, beta = 0 included.
  ZeroOperands zeros;
  if (inner_extent(request) == 0) {
    zeros = zero_operands(c.type, c.place, c.rows, c.cols);
    request.a = zeros.a;
    request.b = zeros.b;
    request.trans_a = request.trans_b = Trans::kNo;
    alpha = 0;
  }

  const PreparedOperand a = prepare_input(request.a);
  const PreparedOperand b = prepare_input(request.b);
  const PreparedOperand out = prepare_output(request.c, request.a, request.b, beta != 0);

  // op(X) is the matrix the BLAS reads, transposed once for the view (PreparedOperand::transposed)
  // and once more when the caller asked for X^T.
  const bool flip_a = a.transposed != (request.trans_a == Trans::kYes);
  const bool flip_b = b.transposed != (request.trans_b == Trans::kYes);

  GemmCall call;
  call.type = c.type;
  call.place = c.place;
  call.k = inner_extent(request);
  call.batch = request.c.count;
  call.alpha = alpha;
  call.beta = beta;
  call.c = out.blas;
  if (out.transposed) {
    // The BLAS sees C^T = op(B)^T * op(A)^T: swap the operands and flip both flags.
    call.m = c.cols;
    call.n = c.rows;
    call.a = b.blas;
    call.transpose_a = !flip_b;
    call.b = a.blas;
    call.transpose_b = !flip_a;
  } else {
    call.m = c.rows;
    call.n = c.cols;
    call.a = a.blas;
    call.transpose_a = flip_a;
    call.b = b.blas;
    call.transpose_b = flip_b;
  }

  if (is_cpu_place(call.place)) {
    cpu_gemm(call);
  } else {
    gpu_gemm(call);
  }
  write_back(out, request.c);
}

}  // namespace

void gemm(Trans trans_a, Trans trans_b, double alpha, const MatrixRef& a, const MatrixRef& b,
          double beta, const MatrixRef& c) {
  GemmRequest request;
  request.trans_a = trans_a;
  request.trans_b = trans_b;
  request.a.matrix = a;
  request.b.matrix = b;
  request.c.matrix = c;
  run_gemm(std::move(request), alpha, beta);
}

void batch_gemm(Trans trans_a, Trans trans_b, double alpha, const MatrixBatchRef& a,
                const MatrixBatchRef& b, double beta, const MatrixBatchRef& c) {
  GemmRequest request;
  request.batched = true;
  request.trans_a = trans_a;
  request.trans_b = trans_b;
  request.a = a;
  request.b = b;
  request.c = c;
  run_gemm(std::move(request), alpha, beta);
}

}  // namespace detail
}  // namespace tensorx
