// What the GPU benchmarks share: error checks, random operands on GPU 0, and timing with CUDA
// events queued around each call on the stream tensorx runs on (so host overhead counts only where
// the GPU would otherwise wait for it), reported as a bandwidth against a device-to-device copy
// or as a flop rate.
#pragma once

#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <tensorx/tensorx.h>

namespace gpu_bench {

namespace tx = tensorx;

inline void check(cudaError_t status) {
  if (status != cudaSuccess) throw std::runtime_error(cudaGetErrorString(status));
}
inline void check(cublasStatus_t status) {
  if (status != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(cublasGetStatusName(status));
}

/// A new array on GPU 0 with uniform values in [low, high), the same for the same seed.
template <class T, int N>
tx::Array<T, N> random_on_gpu(const tx::Dim<N>& dims, float low, float high, unsigned seed) {
  tx::Array<T, N> host(dims);
  std::minstd_rand rng(seed);
  std::uniform_real_distribution<float> value(low, high);
  for (tx::index_t i = 0; i < host.numel(); ++i) host.data()[i] = static_cast<T>(value(rng));
  return tx::to(host, tx::CudaPlace(0));
}

/// The Value made from `args` on the first call with this `key` (a std::tuple of what tells the
/// cases apart), kept for the rest of the process. Google Benchmark calls a case's function once
/// per repetition and per probe of its iteration count, and random_on_gpu makes its values on the
/// host (some 0.1 s per 2^24 values): the GEMM and layer benchmarks took 35 and 50 s of the GPU
/// check for operands made again and again.
template <class Value, class Key, class... Args>
Value& made_once(const Key& key, const Args&... args) {
  static std::map<Key, std::unique_ptr<Value>> made;
  std::unique_ptr<Value>& value = made[key];
  if (!value) value = std::make_unique<Value>(args...);
  return *value;
}

/// Start and stop events on the stream tensorx uses for device 0.
class Timer {
 public:
  Timer() : stream_(tx::current_stream(0)) {
    check(cudaEventCreate(&start_));
    check(cudaEventCreate(&stop_));
  }
  ~Timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  cudaStream_t stream() const { return stream_; }

  /// Seconds that `work` takes on the GPU, from events queued around it.
  template <class Work>
  double seconds(Work&& work) const {
    check(cudaEventRecord(start_, stream_));
    work();
    check(cudaEventRecord(stop_, stream_));
    check(cudaEventSynchronize(stop_));
    float milliseconds = 0.0f;
    check(cudaEventElapsedTime(&milliseconds, start_, stop_));
    return milliseconds * 1e-3;
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_;
  cudaEvent_t stop_;
};

/// The ceiling of a bandwidth-bound kernel: bytes read plus written per second by a
/// device-to-device copy of `bytes` from `from` to `to`, the median of 21 copies after a warm-up.
inline double copy_bandwidth(void* to, const void* from, std::size_t bytes) {
  const Timer timer;
  auto copy = [&] {
    check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, timer.stream()));
  };
  copy();
  std::vector<double> times;
  for (int i = 0; i < 21; ++i) times.push_back(timer.seconds(copy));
  std::nth_element(times.begin(), times.begin() + 10, times.end());
  return 2.0 * static_cast<double>(bytes) / times[10];
}

/// Times `work` once per iteration after one warm-up call (handles, heuristics, lazy module
/// loading) and returns the seconds of all iterations together.
template <class Work>
double time_iterations(benchmark::State& state, Work&& work) {
  const Timer timer;
  work();
  check(cudaStreamSynchronize(timer.stream()));
  double total = 0.0;
  for (auto _ : state) {
    const double seconds = timer.seconds(work);
    state.SetIterationTime(seconds);
    total += seconds;
  }
  return total;
}

/// Times `work`, which reads and writes `bytes` per call, and reports its bandwidth as GB_per_s
/// and as fraction_of_copy of `ceiling` (bytes per second, from copy_bandwidth).
template <class Work>
void time_bandwidth(benchmark::State& state, double bytes, double ceiling, Work&& work) {
  const double total = time_iterations(state, work);
  const double bandwidth = bytes * static_cast<double>(state.iterations()) / total;
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
  state.counters["GB_per_s"] = bandwidth * 1e-9;
  state.counters["fraction_of_copy"] = bandwidth / ceiling;
}

/// Times `work`, which does `flop` floating-point operations per call, and reports the rate.
template <class Work>
void time_flops(benchmark::State& state, double flop, Work&& work) {
  time_iterations(state, work);
  state.counters["flops"] = benchmark::Counter(flop, benchmark::Counter::kIsIterationInvariantRate);
}

/// Registers a case timed with CUDA events (manual time, see time_iterations), shown in `unit`.
inline benchmark::internal::Benchmark* register_timed(
    const std::string& name, void (*function)(benchmark::State&),
    benchmark::TimeUnit unit = benchmark::kMillisecond) {
  return benchmark::RegisterBenchmark(name.c_str(), function)->UseManualTime()->Unit(unit);
}

/// The main of a GPU benchmark program: reads Google Benchmark's options, prints "skipped: no
/// CUDA device: <reason>" and succeeds where no GPU is usable (scripts/gpu-check reads that line),
/// else names GPU 0 in the report's context, calls register_cases() and runs what it registered.
template <class Register>
int run_main(int argc, char** argv, Register&& register_cases) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (tx::cuda::device_count() == 0) {
    std::cout << "skipped: no CUDA device: " << tx::cuda::unavailable_reason() << std::endl;
    return 0;
  }
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0));
  benchmark::AddCustomContext("gpu", properties.name);
  register_cases();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace gpu_bench
