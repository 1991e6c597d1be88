// Tensor Comprehensions' workloads on the CPU at the paper's sizes, each written with tensorx as
// in examples/tc_*.cpp and raced against its peers on the same buffers and threads:
//   tmm     C(m,n) = A(m,k) B(n,k)                vs cblas_sgemm (B transposed), Eigen
//   tbmm    Z(b,n,k) = X(b,n,m) Y(b,k,m)          vs tx::batch_gemm, a cblas loop, Eigen per batch
//   gconv   grouped 3x3 convolution, NCHW         vs Caffe's im2col + cblas_sgemm per image, group
//   2LUT    two embedding gathers summed over L   vs a hand-written OpenMP loop
//   MLP1, MLP3  fcrelu layers at batch 128        vs cblas_sgemm + an OpenMP bias/relu loop, Eigen
//     bench_tc --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
//              --benchmark_report_aggregates_only=true
// The 2LUT tables have TENSORX_TC_LUT_ROWS rows (10^7, the paper's size, unless set). Every peer
// runs on cpu_bench::thread_count() threads (the "threads" column).
#define EIGEN_USE_THREADS
#include <cblas.h>

#include <Eigen/Core>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "cpu_bench.h"

namespace {

using cpu_bench::tx::index_t;
namespace tx = cpu_bench::tx;
using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;

template <int N>
tx::Array<float, N> random_array(const tx::Dim<N>& dims, unsigned seed) {
  tx::Array<float, N> array(dims);
  cpu_bench::fill_random(array, -1.0f, 1.0f, seed);
  return array;
}

void report_flops(benchmark::State& state, double flops) {
  state.counters["flops"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["threads"] = cpu_bench::thread_count();
}

// ---- tmm: C(m,n) = A(m,k) B(n,k) ----------------------------------------------------------------

struct Tmm {
  explicit Tmm(const benchmark::State& state)
      : m(state.range(0)),
        n(state.range(1)),
        k(state.range(2)),
        a(random_array(tx::make_dim(m, k), 1)),
        b(random_array(tx::make_dim(n, k), 2)),
        c(random_array(tx::make_dim(m, n), 3)) {}
  index_t m, n, k;
  tx::Array<float, 2> a, b, c;
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

void tmm_tensorx(benchmark::State& state) {
  Tmm x(state);
  for (auto _ : state) {
    x.c("m,n") = x.a("m,k") * x.b("n,k");
    benchmark::ClobberMemory();
  }
  report_flops(state, x.flops());
}

void tmm_cblas(benchmark::State& state) {
  Tmm x(state);
  const int m = int(x.m), n = int(x.n), k = int(x.k);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, x.a.data(), k, x.b.data(),
                k, 0.0f, x.c.data(), n);
    benchmark::ClobberMemory();
  }
  report_flops(state, x.flops());
}

void tmm_eigen(benchmark::State& state) {
  Tmm x(state);
  const Eigen::Map<const RowMatrix> a(x.a.data(), x.m, x.k);
  const Eigen::Map<const RowMatrix> b(x.b.data(), x.n, x.k);
  Eigen::Map<RowMatrix> c(x.c.data(), x.m, x.n);
  for (auto _ : state) {
    c.noalias() = a * b.transpose();
    benchmark::ClobberMemory();
  }
  report_flops(state, x.flops());
}

void tmm_sizes(benchmark::internal::Benchmark* bench) {
  bench->Args({128, 256, 32})->Args({128, 1024, 1024})->Args({128, 16384, 4096});
  bench->ArgNames({"M", "N", "K"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

// ---- tbmm: Z(b,n,k) = X(b,n,m) Y(b,k,m) at (B, N, M, K) = (500, 26, 72, 26) --------------------

constexpr index_t kTbmmB = 500, kTbmmN = 26, kTbmmM = 72, kTbmmK = 26;

struct Tbmm {
  Tbmm()
      : x(random_array(tx::make_dim(kTbmmB, kTbmmN, kTbmmM), 4)),
        y(random_array(tx::make_dim(kTbmmB, kTbmmK, kTbmmM), 5)),
        z(random_array(tx::make_dim(kTbmmB, kTbmmN, kTbmmK), 6)) {}
  tx::Array<float, 3> x, y, z;
  static double flops() { return 2.0 * kTbmmB * kTbmmN * kTbmmM * kTbmmK; }
};

void tbmm_tensorx(benchmark::State& state) {
  Tbmm t;
  for (auto _ : state) {
    t.z("b,n,k") = t.x("b,n,m") * t.y("b,k,m");
    benchmark::ClobberMemory();
  }
  report_flops(state, Tbmm::flops());
}

void tbmm_batch_gemm(benchmark::State& state) {
  Tbmm t;
  for (auto _ : state) {
    tx::batch_gemm(tx::Trans::kNo, tx::Trans::kYes, 1.0f, t.x, t.y, 0.0f, t.z);
    benchmark::ClobberMemory();
  }
  report_flops(state, Tbmm::flops());
}

void tbmm_cblas(benchmark::State& state) {
  Tbmm t;
  for (auto _ : state) {
    for (index_t b = 0; b < kTbmmB; ++b) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, kTbmmN, kTbmmK, kTbmmM, 1.0f,
                  t.x.data() + b * kTbmmN * kTbmmM, kTbmmM, t.y.data() + b * kTbmmK * kTbmmM,
                  kTbmmM, 0.0f, t.z.data() + b * kTbmmN * kTbmmK, kTbmmK);
    }
    benchmark::ClobberMemory();
  }
  report_flops(state, Tbmm::flops());
}

// Eigen has no batched product: one fixed-size-free product per batch, the batches shared out
// to the OpenMP threads.
void tbmm_eigen(benchmark::State& state) {
  Tbmm t;
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (index_t b = 0; b < kTbmmB; ++b) {
      const Eigen::Map<const RowMatrix> x(t.x.data() + b * kTbmmN * kTbmmM, kTbmmN, kTbmmM);
      const Eigen::Map<const RowMatrix> y(t.y.data() + b * kTbmmK * kTbmmM, kTbmmK, kTbmmM);
      Eigen::Map<RowMatrix> z(t.z.data() + b * kTbmmN * kTbmmK, kTbmmN, kTbmmK);
      z.noalias() = x * y.transpose();
    }
    benchmark::ClobberMemory();
  }
  report_flops(state, Tbmm::flops());
}

// ---- gconv: O(n,g,f,h,w) = sum I(n,g,c,h+kh,w+kw) W(g,f,c,kh,kw), 3x3, stride 1 -----------

struct Gconv {
  explicit Gconv(const benchmark::State& state)
      : n(state.range(0)),
        g(state.range(1)),
        f(state.range(2)),
        c(state.range(3)),
        w(state.range(4)),
        h(state.range(5)),
        oh(h - 2),
        ow(w - 2),
        in(random_array(tx::make_dim(n, g, c, h, w), 7)),
        weights(random_array(tx::make_dim(g, f, c, index_t{3}, index_t{3}), 8)),
        out(random_array(tx::make_dim(n, g, f, oh, ow), 9)) {}
  index_t n, g, f, c, w, h, oh, ow;
  tx::Array<float, 5> in, weights, out;
  double flops() const { return 2.0 * double(n * g * f * oh * ow) * double(c * 9); }
};

void gconv_tensorx(benchmark::State& state) {
  Gconv x(state);
  for (auto _ : state) {
    x.out("n,g,f,h,w") =
        tx::windows(x.in, tx::make_dim(3, 3))("n,g,c,h,w,kh,kw") * x.weights("g,f,c,kh,kw");
    benchmark::ClobberMemory();
  }
  report_flops(state, x.flops());
}

// Caffe's grouped convolution: per image and group, im2col into a (c*9) x (oh*ow) buffer, then
// one sgemm writes the (f) x (oh*ow) block of the output, which is contiguous in NCHW.
void gconv_im2col(benchmark::State& state) {
  Gconv x(state);
  const index_t rows = x.c * 9, cols = x.oh * x.ow;
  std::vector<float> column(static_cast<std::size_t>(rows * cols));
  for (auto _ : state) {
    for (index_t n = 0; n < x.n; ++n) {
      for (index_t g = 0; g < x.g; ++g) {
        const float* image = x.in.data() + (n * x.g + g) * x.c * x.h * x.w;
        for (index_t c = 0; c < x.c; ++c) {
          for (index_t kh = 0; kh < 3; ++kh) {
            for (index_t kw = 0; kw < 3; ++kw) {
              float* row = column.data() + ((c * 3 + kh) * 3 + kw) * cols;
              for (index_t i = 0; i < x.oh; ++i) {
                const float* source = image + (c * x.h + i + kh) * x.w + kw;
                for (index_t j = 0; j < x.ow; ++j) row[i * x.ow + j] = source[j];
              }
            }
          }
        }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(x.f), int(cols), int(rows), 1.0f,
                    x.weights.data() + g * x.f * rows, int(rows), column.data(), int(cols), 0.0f,
                    x.out.data() + (n * x.g + g) * x.f * cols, int(cols));
      }
    }
    benchmark::ClobberMemory();
  }
  report_flops(state, x.flops());
}

