// GPU reductions: tensorx's one kernel per reduction against the ceiling of the machine, a
// device-to-device cudaMemcpy of the same bytes, and against CUB's DeviceReduce called directly.
// The contract (DESIGN.md section 5): at least 85% of the copy bandwidth, one launch per
// assignment. A reduction reads its operand once, so its bandwidth is the bytes it reads over its
// time, compared with the copy's bytes read plus written over the copy's time. The matrix is
// 8192 x 8192 floats (256 MiB, far beyond the L2 cache), and the float16 cases read 2^27 values
// (the same bytes) 16 bytes per load; each iteration is one assignment timed with CUDA events on
// the stream tensorx runs on. full_sum/compiled is the entry a plain C++ translation unit reaches
// (the same kernel). PyTorch's times for the same cases come from bench/torch_reduce.py.
//   bench_reduce_cuda --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <cub/device/device_reduce.cuh>

#include "gpu_bench.cuh"

namespace tx = tensorx;
using gpu_bench::random_on_gpu;

namespace {

constexpr tx::index_t kRows = tx::index_t{1} << 13;
constexpr tx::index_t kCount = kRows * kRows;
constexpr double kMatrixBytes = static_cast<double>(kCount) * sizeof(float);

struct Operands {
  Operands()
      : a(random_on_gpu<float>(tx::make_dim(kCount), -4.0f, 4.0f, 1)),
        b(random_on_gpu<float>(tx::make_dim(kCount), -1.0f, 1.0f, 2)),
        c(random_on_gpu<float>(tx::make_dim(kCount), -1.0f, 1.0f, 3)),
        m(tx::reshape(a, tx::make_dim(kRows, kRows))),
        p(tx::reshape(c, tx::make_dim(kRows, kRows))),
        rows(tx::make_dim(kRows), tx::CudaPlace(0)),
        columns(tx::make_dim(kRows), tx::CudaPlace(0)),
        scalar(tx::Dim<0>(), tx::CudaPlace(0)),
        h(random_on_gpu<tx::float16>(tx::make_dim(2 * kCount), -1.0f, 1.0f, 4)),
        hm(tx::reshape(h, tx::make_dim(kRows, 2 * kRows))),
        hrows(tx::make_dim(kRows), tx::CudaPlace(0)),
        hscalar(tx::Dim<0>(), tx::CudaPlace(0)) {}
  tx::Array<float, 1> a, b, c;
  tx::Array<float, 2> m, p;
  tx::Array<float, 1> rows, columns;
  tx::Array<float, 0> scalar;
  tx::Array<tx::float16, 1> h;  // as many bytes as the float matrix
  tx::Array<tx::float16, 2> hm;
  tx::Array<tx::float16, 1> hrows;
  tx::Array<tx::float16, 0> hscalar;
};

const Operands& operands() {
  static const Operands instance;
  return instance;
}

void copy_matrix(cudaStream_t stream) {
  const Operands& x = operands();
  gpu_bench::check(cudaMemcpyAsync(x.c.data(), x.a.data(), kCount * sizeof(float),
                                   cudaMemcpyDeviceToDevice, stream));
}

// Times `work`, which moves `bytes`, against the ceiling: a device-to-device copy of the matrix.
template <class Work>
void time_on_gpu(benchmark::State& state, double bytes, Work&& work) {
  const Operands& x = operands();
  static const double ceiling =
      gpu_bench::copy_bandwidth(x.c.data(), x.a.data(), kCount * sizeof(float));
  gpu_bench::time_bandwidth(state, bytes, ceiling, work);
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

// CUB's full sum, its scratch memory allocated once: the peer.
void full_sum_cub(benchmark::State& state) {
  const Operands& x = operands();
  std::size_t bytes = 0;
  gpu_bench::check(cub::DeviceReduce::Sum(nullptr, bytes, x.a.data(), x.scalar.data(), kCount));
  void* scratch = nullptr;
  gpu_bench::check(cudaMalloc(&scratch, bytes));
  const cudaStream_t stream = tx::current_stream(0);
  time_on_gpu(state, kMatrixBytes, [&] {
    gpu_bench::check(
        cub::DeviceReduce::Sum(scratch, bytes, x.a.data(), x.scalar.data(), kCount, stream));
  });
  gpu_bench::check(cudaFree(scratch));
}

// The compiled layer's full sum: what a plain C++ translation unit runs.
void full_sum_compiled(benchmark::State& state) {
  const Operands& x = operands();
  tx::detail::ThreeAxes axes;
  axes.reduced = kCount;
  time_on_gpu(state, kMatrixBytes, [&] {
    tx::detail::reduce_contiguous(tx::ReduceOp::kSum, tx::DataType::kFloat32, x.a.data(),
                                  x.scalar.data(), axes, tx::CudaPlace(0), tx::SaveMode::kWrite);
  });
}

void float16_full_sum_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<tx::float16, 0> s = x.hscalar;
  time_on_gpu(state, kMatrixBytes, [&] { s = tx::sum(x.h); });
}

// A float result of float16 values: the loads follow the operand's width, not the result's.
void float16_full_sum_into_float_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 0> s = x.scalar;
  time_on_gpu(state, kMatrixBytes, [&] { s = tx::sum(tx::cast<float>(x.h)); });
}

void float16_row_sums_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<tx::float16, 1> r = x.hrows;
  time_on_gpu(state, kMatrixBytes, [&] { r = tx::sum<1>(x.hm); });
}

void dot_sum_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 0> s = x.scalar;
  time_on_gpu(state, 2 * kMatrixBytes, [&] { s = tx::sum(x.a * x.b); });
}

// A softmax along rows as two assignments. Since row-local fusion (DESIGN.md section 10) each is
// one kernel, its reduction computed by the team that owns the row (two launches, four matrix
// transfers; before, four launches). bench_normalize_cuda times tx::softmax (one kernel).
void softmax_rows_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> p = x.p;
  time_on_gpu(state, kMatrixBytes, [&] {
    p = tx::exp(x.m - tx::max<1>(x.m, tx::keepdims));
    p = p / tx::sum<1>(p, tx::keepdims);
  });
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_bench::run_main(argc, argv, [] {
    gpu_bench::register_timed("copy/cudaMemcpy", copy_cuda);
    gpu_bench::register_timed("row_sums/tensorx", row_sums_tensorx);
    gpu_bench::register_timed("column_sums/tensorx", column_sums_tensorx);
    gpu_bench::register_timed("row_max/tensorx", row_max_tensorx);
    gpu_bench::register_timed("full_sum/tensorx", full_sum_tensorx);
    gpu_bench::register_timed("full_sum/compiled", full_sum_compiled);
    gpu_bench::register_timed("full_sum/cub", full_sum_cub);
    gpu_bench::register_timed("float16_full_sum/tensorx", float16_full_sum_tensorx);
    gpu_bench::register_timed("float16_full_sum_into_float/tensorx",
                              float16_full_sum_into_float_tensorx);
    gpu_bench::register_timed("float16_row_sums/tensorx", float16_row_sums_tensorx);
    gpu_bench::register_timed("dot_sum/tensorx", dot_sum_tensorx);
    gpu_bench::register_timed("softmax_rows/tensorx", softmax_rows_tensorx);
    benchmark::AddCustomContext("matrix", "8192 x 8192 float");
  });
}
