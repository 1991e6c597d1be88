// GemmCall: one (batched) column-major GEMM exactly as a BLAS library takes it, after the layout
// mapping of gemm.cpp, and the two backends that run it. Private to src/.
#pragma once

#include <string>

#include "tensorx/blas/compiled_gemm.h"
#include "tensorx/core/config.h"
#include "tensorx/core/data_type.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/place/place.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// One operand as the BLAS reads it: column-major with leading dimension `ld`, matrix i of the
/// batch at data + i * stride elements (stride 0 repeats one matrix).
struct BlasOperand {
  void* data = nullptr;
  index_t ld = 1;
  index_t stride = 0;
  Allocation* buffer = nullptr;  ///< the buffer data lies in, for ordering GPU calls
};

/// C[i] = alpha * op(A[i]) * op(B[i]) + beta * C[i], i < batch, in BLAS terms: op(A) is m x k,
/// op(B) k x n, C m x n; transpose_a means op(A) = A^T. Every extent is at least 1.
struct GemmCall {
  DataType type = DataType::kFloat32;
  Place place;
  bool transpose_a = false;
  bool transpose_b = false;
  index_t m = 1;
  index_t n = 1;
  index_t k = 1;
  index_t batch = 1;
  double alpha = 1;
  double beta = 0;
  BlasOperand a;
  BlasOperand b;
  BlasOperand c;
  /// The stream a GPU call goes on, ordered after the earlier uses of a, b and c (gemm.cpp).
  StreamHandle stream = nullptr;
};

/// Runs `call` with the CPU BLAS (float16 and bfloat16 through float temporaries). Throws
/// ShapeError when an extent or leading dimension exceeds the BLAS's 32-bit integers.
void cpu_gemm(const GemmCall& call);

/// Runs `call` with cuBLAS on call.stream; in a build without CUDA it throws DeviceError.
void gpu_gemm(const GemmCall& call);

/// Runs `call` (batch 1, beta 0) on call.stream as one cuBLASLt matmul whose epilogue adds `bias`
/// (nullptr: no bias), a contiguous vector of call.m elements broadcast along the columns of C,
/// and applies `activation`. Returns false, having written nothing, where cuBLASLt has no
/// algorithm for the combination (and always in a build without CUDA).
bool gpu_fused_gemm(const GemmCall& call, const void* bias, GemmActivation activation);

/// The CPU BLAS's description of itself (blas_vendor().cpu).
std::string cpu_blas_name();

/// The cuBLAS version (blas_vendor().gpu), or "" in a build without CUDA.
std::string gpu_blas_name();

}  // namespace detail
}  // namespace tensorx
