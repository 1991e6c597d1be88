// A two-layer perceptron trained with plain SGD on three Gaussian blobs in the plane, written with
// tensorx expressions:
//   forward   h = relu(x w1 + b1)   logits = h w2 + b2   p = softmax(logits)
//             loss = -sum(y * log p) / n with one-hot labels y
//   backward  g = (p - y) / n   w2 -= lr h^T g   b2 -= lr sum_rows(g)
//             d = (g w2^T) * (h > 0)   w1 -= lr x^T d   b1 -= lr sum_rows(d)
// Each weight update is ONE BLAS call: tx::dot of a transpose, the learning rate folded into
// alpha and the -= into beta. It trains on the CPU and, in its CUDA build (mlp.cu compiles this
// source as CUDA), again on GPU 0 from the same initial weights. It exits non-zero unless the
// final loss is below half the initial loss (and, with a GPU, the two runs agree to 1e-3).
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

constexpr index_t kPoints = 600;
constexpr index_t kFeatures = 2;
constexpr index_t kHidden = 32;
constexpr index_t kClasses = 3;
constexpr int kEpochs = 200;
constexpr float kLearningRate = 0.5f;

struct Data {
  tx::Array<float, 2> x;              // kPoints x kFeatures
  tx::Array<std::int64_t, 1> labels;  // kPoints, in [0, kClasses)
};

/// Points around three centres on a circle, labelled by their centre.
Data make_blobs(std::mt19937_64& rng) {
  Data data{tx::Array<float, 2>(tx::make_dim(kPoints, kFeatures)),
            tx::Array<std::int64_t, 1>(tx::make_dim(kPoints))};
  std::normal_distribution<float> noise(0.0f, 0.6f);
  for (index_t i = 0; i < kPoints; ++i) {
    const std::int64_t label = i % kClasses;
    const float angle = 2.0944f * static_cast<float>(label);  // 120 degrees apart
    data.x(i, 0) = 2.0f * std::cos(angle) + noise(rng);
    data.x(i, 1) = 2.0f * std::sin(angle) + noise(rng);
    data.labels(i) = label;
  }
  return data;
}

struct Weights {
  tx::Array<float, 2> w1;  // kFeatures x kHidden
  tx::Array<float, 1> b1;  // kHidden
  tx::Array<float, 2> w2;  // kHidden x kClasses
  tx::Array<float, 1> b2;  // kClasses
};

/// Small random weights (scaled by 1 / sqrt(fan-in)) and zero biases, on the CPU.
Weights initial_weights(std::mt19937_64& rng) {
  Weights w{tx::Array<float, 2>(tx::make_dim(kFeatures, kHidden)),
            tx::zeros<float>(tx::make_dim(kHidden)),
            tx::Array<float, 2>(tx::make_dim(kHidden, kClasses)),
            tx::zeros<float>(tx::make_dim(kClasses))};
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (float& v : tx::make_view(w.w1)) v = normal(rng) / std::sqrt(float(kFeatures));
  for (float& v : tx::make_view(w.w2)) v = normal(rng) / std::sqrt(float(kHidden));
  return w;
}

Weights weights_on(const Weights& w, const tx::Place& place) {
  return {tx::to(w.w1, place), tx::to(w.b1, place), tx::to(w.w2, place), tx::to(w.b2, place)};
}

/// Trains a copy of `initial` on `place` and returns the loss of every epoch (before its update).
std::vector<float> train(const Data& host_data, const Weights& initial, const tx::Place& place) {
  Weights w = weights_on(initial, place);
  const tx::Array<float, 2> x = tx::to(host_data.x, place);
  const tx::Array<float, 2> y = tx::one_hot(tx::to(host_data.labels, place), kClasses);
  const float n = static_cast<float>(kPoints);
  std::vector<float> losses;
  for (int epoch = 0; epoch < kEpochs; ++epoch) {
    // Forward: each layer is one product with a bias (and relu) epilogue: one cuBLASLt call on
    // the GPU, the BLAS call and one fused pass on the CPU (engine/fused_dot_assign.h).
    tx::Array<float, 2> h = tx::relu(tx::dot(x, w.w1) + w.b1);
    tx::Array<float, 2> logits = tx::dot(h, w.w2) + w.b2;
    tx::Array<float, 2> e = tx::exp(logits - tx::max<1>(logits, tx::keepdims));
    tx::Array<float, 2> p = e / tx::sum<1>(e, tx::keepdims);
    tx::Array<float, 0> loss(tx::Dim<0>(), place);
    loss = -tx::sum(y * tx::log(p)) / n;
    losses.push_back(loss.item());

    // Backward, reading the weights before they change.
    tx::Array<float, 2> g = (p - y) / n;
    tx::Array<float, 2> d = tx::dot(g, tx::transpose(w.w2)) * (h > 0.0f);
    w.w2 -= kLearningRate * tx::dot(tx::transpose(h), g);
    w.b2 -= kLearningRate * tx::sum<0>(g);
    w.w1 -= kLearningRate * tx::dot(tx::transpose(x), d);
    w.b1 -= kLearningRate * tx::sum<0>(d);
  }
  return losses;
}

/// Prints every 20th loss and says whether training halved the loss.
bool report(const char* where, const std::vector<float>& losses) {
  for (std::size_t epoch = 0; epoch < losses.size(); epoch += 20) {
    std::cout << where << " epoch " << epoch << ": loss " << losses[epoch] << '\n';
  }
  const bool ok = losses.back() < 0.5f * losses.front();
  std::cout << where << " final loss " << losses.back() << " from " << losses.front()
            << (ok ? " - ok" : " - DID NOT HALVE") << '\n';
  return ok;
}

}  // namespace

int main() {
  std::mt19937_64 rng(2026);
  const Data data = make_blobs(rng);
  const Weights initial = initial_weights(rng);

  const std::vector<float> cpu = train(data, initial, tx::CpuPlace());
  bool ok = report("CPU", cpu);
#if defined(__CUDACC__)
  if (tx::cuda::device_count() > 0) {
    const std::vector<float> gpu = train(data, initial, tx::CudaPlace(0));
    ok = report("GPU 0", gpu) && ok;
    const double difference = std::abs(double(gpu.back()) - double(cpu.back()));
    const bool agree = difference <= 1e-3 * std::abs(double(cpu.back()));
    std::cout << "CPU and GPU final losses differ by " << difference
              << (agree ? " - ok" : " - MORE THAN 1e-3 RELATIVE") << '\n';
    ok = ok && agree;
  } else {
    std::cout << "GPU: skipped: no CUDA device: " << tx::cuda::unavailable_reason() << '\n';
  }
#else
  std::cout << "GPU: not in this build (plain C++); mlp_cuda runs it there\n";
#endif
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