void gconv_sizes(benchmark::internal::Benchmark* bench) {
  bench->Args({32, 32, 16, 16, 14, 14})->Args({32, 32, 4, 4, 56, 56});
  bench->ArgNames({"N", "G", "F", "C", "W", "H"})->UseRealTime()->Unit(benchmark::kMillisecond);
}

// ---- 2LUT: O1(b,d) = sum_l LUT1(I1(b,l), d), the same for table 2 -------------------------------

constexpr index_t kLutB = 128, kLutD = 64, kLutL = 50;

index_t lut_rows() {
  const char* rows = std::getenv("TENSORX_TC_LUT_ROWS");
  return rows ? std::atoll(rows) : 10000000;
}

struct TwoLut {
  TwoLut()
      : rows(lut_rows()),
        lut1(tx::make_dim(rows, kLutD)),
        lut2(tx::make_dim(rows, kLutD)),
        ids1(tx::make_dim(kLutB, kLutL)),
        ids2(tx::make_dim(kLutB, kLutL)),
        o1(tx::make_dim(kLutB, kLutD)),
        o2(tx::make_dim(kLutB, kLutD)) {
    // Every element of a table is touched once (the first-touch page faults stay out of the
    // timing); the gathered rows hold distinct values.
    tx::fill(lut1, 0.5f);
    tx::fill(lut2, -0.5f);
    std::mt19937 rng(10);
    std::uniform_int_distribution<std::int32_t> row(0, std::int32_t(rows - 1));
    for (index_t i = 0; i < kLutB * kLutL; ++i) {
      ids1.data()[i] = row(rng);
      ids2.data()[i] = row(rng);
      lut1.data()[ids1.data()[i] * kLutD] = float(i % 7);
    }
  }
  index_t rows;
  tx::Array<float, 2> lut1, lut2;
  tx::Array<std::int32_t, 2> ids1, ids2;
  tx::Array<float, 2> o1, o2;
  // Bytes the gathers read (the rows and the indices) and write.
  static double bytes() { return 2.0 * (kLutB * kLutL * (kLutD * 4 + 4) + kLutB * kLutD * 4); }
};

