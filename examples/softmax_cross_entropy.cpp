// Softmax with cross-entropy on a batch of logits, forward and backward, with tensorx's row
// normalisations (each ONE pass over the logits, its reductions over the classes fused in):
//   loss = tx::cross_entropy(x, labels)        the mean over rows of logsumexp(row) - row[label]
//   p = tx::softmax<1>(x)                      exp(x - max) / sum(exp(x - max)), row by row
//   grad = (p - y) / batch                     with one-hot labels y
// It runs on the CPU and, in its CUDA build (softmax_cross_entropy.cu compiles this same source
// as CUDA), on GPU 0 where there is one. Every result is checked against a double reference
// computed with plain loops here; the program exits non-zero when an error exceeds the tolerance.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

#include <tensorx/tensorx.h>

namespace tx = tensorx;
using tx::index_t;

namespace {

constexpr index_t kBatch = 128;
constexpr index_t kClasses = 1000;

/// The loss and its gradient with respect to the logits.
struct LossAndGradient {
  double loss = 0.0;
  std::vector<double> gradient;  // row-major, kBatch x kClasses
};

/// The reference: softmax and cross-entropy in double precision, row by row.
LossAndGradient reference(const tx::Array<float, 2>& x, const tx::Array<std::int64_t, 1>& labels) {
  LossAndGradient result;
  result.gradient.resize(static_cast<std::size_t>(kBatch * kClasses));
  for (index_t b = 0; b < kBatch; ++b) {
    double m = x(b, 0);
    for (index_t k = 1; k < kClasses; ++k) m = std::max(m, static_cast<double>(x(b, k)));
    double s = 0.0;
    for (index_t k = 0; k < kClasses; ++k) s += std::exp(x(b, k) - m);
    for (index_t k = 0; k < kClasses; ++k) {
      const double p = std::exp(x(b, k) - m) / s;
      const double y = k == labels(b) ? 1.0 : 0.0;
      if (y != 0.0) result.loss -= std::log(p) / kBatch;
      result.gradient[static_cast<std::size_t>(b * kClasses + k)] = (p - y) / kBatch;
    }
  }
  return result;
}

/// The forward and backward pass with tensorx, on the place of x and labels.
LossAndGradient with_tensorx(const tx::Array<float, 2>& x,
                             const tx::Array<std::int64_t, 1>& labels) {
  const auto batch = static_cast<float>(x.dims()[0]);
  tx::Array<float, 0> loss(tx::Dim<0>(), x.place());
  loss = tx::cross_entropy(x, labels);
  tx::Array<float, 2> p = tx::softmax<1>(x);
  tx::Array<float, 2> grad = (p - tx::one_hot(labels, x.dims()[1])) / batch;

  LossAndGradient result;
  result.loss = loss.item();
  for (const float g : tx::make_view(tx::to(grad, tx::CpuPlace()))) result.gradient.push_back(g);
  return result;
}

/// Prints the errors of `got` against `expected` and says whether they are within tolerance.
bool report(const char* where, const LossAndGradient& got, const LossAndGradient& expected) {
  const double loss_error = std::abs(got.loss - expected.loss);
  double gradient_error = 0.0;
  for (std::size_t i = 0; i < got.gradient.size(); ++i) {
    gradient_error = std::max(gradient_error, std::abs(got.gradient[i] - expected.gradient[i]));
  }
  // float arithmetic on values of order 1: the loss to a few ulps of its size, the gradient
  // (entries below 1 / batch) to a few ulps of 1 / batch.
  const bool ok = loss_error <= 1e-5 * std::max(1.0, expected.loss) && gradient_error <= 1e-7 &&
                  got.gradient.size() == expected.gradient.size();
  std::cout << where << ": loss " << got.loss << " (reference " << expected.loss
            << "), max abs error: loss " << loss_error << ", gradient " << gradient_error
            << (ok ? " - ok" : " - TOO LARGE") << '\n';
  return ok;
}

}  // namespace

int main() {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<float> logit(-5.0f, 5.0f);
  std::uniform_int_distribution<std::int64_t> label(0, kClasses - 1);
  tx::Array<float, 2> x(tx::make_dim(kBatch, kClasses));
  tx::Array<std::int64_t, 1> labels(tx::make_dim(kBatch));
  for (float& v : tx::make_view(x)) v = logit(rng);
  for (std::int64_t& v : tx::make_view(labels)) v = label(rng);

  const LossAndGradient expected = reference(x, labels);
  bool ok = report("CPU", with_tensorx(x, labels), expected);
#if defined(__CUDACC__)
  if (tx::cuda::device_count() > 0) {
    const tx::CudaPlace gpu(0);
    ok = report("GPU 0", with_tensorx(tx::to(x, gpu), tx::to(labels, gpu)), expected) && ok;
  } else {
    std::cout << "GPU: skipped: no CUDA device: " << tx::cuda::unavailable_reason() << '\n';
  }
#else
  std::cout << "GPU: not in this build (plain C++); softmax_cross_entropy_cuda runs it there\n";
#endif
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
