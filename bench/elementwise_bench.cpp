// CPU element-wise expressions: tensorx against a hand-written OpenMP loop and Eigen Tensor (on a
// ThreadPoolDevice with as many threads as OpenMP uses), all three on the very same buffers. The
// contract (DESIGN.md section 5): within 5% of the hand loop, at least as fast as Eigen, sigmoid
// vectorised, and under 1 microsecond of fixed cost per assignment. Each case is named
// <expression>/<peer>; compare the medians of the peers of one expression:
//   bench_elementwise --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#define EIGEN_USE_THREADS  // for cpu_bench.h: Eigen's ThreadPoolDevice

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cpu_bench.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using cpu_bench::eigen_device;
using cpu_bench::fill_random;

namespace {

// 2^24 floats (64 MiB per array): far beyond the last-level cache, so every case streams memory.
constexpr tx::index_t kCount = tx::index_t{1} << 24;
// The matrix cases view the same buffers as kRows x kRows.
constexpr tx::index_t kRows = 4096;
// The dispatch-overhead case: small enough that the fixed cost of an assignment shows.
constexpr tx::index_t kSmallCount = 1000;

// Inputs a, b, d (random, never zeros), the positive input p, and the output c, shared by every
// case. The matrix cases reshape them to kRows x kRows; the bias is one row.
struct Operands {
  Operands()
      : a(tx::make_dim(kCount)),
        b(tx::make_dim(kCount)),
        d(tx::make_dim(kCount)),
        p(tx::make_dim(kCount)),
        c(tx::make_dim(kCount)),
        bias(tx::make_dim(kRows)),
        a2(tx::reshape(a, tx::make_dim(kRows, kRows))),
        c2(tx::reshape(c, tx::make_dim(kRows, kRows))) {
    // [-6, 6] spans the whole bend of the sigmoid.
    fill_random(a, -6.0f, 6.0f, 1);
    fill_random(b, -1.0f, 1.0f, 2);
    fill_random(d, -1.0f, 1.0f, 3);
    // The domain of log and sqrt over four decades; pow(p, b) stays within [0.01, 100].
    fill_random(p, 0.01f, 100.0f, 9);
    fill_random(c, -1.0f, 1.0f, 4);
    fill_random(bias, -0.5f, 0.5f, 5);
  }
  tx::Array<float, 1> a, b, d, p, c, bias;
  tx::Array<float, 2> a2, c2;
};

const Operands& operands() {
  static const Operands instance;
  return instance;
}

// Eigen's view of the same buffers, and its thread pool.
using Vector = Eigen::TensorMap<Eigen::Tensor<float, 1, Eigen::RowMajor>>;
using Matrix = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;
using Row = Eigen::TensorMap<Eigen::Tensor<const float, 1, Eigen::RowMajor>>;

Vector eigen_vector(const tx::Array<float, 1>& array) {
  return Vector(array.data(), kCount);
}
Matrix eigen_matrix(const tx::Array<float, 2>& array) {
  return Matrix(array.data(), kRows, kRows);
}

// Bytes read plus bytes written per element, for the bytes_per_second column.
void report(benchmark::State& state, tx::index_t elements, int streams) {
  state.SetBytesProcessed(state.iterations() * elements * streams *
                          static_cast<std::int64_t>(sizeof(float)));
}

void register_large(const char* name, void (*function)(benchmark::State&)) {
  benchmark::RegisterBenchmark(name, function)->UseRealTime()->Unit(benchmark::kMillisecond);
}

// c = a * b + 2 * d: three streams in, one out.
void triad_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> c = x.c;
  for (auto _ : state) {
    c = x.a * x.b + 2.0f * x.d;
    benchmark::ClobberMemory();
  }
  report(state, kCount, 4);
}

