// CPU reductions: tensorx against Eigen Tensor (on a ThreadPoolDevice with as many threads as
// OpenMP uses) and against the memory bandwidth ceiling of the same threads, all on the very same
// buffers. The contract (DESIGN.md section 5): full and axis reductions within 20% of memory
// bandwidth and faster than Eigen on every axis; the targets: column sums at least 2x
// Eigen's, row sums at least as fast, within 25% of copy bandwidth, sum(a * b) no slower than
// Eigen. Each case is named <reduction>/<peer>; bytes_per_second counts the bytes each case must
// move (read for reductions, read plus written for the copy). Compare the medians:
//   bench_reduce --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#define EIGEN_USE_THREADS  // for cpu_bench.h: Eigen's ThreadPoolDevice

#include <cstdint>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cpu_bench.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using cpu_bench::eigen_device;
using cpu_bench::fill_random;

namespace {

// A 4096 x 4096 float matrix (64 MiB) and two vectors of 2^24 floats: far beyond the last-level
// cache, so every case streams memory.
constexpr tx::index_t kRows = 4096;
constexpr tx::index_t kCount = kRows * kRows;

struct Operands {
  Operands()
      : a(tx::make_dim(kCount)),
        b(tx::make_dim(kCount)),
        copy(tx::make_dim(kCount)),
        out(tx::make_dim(kCount)),
        m(tx::reshape(a, tx::make_dim(kRows, kRows))),
        p(tx::reshape(out, tx::make_dim(kRows, kRows))),
        rows(tx::make_dim(kRows)),
        columns(tx::make_dim(kRows)) {
    fill_random(a, -4.0f, 4.0f, 1);
    fill_random(b, -1.0f, 1.0f, 2);
    fill_random(copy, -1.0f, 1.0f, 3);
    fill_random(out, -1.0f, 1.0f, 4);
    fill_random(rows, -1.0f, 1.0f, 5);
    fill_random(columns, -1.0f, 1.0f, 6);
  }
  tx::Array<float, 1> a, b, copy, out;
  tx::Array<float, 2> m, p;
  tx::Array<float, 1> rows, columns;
};

const Operands& operands() {
  static const Operands instance;
  return instance;
}

using Vector = Eigen::TensorMap<Eigen::Tensor<float, 1, Eigen::RowMajor>>;
using Matrix = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;
using Scalar = Eigen::TensorMap<Eigen::Tensor<float, 0, Eigen::RowMajor>>;

Vector eigen_vector(const tx::Array<float, 1>& array) {
  return Vector(array.data(), array.numel());
}
Matrix eigen_matrix(const tx::Array<float, 2>& array) {
  return Matrix(array.data(), kRows, kRows);
}

void report(benchmark::State& state, std::int64_t bytes) {
  state.SetBytesProcessed(state.iterations() * bytes);
}
constexpr std::int64_t kMatrixBytes = kCount * static_cast<std::int64_t>(sizeof(float));

// The ceilings: a copy of the matrix's bytes (each thread memcpy's its share), and a read of them
// summed by a hand-written OpenMP SIMD loop (what a reduction could reach).
void copy_memcpy(benchmark::State& state) {
  const Operands& x = operands();
  for (auto _ : state) {
    cpu_bench::threaded_memcpy(x.copy.data(), x.a.data(), kMatrixBytes);
    benchmark::ClobberMemory();
  }
  report(state, 2 * kMatrixBytes);
}

void read_hand(benchmark::State& state) {
  const float* a = operands().a.data();
  for (auto _ : state) {
    float total = 0.0f;
#pragma omp parallel for simd reduction(+ : total) schedule(static)
    for (tx::index_t i = 0; i < kCount; ++i) total += a[i];
    benchmark::DoNotOptimize(total);
  }
  report(state, kMatrixBytes);
}

// r = sum over axis 1 (row sums) and axis 0 (column sums) of the matrix.
void row_sums_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> r = x.rows;
  for (auto _ : state) {
    r = tx::sum<1>(x.m);
    benchmark::ClobberMemory();
  }
  report(state, kMatrixBytes);
}

void row_sums_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Matrix m = eigen_matrix(x.m);
  Vector r = eigen_vector(x.rows);
  const Eigen::array<int, 1> axis{1};
  for (auto _ : state) {
    r.device(eigen_device()) = m.sum(axis);
    benchmark::ClobberMemory();
  }
  report(state, kMatrixBytes);
}

void column_sums_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> r = x.columns;
  for (auto _ : state) {
    r = tx::sum<0>(x.m);
    benchmark::ClobberMemory();
  }
  report(state, kMatrixBytes);
}

