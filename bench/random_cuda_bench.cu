// GPU dropout and the bfloat16 triad against the ceiling of the machine, a device-to-device
// cudaMemcpy (DESIGN.md section 5: at least 85% of the copy bandwidth). Dropout,
// c = x * (tx::uniform<float>(x.dims(), seed) > p) / (1 - p), reads x and writes c, its Philox
// numbers computed in registers; the triad c = a * b + 2 * d moves four streams, in float and in
// bfloat16 (half the bytes). Each case works on 2^26 elements per stream and reports GB_per_s and
// fraction_of_copy; PyTorch's dropout is timed on the same size by bench/torch_elementwise.py.
//   bench_random_cuda --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <cstdint>
#include <string>

#include "gpu_bench.cuh"

namespace tx = tensorx;
using gpu_bench::random_on_gpu;

namespace {

constexpr tx::index_t kCount = tx::index_t{1} << 26;
constexpr float kDrop = 0.1f;

template <class T>
struct Operands {
  Operands()
      : a(random_on_gpu<T>(tx::make_dim(kCount), -1.0f, 1.0f, 1)),
        b(random_on_gpu<T>(tx::make_dim(kCount), -1.0f, 1.0f, 2)),
        d(random_on_gpu<T>(tx::make_dim(kCount), -1.0f, 1.0f, 3)),
        c(random_on_gpu<T>(tx::make_dim(kCount), -1.0f, 1.0f, 4)) {}
  tx::Array<T, 1> a, b, d, c;
};

template <class T>
const Operands<T>& operands() {
  static const Operands<T> instance;
  return instance;
}

// Times `work`, which moves `streams` arrays of 2^26 elements of T per call, against the copy.
template <class T, class Work>
void time_on_gpu(benchmark::State& state, int streams, Work&& work) {
  const Operands<float>& x = operands<float>();
  static const double ceiling =
      gpu_bench::copy_bandwidth(x.c.data(), x.a.data(), kCount * sizeof(float));
  gpu_bench::time_bandwidth(state, static_cast<double>(streams) * kCount * sizeof(T), ceiling,
                            work);
}

void dropout_tensorx(benchmark::State& state) {
  const Operands<float>& x = operands<float>();
  tx::Array<float, 1> c = x.c;
  std::uint64_t offset = 0;
  time_on_gpu<float>(state, 2, [&] {
    c = x.a * (tx::uniform<float>(x.a.dims(), 2024, offset++) > kDrop) / (1.0f - kDrop);
  });
}

void normal_tensorx(benchmark::State& state) {
  tx::Array<float, 1> c = operands<float>().c;
  time_on_gpu<float>(state, 1, [&] { c = tx::normal<float>(c.dims(), 2024, 1); });
}

template <class T>
void triad_tensorx(benchmark::State& state) {
  const Operands<T>& x = operands<T>();
  tx::Array<T, 1> c = x.c;
  time_on_gpu<T>(state, 4, [&] { c = x.a * x.b + 2.0f * x.d; });
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_bench::run_main(argc, argv, [] {
    gpu_bench::register_timed("dropout/tensorx", dropout_tensorx);
    gpu_bench::register_timed("normal/tensorx", normal_tensorx);
    gpu_bench::register_timed("triad/float", triad_tensorx<float>);
    gpu_bench::register_timed("triad/bfloat16", triad_tensorx<tx::bfloat16>);
    benchmark::AddCustomContext("elements", std::to_string(kCount));
  });
}
