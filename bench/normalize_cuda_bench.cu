// GPU normalisations along rows: softmax, log_softmax, layer_norm and rms_norm, each ONE kernel
// by row-local fusion (DESIGN.md section 10), against the ceiling of the machine, a
// device-to-device cudaMemcpy of the same bytes. Every case reads its 2^26 elements once and
// writes them once (gamma and beta, one row, are not counted), so its bandwidth over the copy's
// is its fraction of the read-once/write-once bound. DESIGN.md section 10's bar: softmax and
// layer_norm of an 8192 x 8192 float matrix at 0.85 of the copy or more, faster than PyTorch
// eager and torch.compile (bench/torch_normalize.py times them on the same cases).
//
// Cases are named <normalisation>_<element type>/<implementation>/row_length:<L>: float and
// bfloat16 (which accumulates in float), rows of L = 256 to 262144 elements at 2^26 elements
// (262144 rows of 256 to 256 rows of 262144; L = 8192 is the 8192 x 8192 matrix), so that the
// warp-per-row, block-per-row and few-long-rows routes are all measured. Each element type has
// its own copy (copy/cudaMemcpy, copy_bfloat16/cudaMemcpy: 256 and 128 MiB, beyond the L2
// cache). tensorx_four_passes: softmax and layer_norm of the float matrix with their reductions
// materialised into named arrays first (what tensorx ran before the fusion, four launches).
// Each iteration is one assignment timed with CUDA events on the stream tensorx runs on.
//   bench_normalize_cuda --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <string>

#include "gpu_bench.cuh"

namespace tx = tensorx;
using gpu_bench::random_on_gpu;