void triad_hand(benchmark::State& state) {
  const Operands& x = operands();
  const float* a = x.a.data();
  const float* b = x.b.data();
  const float* d = x.d.data();
  float* c = x.c.data();
  for (auto _ : state) {
#pragma omp parallel for simd schedule(static)
    for (tx::index_t i = 0; i < kCount; ++i) c[i] = a[i] * b[i] + 2.0f * d[i];
    benchmark::ClobberMemory();
  }
  report(state, kCount, 4);
}

void triad_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Vector a = eigen_vector(x.a), b = eigen_vector(x.b), d = eigen_vector(x.d);
  Vector c = eigen_vector(x.c);
  for (auto _ : state) {
    c.device(eigen_device()) = a * b + d * 2.0f;
    benchmark::ClobberMemory();
  }
  report(state, kCount, 4);
}

// c = 1 / (1 + exp(-a)): transcendental, so the SIMD exp decides.
void sigmoid_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> c = x.c;
  for (auto _ : state) {
    c = tx::sigmoid(x.a);
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

void sigmoid_literal_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> c = x.c;
  for (auto _ : state) {
    c = 1.0f / (1.0f + tx::exp(-x.a));
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

void sigmoid_hand(benchmark::State& state) {
  const Operands& x = operands();
  const float* a = x.a.data();
  float* c = x.c.data();
  for (auto _ : state) {
#pragma omp parallel for simd schedule(static)
    for (tx::index_t i = 0; i < kCount; ++i) c[i] = 1.0f / (1.0f + std::exp(-a[i]));
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

void sigmoid_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Vector a = eigen_vector(x.a);
  Vector c = eigen_vector(x.c);
  for (auto _ : state) {
    c.device(eigen_device()) = a.sigmoid();
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

void sigmoid_literal_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Vector a = eigen_vector(x.a);
  Vector c = eigen_vector(x.c);
  for (auto _ : state) {
    c.device(eigen_device()) = ((-a).exp() + 1.0f).inverse();
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

// One math function per case, on a (the exponentials, tanh, erf, GELU) or p (logarithms, roots),
// each against Eigen's same function on the same threads: what the SIMD math of ops/simd_math.h
// costs once the memory traffic is the same. The double cases read a converted to double and
// write their own output (DoubleOperands).
struct DoubleOperands {
  DoubleOperands() : a(tx::cast<double>(operands().a)), c(tx::cast<double>(operands().c)) {}
  tx::Array<double, 1> a, c;
};

const DoubleOperands& double_operands() {
  static const DoubleOperands instance;
  return instance;
}

template <class T>
const tx::Array<T, 1>& math_output() {
  if constexpr (std::is_same_v<T, double>) {
    return double_operands().c;
  } else {
    return operands().c;
  }
}

template <class T, class Build>
void math_tensorx(benchmark::State& state, const tx::Array<T, 1>& in, Build build) {
  tx::Array<T, 1> c = math_output<T>();
  for (auto _ : state) {
    c = build(in);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kCount * 2 * static_cast<std::int64_t>(sizeof(T)));
}

template <class T, class Build>
void math_eigen(benchmark::State& state, const tx::Array<T, 1>& in, Build build) {
  using Map = Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor>>;
  const Map a(in.data(), kCount);
  Map c(math_output<T>().data(), kCount);
  for (auto _ : state) {
    c.device(eigen_device()) = build(a);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kCount * 2 * static_cast<std::int64_t>(sizeof(T)));
}

// c = pow(p, b): a positive base to a power in [-1, 1].
void pow_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 1> c = x.c;
  for (auto _ : state) {
    c = tx::pow(x.p, x.b);
    benchmark::ClobberMemory();
  }
  report(state, kCount, 3);
}

void pow_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Vector p = eigen_vector(x.p), b = eigen_vector(x.b);
  Vector c = eigen_vector(x.c);
  for (auto _ : state) {
    c.device(eigen_device()) = p.binaryExpr(b, Eigen::internal::scalar_pow_op<float, float>());
    benchmark::ClobberMemory();
  }
  report(state, kCount, 3);
}

void register_math() {
  const tx::Array<float, 1>& a = operands().a;
  const tx::Array<float, 1>& p = operands().p;
  const auto both = [](const char* name, const auto& in, auto tensorx, auto eigen) {
    using T = typename std::decay_t<decltype(in)>::value_type;
    const std::string prefix(name);
    benchmark::RegisterBenchmark((prefix + "/tensorx").c_str(), math_tensorx<T, decltype(tensorx)>,
                                 in, tensorx)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((prefix + "/eigen").c_str(), math_eigen<T, decltype(eigen)>, in,
                                 eigen)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  };
  both(
      "exp", a, [](const auto& x) { return tx::exp(x); }, [](const Vector& x) { return x.exp(); });
  both(
      "expm1", a, [](const auto& x) { return tx::expm1(x); },
      [](const Vector& x) { return x.expm1(); });
  both(
      "log", p, [](const auto& x) { return tx::log(x); }, [](const Vector& x) { return x.log(); });
  both(
      "log1p", p, [](const auto& x) { return tx::log1p(x); },
      [](const Vector& x) { return x.log1p(); });
  both(
      "tanh", a, [](const auto& x) { return tx::tanh(x); }, [](const auto& x) { return x.tanh(); });
  both(
      "erf", a, [](const auto& x) { return tx::erf(x); }, [](const auto& x) { return x.erf(); });
  both(
      "sqrt", p, [](const auto& x) { return tx::sqrt(x); },
      [](const Vector& x) { return x.sqrt(); });
  both(
      "rsqrt", p, [](const auto& x) { return tx::rsqrt(x); },
      [](const Vector& x) { return x.rsqrt(); });
  // Eigen has no GELU: its peer is the same tanh form written with Eigen's functions.
  both(
      "gelu", a, [](const auto& x) { return tx::gelu(x); },
      [](const Vector& x) {
        return x * 0.5f * (((x * x * x * 0.044715f + x) * 0.7978845608028654f).tanh() + 1.0f);
      });
  register_large("pow/tensorx", pow_tensorx);
  register_large("pow/eigen", pow_eigen);
  // In double, Eigen 3.4 has no vectorised tanh or erf: its peer calls C's per element.
  const tx::Array<double, 1>& a_double = double_operands().a;
  both(
      "tanh_double", a_double, [](const auto& x) { return tx::tanh(x); },
      [](const auto& x) { return x.tanh(); });
  both(
      "erf_double", a_double, [](const auto& x) { return tx::erf(x); },
      [](const auto& x) { return x.erf(); });
}

// m = relu(x + bias) on kRows x kRows with a broadcast row of kRows.
void bias_relu_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> m = x.c2;
  for (auto _ : state) {
    m = tx::relu(x.a2 + x.bias);
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

void bias_relu_hand(benchmark::State& state) {
  const Operands& x = operands();
  const float* in = x.a2.data();
  const float* bias = x.bias.data();
  float* m = x.c2.data();
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (tx::index_t i = 0; i < kRows; ++i) {
      const float* row = in + i * kRows;
      float* out = m + i * kRows;
#pragma omp simd
      for (tx::index_t j = 0; j < kRows; ++j) {
        const float v = row[j] + bias[j];
        out[j] = v > 0.0f ? v : 0.0f;
      }
    }
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

void bias_relu_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Matrix in = eigen_matrix(x.a2);
  const Row bias(x.bias.data(), kRows);
  Matrix m = eigen_matrix(x.c2);
  const Eigen::array<Eigen::Index, 2> row_shape{1, kRows};
  const Eigen::array<Eigen::Index, 2> stretch{kRows, 1};
  for (auto _ : state) {
    m.device(eigen_device()) = (in + bias.reshape(row_shape).broadcast(stretch)).cwiseMax(0.0f);
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

// c = transpose(a) on kRows x kRows: one side is read or written across rows.
void transpose_tensorx(benchmark::State& state) {
  const Operands& x = operands();
  tx::Array<float, 2> c = x.c2;
  for (auto _ : state) {
    c = tx::transpose(x.a2);
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

void transpose_hand(benchmark::State& state) {
  const Operands& x = operands();
  const float* a = x.a2.data();
  float* c = x.c2.data();
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (tx::index_t i = 0; i < kRows; ++i) {
#pragma omp simd
      for (tx::index_t j = 0; j < kRows; ++j) c[i * kRows + j] = a[j * kRows + i];
    }
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

// The same copy in square tiles, whose rows of a and of c stay in the L1 cache while the tile is
// copied: what a transposition can reach, where the loop above is what an element-wise pass does.
void transpose_hand_tiled(benchmark::State& state) {
  const Operands& x = operands();
  for (auto _ : state) {
    cpu_bench::hand_tiled_transpose(x.a2.data(), x.c2.data(), kRows);
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

void transpose_eigen(benchmark::State& state) {
  const Operands& x = operands();
  const Matrix a = eigen_matrix(x.a2);
  Matrix c = eigen_matrix(x.c2);
  const Eigen::array<int, 2> swap{1, 0};
  for (auto _ : state) {
    c.device(eigen_device()) = a.shuffle(swap);
    benchmark::ClobberMemory();
  }
  report(state, kCount, 2);
}

// c = a + b on kSmallCount elements, on the calling thread: the fixed cost of an assignment
// (checks, planning, the pass) is the difference of the two per-call times.
struct SmallOperands {
  SmallOperands() : a(tx::make_dim(kSmallCount)), b(tx::make_dim(kSmallCount)), c(a.dims()) {
    fill_random(a, -1.0f, 1.0f, 6);
    fill_random(b, -1.0f, 1.0f, 7);
    fill_random(c, -1.0f, 1.0f, 8);
  }
  tx::Array<float, 1> a, b, c;
};

void small_add_tensorx(benchmark::State& state) {
  SmallOperands x;
  for (auto _ : state) {
    x.c = x.a + x.b;
    benchmark::ClobberMemory();
  }
  report(state, kSmallCount, 3);
}

void small_add_hand(benchmark::State& state) {
  SmallOperands x;
  const float* a = x.a.data();
  const float* b = x.b.data();
  float* c = x.c.data();
  for (auto _ : state) {
    // benchmark::DoNotOptimize keeps the pointers opaque, so the loop is neither hoisted out of
    // the timing loop nor specialised to the buffers.
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    benchmark::DoNotOptimize(c);
#pragma omp simd
    for (tx::index_t i = 0; i < kSmallCount; ++i) c[i] = a[i] + b[i];
    benchmark::ClobberMemory();
  }
  report(state, kSmallCount, 3);
}

}  // namespace

int main(int argc, char** argv) {
  register_large("triad/tensorx", triad_tensorx);
  register_large("triad/hand", triad_hand);
  register_large("triad/eigen", triad_eigen);
  register_large("sigmoid/tensorx", sigmoid_tensorx);
  register_large("sigmoid/hand", sigmoid_hand);
  register_large("sigmoid/eigen", sigmoid_eigen);
  register_large("sigmoid_literal/tensorx", sigmoid_literal_tensorx);
  register_large("sigmoid_literal/eigen", sigmoid_literal_eigen);
  register_math();
  register_large("bias_relu/tensorx", bias_relu_tensorx);
  register_large("bias_relu/hand", bias_relu_hand);
  register_large("bias_relu/eigen", bias_relu_eigen);
  register_large("transpose/tensorx", transpose_tensorx);
  register_large("transpose/hand", transpose_hand);
  register_large("transpose/hand_tiled", transpose_hand_tiled);
  register_large("transpose/eigen", transpose_eigen);
  // One thread: its CPU time is the cost of a call, and does not count time the machine spends
  // on other processes.
  benchmark::RegisterBenchmark("small_add/tensorx", small_add_tensorx);
  benchmark::RegisterBenchmark("small_add/hand", small_add_hand);

  return cpu_bench::run_benchmarks(argc, argv, "elements", std::to_string(kCount));
}
