// What the CPU benchmarks that race Eigen Tensor share: the thread count every peer gets (OpenMP's,
// which tensorx's engine and the hand-written loops use, and the size of Eigen's pool), random
// operands, Eigen's thread pool, and the bytes_per_second column. Include it with
// EIGEN_USE_THREADS defined, as Eigen's ThreadPoolDevice needs.
#pragma once

#include <benchmark/benchmark.h>

#include <unsupported/Eigen/CXX11/Tensor>

#include <cstdint>
#include <random>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include <tensorx/tensorx.h>

namespace cpu_bench {

namespace tx = tensorx;

/// The threads of every peer: OpenMP's team size (OMP_NUM_THREADS), 1 without OpenMP.
inline int thread_count() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
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

}  // namespace cpu_bench
