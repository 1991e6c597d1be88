// GPU element-wise expressions: tensorx's one kernel per assignment against the ceiling of the
// machine, a device-to-device cudaMemcpy of as many bytes. The contract (DESIGN.md section 5): at
// least 85% of the copy bandwidth. Each case moves 2^26 floats per stream (256 MiB, far beyond the
// L2 cache) and reports GB_per_s and fraction_of_copy (its bandwidth over the copy's, measured
// once at start-up in the same process). Each iteration is one assignment timed with CUDA events
// on the stream tensorx runs on. The peers (PyTorch eager and torch.compile) are timed on the same
// expressions and sizes by bench/torch_elementwise.py.
//   bench_elementwise_cuda --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
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

// 2^26 floats per stream; the matrix cases view them as kRows x kRows.
constexpr tx::index_t kCount = tx::index_t{1} << 26;
constexpr tx::index_t kRows = tx::index_t{1} << 13;

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

// Inputs (random, never zeros) and the output, shared by every case.
struct Operands {
  Operands()
      : a(random_on_gpu(tx::make_dim(kCount), -6.0f, 6.0f, 1)),
        b(random_on_gpu(tx::make_dim(kCount), -1.0f, 1.0f, 2)),
        d(random_on_gpu(tx::make_dim(kCount), -1.0f, 1.0f, 3)),
        c(random_on_gpu(tx::make_dim(kCount), -1.0f, 1.0f, 4)),
        bias(random_on_gpu(tx::make_dim(kRows), -0.5f, 0.5f, 5)),
        a2(tx::reshape(a, tx::make_dim(kRows, kRows))),
        c2(tx::reshape(c, tx::make_dim(kRows, kRows))) {}
  tx::Array<float, 1> a, b, d, c, bias;
  tx::Array<float, 2> a2, c2;
};

const Operands& operands() {
  static const Operands instance;
  return instance;
}

// Start and stop events on the stream tensorx uses for device 0.
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

  // Seconds that `work` takes on the GPU, from events queued around it.
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

void copy(const tx::Array<float, 1>& to, const tx::Array<float, 1>& from, cudaStream_t stream) {
  check(cudaMemcpyAsync(to.data(), from.data(), kCount * sizeof(float), cudaMemcpyDeviceToDevice,
                        stream));
}

// The ceiling: read 2^26 floats and write them elsewhere, median of 21 copies after a warm-up.
double copy_bandwidth() {
  static const double bandwidth = [] {
    const Operands& x = operands();
    const Timer timer;
    copy(x.c, x.a, timer.stream);
    std::vector<double> times;
    for (int i = 0; i < 21; ++i)
      times.push_back(timer.seconds([&] { copy(x.c, x.a, timer.stream); }));
    std::nth_element(times.begin(), times.begin() + 10, times.end());
    return 2.0 * kCount * sizeof(float) / times[10];
  }();
  return bandwidth;
}

// Times `work` once per iteration after a warm-up; `streams` arrays of 2^26 floats are read or
// written per call.
template <class Work>
void time_on_gpu(benchmark::State& state, int streams, Work&& work) {
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
  const double bytes = static_cast<double>(streams) * kCount * sizeof(float);
  const double bandwidth = bytes * static_cast<double>(state.iterations()) / total;
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
  state.counters["GB_per_s"] = bandwidth * 1e-9;
  state.counters["fraction_of_copy"] = bandwidth / ceiling;
}

void copy_cuda(benchmark::State& state) {
  const Operands& x = operands();
  const cudaStream_t stream = tx::current_stream(0);
  time_on_gpu(state, 2, [&] { copy(x.c, x.a, stream); });
}

void triad_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> c = x.c;
  time_on_gpu(state, 4, [&] { c = x.a * x.b + 2.0f * x.d; });
}

void sigmoid_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> c = x.c;
  time_on_gpu(state, 2, [&] { c = tx::sigmoid(x.a); });
}

void bias_relu_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> m = x.c2;
  time_on_gpu(state, 2, [&] { m = tx::relu(x.a2 + x.bias); });
}

void transpose_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> c = x.c2;
  time_on_gpu(state, 2, [&] { c = tx::transpose(x.a2); });
}

void register_case(const char* name, void (*function)(benchmark::State&)) {
  benchmark::RegisterBenchmark(name, function)->UseManualTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (tx::cuda::device_count() == 0) {
    std::cout << "skipped: no CUDA device\n";
    return 0;
  }
  register_case("copy/cudaMemcpy", copy_cuda);
  register_case("triad/tensorx", triad_tensorx);
  register_case("sigmoid/tensorx", sigmoid_tensorx);
  register_case("bias_relu/tensorx", bias_relu_tensorx);
  register_case("transpose/tensorx", transpose_tensorx);
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0));
  benchmark::AddCustomContext("gpu", properties.name);
  benchmark::AddCustomContext("elements", std::to_string(kCount));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
