// The CPU backend of gemm: CBLAS sgemm and dgemm, one call per matrix of a batch (the BLAS
// threads each call). No CPU BLAS has float16 or bfloat16 routines, so those run as sgemm on
// float copies (temporaries of A, B and C, converted exactly) and C is rounded back once, which
// is the float accumulation the GPU path has too. The copies cost memory (4 bytes per element of
// A, B and C) and a pass over each, negligible next to the product for all but tiny K.
#include <cblas.h>

#include <climits>
#include <memory>

#include "blas/gemm_call.h"
#include "tensorx/core/bfloat16.h"
#include "tensorx/core/error.h"
#include "tensorx/core/float16.h"
#include "tensorx/memory/allocation.h"

namespace tensorx {
namespace detail {
namespace {

template <class T>
struct Cblas;
template <>
struct Cblas<float> {
  static constexpr auto gemm = cblas_sgemm;
};
template <>
struct Cblas<double> {
  static constexpr auto gemm = cblas_dgemm;
};

// CBLAS takes int sizes.
int cblas_int(index_t value, const char* what) {
  if (value > INT_MAX) {
    throw ShapeError(message("the CPU BLAS takes sizes below 2^31, but the ", what, " is ", value));
  }
  return static_cast<int>(value);
}

CBLAS_TRANSPOSE cblas_transpose(bool transpose) {
  return transpose ? CblasTrans : CblasNoTrans;
}

template <class T>
void run_cblas(const GemmCall& call) {
  const int m = cblas_int(call.m, "row count m");
  const int n = cblas_int(call.n, "column count n");
  const int k = cblas_int(call.k, "inner extent k");
  const int lda = cblas_int(call.a.ld, "leading dimension of A");
  const int ldb = cblas_int(call.b.ld, "leading dimension of B");
  const int ldc = cblas_int(call.c.ld, "leading dimension of C");
  const auto* a = static_cast<const T*>(call.a.data);
  const auto* b = static_cast<const T*>(call.b.data);
  auto* c = static_cast<T*>(call.c.data);
  for (index_t i = 0; i < call.batch; ++i) {
    Cblas<T>::gemm(CblasColMajor, cblas_transpose(call.transpose_a),
                   cblas_transpose(call.transpose_b), m, n, k, static_cast<T>(call.alpha),
                   a + i * call.a.stride, lda, b + i * call.b.stride, ldb,
                   static_cast<T>(call.beta), c + i * call.c.stride, ldc);
  }
}

// Copies `count` column-major rows x cols matrices from one layout to another, converting each
// element from From to To.
template <class To, class From>
void convert_matrices(const From* src, const BlasOperand& from, To* dst, const BlasOperand& to,
                      index_t rows, index_t cols, index_t count) {
  for (index_t i = 0; i < count; ++i) {
    for (index_t col = 0; col < cols; ++col) {
      const From* src_column = src + i * from.stride + col * from.ld;
      To* dst_column = dst + i * to.stride + col * to.ld;
      for (index_t row = 0; row < rows; ++row) dst_column[row] = To(src_column[row]);
    }
  }
}

// A dense float version of one two-byte operand of `call` (rows x cols in BLAS terms), holding the
// operand's values when `copy_values`.
struct FloatOperand {
  std::unique_ptr<Allocation> storage;
  BlasOperand blas;
};

template <class Narrow>
FloatOperand float_operand(const BlasOperand& narrow, index_t rows, index_t cols, index_t batch,
                           bool copy_values) {
  // A repeated matrix (stride 0) is converted once and stays repeated.
  const index_t count = narrow.stride == 0 ? 1 : batch;
  FloatOperand result;
  result.storage = std::make_unique<Allocation>(
      static_cast<std::size_t>(count * rows * cols) * sizeof(float), CpuPlace());
  result.blas = {result.storage->data(), rows, narrow.stride == 0 ? 0 : rows * cols};
  if (copy_values) {
    convert_matrices(static_cast<const Narrow*>(narrow.data), narrow,
                     static_cast<float*>(result.blas.data), result.blas, rows, cols, count);
  }
  return result;
}

template <class Narrow>
void run_through_float(const GemmCall& call) {
  const FloatOperand a =
      float_operand<Narrow>(call.a, call.transpose_a ? call.k : call.m,
                            call.transpose_a ? call.m : call.k, call.batch, true);
  const FloatOperand b =
      float_operand<Narrow>(call.b, call.transpose_b ? call.n : call.k,
                            call.transpose_b ? call.k : call.n, call.batch, true);
  const FloatOperand c = float_operand<Narrow>(call.c, call.m, call.n, call.batch, call.beta != 0);
  GemmCall as_float = call;
  as_float.type = DataType::kFloat32;
  as_float.a = a.blas;
  as_float.b = b.blas;
  as_float.c = c.blas;
  run_cblas<float>(as_float);
  convert_matrices(static_cast<const float*>(c.blas.data), c.blas,
                   static_cast<Narrow*>(call.c.data), call.c, call.m, call.n,
                   call.c.stride == 0 ? 1 : call.batch);
}

}  // namespace

void cpu_gemm(const GemmCall& call) {
  switch (call.type) {
    case DataType::kFloat32:
      return run_cblas<float>(call);
    case DataType::kFloat64:
      return run_cblas<double>(call);
    case DataType::kFloat16:
      return run_through_float<float16>(call);
    case DataType::kBFloat16:
      return run_through_float<bfloat16>(call);
    default:
      throw TypeError(message("the CPU BLAS multiplies float32, float64, float16 or bfloat16, not ",
                              call.type));
  }
}

std::string cpu_blas_name() {
#if defined(OPENBLAS_VERSION)
  // OpenBLAS's cblas.h defines OPENBLAS_VERSION; its build string names the version and kernels.
  return openblas_get_config();
#else
  return "CBLAS";
#endif
}

}  // namespace detail
}  // namespace tensorx
