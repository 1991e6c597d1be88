// The GPU backend of fused_gemm: one cuBLASLt matmul whose epilogue adds the bias and applies the
// activation while the product tile is still in registers, so `relu(dot(a, w) + bias)` costs one
// pass over C instead of a GEMM and an element-wise pass. cuBLASLt picks the algorithm by
// heuristic for the exact shapes, layouts and alignments; where it offers none (an element type
// or epilogue it does not support), the caller falls back to gemm plus one element-wise pass.
#include <cstdint>
#include <memory>
#include <type_traits>

#include "blas/cublas_handles.h"
#include "blas/gemm_call.h"
#include "tensorx/core/error.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {
namespace {

// cuBLASLt descriptors owned by unique_ptr, destroyed with their cublasLt*Destroy.
template <class Handle, cublasStatus_t (*kDestroy)(Handle)>
struct Destroy {
  void operator()(Handle handle) const { static_cast<void>(kDestroy(handle)); }
};
template <class Handle, cublasStatus_t (*kDestroy)(Handle)>
using Owned = std::unique_ptr<std::remove_pointer_t<Handle>, Destroy<Handle, kDestroy>>;

using MatmulDesc = Owned<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy>;
using MatrixLayout = Owned<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy>;
using Preference = Owned<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy>;

template <class T>
void set_attribute(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attribute,
                   const T& value) {
  cublas_check(cublasLtMatmulDescSetAttribute(desc, attribute, &value, sizeof value),
               "cublasLtMatmulDescSetAttribute");
}

template <class T>
void set_attribute(cublasLtMatmulPreference_t preference,
                   cublasLtMatmulPreferenceAttributes_t attribute, const T& value) {
  cublas_check(cublasLtMatmulPreferenceSetAttribute(preference, attribute, &value, sizeof value),
               "cublasLtMatmulPreferenceSetAttribute");
}

// A column-major rows x cols matrix with leading dimension ld.
MatrixLayout matrix_layout(cudaDataType_t type, index_t rows, index_t cols, index_t ld) {
  cublasLtMatrixLayout_t layout = nullptr;
  cublas_check(cublasLtMatrixLayoutCreate(&layout, type, static_cast<std::uint64_t>(rows),
                                          static_cast<std::uint64_t>(cols), ld),
               "cublasLtMatrixLayoutCreate");
  return MatrixLayout(layout);
}

// The layout of an operand that the call reads as op(X), op(X) being rows x cols.
MatrixLayout operand_layout(cudaDataType_t type, bool transposed, index_t rows, index_t cols,
                            index_t ld) {
  return transposed ? matrix_layout(type, cols, rows, ld) : matrix_layout(type, rows, cols, ld);
}

cublasLtEpilogue_t epilogue_of(bool has_bias, GemmActivation activation) {
  switch (activation) {
    case GemmActivation::kRelu:
      return has_bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
    case GemmActivation::kGelu:
      return has_bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
    case GemmActivation::kIdentity:
      break;
  }
  return has_bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
}

// The alignment, in bytes (at most 256), that every column of an operand has: the heuristic only
// offers algorithms whose vector loads that alignment allows.
std::uint32_t alignment_bytes(const BlasOperand& operand, std::size_t element_bytes) {
  const std::uint64_t bits = reinterpret_cast<std::uintptr_t>(operand.data) |
                             static_cast<std::uint64_t>(operand.ld) * element_bytes | 256u;
  return static_cast<std::uint32_t>(bits & (~bits + 1));  // the lowest set bit
}

}  // namespace

bool gpu_fused_gemm(const GemmCall& call, const void* bias, GemmActivation activation) {
  const int device = device_of(call.place);
  const cuda::DeviceGuard guard(device);
  const CublasTypes types = cublas_types(call.type);
  const cublasLtHandle_t handle = cublaslt_handle(device);

  cublasLtMatmulDesc_t created = nullptr;
  cublas_check(cublasLtMatmulDescCreate(&created, types.compute, types.scale),
               "cublasLtMatmulDescCreate");
  const MatmulDesc desc(created);
  set_attribute(desc.get(), CUBLASLT_MATMUL_DESC_TRANSA, cublas_operation(call.transpose_a));
  set_attribute(desc.get(), CUBLASLT_MATMUL_DESC_TRANSB, cublas_operation(call.transpose_b));
  set_attribute(desc.get(), CUBLASLT_MATMUL_DESC_EPILOGUE,
                epilogue_of(bias != nullptr, activation));
  // The bias has C's element type, which is cuBLASLt's default for it.
  if (bias != nullptr) set_attribute(desc.get(), CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias);

  const MatrixLayout a = operand_layout(types.data, call.transpose_a, call.m, call.k, call.a.ld);
  const MatrixLayout b = operand_layout(types.data, call.transpose_b, call.k, call.n, call.b.ld);
  const MatrixLayout c = matrix_layout(types.data, call.m, call.n, call.c.ld);

  cublasLtMatmulPreference_t made = nullptr;
  cublas_check(cublasLtMatmulPreferenceCreate(&made), "cublasLtMatmulPreferenceCreate");
  const Preference preference(made);
  // cuBLAS's own default workspace on Hopper; the call allocates only what the algorithm needs.
  const std::uint64_t max_workspace = std::uint64_t{32} << 20;
  set_attribute(preference.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, max_workspace);
  const std::size_t element_bytes = size_of(call.type);
  set_attribute(preference.get(), CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                alignment_bytes(call.a, element_bytes));
  set_attribute(preference.get(), CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                alignment_bytes(call.b, element_bytes));
  const std::uint32_t c_alignment = alignment_bytes(call.c, element_bytes);
  set_attribute(preference.get(), CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, c_alignment);
  set_attribute(preference.get(), CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, c_alignment);

  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  const cublasStatus_t asked =
      cublasLtMatmulAlgoGetHeuristic(handle, desc.get(), a.get(), b.get(), c.get(), c.get(),
                                     preference.get(), 1, &heuristic, &found);
  if (asked == CUBLAS_STATUS_NOT_SUPPORTED || (asked == CUBLAS_STATUS_SUCCESS && found == 0)) {
    return false;
  }
  cublas_check(asked, "cublasLtMatmulAlgoGetHeuristic");

  // Stream-ordered: released on the stream after the matmul that uses it.
  const Allocation workspace(heuristic.workspaceSize, call.place);
  const ScaleValue alpha(call.alpha, types.scale);
  const ScaleValue beta(0.0, types.scale);
  const cublasStatus_t ran =
      cublasLtMatmul(handle, desc.get(), alpha.get(), call.a.data, a.get(), call.b.data, b.get(),
                     beta.get(), call.c.data, c.get(), call.c.data, c.get(), &heuristic.algo,
                     workspace.data(), workspace.size(), current_stream(device));
  if (ran == CUBLAS_STATUS_NOT_SUPPORTED) return false;
  cublas_check(ran, "cublasLtMatmul");
  return true;
}

}  // namespace detail
}  // namespace tensorx
