// The GPU backend of fused_gemm: one cuBLASLt matmul whose epilogue adds the bias and applies the
// activation while the product tile is still in registers, so `relu(dot(a, w) + bias)` costs one
// pass over C instead of a GEMM and an element-wise pass. Everything but the pointers and alpha is
// a plan (matmul descriptor, layouts, the algorithm cuBLASLt's heuristic chose and its workspace
// size) made once per shape, element type, transposes, leading dimensions, epilogue and
// alignment, and kept in a small cache of the calling thread (the descriptor's bias pointer is set
// per call, which one thread's plan allows). Where cuBLASLt offers no algorithm (an element type
// or epilogue it does not support), the plan says so and the caller runs the plain product.
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "blas/cublas_handles.h"
#include "blas/gemm_call.h"
#include "tensorx/core/error.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/place/device.h"

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

// Everything a plan depends on.
struct PlanKey {
  int device;
  DataType type;
  bool transpose_a;
  bool transpose_b;
  index_t m;
  index_t n;
  index_t k;
  index_t lda;
  index_t ldb;
  index_t ldc;
  cublasLtEpilogue_t epilogue;
  std::uint32_t align_a;
  std::uint32_t align_b;
  std::uint32_t align_c;

  auto tied() const {
    return std::tie(device, type, transpose_a, transpose_b, m, n, k, lda, ldb, ldc, epilogue,
                    align_a, align_b, align_c);
  }
  friend bool operator<(const PlanKey& x, const PlanKey& y) { return x.tied() < y.tied(); }
};

PlanKey key_of(const GemmCall& call, bool has_bias, GemmActivation activation) {
  const std::size_t element_bytes = size_of(call.type);
  return {device_of(call.place),
          call.type,
          call.transpose_a,
          call.transpose_b,
          call.m,
          call.n,
          call.k,
          call.a.ld,
          call.b.ld,
          call.c.ld,
          epilogue_of(has_bias, activation),
          alignment_bytes(call.a, element_bytes),
          alignment_bytes(call.b, element_bytes),
          alignment_bytes(call.c, element_bytes)};
}

// One matmul as cuBLASLt runs it, but for the pointers, alpha and the bias pointer.
struct MatmulPlan {
  MatmulDesc desc;
  MatrixLayout a;
  MatrixLayout b;
  MatrixLayout c;
  bool supported = false;  // false: cuBLASLt has no algorithm for it
  cublasLtMatmulAlgo_t algo{};
  std::size_t workspace_bytes = 0;
};

MatmulPlan make_plan(const PlanKey& key, cublasLtHandle_t handle) {
  const CublasTypes types = cublas_types(key.type);
  MatmulPlan plan;
  cublasLtMatmulDesc_t created = nullptr;
  cublas_check(cublasLtMatmulDescCreate(&created, types.compute, types.scale),
               "cublasLtMatmulDescCreate");
  plan.desc.reset(created);
  set_attribute(plan.desc.get(), CUBLASLT_MATMUL_DESC_TRANSA, cublas_operation(key.transpose_a));
  set_attribute(plan.desc.get(), CUBLASLT_MATMUL_DESC_TRANSB, cublas_operation(key.transpose_b));
  set_attribute(plan.desc.get(), CUBLASLT_MATMUL_DESC_EPILOGUE, key.epilogue);
  plan.a = operand_layout(types.data, key.transpose_a, key.m, key.k, key.lda);
  plan.b = operand_layout(types.data, key.transpose_b, key.k, key.n, key.ldb);
  plan.c = matrix_layout(types.data, key.m, key.n, key.ldc);

  cublasLtMatmulPreference_t made = nullptr;
  cublas_check(cublasLtMatmulPreferenceCreate(&made), "cublasLtMatmulPreferenceCreate");
  const Preference preference(made);
  // cuBLAS's own default workspace on Hopper; each call allocates only what its algorithm needs.
  const std::uint64_t max_workspace = std::uint64_t{32} << 20;
  set_attribute(preference.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, max_workspace);
  set_attribute(preference.get(), CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, key.align_a);
  set_attribute(preference.get(), CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, key.align_b);
  set_attribute(preference.get(), CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, key.align_c);
  set_attribute(preference.get(), CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, key.align_c);

  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  const cublasStatus_t asked = cublasLtMatmulAlgoGetHeuristic(
      handle, plan.desc.get(), plan.a.get(), plan.b.get(), plan.c.get(), plan.c.get(),
      preference.get(), 1, &heuristic, &found);
  if (asked == CUBLAS_STATUS_NOT_SUPPORTED || (asked == CUBLAS_STATUS_SUCCESS && found == 0)) {
    return plan;
  }
  cublas_check(asked, "cublasLtMatmulAlgoGetHeuristic");
  plan.supported = true;
  plan.algo = heuristic.algo;
  plan.workspace_bytes = heuristic.workspaceSize;
  return plan;
}

