// A fully connected layer on the GPU, c = relu(x w + bias): tensorx's fused product (one cuBLASLt
// matmul with a bias+relu epilogue) against the same cuBLASLt matmul called directly with a plan
// made once (the contract of issue #10: within 5%, host overhead included, at 256 x 1024 x 1024),
// against the same layer in two passes (the product into a temporary, then one element-wise pass,
// which is what the expression costs without the epilogue) and against the bare product through
// cuBLAS (the floor: the epilogue should cost next to nothing). Its PyTorch peer is
// bench/torch_gemm.py on the same sizes. Each iteration is one layer timed with CUDA events
// queued around it (bench/gpu_bench.cuh), so host work that keeps the GPU waiting counts.
//   bench_fc_cuda --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include <cublasLt.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "gpu_bench.cuh"

namespace tx = tensorx;
using gpu_bench::check;
using gpu_bench::random_on_gpu;

namespace {

// x is batch x in, w is in x out, bias and c's rows have out elements.
struct Layer {
  int batch;
  int in;
  int out;
};

template <class T>
struct Operands {
  explicit Operands(const Layer& l)
      : x(random_on_gpu<T>(tx::make_dim(l.batch, l.in), -1.0f, 1.0f, 1)),
        w(random_on_gpu<T>(tx::make_dim(l.in, l.out), -1.0f, 1.0f, 2)),
        bias(random_on_gpu<T>(tx::make_dim(l.out), -1.0f, 1.0f, 3)),
        c(tx::make_dim(l.batch, l.out), tx::CudaPlace(0)),
        product(tx::make_dim(l.batch, l.out), tx::CudaPlace(0)) {}
  tx::Array<T, 2> x;
  tx::Array<T, 2> w;
  tx::Array<T, 1> bias;
  tx::Array<T, 2> c;
  tx::Array<T, 2> product;
};

// The operands of layer `l`, made once per process.
template <class T>
Operands<T>& operands_of(const Layer& l) {
  return gpu_bench::made_once<Operands<T>>(std::make_tuple(l.batch, l.in, l.out), l);
}

double flop_of(const Layer& l) {
  return 2.0 * l.batch * static_cast<double>(l.in) * l.out;
}

template <class T>
void fused(benchmark::State& state, Layer l) {
  Operands<T>& o = operands_of<T>(l);
  const auto before = tx::stats::passes();
  o.c = tx::relu(tx::dot(o.x, o.w) + o.bias);
  state.counters["passes"] = static_cast<double>(tx::stats::passes() - before);
  gpu_bench::time_flops(state, flop_of(l), [&] { o.c = tx::relu(tx::dot(o.x, o.w) + o.bias); });
}

template <class T>
void two_passes(benchmark::State& state, Layer l) {
  Operands<T>& o = operands_of<T>(l);
  gpu_bench::time_flops(state, flop_of(l), [&] {
    o.product = tx::dot(o.x, o.w);
    o.c = tx::relu(o.product + o.bias);
  });
}

// The bare product c = x w with cuBLAS, row-major as c^T = w^T x^T.
template <class T>
void product_cublas(benchmark::State& state, Layer l) {
  Operands<T>& o = operands_of<T>(l);
  cublasHandle_t handle = nullptr;
  check(cublasCreate(&handle));
  const float alpha = 1.0f;
  const float beta = 0.0f;
  const cudaDataType_t type = std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_16F;
  gpu_bench::time_flops(state, flop_of(l), [&] {
    check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, l.out, l.batch, l.in, &alpha, o.w.data(),
                       type, l.out, o.x.data(), type, l.in, &beta, o.c.data(), type, l.out,
                       CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  });
  check(cublasDestroy(handle));
}

// c = relu(x w + bias) as one cublasLtMatmul, with everything but the call made once: the peer
// of tensorx's fused product, row-major as c^T = w^T x^T with the bias along the rows of c^T.
template <class T>
void cublaslt_fused(benchmark::State& state, Layer l) {
  Operands<T>& o = operands_of<T>(l);
  const cudaDataType_t type = std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_16F;
  cublasLtHandle_t handle = nullptr;
  check(cublasLtCreate(&handle));
  cublasLtMatmulDesc_t desc = nullptr;
  check(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;
  check(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                                       sizeof epilogue));
  const void* bias = o.bias.data();
  check(
      cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
  cublasLtMatrixLayout_t w = nullptr, x = nullptr, c = nullptr;
  check(cublasLtMatrixLayoutCreate(&w, type, l.out, l.in, l.out));
  check(cublasLtMatrixLayoutCreate(&x, type, l.in, l.batch, l.in));
  check(cublasLtMatrixLayoutCreate(&c, type, l.out, l.batch, l.out));
  cublasLtMatmulPreference_t preference = nullptr;
  check(cublasLtMatmulPreferenceCreate(&preference));
  const std::uint64_t max_workspace = std::uint64_t{32} << 20;
  check(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                             &max_workspace, sizeof max_workspace));
  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  check(
      cublasLtMatmulAlgoGetHeuristic(handle, desc, w, x, c, c, preference, 1, &heuristic, &found));
  if (found == 0) {
    state.SkipWithError("cuBLASLt offers no algorithm");
    return;
  }
  void* workspace = nullptr;
  check(cudaMalloc(&workspace, heuristic.workspaceSize + 1));
  const float alpha = 1.0f;
  const float beta = 0.0f;
  const cudaStream_t stream = tx::current_stream(0);
  gpu_bench::time_flops(state, flop_of(l), [&] {
    check(cublasLtMatmul(handle, desc, &alpha, o.w.data(), w, o.x.data(), x, &beta, o.c.data(), c,
                         o.c.data(), c, &heuristic.algo, workspace, heuristic.workspaceSize,
                         stream));
  });
  check(cudaFree(workspace));
  cublasLtMatmulPreferenceDestroy(preference);
  cublasLtMatrixLayoutDestroy(w);
  cublasLtMatrixLayoutDestroy(x);
  cublasLtMatrixLayoutDestroy(c);
  cublasLtMatmulDescDestroy(desc);
  cublasLtDestroy(handle);
}

template <class T>
void register_layer(const Layer& l) {
  const std::string name = std::string("fc_relu_") + std::to_string(l.batch) + "x" +
                           std::to_string(l.in) + "x" + std::to_string(l.out) + "/" +
                           (std::is_same_v<T, float> ? "float" : "float16");
  benchmark::RegisterBenchmark((name + "/tensorx_fused").c_str(), fused<T>, l)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark((name + "/cublaslt_fused").c_str(), cublaslt_fused<T>, l)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark((name + "/tensorx_two_passes").c_str(), two_passes<T>, l)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark((name + "/cublas_product_only").c_str(), product_cublas<T>, l)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_bench::run_main(argc, argv, [] {
    for (const Layer& l :
         {Layer{4096, 4096, 4096}, Layer{256, 1024, 1024}, Layer{8192, 1024, 4096}}) {
      register_layer<float>(l);
      register_layer<tx::float16>(l);
    }
  });
}
