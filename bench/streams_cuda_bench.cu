// The host cost of ordering GPU work across streams (memory/stream_order.h). A small assignment
// (4096 floats, c = a * b + 1) is timed on the host, queued again and again, against the bare
// launch of a hand-written kernel doing the same (the floor); once with every operand last used on
// the same stream (the single-stream path: one atomic load per buffer), once alternating between
// two streams so that every assignment waits for the other stream's writes through events. The
// bookkeeping alone (a StreamOrder naming three buffers) is timed too, on one stream and across
// two. Wall-clock time per iteration; the GPU is drained every 256 iterations so that the launch
// queue never fills and blocks the host. The contract (issue #10): no measurable cost on one
// stream, i.e. assign/one_stream within the run-to-run noise of the work it must do anyway.
//   bench_streams_cuda --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <string>

#include <tensorx/memory/stream_order.h>

#include "gpu_bench.cuh"

namespace tx = tensorx;
using gpu_bench::check;
using gpu_bench::random_on_gpu;

namespace {

constexpr tx::index_t kCount = 4096;
constexpr int kDrainEvery = 256;

__global__ void multiply_add(float* c, const float* a, const float* b, tx::index_t count) {
  const tx::index_t i = tx::index_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < count) c[i] = a[i] * b[i] + 1.0f;
}

struct Operands {
  tx::Array<float, 1> a = random_on_gpu<float>(tx::make_dim(kCount), -1.0f, 1.0f, 1);
  tx::Array<float, 1> b = random_on_gpu<float>(tx::make_dim(kCount), -1.0f, 1.0f, 2);
  tx::Array<float, 1> c = tx::Array<float, 1>(tx::make_dim(kCount), tx::CudaPlace(0));
};

// Runs `step(i)` once per iteration, draining the GPU every kDrainEvery iterations.
template <class Step>
void run(benchmark::State& state, Step&& step) {
  step(0);
  tx::synchronize();
  int i = 0;
  for (auto _ : state) {
    step(i);
    if (++i % kDrainEvery == 0) tx::synchronize();
  }
  tx::synchronize();
}

void kernel_launch(benchmark::State& state) {
  Operands x;
  const cudaStream_t stream = tx::current_stream(0);
  run(state, [&](int) {
    multiply_add<<<(kCount + 255) / 256, 256, 0, stream>>>(x.c.data(), x.a.data(), x.b.data(),
                                                           kCount);
    check(cudaGetLastError());
  });
}

void assign_one_stream(benchmark::State& state) {
  Operands x;
  run(state, [&](int) { x.c = x.a * x.b + 1.0f; });
}

// c is written on one stream and read (with a and b) on the other at every step.
void assign_alternating_streams(benchmark::State& state) {
  Operands x;
  tx::Stream first, second;
  tx::Array<float, 1> d(x.c.dims(), tx::CudaPlace(0));
  run(state, [&](int i) {
    const tx::StreamGuard guard(i % 2 == 0 ? first : second);
    if (i % 2 == 0) {
      x.c = x.a * d + 1.0f;
    } else {
      d = x.c * x.b + 1.0f;
    }
  });
}

void order_one_stream(benchmark::State& state) {
  Operands x;
  for (auto _ : state) {
    tx::detail::StreamOrder order(0);
    order.read(x.a.buffer().get());
    order.read(x.b.buffer().get());
    order.write(x.c.buffer().get());
    benchmark::DoNotOptimize(order.stream());
  }
}

void order_two_streams(benchmark::State& state) {
  Operands x;
  tx::Stream first, second;
  int i = 0;
  for (auto _ : state) {
    const tx::StreamGuard guard(i++ % 2 == 0 ? first : second);
    tx::detail::StreamOrder order(0);
    order.read(x.a.buffer().get());
    order.read(x.b.buffer().get());
    order.write(x.c.buffer().get());
    benchmark::DoNotOptimize(order.stream());
  }
  tx::synchronize();
}

void register_case(const char* name, void (*function)(benchmark::State&)) {
  benchmark::RegisterBenchmark(name, function)->UseRealTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_bench::run_main(argc, argv, [] {
    register_case("launch/bare_kernel", kernel_launch);
    register_case("assign/one_stream", assign_one_stream);
    register_case("assign/alternating_streams", assign_alternating_streams);
    register_case("stream_order/one_stream", order_one_stream);
    register_case("stream_order/two_streams", order_two_streams);
    benchmark::AddCustomContext("elements", std::to_string(kCount));
  });
}
