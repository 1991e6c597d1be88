// The triad c = a * b + 2 * d on 2^24 elements in float, bfloat16 and float16: bandwidth-bound, so
// bfloat16, half the bytes, should take about half float's time (its loads and stores convert in
// SIMD registers, core/simd_storage.h); float16 runs the scalar loop for comparison. Compare the
// medians:
//   bench_bfloat16 --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#define EIGEN_USE_THREADS  // for cpu_bench.h

#include <cstdint>

#include "cpu_bench.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;

namespace {

constexpr tx::index_t kCount = tx::index_t{1} << 24;

template <class T>
struct Operands {
  Operands()
      : a(tx::make_dim(kCount)),
        b(tx::make_dim(kCount)),
        d(tx::make_dim(kCount)),
        c(tx::make_dim(kCount)) {
    cpu_bench::fill_random(a, -1.0f, 1.0f, 1);
    cpu_bench::fill_random(b, -1.0f, 1.0f, 2);
    cpu_bench::fill_random(d, -1.0f, 1.0f, 3);
    cpu_bench::fill_random(c, -1.0f, 1.0f, 4);
  }
  tx::Array<T, 1> a, b, d, c;
};

template <class T>
void triad(benchmark::State& state) {
  static const Operands<T> x;
  tx::Array<T, 1> c = x.c;
  for (auto _ : state) {
    c = x.a * x.b + 2.0f * x.d;
    benchmark::ClobberMemory();
  }
  cpu_bench::report_bytes(state, 4 * kCount * static_cast<std::int64_t>(sizeof(T)));
}

}  // namespace

BENCHMARK(triad<float>)->Name("triad/float")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(triad<tx::bfloat16>)
    ->Name("triad/bfloat16")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(triad<tx::float16>)->Name("triad/float16")->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
