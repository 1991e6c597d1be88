// What the CPU benchmarks that race Eigen Tensor share: the thread count every peer gets (tensorx's
// pool, the OpenMP team of the hand-written loops and Eigen's pool alike), random
// operands, Eigen's thread pool, and the bytes_per_second column. Include it with
// EIGEN_USE_THREADS defined, as Eigen's ThreadPoolDevice needs.
#pragma once

#include <benchmark/benchmark.h>

#include <unsupported/Eigen/CXX11/Tensor>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <string>

#include <omp.h>

#include <tensorx/tensorx.h>

namespace cpu_bench {

namespace tx = tensorx;

/// The threads of every peer: tensorx's (TENSORX_NUM_THREADS or OMP_NUM_THREADS, else the
/// hardware's), which the OpenMP team of the hand-written loops is set to as well.
inline int thread_count() {
  static const int threads = [] {
    const int count = tx::num_threads();
    omp_set_num_threads(count);
    return count;
  }();
  return threads;
}

/// Fills a dense host array with uniform values in [low, high), the same for the same seed.
template <class T, int N>
void fill_random(const tx::Array<T, N>& array, float low, float high, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(low, high);
  for (tx::index_t i = 0; i < array.numel(); ++i) array.data()[i] = static_cast<T>(value(rng));
}

/// Eigen's device: a pool of thread_count() threads, made once.
inline const Eigen::ThreadPoolDevice& eigen_device() {
  static Eigen::ThreadPool pool(thread_count());
  static const Eigen::ThreadPoolDevice device(&pool, thread_count());
  return device;
}

/// Reports `bytes` moved (read plus written) per iteration as the bytes_per_second column.
inline void report_bytes(benchmark::State& state, std::int64_t bytes) {
  state.SetBytesProcessed(state.iterations() * bytes);
}

/// The hand-written peer of a transposed copy, c = a^T for n x n row-major matrices: square tiles
/// of 32, whose rows of a and of c stay in the L1 cache while the tile is copied, shared out to
/// the OpenMP threads. n is a multiple of 32.
inline void hand_tiled_transpose(const float* a, float* c, tx::index_t n) {
  constexpr tx::index_t kTile = 32;
#pragma omp parallel for schedule(static)
  for (tx::index_t i0 = 0; i0 < n; i0 += kTile) {
    for (tx::index_t j0 = 0; j0 < n; j0 += kTile) {
      for (tx::index_t i = i0; i < i0 + kTile; ++i) {
#pragma omp simd
        for (tx::index_t j = j0; j < j0 + kTile; ++j) c[i * n + j] = a[j * n + i];
      }
    }
  }
}

/// Copies `bytes` from `from` to `to`, each OpenMP thread memcpy'ing its share: the copy
/// bandwidth that the memory-bound cases are measured against.
inline void threaded_memcpy(void* to, const void* from, std::int64_t bytes) {
#pragma omp parallel
  {
    const std::int64_t threads = omp_get_num_threads(), thread = omp_get_thread_num();
    const std::int64_t begin = bytes * thread / threads, end = bytes * (thread + 1) / threads;
    std::memcpy(static_cast<char*>(to) + begin, static_cast<const char*>(from) + begin,
                static_cast<std::size_t>(end - begin));
  }
}

/// The end of a CPU benchmark's main: records the thread count every peer gets and the operand
/// (`what`, e.g. {"matrix", "4096 x 4096 float"}) in the report's context, prints the thread
/// count, then runs the registered benchmarks. Returns main's exit status.
inline int run_benchmarks(int argc, char** argv, const char* what_key, const std::string& what) {
  const std::string threads = std::to_string(thread_count());
  benchmark::AddCustomContext("threads (OpenMP, tensorx and the Eigen pool)", threads);
  benchmark::AddCustomContext(what_key, what);
  std::cout << "threads: " << threads << " for tensorx, the OpenMP loops and Eigen's pool\n";
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace cpu_bench
