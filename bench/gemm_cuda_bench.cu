// GPU GEMM: tx::gemm and tx::batch_gemm against cuBLAS called directly on the same buffers and
// stream (the contract: within 3%). Sizes: 4096^3 in float and float16 (tensor cores), and the
// Tensor Comprehensions benchmarks, transposed matmul C = A * B^T with (M, K, N) = (128, 32, 256),
// (128, 1024, 1024), (128, 4096, 16384) and batched transposed matmul Z[b] = X[b] * Y[b]^T with
// (B, N, M, K) = (500, 26, 72, 26). Each iteration is one product timed with CUDA events
// (bench/gpu_bench.cuh). PyTorch's times for the same sizes come from bench/torch_gemm.py.
//   bench_gemm_cuda --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gpu_bench.cuh"

namespace tx = tensorx;
using gpu_bench::check;
using gpu_bench::random_on_gpu;

namespace {

// C (batch x m x n) = A (batch x m x k) * op(B), B stored k x n, or n x k when transposed.
struct Problem {
  int batch;
  int m;
  int n;
  int k;
  bool transpose_b;
};

template <class T>
struct Operands {
  explicit Operands(const Problem& p)
      : a(random_on_gpu<T>(tx::make_dim(p.batch, p.m, p.k), -1.0f, 1.0f, 1)),
        b(random_on_gpu<T>(
            p.transpose_b ? tx::make_dim(p.batch, p.n, p.k) : tx::make_dim(p.batch, p.k, p.n),
            -1.0f, 1.0f, 2)),
        c(random_on_gpu<T>(tx::make_dim(p.batch, p.m, p.n), -1.0f, 1.0f, 3)) {}
  tx::Array<T, 3> a;
  tx::Array<T, 3> b;
  tx::Array<T, 3> c;
};

// The operands of problem `p`, made once per process.
template <class T>
const Operands<T>& operands_of(const Problem& p) {
  return gpu_bench::made_once<Operands<T>>(std::make_tuple(p.batch, p.m, p.n, p.k, p.transpose_b),
                                           p);
}

// The product through tensorx: gemm for one matrix, batch_gemm for a batch.
template <class T>
void run_tensorx(const Problem& p, const Operands<T>& x) {
  const tx::Trans trans_b = p.transpose_b ? tx::Trans::kYes : tx::Trans::kNo;
  if (p.batch == 1) {
    tx::gemm(tx::Trans::kNo, trans_b, 1.0f, x.a[0], x.b[0], 0.0f, x.c[0]);
  } else {
    tx::batch_gemm(tx::Trans::kNo, trans_b, 1.0f, x.a, x.b, 0.0f, x.c);
  }
}

// The same product as a cuBLAS user writes it for row-major data: C^T = op(B)^T * A^T in
// column-major terms. float through cublasSgemm(StridedBatched), float16 through
// cublasGemm(StridedBatched)Ex with float accumulation.
template <class T>
void run_cublas(cublasHandle_t handle, const Problem& p, const Operands<T>& x) {
  const cublasOperation_t op_b = p.transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int ld_b = p.transpose_b ? p.k : p.n;
  const long long stride_a = static_cast<long long>(p.m) * p.k;
  const long long stride_b = static_cast<long long>(p.k) * p.n;
  const long long stride_c = static_cast<long long>(p.m) * p.n;
  const float alpha = 1.0f;
  const float beta = 0.0f;
  if constexpr (std::is_same_v<T, float>) {
    if (p.batch == 1) {
      check(cublasSgemm(handle, op_b, CUBLAS_OP_N, p.n, p.m, p.k, &alpha, x.b.data(), ld_b,
                        x.a.data(), p.k, &beta, x.c.data(), p.n));
    } else {
      check(cublasSgemmStridedBatched(handle, op_b, CUBLAS_OP_N, p.n, p.m, p.k, &alpha, x.b.data(),
                                      ld_b, stride_b, x.a.data(), p.k, stride_a, &beta, x.c.data(),
                                      p.n, stride_c, p.batch));
    }
  } else {
    if (p.batch == 1) {
      check(cublasGemmEx(handle, op_b, CUBLAS_OP_N, p.n, p.m, p.k, &alpha, x.b.data(), CUDA_R_16F,
                         ld_b, x.a.data(), CUDA_R_16F, p.k, &beta, x.c.data(), CUDA_R_16F, p.n,
                         CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    } else {
      check(cublasGemmStridedBatchedEx(handle, op_b, CUBLAS_OP_N, p.n, p.m, p.k, &alpha, x.b.data(),
                                       CUDA_R_16F, ld_b, stride_b, x.a.data(), CUDA_R_16F, p.k,
                                       stride_a, &beta, x.c.data(), CUDA_R_16F, p.n, stride_c,
                                       p.batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    }
  }
}

// 2 m n k per matrix of the batch.
double flop_of(const Problem& p) {
  return 2.0 * p.batch * static_cast<double>(p.m) * p.n * p.k;
}

template <class T>
void gemm_tensorx(benchmark::State& state, Problem p) {
  const Operands<T>& x = operands_of<T>(p);
  gpu_bench::time_flops(state, flop_of(p), [&] { run_tensorx(p, x); });
}

template <class T>
void gemm_cublas(benchmark::State& state, Problem p) {
  const Operands<T>& x = operands_of<T>(p);
  cublasHandle_t handle = nullptr;
  check(cublasCreate(&handle));
  gpu_bench::time_flops(state, flop_of(p), [&] { run_cublas(handle, p, x); });
  check(cublasDestroy(handle));
}

template <class T>
void register_pair(const std::string& name, const Problem& p) {
  const std::string type = std::is_same_v<T, float> ? "float" : "float16";
  for (const auto& [peer, function] :
       {std::pair{"tensorx", &gemm_tensorx<T>}, std::pair{"cublas", &gemm_cublas<T>}}) {
    benchmark::RegisterBenchmark((name + "/" + type + "/" + peer).c_str(), function, p)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

void register_all() {
  register_pair<float>("square_4096", {1, 4096, 4096, 4096, false});
  register_pair<tx::float16>("square_4096", {1, 4096, 4096, 4096, false});
  for (const Problem& p : {Problem{1, 128, 256, 32, true}, Problem{1, 128, 1024, 1024, true},
                           Problem{1, 128, 16384, 4096, true}}) {
    std::ostringstream name;
    name << "tc_transposed_matmul_" << p.m << "x" << p.k << "x" << p.n;
    register_pair<float>(name.str(), p);
  }
  register_pair<float>("tc_batched_transposed_matmul_500x26x72x26", {500, 26, 72, 26, true});
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_bench::run_main(argc, argv, [] {
    std::ostringstream vendor;
    vendor << tx::blas_vendor();
    benchmark::AddCustomContext("blas", vendor.str());
    register_all();
  });
}
