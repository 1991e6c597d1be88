// CPU GEMM: tx::gemm against its peers on the very same buffers and thread count. The contract
// (DESIGN.md section 5) is tx::gemm within 3% of calling the BLAS directly; Eigen's row-major
// product is the other reference point. sgemm, n x n times n x n, row-major, alpha 1, beta 0.
//   bench_gemm --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
// then compare the medians of sgemm/tensorx, sgemm/cblas and sgemm/eigen for each n and threads.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <Eigen/Core>

#include <random>
#include <sstream>
#include <thread>

#include "tensorx/array/array.h"
#include "tensorx/blas/blas_vendor.h"
#include "tensorx/blas/gemm.h"

namespace tx = tensorx;

namespace {

// A, B and C, n x n, filled with values in [-1, 1) (never zeros, which some kernels shortcut).
struct Operands {
  explicit Operands(tx::index_t n)
      : a(tx::make_dim(n, n)), b(tx::make_dim(n, n)), c(tx::make_dim(n, n)) {
    std::mt19937 rng(2026);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (const auto* array : {&a, &b, &c}) {
      for (tx::index_t i = 0; i < array->numel(); ++i) array->data()[i] = value(rng);
    }
  }
  tx::Array<float, 2> a;
  tx::Array<float, 2> b;
  tx::Array<float, 2> c;
};

// Every peer gets the same threads: OpenBLAS's pool (tx::gemm and cblas) and Eigen's OpenMP.
void use_threads(int threads) {
#if defined(OPENBLAS_VERSION)
  openblas_set_num_threads(threads);
#endif
  Eigen::setNbThreads(threads);
}

void report(benchmark::State& state, tx::index_t n) {
  state.counters["flops"] = benchmark::Counter(2.0 * static_cast<double>(n * n * n),
                                               benchmark::Counter::kIsIterationInvariantRate);
}

void sgemm_tensorx(benchmark::State& state) {
  const tx::index_t n = state.range(0);
  use_threads(static_cast<int>(state.range(1)));
  const Operands x(n);
  for (auto _ : state) {
    tx::gemm(tx::Trans::kNo, tx::Trans::kNo, 1.0f, x.a, x.b, 0.0f, x.c);
    benchmark::ClobberMemory();
  }
  report(state, n);
}

void sgemm_cblas(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  use_threads(static_cast<int>(state.range(1)));
  const Operands x(n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, x.a.data(), n, x.b.data(),
                n, 0.0f, x.c.data(), n);
    benchmark::ClobberMemory();
  }
  report(state, n);
}

void sgemm_eigen(benchmark::State& state) {
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const tx::index_t n = state.range(0);
  use_threads(static_cast<int>(state.range(1)));
  const Operands x(n);
  const Eigen::Map<const Matrix> a(x.a.data(), n, n);
  const Eigen::Map<const Matrix> b(x.b.data(), n, n);
  Eigen::Map<Matrix> c(x.c.data(), n, n);
  for (auto _ : state) {
    c.noalias() = a * b;
    benchmark::ClobberMemory();
  }
  report(state, n);
}

// n in {256, 1024, 2048}, threads in {1, all cores}; Eigen threads only with OpenMP.
void sizes(benchmark::internal::Benchmark* bench, bool all_cores) {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  for (int n : {256, 1024, 2048}) {
    bench->Args({n, 1});
    if (all_cores && cores > 1) bench->Args({n, cores});
  }
  bench->ArgNames({"n", "threads"})->UseRealTime()->Unit(benchmark::kMillisecond);
}

#if defined(_OPENMP)
constexpr bool kEigenThreads = true;
#else
constexpr bool kEigenThreads = false;
#endif

void blas_sizes(benchmark::internal::Benchmark* bench) {
  sizes(bench, true);
}
void eigen_sizes(benchmark::internal::Benchmark* bench) {
  sizes(bench, kEigenThreads);
}

BENCHMARK(sgemm_tensorx)->Name("sgemm/tensorx")->Apply(blas_sizes);
BENCHMARK(sgemm_cblas)->Name("sgemm/cblas")->Apply(blas_sizes);
BENCHMARK(sgemm_eigen)->Name("sgemm/eigen")->Apply(eigen_sizes);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("blas", [] {
    std::ostringstream out;
    out << tx::blas_vendor();
    return out.str();
  }());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
