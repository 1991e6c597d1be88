// GPU reductions: tensorx's one kernel per reduction against the ceiling of the machine, a
// device-to-device cudaMemcpy of the same bytes, and against the compiled layer's CUB path (what
// a plain C++ translation unit runs, called here through its entry point). The contract (DESIGN.md
// section 5): at least 85% of the copy bandwidth, one launch per assignment. A reduction reads its
// operand once, so its bandwidth is the bytes it reads over its time, compared with the copy's
// bytes read plus written over the copy's time. The matrix is 8192 x 8192 floats (256 MiB, far
// beyond the L2 cache); each iteration is one assignment timed with CUDA events on the stream
// tensorx runs on. PyTorch's times for the same cases come from bench/torch_reduce.py.
//   bench_reduce_cuda --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <random>
#include <stdexcept>
#include <vector>

#include "tensorx/tensorx.h"

namespace tx = tensorx;

namespace {

constexpr tx::index_t kRows = tx::index_t{1} << 13;
constexpr tx::index_t kCount = kRows * kRows;
constexpr double kMatrixBytes = static_cast<double>(kCount) * sizeof(float);

void check(cudaError_t status) {
  if (status != cudaSuccess) throw std::runtime_error(cudaGetErrorString(status));
}

template <int N>
tx::Array<float, N> random_on_gpu(const tx::Dim<N>& dims, float low, float high, unsigned seed) {
  tx::Array<float, N> host(dims);
  std::minstd_rand rng(seed);
  std::uniform_real_distribution<float> value(low, high);
  for (tx::index_t i = 0; i < host.numel(); ++i) host.data()[i] = value(rng);
  return tx::to(host, tx::CudaPlace(0));
}

struct Operands {
  Operands()
      : a(random_on_gpu(tx::make_dim(kCount), -4.0f, 4.0f, 1)),
        b(random_on_gpu(tx::make_dim(kCount), -1.0f, 1.0f, 2)),
        c(random_on_gpu(tx::make_dim(kCount), -1.0f, 1.0f, 3)),
        m(tx::reshape(a, tx::make_dim(kRows, kRows))),
        p(tx::reshape(c, tx::make_dim(kRows, kRows))),
        rows(tx::make_dim(kRows), tx::CudaPlace(0)),
        columns(tx::make_dim(kRows), tx::CudaPlace(0)),
        scalar(tx::Dim<0>(), tx::CudaPlace(0)) {}
  tx::Array<float, 1> a, b, c;
  tx::Array<float, 2> m, p;
  tx::Array<float, 1> rows, columns;
  tx::Array<float, 0> scalar;
};

const Operands& operands() {
  static const Operands instance;
  return instance;
}

struct Timer {
  Timer() : stream(tx::current_stream(0)) {
    check(cudaEventCreate(&start));
    check(cudaEventCreate(&stop));
  }
  ~Timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  template <class Work>
  double seconds(Work&& work) const {
    check(cudaEventRecord(start, stream));
    work();
    check(cudaEventRecord(stop, stream));
    check(cudaEventSynchronize(stop));
    float milliseconds = 0.0f;
    check(cudaEventElapsedTime(&milliseconds, start, stop));
    return milliseconds * 1e-3;
  }

  cudaStream_t stream;
  cudaEvent_t start;
  cudaEvent_t stop;
};

void copy_matrix(cudaStream_t stream) {
  const Operands& x = operands();
  check(cudaMemcpyAsync(x.c.data(), x.a.data(), kCount * sizeof(float), cudaMemcpyDeviceToDevice,
                        stream));
}

// The ceiling: bytes read plus written per second by a device-to-device copy of the matrix,
// median of 21 copies after a warm-up.
double copy_bandwidth() {
  static const double bandwidth = [] {
    const Timer timer;
    copy_matrix(timer.stream);
    std::vector<double> times;
    for (int i = 0; i < 21; ++i) times.push_back(timer.seconds([&] { copy_matrix(timer.stream); }));
    std::nth_element(times.begin(), times.begin() + 10, times.end());
    return 2.0 * kMatrixBytes / times[10];
  }();
  return bandwidth;
}

// Times `work`, which moves `bytes`, once per iteration after a warm-up.
template <class Work>
void time_on_gpu(benchmark::State& state, double bytes, Work&& work) {
  const double ceiling = copy_bandwidth();
  const Timer timer;
  work();
  check(cudaStreamSynchronize(timer.stream));
  double total = 0.0;
  for (auto _ : state) {
    const double seconds = timer.seconds(work);
    state.SetIterationTime(seconds);
    total += seconds;
  }
  const double bandwidth = bytes * static_cast<double>(state.iterations()) / total;
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
  state.counters["GB_per_s"] = bandwidth * 1e-9;
  state.counters["fraction_of_copy"] = bandwidth / ceiling;
}

void copy_cuda(benchmark::State& state) {
  time_on_gpu(state, 2 * kMatrixBytes, [] { copy_matrix(tx::current_stream(0)); });
}

void row_sums_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> r = x.rows;
  time_on_gpu(state, kMatrixBytes, [&] { r = tx::sum<1>(x.m); });
}

void column_sums_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> r = x.columns;
  time_on_gpu(state, kMatrixBytes, [&] { r = tx::sum<0>(x.m); });
}

void row_max_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> r = x.rows;
  time_on_gpu(state, kMatrixBytes, [&] { r = tx::max<1>(x.m); });
}

void full_sum_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 0> s = x.scalar;
  time_on_gpu(state, kMatrixBytes, [&] { s = tx::sum(x.a); });
}

// The compiled layer's full sum (cub::DeviceReduce, then the save kernel).
void full_sum_cub(benchmark::State& state) {
  const Operands& x = operands();
  tx::detail::ThreeAxes axes;
  axes.reduced = kCount;
  time_on_gpu(state, kMatrixBytes, [&] {
    tx::detail::reduce_contiguous(tx::ReduceOp::kSum, tx::DataType::kFloat32, x.a.data(),
                                  x.scalar.data(), axes, tx::CudaPlace(0), tx::SaveMode::kWrite);
  });
}

void dot_sum_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 0> s = x.scalar;
  time_on_gpu(state, 2 * kMatrixBytes, [&] { s = tx::sum(x.a * x.b); });
}

// A softmax along rows: the max and the sum are one kernel each, the exp and the division are
// element-wise kernels that read them (four launches, about 5 matrix transfers).
void softmax_rows_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> p = x.p;
  time_on_gpu(state, kMatrixBytes, [&] {
    p = tx::exp(x.m - tx::max<1>(x.m, tx::keepdims));
    p = p / tx::sum<1>(p, tx::keepdims);
  });
}

void register_case(const char* name, void (*function)(benchmark::State&)) {
  benchmark::RegisterBenchmark(name, function)->UseManualTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  if (tx::cuda::device_count() == 0) {
    std::cout << "skipped: no CUDA device: " << tx::cuda::unavailable_reason() << "\n";
    return 0;
  }
  register_case("copy/cudaMemcpy", copy_cuda);
  register_case("row_sums/tensorx", row_sums_tensorx);
  register_case("column_sums/tensorx", column_sums_tensorx);
  register_case("row_max/tensorx", row_max_tensorx);
  register_case("full_sum/tensorx", full_sum_tensorx);
  register_case("full_sum/cub", full_sum_cub);
  register_case("dot_sum/tensorx", dot_sum_tensorx);
  register_case("softmax_rows/tensorx", softmax_rows_tensorx);
  benchmark::AddCustomContext("matrix", "8192 x 8192 float");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
