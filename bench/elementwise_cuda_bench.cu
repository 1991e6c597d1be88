// GPU element-wise expressions: tensorx's one kernel per assignment against the ceiling of the
// machine, a device-to-device cudaMemcpy of as many bytes. The contract (DESIGN.md section 5): at
// least 85% of the copy bandwidth. Each case moves 2^26 floats per stream (256 MiB, far beyond the
// L2 cache) and reports GB_per_s and fraction_of_copy (its bandwidth over the copy's, measured
// once at start-up in the same process). Each iteration is one assignment timed with CUDA events
// on the stream tensorx runs on. bias_relu and column_scale broadcast a row or a column vector
// over the matrix (the indexed kernel along rows, 16-byte accesses along each row). The peers
// (PyTorch eager and torch.compile) are timed on the same expressions and sizes by
// bench/torch_elementwise.py.
//   bench_elementwise_cuda --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <string>

#include "gpu_bench.cuh"

namespace tx = tensorx;
using gpu_bench::random_on_gpu;

namespace {

// 2^26 floats per stream; the matrix cases view them as kRows x kRows.
constexpr tx::index_t kCount = tx::index_t{1} << 26;
constexpr tx::index_t kRows = tx::index_t{1} << 13;
constexpr double kStreamBytes = static_cast<double>(kCount) * sizeof(float);

// Inputs (random, never zeros) and the output, shared by every case.
struct Operands {
  Operands()
      : a(random_on_gpu<float>(tx::make_dim(kCount), -6.0f, 6.0f, 1)),
        b(random_on_gpu<float>(tx::make_dim(kCount), -1.0f, 1.0f, 2)),
        d(random_on_gpu<float>(tx::make_dim(kCount), -1.0f, 1.0f, 3)),
        c(random_on_gpu<float>(tx::make_dim(kCount), -1.0f, 1.0f, 4)),
        bias(random_on_gpu<float>(tx::make_dim(kRows), -0.5f, 0.5f, 5)),
        a2(tx::reshape(a, tx::make_dim(kRows, kRows))),
        c2(tx::reshape(c, tx::make_dim(kRows, kRows))),
        column(random_on_gpu<float>(tx::make_dim(kRows, 1), -0.5f, 0.5f, 6)),
        h(random_on_gpu<tx::float16>(tx::make_dim(kRows, 2 * kRows), -6.0f, 6.0f, 7)),
        hc(tx::make_dim(kRows, 2 * kRows), tx::CudaPlace(0)),
        hbias(random_on_gpu<tx::float16>(tx::make_dim(2 * kRows), -0.5f, 0.5f, 8)) {}
  tx::Array<float, 1> a, b, d, c, bias;
  tx::Array<float, 2> a2, c2, column;
  // float16 matrices of the same bytes as the float ones.
  tx::Array<tx::float16, 2> h, hc;
  tx::Array<tx::float16, 1> hbias;
};

const Operands& operands() {
  static const Operands instance;
  return instance;
}

void copy(const Operands& x, cudaStream_t stream) {
  gpu_bench::check(cudaMemcpyAsync(x.c.data(), x.a.data(), kCount * sizeof(float),
                                   cudaMemcpyDeviceToDevice, stream));
}

// Times `work`, which reads or writes `streams` arrays of 2^26 floats per call, against the copy.
template <class Work>
void time_on_gpu(benchmark::State& state, int streams, Work&& work) {
  const Operands& x = operands();
  static const double ceiling =
      gpu_bench::copy_bandwidth(x.c.data(), x.a.data(), kCount * sizeof(float));
  gpu_bench::time_bandwidth(state, streams * kStreamBytes, ceiling, work);
}

void copy_cuda(benchmark::State& state) {
  const Operands& x = operands();
  const cudaStream_t stream = tx::current_stream(0);
  time_on_gpu(state, 2, [&] { copy(x, stream); });
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

// A column vector: one value per row, broadcast along it.
void column_scale_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> m = x.c2;
  time_on_gpu(state, 2, [&] { m = x.a2 * x.column; });
}

void bias_relu_float16_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<tx::float16, 2> m = x.hc;
  time_on_gpu(state, 2, [&] { m = tx::relu(x.h + x.hbias); });
}

void transpose_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> c = x.c2;
  time_on_gpu(state, 2, [&] { c = tx::transpose(x.a2); });
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_bench::run_main(argc, argv, [] {
    gpu_bench::register_timed("copy/cudaMemcpy", copy_cuda);
    gpu_bench::register_timed("triad/tensorx", triad_tensorx);
    gpu_bench::register_timed("sigmoid/tensorx", sigmoid_tensorx);
    gpu_bench::register_timed("bias_relu/tensorx", bias_relu_tensorx);
    gpu_bench::register_timed("bias_relu_float16/tensorx", bias_relu_float16_tensorx);
    gpu_bench::register_timed("column_scale/tensorx", column_scale_tensorx);
    gpu_bench::register_timed("transpose/tensorx", transpose_tensorx);
    benchmark::AddCustomContext("elements", std::to_string(kCount));
  });
}
