// Tensor Comprehensions' workloads on GPU 0, each written with tensorx as bench_tc writes it on
// the CPU (labelled expressions, tx::windows, tx::take, the fused layer), at the paper's sizes:
//   tmm     C(m,n) = A(m,k) B(n,k)            (128,256,32), (128,1024,1024), (128,16384,4096)
//   tbmm    Z(b,n,k) = X(b,n,m) Y(b,k,m)      (500,26,72,26)
//   gconv   grouped 3x3 convolution, NCHW     (32,32,16,16,14,14), (32,32,4,4,56,56)
//   2LUT    two embedding gathers summed over L, tables of 10^7 x 64 (TENSORX_TC_LUT_ROWS)
//   MLP1, MLP3  fcrelu layers at batch 128
// Each iteration is one workload timed with CUDA events on the stream tensorx runs on
// (bench/gpu_bench.cuh). The peers: cuBLAS called directly on tmm's and tbmm's sizes in
// bench_gemm_cuda (its tc_* rows), and PyTorch eager and torch.compile (cuDNN for the
// convolutions) on every workload in bench/torch_tc.py; the paper's table compares the same way.
//   bench_tc_cuda --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <cstdint>
#include <cstdlib>
#include <random>

#include "gpu_bench.cuh"

namespace tx = tensorx;
using gpu_bench::random_on_gpu;
using tx::index_t;

namespace {

template <int N>
tx::Array<float, N> random_array(const tx::Dim<N>& dims, unsigned seed) {
  return random_on_gpu<float>(dims, -1.0f, 1.0f, seed);
}

void tmm(benchmark::State& state) {
  const index_t m = state.range(0), n = state.range(1), k = state.range(2);
  const auto a = random_array(tx::make_dim(m, k), 1);
  const auto b = random_array(tx::make_dim(n, k), 2);
  auto c = random_array(tx::make_dim(m, n), 3);
  gpu_bench::time_flops(state, 2.0 * double(m) * double(n) * double(k),
                        [&] { c("m,n") = a("m,k") * b("n,k"); });
}

void tbmm(benchmark::State& state) {
  constexpr index_t kB = 500, kN = 26, kM = 72, kK = 26;
  const auto x = random_array(tx::make_dim(kB, kN, kM), 4);
  const auto y = random_array(tx::make_dim(kB, kK, kM), 5);
  auto z = random_array(tx::make_dim(kB, kN, kK), 6);
  gpu_bench::time_flops(state, 2.0 * kB * kN * kM * kK,
                        [&] { z("b,n,k") = x("b,n,m") * y("b,k,m"); });
}

void gconv(benchmark::State& state) {
  const index_t n = state.range(0), g = state.range(1), f = state.range(2), c = state.range(3),
                w = state.range(4), h = state.range(5);
  const auto in = random_array(tx::make_dim(n, g, c, h, w), 7);
  const auto weights = random_array(tx::make_dim(g, f, c, index_t{3}, index_t{3}), 8);
  auto out = random_array(tx::make_dim(n, g, f, h - 2, w - 2), 9);
  gpu_bench::time_flops(state, 2.0 * double(n * g * f * (h - 2) * (w - 2)) * double(c * 9), [&] {
    out("n,g,f,h,w") =
        tx::windows(in, tx::make_dim(3, 3))("n,g,c,h,w,kh,kw") * weights("g,f,c,kh,kw");
  });
}

void two_lut(benchmark::State& state) {
  constexpr index_t kB = 128, kD = 64, kL = 50;
  const char* text = std::getenv("TENSORX_TC_LUT_ROWS");
  const index_t rows = text ? std::atoll(text) : 10000000;
  tx::Array<float, 2> lut1(tx::make_dim(rows, kD), tx::CudaPlace(0));
  tx::Array<float, 2> lut2(tx::make_dim(rows, kD), tx::CudaPlace(0));
  lut1 = 0.5f;
  lut2 = -0.5f;
  tx::Array<std::int32_t, 2> ids1(tx::make_dim(kB, kL)), ids2(tx::make_dim(kB, kL));
  std::mt19937 rng(10);
  std::uniform_int_distribution<std::int32_t> row(0, std::int32_t(rows - 1));
  for (index_t i = 0; i < kB * kL; ++i) {
    ids1.data()[i] = row(rng);
    ids2.data()[i] = row(rng);
  }
  const auto gpu_ids1 = tx::to(ids1, tx::CudaPlace(0));
  const auto gpu_ids2 = tx::to(ids2, tx::CudaPlace(0));
  tx::Array<float, 2> o1(tx::make_dim(kB, kD), tx::CudaPlace(0));
  tx::Array<float, 2> o2(tx::make_dim(kB, kD), tx::CudaPlace(0));
  // The bytes the gathers read (the rows and the indices) and write, against a copy of as many.
  const double bytes = 2.0 * (kB * kL * (kD * 4 + 4) + kB * kD * 4);
  const double ceiling =
      gpu_bench::copy_bandwidth(lut2.data(), lut1.data(), static_cast<std::size_t>(bytes / 2));
  gpu_bench::time_bandwidth(state, bytes, ceiling, [&] {
    o1 = tx::sum<1>(tx::take(lut1, gpu_ids1));
    o2 = tx::sum<1>(tx::take(lut2, gpu_ids2));
  });
}

// MLP1 is layer 0, MLP3 layers 1 to 3 of 2000 -> 128 -> 64 -> 32 -> 2 at batch 128.
void mlp(benchmark::State& state) {
  constexpr index_t kBatch = 128;
  constexpr index_t kWidths[] = {2000, 128, 64, 32, 2};
  const int first = int(state.range(0)), last = int(state.range(1));
  tx::Array<float, 2> activations[5];
  tx::Array<float, 2> weights[4];
  tx::Array<float, 1> biases[4];
  activations[first] = random_array(tx::make_dim(kBatch, kWidths[first]), 20);
  double flop = 0;
  for (int l = first; l < last; ++l) {
    weights[l] = random_array(tx::make_dim(kWidths[l + 1], kWidths[l]), 21 + 2 * l);
    biases[l] = random_array(tx::make_dim(kWidths[l + 1]), 22 + 2 * l);
    activations[l + 1] = random_array(tx::make_dim(kBatch, kWidths[l + 1]), 30 + l);
    flop += 2.0 * kBatch * kWidths[l] * kWidths[l + 1];
  }
  gpu_bench::time_flops(state, flop, [&] {
    for (int l = first; l < last; ++l) {
      activations[l + 1] = tx::relu(tx::dot(activations[l], tx::transpose(weights[l])) + biases[l]);
    }
  });
}

void register_all() {
  gpu_bench::register_timed("tmm/tensorx", tmm, benchmark::kMicrosecond)
      ->Args({128, 256, 32})
      ->Args({128, 1024, 1024})
      ->Args({128, 16384, 4096})
      ->ArgNames({"M", "N", "K"});
  gpu_bench::register_timed("tbmm/tensorx", tbmm, benchmark::kMicrosecond);
  gpu_bench::register_timed("gconv/tensorx", gconv)
      ->Args({32, 32, 16, 16, 14, 14})
      ->Args({32, 32, 4, 4, 56, 56})
      ->ArgNames({"N", "G", "F", "C", "W", "H"});
  gpu_bench::register_timed("2lut/tensorx", two_lut, benchmark::kMicrosecond);
  gpu_bench::register_timed("mlp/tensorx", mlp, benchmark::kMicrosecond)
      ->Args({0, 1})
      ->Args({1, 4})
      ->ArgNames({"first", "last"});
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_bench::run_main(argc, argv, register_all);
}
