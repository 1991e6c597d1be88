// Dropout, c = x * (tx::uniform<float>(x.dims(), seed) > p) / (1 - p), on 2^24 floats: tensorx's
// one fused pass against the copy bandwidth (a hand-written loop c = x, the least that any pass
// reading x and writing c costs) and against a hand-written OpenMP loop that draws the same Philox
// numbers, one block for four elements. tx::normal alone shows the cost of Box-Muller. Compare the
// medians:
//   bench_random --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#define EIGEN_USE_THREADS  // for cpu_bench.h

#include <cstdint>

#include "cpu_bench.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using cpu_bench::fill_random;
using cpu_bench::report_bytes;
using cpu_bench::thread_count;

namespace {

constexpr tx::index_t kCount = tx::index_t{1} << 24;
constexpr float kDrop = 0.1f;
constexpr std::uint64_t kSeed = 2024;
constexpr std::int64_t kBytes = 2 * kCount * sizeof(float);  // read x, write c

struct Operands {
  Operands() : x(tx::make_dim(kCount)), c(tx::make_dim(kCount)) {
    fill_random(x, -1.0f, 1.0f, 1);
    fill_random(c, -1.0f, 1.0f, 2);
  }
  tx::Array<float, 1> x, c;
};

const Operands& operands() {
  static const Operands instance;
  return instance;
}

void copy_hand(benchmark::State& state) {
  const float* x = operands().x.data();
  float* c = operands().c.data();
  thread_count();
  for (auto _ : state) {
#pragma omp parallel for simd schedule(static)
    for (tx::index_t i = 0; i < kCount; ++i) c[i] = x[i];
    benchmark::ClobberMemory();
  }
  report_bytes(state, kBytes);
}

void dropout_tensorx(benchmark::State& state) {
  const Operands& o = operands();
  tx::Array<float, 1> c = o.c;
  for (auto _ : state) {
    c = o.x * (tx::uniform<float>(o.x.dims(), kSeed) > kDrop) / (1.0f - kDrop);
    benchmark::ClobberMemory();
  }
  report_bytes(state, kBytes);
}

// The same numbers as tx::uniform<float>: element i is word i % 4 of the Philox block of counter
// (i / 4, 0) under the seed, its top 24 bits scaled to [0, 1).
void dropout_hand(benchmark::State& state) {
  const float* x = operands().x.data();
  float* c = operands().c.data();
  const tx::detail::PhiloxKey key = {{static_cast<std::uint32_t>(kSeed), 0}};
  const float scale = 1.0f / (1.0f - kDrop);
  thread_count();
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (tx::index_t block = 0; block < kCount / 4; ++block) {
      const tx::detail::PhiloxBlock counter = {{static_cast<std::uint32_t>(block), 0, 0, 0}};
      const tx::detail::PhiloxBlock bits = tx::detail::philox4x32(counter, key);
      for (int k = 0; k < 4; ++k) {
        const float u = static_cast<float>(bits.words[k] >> 8) * 0x1p-24f;
        c[4 * block + k] = u > kDrop ? x[4 * block + k] * scale : 0.0f;
      }
    }
    benchmark::ClobberMemory();
  }
  report_bytes(state, kBytes);
}

void normal_tensorx(benchmark::State& state) {
  tx::Array<float, 1> c = operands().c;
  for (auto _ : state) {
    c = tx::normal<float>(c.dims(), kSeed, 1);
    benchmark::ClobberMemory();
  }
  report_bytes(state, kCount * static_cast<std::int64_t>(sizeof(float)));
}

}  // namespace

BENCHMARK(copy_hand)->Name("dropout/copy_bandwidth")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(dropout_tensorx)->Name("dropout/tensorx")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(dropout_hand)->Name("dropout/hand")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(normal_tensorx)->Name("normal/tensorx")->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