// The calling thread's most recently used plans, at most kCapacity: a program that runs many
// shapes keeps the plans of the ones it runs now, and the memory of the cache stays bounded.
class PlanCache {
 public:
  static constexpr std::size_t kCapacity = 64;

  MatmulPlan& get(const PlanKey& key, cublasLtHandle_t handle) {
    const auto found = index_.find(key);
    if (found != index_.end()) {
      recent_.splice(recent_.begin(), recent_, found->second);
      return found->second->second;
    }
    recent_.emplace_front(key, make_plan(key, handle));
    index_.emplace(key, recent_.begin());
    if (recent_.size() > kCapacity) {
      index_.erase(recent_.back().first);
      recent_.pop_back();
    }
    return recent_.front().second;
  }

 private:
  using Entries = std::list<std::pair<PlanKey, MatmulPlan>>;
  Entries recent_;  // most recently used first
  std::map<PlanKey, Entries::iterator> index_;
};

// cuBLASLt's GELU epilogues compute tanh in float with the hardware's approximate tanh (relative
// error about 2^-11): on an H100 a float layer's results were up to 5e-6 off, 40 ulps at 0.1, and a
// double layer's everywhere off by more than 1e-13. That is within float16's and bfloat16's
// precision only; a float or double gelu layer takes the plain product and the caller's pass,
// which computes gelu in the element type.
bool gelu_epilogue_is_precise_for(DataType type) {
  return type == DataType::kFloat16 || type == DataType::kBFloat16;
}

}  // namespace

bool gpu_fused_gemm(const GemmCall& call, const void* bias, GemmActivation activation) {
  if (activation == GemmActivation::kGelu && !gelu_epilogue_is_precise_for(call.type)) {
    return false;
  }
  const int device = device_of(call.place);
  const cuda::DeviceGuard guard(device);
  const cublasLtHandle_t handle = cublaslt_handle(device);
  thread_local PlanCache plans;
  MatmulPlan& plan = plans.get(key_of(call, bias != nullptr, activation), handle);
  if (!plan.supported) return false;
  // The bias has C's element type, which is cuBLASLt's default for it.
  if (bias != nullptr) set_attribute(plan.desc.get(), CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias);

  // Stream-ordered: released on the call's stream after the matmul that uses it.
  const Allocation workspace(plan.workspace_bytes, call.place);
  const CublasTypes types = cublas_types(call.type);
  const ScaleValue alpha(call.alpha, types.scale);
  const ScaleValue beta(0.0, types.scale);
  const cublasStatus_t ran =
      cublasLtMatmul(handle, plan.desc.get(), alpha.get(), call.a.data, plan.a.get(), call.b.data,
                     plan.b.get(), beta.get(), call.c.data, plan.c.get(), call.c.data, plan.c.get(),
                     &plan.algo, workspace.data(), workspace.size(), call.stream);
  if (ran == CUBLAS_STATUS_NOT_SUPPORTED) {
    plan.supported = false;  // not again for this plan
    return false;
  }
  cublas_check(ran, "cublasLtMatmul");
  return true;
}

}  // namespace detail
}  // namespace tensorx
