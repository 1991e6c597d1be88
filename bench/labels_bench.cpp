// Labelled contractions against the direct tx::gemm / tx::batch_gemm call on the same buffers and
// threads (DESIGN.md section 8 and the GEMM contract of section 5: within 3% at n >= 256), and the
// cost of label parsing plus contraction planning, which must stay under a microsecond:
//   bench_labels --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
//                --benchmark_report_aggregates_only=true
// then compare the medians of labels/<form> with direct/<form> for each n.
#include <benchmark/benchmark.h>

#include <random>

#include <tensorx/tensorx.h>

namespace tx = tensorx;

namespace {

template <int N>
tx::Array<float, N> random_array(const tx::Dim<N>& dims, unsigned seed) {
  tx::Array<float, N> array(dims);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (tx::index_t i = 0; i < array.numel(); ++i) array.data()[i] = value(rng);
  return array;
}

void report_flops(benchmark::State& state, double flops) {
  state.counters["flops"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

// c(n x n) = a(n x n) b, with b stored as (k, j) or, for the transposed form, (j, k).
struct Matrices {
  Matrices(tx::index_t n, bool b_transposed)
      : a(random_array(tx::make_dim(n, n), 1)),
        b(random_array(tx::make_dim(n, n), 2)),
        c(random_array(tx::make_dim(n, n), 3)),
        trans_b(b_transposed ? tx::Trans::kYes : tx::Trans::kNo),
        b_labels(b_transposed ? "j,k" : "k,j") {}
  tx::Array<float, 2> a, b, c;
  tx::Trans trans_b;
  const char* b_labels;
};

void gemm_labels(benchmark::State& state) {
  const tx::index_t n = state.range(0);
  Matrices x(n, state.range(1) != 0);
  for (auto _ : state) {
    x.c("i,j") = x.a("i,k") * x.b(x.b_labels);
    benchmark::ClobberMemory();
  }
  report_flops(state, 2.0 * double(n) * double(n) * double(n));
}

void gemm_direct(benchmark::State& state) {
  const tx::index_t n = state.range(0);
  Matrices x(n, state.range(1) != 0);
  for (auto _ : state) {
    tx::gemm(tx::Trans::kNo, x.trans_b, 1.0f, x.a, x.b, 0.0f, x.c);
    benchmark::ClobberMemory();
  }
  report_flops(state, 2.0 * double(n) * double(n) * double(n));
}

// z(b, i, j) = x(b, i, k) y(b, j, k): 16 matrices of n x n, the second operand transposed.
struct Batches {
  explicit Batches(tx::index_t n)
      : x(random_array(tx::make_dim(16, n, n), 4)),
        y(random_array(tx::make_dim(16, n, n), 5)),
        z(random_array(tx::make_dim(16, n, n), 6)) {}
  tx::Array<float, 3> x, y, z;
};

void batch_labels(benchmark::State& state) {
  const tx::index_t n = state.range(0);
  Batches b(n);
  for (auto _ : state) {
    b.z("b,i,j") = b.x("b,i,k") * b.y("b,j,k");
    benchmark::ClobberMemory();
  }
  report_flops(state, 32.0 * double(n) * double(n) * double(n));
}

void batch_direct(benchmark::State& state) {
  const tx::index_t n = state.range(0);
  Batches b(n);
  for (auto _ : state) {
    tx::batch_gemm(tx::Trans::kNo, tx::Trans::kYes, 1.0f, b.x, b.y, 0.0f, b.z);
    benchmark::ClobberMemory();
  }
  report_flops(state, 32.0 * double(n) * double(n) * double(n));
}

// Parsing three label strings and planning c("i,j") = a("i,k") * b("k,j") as one GEMM, exactly
// the steps of the labelled assignment before it calls the BLAS (reading the operands into the
// label table, checking and binding the left side, choosing the layout of each matrix).
void parse_and_plan(benchmark::State& state) {
  const auto a = random_array(tx::make_dim(8, 8), 1);
  const auto b = random_array(tx::make_dim(8, 8), 2);
  const auto c = random_array(tx::make_dim(8, 8), 3);
  for (auto _ : state) {
    const auto x = a("i,k");
    const auto y = b("k,j");
    const auto z = c("i,j");
    tx::detail::LabelTable table;
    tx::detail::LabelledOperand operands[2];
    tx::detail::LabelledOperand target;
    const auto product = x * y;
    tx::detail::gather<float, 0>(product, table, operands);
    tx::index_t dims[tx::kMaxRank];
    tx::index_t strides[tx::kMaxRank];
    for (int i = 0; i < 2; ++i) {
      dims[i] = c.dims()[i];
      strides[i] = c.strides()[i];
    }
    tx::detail::bind_left(table, z.labels(), dims, strides, &c.buffer(), c.offset(), target);
    const auto plan =
        tx::detail::plan_pair(table, operands[0], operands[1], target.mask, &target, true);
    benchmark::DoNotOptimize(plan);
  }
}

// The whole labelled assignment against the direct call on 2 x 2 matrices: the difference is the
// dispatch overhead of the labelled form (parsing, planning, handles).
void small_labels(benchmark::State& state) {
  Matrices x(2, false);
  for (auto _ : state) {
    x.c("i,j") = x.a("i,k") * x.b("k,j");
    benchmark::ClobberMemory();
  }
}

void small_direct(benchmark::State& state) {
  Matrices x(2, false);
  for (auto _ : state) {
    tx::gemm(tx::Trans::kNo, tx::Trans::kNo, 1.0f, x.a, x.b, 0.0f, x.c);
    benchmark::ClobberMemory();
  }
}

void gemm_sizes(benchmark::internal::Benchmark* bench) {
  for (int transposed : {0, 1}) {
    for (int n : {256, 512, 1024}) bench->Args({n, transposed});
  }
  bench->ArgNames({"n", "b_transposed"})->UseRealTime()->Unit(benchmark::kMillisecond);
}

void batch_sizes(benchmark::internal::Benchmark* bench) {
  for (int n : {256, 512}) bench->Arg(n);
  bench->ArgName("n")->UseRealTime()->Unit(benchmark::kMillisecond);
}

BENCHMARK(gemm_labels)->Name("labels/gemm")->Apply(gemm_sizes);
BENCHMARK(gemm_direct)->Name("direct/gemm")->Apply(gemm_sizes);
BENCHMARK(batch_labels)->Name("labels/batch_gemm")->Apply(batch_sizes);
BENCHMARK(batch_direct)->Name("direct/batch_gemm")->Apply(batch_sizes);
BENCHMARK(parse_and_plan)->Name("labels/parse_and_plan")->Unit(benchmark::kNanosecond);
BENCHMARK(small_labels)->Name("labels/gemm_2x2")->Unit(benchmark::kNanosecond);
BENCHMARK(small_direct)->Name("direct/gemm_2x2")->Unit(benchmark::kNanosecond);

}  // namespace

BENCHMARK_MAIN();
