// CPU products through the expression layer: `c = tx::dot(a, b)` against cblas_sgemm on the very
// same buffers (the contract of DESIGN.md section 5: within 3%), and a fully connected layer
// `y = relu(dot(x, w) + bias)` against a hand-written cblas_sgemm plus one loop for bias and relu.
//   bench_dot --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
// then compare the medians of sgemm/dot with sgemm/cblas, and fc/dot with fc/cblas_loop.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <random>

#include <tensorx/tensorx.h>

namespace tx = tensorx;
using tx::index_t;

namespace {

// An array of the given extent filled with values in [-1, 1) (never zeros).
tx::Array<float, 2> random_matrix(index_t rows, index_t cols) {
  tx::Array<float, 2> m(tx::make_dim(rows, cols));
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (index_t i = 0; i < m.numel(); ++i) m.data()[i] = value(rng);
  return m;
}

void report(benchmark::State& state, index_t m, index_t k, index_t n) {
  state.counters["flops"] = benchmark::Counter(2.0 * static_cast<double>(m * k * n),
                                               benchmark::Counter::kIsIterationInvariantRate);
}

void sgemm_dot(benchmark::State& state) {
  const index_t n = state.range(0);
  const auto a = random_matrix(n, n), b = random_matrix(n, n);
  auto c = random_matrix(n, n);
  for (auto _ : state) {
    c = tx::dot(a, b);
    benchmark::ClobberMemory();
  }
  report(state, n, n, n);
}

void sgemm_cblas(benchmark::State& state) {
  const index_t n = state.range(0);
  const auto a = random_matrix(n, n), b = random_matrix(n, n);
  auto c = random_matrix(n, n);
  const int size = static_cast<int>(n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, size, size, size, 1.0f, a.data(), size,
                b.data(), size, 0.0f, c.data(), size);
    benchmark::ClobberMemory();
  }
  report(state, n, n, n);
}

// A batch of 512 inputs through a layer of width n (n inputs, n outputs).
constexpr index_t kBatch = 512;

void fc_dot(benchmark::State& state) {
  const index_t n = state.range(0);
  const auto x = random_matrix(kBatch, n), w = random_matrix(n, n);
  const tx::Array<float, 1> bias = tx::reshape(random_matrix(1, n), tx::make_dim(n));
  auto y = random_matrix(kBatch, n);
  for (auto _ : state) {
    y = tx::relu(tx::dot(x, w) + bias);
    benchmark::ClobberMemory();
  }
  report(state, kBatch, n, n);
}

void fc_cblas_loop(benchmark::State& state) {
  const index_t n = state.range(0);
  const auto x = random_matrix(kBatch, n), w = random_matrix(n, n);
  const auto bias = random_matrix(1, n);
  auto y = random_matrix(kBatch, n);
  const int size = static_cast<int>(n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(kBatch), size, size,
                1.0f, x.data(), size, w.data(), size, 0.0f, y.data(), size);
    float* out = y.data();
    const float* b = bias.data();
#pragma omp parallel for
    for (index_t i = 0; i < kBatch; ++i) {
      for (index_t j = 0; j < n; ++j) out[i * n + j] = std::max(out[i * n + j] + b[j], 0.0f);
    }
    benchmark::ClobberMemory();
  }
  report(state, kBatch, n, n);
}

}  // namespace

BENCHMARK(sgemm_dot)->Name("sgemm/dot")->Arg(256)->Arg(1024)->Arg(2048)->UseRealTime();
BENCHMARK(sgemm_cblas)->Name("sgemm/cblas")->Arg(256)->Arg(1024)->Arg(2048)->UseRealTime();
BENCHMARK(fc_dot)->Name("fc/dot")->Arg(256)->Arg(1024)->UseRealTime();
BENCHMARK(fc_cblas_loop)->Name("fc/cblas_loop")->Arg(256)->Arg(1024)->UseRealTime();

BENCHMARK_MAIN();