// One pair of tables serves both peers: the same pages, and 5 GB filled once.
TwoLut& two_lut() {
  static TwoLut tables;
  return tables;
}

void two_lut_tensorx(benchmark::State& state) {
  TwoLut& t = two_lut();
  for (auto _ : state) {
    t.o1 = tx::sum<1>(tx::take(t.lut1, t.ids1));
    t.o2 = tx::sum<1>(tx::take(t.lut2, t.ids2));
    benchmark::ClobberMemory();
  }
  cpu_bench::report_bytes(state, std::int64_t(TwoLut::bytes()));
  state.counters["threads"] = cpu_bench::thread_count();
}

// The rows of one batch entry summed straight into its output row, which stays in L1; every row
// is 64 floats, so the inner loop is eight AVX2 additions.
void gather_sum(const float* lut, const std::int32_t* ids, float* out) {
#pragma omp parallel for schedule(static)
  for (index_t b = 0; b < kLutB; ++b) {
    float* __restrict sum = out + b * kLutD;
    const float* first = lut + index_t{ids[b * kLutL]} * kLutD;
    for (index_t d = 0; d < kLutD; ++d) sum[d] = first[d];
    for (index_t l = 1; l < kLutL; ++l) {
      const float* __restrict row = lut + index_t{ids[b * kLutL + l]} * kLutD;
      for (index_t d = 0; d < kLutD; ++d) sum[d] += row[d];
    }
  }
}

void two_lut_hand(benchmark::State& state) {
  TwoLut& t = two_lut();
  for (auto _ : state) {
    gather_sum(t.lut1.data(), t.ids1.data(), t.o1.data());
    gather_sum(t.lut2.data(), t.ids2.data(), t.o2.data());
    benchmark::ClobberMemory();
  }
  cpu_bench::report_bytes(state, std::int64_t(TwoLut::bytes()));
  state.counters["threads"] = cpu_bench::thread_count();
}

// ---- MLP1 and MLP3: O(b,o) = max(0, B(o) + sum_n I(b,n) W(o,n)) at batch 128 --------------------

constexpr index_t kBatch = 128, kMlpM = 2000, kMlpN = 128, kMlpO = 64, kMlpP = 32, kMlpQ = 2;

struct Layer {
  Layer(index_t inputs, index_t outputs, unsigned seed)
      : w(random_array(tx::make_dim(outputs, inputs), seed)),
        bias(random_array(tx::make_dim(outputs), seed + 1)),
        out(tx::make_dim(kBatch, outputs)) {}
  tx::Array<float, 2> w;
  tx::Array<float, 1> bias;
  tx::Array<float, 2> out;
};