void column_sums_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Matrix m = eigen_matrix(x.m);
  Vector r = eigen_vector(x.columns);
  const Eigen::array<int, 1> axis{0};
  for (auto _ : state) {
    r.device(eigen_device()) = m.sum(axis);
    benchmark::ClobberMemory();
  }
  report(state, kMatrixBytes);
}

// The same two axes with max, whose SIMD combine is a compare and select.
void row_max_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> r = x.rows;
  for (auto _ : state) {
    r = tx::max<1>(x.m);
    benchmark::ClobberMemory();
  }
  report(state, kMatrixBytes);
}

void row_max_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Matrix m = eigen_matrix(x.m);
  Vector r = eigen_vector(x.rows);
  const Eigen::array<int, 1> axis{1};
  for (auto _ : state) {
    r.device(eigen_device()) = m.maximum(axis);
    benchmark::ClobberMemory();
  }
  report(state, kMatrixBytes);
}

void column_max_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> r = x.columns;
  for (auto _ : state) {
    r = tx::max<0>(x.m);
    benchmark::ClobberMemory();
  }
  report(state, kMatrixBytes);
}

void column_max_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Matrix m = eigen_matrix(x.m);
  Vector r = eigen_vector(x.columns);
  const Eigen::array<int, 1> axis{0};
  for (auto _ : state) {
    r.device(eigen_device()) = m.maximum(axis);
    benchmark::ClobberMemory();
  }
  report(state, kMatrixBytes);
}

// s = sum(a * b) over 2^24 elements: two streams read, no temporary.
void dot_sum_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 0> s;
  for (auto _ : state) {
    s = tx::sum(x.a * x.b);
    benchmark::DoNotOptimize(s.data());
  }
  report(state, 2 * kMatrixBytes);
}

void dot_sum_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Vector a = eigen_vector(x.a), b = eigen_vector(x.b);
  float result = 0.0f;
  Scalar s(&result);
  for (auto _ : state) {
    s.device(eigen_device()) = (a * b).sum();
    benchmark::DoNotOptimize(result);
  }
  report(state, 2 * kMatrixBytes);
}

// A softmax along rows: max, exp, sum, divide, as two assignments. Since row-local fusion
// (DESIGN.md section 10) each is one pass, its reduction computed per row in cache (two passes;
// before, four). bench_normalize times tx::softmax (one pass) and the four-pass form.
void softmax_rows_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> p = x.p;
  for (auto _ : state) {
    p = tx::exp(x.m - tx::max<1>(x.m, tx::keepdims));
    p = p / tx::sum<1>(p, tx::keepdims);
    benchmark::ClobberMemory();
  }
  report(state, kMatrixBytes);
}

// Eigen's softmax with the row maxima and sums evaluated into vectors first, as tensorx's are: a
// reduction left inside Eigen's element-wise expression is recomputed for every element.
void softmax_rows_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Matrix m = eigen_matrix(x.m);
  Matrix p = eigen_matrix(x.p);
  Vector per_row = eigen_vector(x.rows);
  const Eigen::array<int, 1> axis{1};
  const Eigen::array<Eigen::Index, 2> column_shape{kRows, 1};
  const Eigen::array<Eigen::Index, 2> stretch{1, kRows};
  for (auto _ : state) {
    per_row.device(eigen_device()) = m.maximum(axis);
    p.device(eigen_device()) = (m - per_row.reshape(column_shape).broadcast(stretch)).exp();
    per_row.device(eigen_device()) = p.sum(axis);
    p.device(eigen_device()) = p / per_row.reshape(column_shape).broadcast(stretch);
    benchmark::ClobberMemory();
  }
  report(state, kMatrixBytes);
}

void register_case(const char* name, void (*function)(benchmark::State&)) {
  benchmark::RegisterBenchmark(name, function)->UseRealTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  register_case("copy/memcpy", copy_memcpy);
  register_case("read/hand", read_hand);
  register_case("row_sums/tensorx", row_sums_tensorx);
  register_case("row_sums/eigen", row_sums_eigen);
  register_case("column_sums/tensorx", column_sums_tensorx);
  register_case("column_sums/eigen", column_sums_eigen);
  register_case("row_max/tensorx", row_max_tensorx);
  register_case("row_max/eigen", row_max_eigen);
  register_case("column_max/tensorx", column_max_tensorx);
  register_case("column_max/eigen", column_max_eigen);
  register_case("dot_sum/tensorx", dot_sum_tensorx);
  register_case("dot_sum/eigen", dot_sum_eigen);
  register_case("softmax_rows/tensorx", softmax_rows_tensorx);
  register_case("softmax_rows/eigen", softmax_rows_eigen);

  return cpu_bench::run_benchmarks(argc, argv, "matrix", "4096 x 4096 float");
}
