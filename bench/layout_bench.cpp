// CPU transposed copies: c = tx::transpose(a) (and a batched tx::permute) through tensorx's cache-
// blocked transpose, against the element-wise pass the engine would otherwise run, a hand-written
// tiled loop and Eigen's shuffle, with a plain copy of the same bytes as the memory ceiling. All
// on the same buffers and thread count. Cases are named <copy>/<peer>; compare their medians:
//   bench_layout --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#define EIGEN_USE_THREADS  // for cpu_bench.h: Eigen's ThreadPoolDevice

#include <cstring>

#include "cpu_bench.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using cpu_bench::eigen_device;
using cpu_bench::fill_random;
using cpu_bench::thread_count;

namespace {

// 4096 x 4096 floats (64 MiB per array): far beyond the last-level cache.
constexpr tx::index_t kRows = 4096;
// The batched case: 64 matrices of 512 x 512, the same bytes.
constexpr tx::index_t kBatch = 64;
constexpr tx::index_t kSide = 512;
// A small transpose, resident in the L1 cache: the fixed cost of the blocked path shows there.
constexpr tx::index_t kSmall = 64;

struct Operands {
  Operands()
      : a(tx::make_dim(kRows, kRows)),
        c(tx::make_dim(kRows, kRows)),
        a3(tx::reshape(a, tx::make_dim(kBatch, kSide, kSide))),
        c3(tx::reshape(c, tx::make_dim(kBatch, kSide, kSide))),
        small_a(tx::make_dim(kSmall, kSmall)),
        small_c(tx::make_dim(kSmall, kSmall)) {
    fill_random(a, -1.0f, 1.0f, 1);
    fill_random(c, -1.0f, 1.0f, 2);
    fill_random(small_a, -1.0f, 1.0f, 3);
    fill_random(small_c, -1.0f, 1.0f, 4);
  }
  tx::Array<float, 2> a, c;
  tx::Array<float, 3> a3, c3;
  tx::Array<float, 2> small_a, small_c;
};

const Operands& operands() {
  static const Operands instance;
  return instance;
}

using Matrix = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;

/// Bytes moved per iteration (each element read once and written once), as a rate.
void report(benchmark::State& state, tx::index_t elements) {
  state.SetBytesProcessed(state.iterations() * elements * 2 * static_cast<int64_t>(sizeof(float)));
  state.counters["threads"] = thread_count();
}

void transpose_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> c = x.c;
  for (auto _ : state) {
    c = tx::transpose(x.a);
    benchmark::ClobberMemory();
  }
  report(state, x.a.numel());
}

// What the assignment would run without the blocked path: the element-wise pass, which walks c
// row by row and reads a down its columns.
void transpose_elementwise(benchmark::State& state) {
  const Operands& x = operands();
  for (auto _ : state) {
    tx::detail::evaluate_elementwise<tx::saver::write, tx::detail::ThisTranslationUnit>(
        x.c, tx::transpose(x.a));
    benchmark::ClobberMemory();
  }
  report(state, x.a.numel());
}

void transpose_hand_tiled(benchmark::State& state) {
  const Operands& x = operands();
  for (auto _ : state) {
    cpu_bench::hand_tiled_transpose(x.a.data(), x.c.data(), kRows);
    benchmark::ClobberMemory();
  }
  report(state, x.a.numel());
}

void transpose_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Matrix a(x.a.data(), kRows, kRows);
  Matrix c(x.c.data(), kRows, kRows);
  const Eigen::array<int, 2> swap{1, 0};
  for (auto _ : state) {
    c.device(eigen_device()) = a.shuffle(swap);
    benchmark::ClobberMemory();
  }
  report(state, x.a.numel());
}

// The memory ceiling: the same bytes copied without transposing.
void copy_memcpy(benchmark::State& state) {
  const Operands& x = operands();
  const tx::index_t count = x.a.numel();
  const int threads = thread_count();
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (int t = 0; t < threads; ++t) {
      const tx::index_t begin = count * t / threads, end = count * (t + 1) / threads;
      std::memcpy(x.c.data() + begin, x.a.data() + begin,
                  static_cast<std::size_t>(end - begin) * sizeof(float));
    }
    benchmark::ClobberMemory();
  }
  report(state, count);
}

void batched_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 3> c = x.c3;
  for (auto _ : state) {
    c = tx::permute(x.a3, tx::make_dim(0, 2, 1));
    benchmark::ClobberMemory();
  }
  report(state, x.a3.numel());
}

void batched_elementwise(benchmark::State& state) {
  const Operands& x = operands();
  for (auto _ : state) {
    tx::detail::evaluate_elementwise<tx::saver::write, tx::detail::ThisTranslationUnit>(
        x.c3, tx::permute(x.a3, tx::make_dim(0, 2, 1)));
    benchmark::ClobberMemory();
  }
  report(state, x.a3.numel());
}

void small_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> c = x.small_c;
  for (auto _ : state) {
    c = tx::transpose(x.small_a);
    benchmark::ClobberMemory();
  }
  report(state, x.small_a.numel());
}

void small_elementwise(benchmark::State& state) {
  const Operands& x = operands();
  for (auto _ : state) {
    tx::detail::evaluate_elementwise<tx::saver::write, tx::detail::ThisTranslationUnit>(
        x.small_c, tx::transpose(x.small_a));
    benchmark::ClobberMemory();
  }
  report(state, x.small_a.numel());
}

void register_case(const char* name, void (*function)(benchmark::State&),
                   benchmark::TimeUnit unit) {
  benchmark::RegisterBenchmark(name, function)->UseRealTime()->Unit(unit);
}

}  // namespace

int main(int argc, char** argv) {
  register_case("transpose_4096/tensorx", transpose_tensorx, benchmark::kMillisecond);
  register_case("transpose_4096/elementwise", transpose_elementwise, benchmark::kMillisecond);
  register_case("transpose_4096/hand_tiled", transpose_hand_tiled, benchmark::kMillisecond);
  register_case("transpose_4096/eigen", transpose_eigen, benchmark::kMillisecond);
  register_case("transpose_4096/memcpy", copy_memcpy, benchmark::kMillisecond);
  register_case("batched_64x512x512/tensorx", batched_tensorx, benchmark::kMillisecond);
  register_case("batched_64x512x512/elementwise", batched_elementwise, benchmark::kMillisecond);
  register_case("transpose_64/tensorx", small_tensorx, benchmark::kMicrosecond);
  register_case("transpose_64/elementwise", small_elementwise, benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
