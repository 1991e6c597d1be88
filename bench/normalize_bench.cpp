// CPU normalisations along the rows of a 4096 x 4096 float matrix (64 MiB, far beyond the
// last-level cache): tensorx's row-local fusion (DESIGN.md section 10: ONE pass, each row's
// reductions computed while the row stays in cache) against the same formulas with their
// reductions materialised into named arrays (what tensorx ran before the fusion), against Eigen
// Tensor's multi-pass form on a ThreadPoolDevice with as many threads, and against the
// read-once/write-once bound, a copy of the matrix. Issue #31's target: the fused softmax and
// layer_norm at most 0.85 of Eigen's time; DESIGN.md section 10: one pass, no slower than Eigen.
//
// Each case is named <normalisation>/<peer>: tensorx (the library function, one pass),
// tensorx_four_passes or tensorx_two_passes (the reductions and the subexpression they share with
// the output materialised first: softmax m, e, s, then p; layer_norm the mean, the centred rows,
// the variance, then y; rms_norm has only the mean square to materialise), eigen (the same four
// passes written with Eigen, its fastest form here) and eigen_three_passes (only Eigen's reductions
// evaluated into vectors, the element-wise parts left lazy inside them: three reads of the matrix,
// one write, but Eigen reduces a broadcasting expression slowly). scale/tensorx, one element-wise
// pass y = x * gamma, is what any tensorx pass that reads the matrix once and writes it once
// reaches. bytes_per_second counts the bound's bytes for every case, the matrix read once and
// written once, so that a case's rate over copy/memcpy's is its fraction of the bound.
// Compare the medians:
//   OMP_WAIT_POLICY=PASSIVE bench_normalize --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#define EIGEN_USE_THREADS  // for cpu_bench.h: Eigen's ThreadPoolDevice

#include <cstdint>

#include "cpu_bench.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using cpu_bench::eigen_device;
using cpu_bench::fill_random;