namespace {

constexpr tx::index_t kCount = tx::index_t{1} << 26;
constexpr tx::index_t kRowLengths[] = {256, 1024, 4096, 8192, 16384, 65536, 262144};
constexpr tx::index_t kSquare = 8192;
constexpr float kLayerNormEps = 1e-5f;
constexpr float kRmsNormEps = 1e-6f;

// The input x (random, never zeros) and the output y of 2^26 elements of T, each case viewing
// them as rows of its length.
template <class T>
struct Operands {
  Operands()
      : x(random_on_gpu<T>(tx::make_dim(kCount), -4.0f, 4.0f, 1)),
        y(random_on_gpu<T>(tx::make_dim(kCount), -1.0f, 1.0f, 2)) {}
  tx::Array<T, 1> x, y;
};

template <class T>
const Operands<T>& operands() {
  static const Operands<T> instance;
  return instance;
}

// The ceiling of the cases of element type T: the bandwidth of a copy of their bytes, measured
// once.
template <class T>
double copy_ceiling() {
  const Operands<T>& o = operands<T>();
  static const double ceiling =
      gpu_bench::copy_bandwidth(o.y.data(), o.x.data(), kCount * sizeof(T));
  return ceiling;
}

// Times `work`, which reads and writes the 2^26 elements of T once each, against the copy.
template <class T, class Work>
void time_on_gpu(benchmark::State& state, Work&& work) {
  gpu_bench::time_bandwidth(state, 2.0 * kCount * sizeof(T), copy_ceiling<T>(), work);
}

template <class T>
void copy_cuda(benchmark::State& state) {
  const Operands<T>& o = operands<T>();
  const cudaStream_t stream = tx::current_stream(0);
  time_on_gpu<T>(state, [&] {
    gpu_bench::check(cudaMemcpyAsync(o.y.data(), o.x.data(), kCount * sizeof(T),
                                     cudaMemcpyDeviceToDevice, stream));
  });
}

enum class Normalisation { kSoftmax, kLogSoftmax, kLayerNorm, kRmsNorm };

// The library function of kNormalisation along the rows of x.
template <Normalisation kNormalisation, class T>
auto normalised(const tx::Array<T, 2>& x, const tx::Array<T, 1>& gamma,
                const tx::Array<T, 1>& beta) {
  if constexpr (kNormalisation == Normalisation::kSoftmax) {
    return tx::softmax<1>(x);
  } else if constexpr (kNormalisation == Normalisation::kLogSoftmax) {
    return tx::log_softmax<1>(x);
  } else if constexpr (kNormalisation == Normalisation::kLayerNorm) {
    return tx::layer_norm<1>(x, gamma, beta, kLayerNormEps);
  } else {
    return tx::rms_norm<1>(x, gamma, kRmsNormEps);
  }
}

// y = the normalisation of x, rows of state.range(0) elements.
template <Normalisation kNormalisation, class T>
void normalise_tensorx(benchmark::State& state) {
  const tx::index_t length = state.range(0);
  const Operands<T>& o = operands<T>();
  const tx::Array<T, 2> x = tx::reshape(o.x, tx::make_dim(kCount / length, length));
  tx::Array<T, 2> y = tx::reshape(o.y, x.dims());
  const tx::Array<T, 1> gamma = random_on_gpu<T>(tx::make_dim(length), 0.5f, 1.5f, 3);
  const tx::Array<T, 1> beta = random_on_gpu<T>(tx::make_dim(length), -0.5f, 0.5f, 4);
  time_on_gpu<T>(state, [&] { y = normalised<kNormalisation>(x, gamma, beta); });
}

// The float 8192 x 8192 matrix's temporaries for the four-pass forms.
struct FourPassTemporaries {
  tx::Array<float, 2> matrix{tx::make_dim(kSquare, kSquare), tx::CudaPlace(0)};
  tx::Array<float, 2> per_row{tx::make_dim(kSquare, 1), tx::CudaPlace(0)};
  tx::Array<float, 2> per_row2{tx::make_dim(kSquare, 1), tx::CudaPlace(0)};
};

void softmax_four_passes(benchmark::State& state) {
  const Operands<float>& o = operands<float>();
  const tx::Array<float, 2> x = tx::reshape(o.x, tx::make_dim(kSquare, kSquare));
  tx::Array<float, 2> p = tx::reshape(o.y, x.dims());
  FourPassTemporaries t;
  tx::Array<float, 2> m = t.per_row, s = t.per_row2, e = t.matrix;
  time_on_gpu<float>(state, [&] {
    m = tx::max<1>(x, tx::keepdims);
    e = tx::exp(x - m);
    s = tx::sum<1>(e, tx::keepdims);
    p = e / s;
  });
}

void layer_norm_four_passes(benchmark::State& state) {
  const Operands<float>& o = operands<float>();
  const tx::Array<float, 2> x = tx::reshape(o.x, tx::make_dim(kSquare, kSquare));
  tx::Array<float, 2> y = tx::reshape(o.y, x.dims());
  const tx::Array<float, 1> gamma = random_on_gpu<float>(tx::make_dim(kSquare), 0.5f, 1.5f, 3);
  const tx::Array<float, 1> beta = random_on_gpu<float>(tx::make_dim(kSquare), -0.5f, 0.5f, 4);
  FourPassTemporaries t;
  tx::Array<float, 2> mean = t.per_row, variance = t.per_row2, c = t.matrix;
  time_on_gpu<float>(state, [&] {
    mean = tx::mean<1>(x, tx::keepdims);
    c = x - mean;
    variance = tx::mean<1>(tx::square(c), tx::keepdims);
    y = c * tx::rsqrt(variance + kLayerNormEps) * gamma + beta;
  });
}

// Registers the normalisation for every row length, as <name>_<type>/tensorx/row_length:L.
template <Normalisation kNormalisation, class T>
void register_lengths(const std::string& name, const std::string& type) {
  auto* cases = gpu_bench::register_timed(name + "_" + type + "/tensorx",
                                          normalise_tensorx<kNormalisation, T>);
  cases->ArgName("row_length");
  for (const tx::index_t length : kRowLengths) cases->Arg(length);
}

template <class T>
void register_type(const std::string& type) {
  register_lengths<Normalisation::kSoftmax, T>("softmax", type);
  register_lengths<Normalisation::kLogSoftmax, T>("log_softmax", type);
  register_lengths<Normalisation::kLayerNorm, T>("layer_norm", type);
  register_lengths<Normalisation::kRmsNorm, T>("rms_norm", type);
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_bench::run_main(argc, argv, [] {
    gpu_bench::register_timed("copy/cudaMemcpy", copy_cuda<float>);
    gpu_bench::register_timed("copy_bfloat16/cudaMemcpy", copy_cuda<tx::bfloat16>);
    register_type<float>("float");
    register_type<tx::bfloat16>("bfloat16");
    gpu_bench::register_timed("softmax_float/tensorx_four_passes/row_length:8192",
                              softmax_four_passes);
    gpu_bench::register_timed("layer_norm_float/tensorx_four_passes/row_length:8192",
                              layer_norm_four_passes);
    benchmark::AddCustomContext("elements", std::to_string(kCount));
  });
}