struct Mlp {
  Mlp()
      : x(random_array(tx::make_dim(kBatch, kMlpM), 20)),
        layers{Layer(kMlpM, kMlpN, 21), Layer(kMlpN, kMlpO, 23), Layer(kMlpO, kMlpP, 25),
               Layer(kMlpP, kMlpQ, 27)} {}
  tx::Array<float, 2> x;
  Layer layers[4];
  const tx::Array<float, 2>& input(int layer) const {
    return layer == 0 ? x : layers[layer - 1].out;
  }
};

double mlp_flops(int first, int last) {
  const index_t widths[] = {kMlpM, kMlpN, kMlpO, kMlpP, kMlpQ};
  double flops = 0;
  for (int l = first; l < last; ++l) flops += 2.0 * kBatch * widths[l] * widths[l + 1];
  return flops;
}

void mlp_tensorx(benchmark::State& state) {
  Mlp m;
  const int first = int(state.range(0)), last = int(state.range(1));
  for (auto _ : state) {
    for (int l = first; l < last; ++l) {
      Layer& layer = m.layers[l];
      layer.out = tx::relu(tx::dot(m.input(l), tx::transpose(layer.w)) + layer.bias);
    }
    benchmark::ClobberMemory();
  }
  report_flops(state, mlp_flops(first, last));
}

void mlp_cblas(benchmark::State& state) {
  Mlp m;
  const int first = int(state.range(0)), last = int(state.range(1));
  for (auto _ : state) {
    for (int l = first; l < last; ++l) {
      Layer& layer = m.layers[l];
      const auto& in = m.input(l);
      const int inputs = int(in.dims()[1]), outputs = int(layer.out.dims()[1]);
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(kBatch), outputs, inputs, 1.0f,
                  in.data(), inputs, layer.w.data(), inputs, 0.0f, layer.out.data(), outputs);
      float* out = layer.out.data();
      const float* bias = layer.bias.data();
#pragma omp parallel for schedule(static)
      for (index_t b = 0; b < kBatch; ++b) {
#pragma omp simd
        for (index_t o = 0; o < outputs; ++o) {
          const float value = out[b * outputs + o] + bias[o];
          out[b * outputs + o] = value > 0.0f ? value : 0.0f;
        }
      }
    }
    benchmark::ClobberMemory();
  }
  report_flops(state, mlp_flops(first, last));
}

void mlp_eigen(benchmark::State& state) {
  Mlp m;
  const int first = int(state.range(0)), last = int(state.range(1));
  for (auto _ : state) {
    for (int l = first; l < last; ++l) {
      Layer& layer = m.layers[l];
      const auto& in = m.input(l);
      const Eigen::Map<const RowMatrix> x(in.data(), kBatch, in.dims()[1]);
      const Eigen::Map<const RowMatrix> w(layer.w.data(), layer.w.dims()[0], layer.w.dims()[1]);
      const Eigen::Map<const RowVector> bias(layer.bias.data(), layer.bias.dims()[0]);
      Eigen::Map<RowMatrix> out(layer.out.data(), kBatch, layer.out.dims()[1]);
      out.noalias() = x * w.transpose();
      out = (out.rowwise() + bias).cwiseMax(0.0f);
    }
    benchmark::ClobberMemory();
  }
  report_flops(state, mlp_flops(first, last));
}

// MLP1 is layer 0, MLP3 layers 1 to 3.
void mlp_layers(benchmark::internal::Benchmark* bench) {
  bench->Args({0, 1})->Args({1, 4});
  bench->ArgNames({"first", "last"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(tmm_tensorx)->Name("tmm/tensorx")->Apply(tmm_sizes);
BENCHMARK(tmm_cblas)->Name("tmm/cblas")->Apply(tmm_sizes);
BENCHMARK(tmm_eigen)->Name("tmm/eigen")->Apply(tmm_sizes);
BENCHMARK(tbmm_tensorx)->Name("tbmm/tensorx")->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(tbmm_batch_gemm)->Name("tbmm/batch_gemm")->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(tbmm_cblas)->Name("tbmm/cblas_loop")->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(tbmm_eigen)->Name("tbmm/eigen_omp")->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(gconv_tensorx)->Name("gconv/tensorx")->Apply(gconv_sizes);
BENCHMARK(gconv_im2col)->Name("gconv/im2col_cblas")->Apply(gconv_sizes);
BENCHMARK(two_lut_tensorx)->Name("2lut/tensorx")->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(two_lut_hand)->Name("2lut/hand_omp")->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(mlp_tensorx)->Name("mlp/tensorx")->Apply(mlp_layers);
BENCHMARK(mlp_cblas)->Name("mlp/cblas_omp")->Apply(mlp_layers);
BENCHMARK(mlp_eigen)->Name("mlp/eigen")->Apply(mlp_layers);

}  // namespace

BENCHMARK_MAIN();