namespace {

constexpr tx::index_t kRows = 4096;
constexpr tx::index_t kCount = kRows * kRows;
constexpr std::int64_t kMatrixBytes = kCount * static_cast<std::int64_t>(sizeof(float));
// The read-once/write-once bound's bytes, counted for every case.
constexpr std::int64_t kBoundBytes = 2 * kMatrixBytes;
constexpr float kLayerNormEps = 1e-5f;
constexpr float kRmsNormEps = 1e-6f;

// The input x (random, never zeros), the output y, the multi-pass forms' temporaries (a matrix
// and two columns of one value per row), and layer_norm's and rms_norm's gamma and beta.
struct Operands {
  Operands()
      : x(tx::make_dim(kRows, kRows)),
        y(tx::make_dim(kRows, kRows)),
        temporary(tx::make_dim(kRows, kRows)),
        per_row(tx::make_dim(kRows, 1)),
        per_row2(tx::make_dim(kRows, 1)),
        gamma(tx::make_dim(kRows)),
        beta(tx::make_dim(kRows)) {
    fill_random(x, -4.0f, 4.0f, 1);
    fill_random(y, -1.0f, 1.0f, 2);
    fill_random(temporary, -1.0f, 1.0f, 3);
    fill_random(per_row, -1.0f, 1.0f, 4);
    fill_random(per_row2, -1.0f, 1.0f, 5);
    fill_random(gamma, 0.5f, 1.5f, 6);
    fill_random(beta, -0.5f, 0.5f, 7);
  }
  tx::Array<float, 2> x, y, temporary, per_row, per_row2;
  tx::Array<float, 1> gamma, beta;
};

const Operands& operands() {
  static const Operands instance;
  return instance;
}

// Eigen's views of the same buffers: the matrices, a column (one value per row) as a vector, and
// the broadcasts that stretch a column along the rows or a row vector down the columns.
using Vector = Eigen::TensorMap<Eigen::Tensor<float, 1, Eigen::RowMajor>>;
using Matrix = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;

Matrix eigen_matrix(const tx::Array<float, 2>& array) {
  return Matrix(array.data(), kRows, kRows);
}
template <int N>
Vector eigen_vector(const tx::Array<float, N>& array) {
  return Vector(array.data(), kRows);
}
const Eigen::array<int, 1> kRowAxis{1};
const Eigen::array<Eigen::Index, 2> kColumnShape{kRows, 1};
const Eigen::array<Eigen::Index, 2> kAlongRows{1, kRows};
const Eigen::array<Eigen::Index, 2> kRowShape{1, kRows};
const Eigen::array<Eigen::Index, 2> kDownColumns{kRows, 1};

auto along_rows(const Vector& column) {
  return column.reshape(kColumnShape).broadcast(kAlongRows);
}
auto down_columns(const Vector& row) {
  return row.reshape(kRowShape).broadcast(kDownColumns);
}

// Runs `assign` once per iteration and reports the bound's bytes.
template <class Assign>
void time_passes(benchmark::State& state, Assign&& assign) {
  for (auto _ : state) {
    assign();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBoundBytes);
}

// The bound: a copy of the matrix's bytes, each thread memcpy'ing its share.
void copy_memcpy(benchmark::State& state) {
  const Operands& o = operands();
  time_passes(state, [&] { cpu_bench::threaded_memcpy(o.y.data(), o.x.data(), kMatrixBytes); });
}

// One element-wise pass over the matrix, y = x * gamma: what a tensorx pass that reads the matrix
// once and writes it once reaches. Its stores read each line of y before writing it, where the
// large memcpy's streaming stores do not: three streams against the copy's two.
void scale_tensorx(benchmark::State& state) {
  const Operands& o = operands();
  tx::Array<float, 2> y = o.y;
  time_passes(state, [&] { y = o.x * o.gamma; });
}

// ---- softmax ---------------------------------------------------------------------------------

void softmax_tensorx(benchmark::State& state) {
  const Operands& o = operands();
  tx::Array<float, 2> p = o.y;
  time_passes(state, [&] { p = tx::softmax<1>(o.x); });
}

void softmax_tensorx_four_passes(benchmark::State& state) {
  const Operands& o = operands();
  tx::Array<float, 2> m = o.per_row, s = o.per_row2, e = o.temporary, p = o.y;
  time_passes(state, [&] {
    m = tx::max<1>(o.x, tx::keepdims);
    e = tx::exp(o.x - m);
    s = tx::sum<1>(e, tx::keepdims);
    p = e / s;
  });
}

void softmax_eigen(benchmark::State& state) {
  const Operands& o = operands();
  const Matrix x = eigen_matrix(o.x);
  Matrix e = eigen_matrix(o.temporary), p = eigen_matrix(o.y);
  Vector m = eigen_vector(o.per_row), s = eigen_vector(o.per_row2);
  time_passes(state, [&] {
    m.device(eigen_device()) = x.maximum(kRowAxis);
    e.device(eigen_device()) = (x - along_rows(m)).exp();
    s.device(eigen_device()) = e.sum(kRowAxis);
    p.device(eigen_device()) = e / along_rows(s);
  });
}

void softmax_eigen_three_passes(benchmark::State& state) {
  const Operands& o = operands();
  const Matrix x = eigen_matrix(o.x);
  Matrix p = eigen_matrix(o.y);
  Vector m = eigen_vector(o.per_row), s = eigen_vector(o.per_row2);
  time_passes(state, [&] {
    m.device(eigen_device()) = x.maximum(kRowAxis);
    s.device(eigen_device()) = (x - along_rows(m)).exp().sum(kRowAxis);
    p.device(eigen_device()) = (x - along_rows(m)).exp() / along_rows(s);
  });
}

// ---- log_softmax -----------------------------------------------------------------------------

void log_softmax_tensorx(benchmark::State& state) {
  const Operands& o = operands();
  tx::Array<float, 2> q = o.y;
  time_passes(state, [&] { q = tx::log_softmax<1>(o.x); });
}

void log_softmax_tensorx_four_passes(benchmark::State& state) {
  const Operands& o = operands();
  tx::Array<float, 2> m = o.per_row, s = o.per_row2, c = o.temporary, q = o.y;
  time_passes(state, [&] {
    m = tx::max<1>(o.x, tx::keepdims);
    c = o.x - m;
    s = tx::sum<1>(tx::exp(c), tx::keepdims);
    q = c - tx::log(s);
  });
}

// ---- layer_norm ------------------------------------------------------------------------------

void layer_norm_tensorx(benchmark::State& state) {
  const Operands& o = operands();
  tx::Array<float, 2> y = o.y;
  time_passes(state, [&] { y = tx::layer_norm<1>(o.x, o.gamma, o.beta, kLayerNormEps); });
}

void layer_norm_tensorx_four_passes(benchmark::State& state) {
  const Operands& o = operands();
  tx::Array<float, 2> mean = o.per_row, variance = o.per_row2, c = o.temporary, y = o.y;
  time_passes(state, [&] {
    mean = tx::mean<1>(o.x, tx::keepdims);
    c = o.x - mean;
    variance = tx::mean<1>(tx::square(c), tx::keepdims);
    y = c * tx::rsqrt(variance + kLayerNormEps) * o.gamma + o.beta;
  });
}

void layer_norm_eigen(benchmark::State& state) {
  const Operands& o = operands();
  const Matrix x = eigen_matrix(o.x);
  Matrix c = eigen_matrix(o.temporary), y = eigen_matrix(o.y);
  Vector mean = eigen_vector(o.per_row), scale = eigen_vector(o.per_row2);
  const Vector gamma = eigen_vector(o.gamma), beta = eigen_vector(o.beta);
  time_passes(state, [&] {
    mean.device(eigen_device()) = x.mean(kRowAxis);
    c.device(eigen_device()) = x - along_rows(mean);
    scale.device(eigen_device()) = (c.square().mean(kRowAxis) + kLayerNormEps).rsqrt();
    y.device(eigen_device()) = c * along_rows(scale) * down_columns(gamma) + down_columns(beta);
  });
}

void layer_norm_eigen_three_passes(benchmark::State& state) {
  const Operands& o = operands();
  const Matrix x = eigen_matrix(o.x);
  Matrix y = eigen_matrix(o.y);
  Vector mean = eigen_vector(o.per_row), scale = eigen_vector(o.per_row2);
  const Vector gamma = eigen_vector(o.gamma), beta = eigen_vector(o.beta);
  time_passes(state, [&] {
    mean.device(eigen_device()) = x.mean(kRowAxis);
    scale.device(eigen_device()) =
        ((x - along_rows(mean)).square().mean(kRowAxis) + kLayerNormEps).rsqrt();
    y.device(eigen_device()) =
        (x - along_rows(mean)) * along_rows(scale) * down_columns(gamma) + down_columns(beta);
  });
}

// ---- rms_norm --------------------------------------------------------------------------------

void rms_norm_tensorx(benchmark::State& state) {
  const Operands& o = operands();
  tx::Array<float, 2> y = o.y;
  time_passes(state, [&] { y = tx::rms_norm<1>(o.x, o.gamma, kRmsNormEps); });
}

void rms_norm_tensorx_two_passes(benchmark::State& state) {
  const Operands& o = operands();
  tx::Array<float, 2> mean_square = o.per_row, y = o.y;
  time_passes(state, [&] {
    mean_square = tx::mean<1>(tx::square(o.x), tx::keepdims);
    y = o.x * tx::rsqrt(mean_square + kRmsNormEps) * o.gamma;
  });
}

void register_case(const char* name, void (*function)(benchmark::State&)) {
  benchmark::RegisterBenchmark(name, function)->UseRealTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  register_case("copy/memcpy", copy_memcpy);
  register_case("scale/tensorx", scale_tensorx);
  register_case("softmax/tensorx", softmax_tensorx);
  register_case("softmax/tensorx_four_passes", softmax_tensorx_four_passes);
  register_case("softmax/eigen", softmax_eigen);
  register_case("softmax/eigen_three_passes", softmax_eigen_three_passes);
  register_case("layer_norm/tensorx", layer_norm_tensorx);
  register_case("layer_norm/tensorx_four_passes", layer_norm_tensorx_four_passes);
  register_case("layer_norm/eigen", layer_norm_eigen);
  register_case("layer_norm/eigen_three_passes", layer_norm_eigen_three_passes);
  register_case("log_softmax/tensorx", log_softmax_tensorx);
  register_case("log_softmax/tensorx_four_passes", log_softmax_tensorx_four_passes);
  register_case("rms_norm/tensorx", rms_norm_tensorx);
  register_case("rms_norm/tensorx_two_passes", rms_norm_tensorx_two_passes);

  return cpu_bench::run_benchmarks(argc, argv, "matrix", "4096 x 4096 float");
}
