// What the Tensor Comprehensions examples (tc_*.cpp) share: the places each workload runs on (the
// CPU, and GPU 0 when the example is built as CUDA and a GPU is present), random operands, and
// the check of a result against a plain-loop reference in double.
#pragma once

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <tensorx/tensorx.h>

namespace tc_example {

namespace tx = tensorx;
using tx::index_t;

/// The places to run on: the CPU, plus GPU 0 in a CUDA build with a usable device. A CUDA build
/// without one says so once ("skipped: no CUDA device", which ctest reports as a skip).
inline std::vector<tx::Place> places() {
  static const std::vector<tx::Place> result = [] {
    std::vector<tx::Place> found{tx::CpuPlace()};
#if defined(__CUDACC__)
    if (tx::cuda::device_count() > 0) {
      found.push_back(tx::CudaPlace(0));
    } else {
      std::printf("GPU: skipped: no CUDA device: %s\n", tx::cuda::unavailable_reason());
    }
#endif
    return found;
  }();
  return result;
}

/// A dense array of uniform values in [-1, 1) on `place`, the same for the same seed.
template <class T, int N>
tx::Array<T, N> random_array(const tx::Dim<N>& dims, const tx::Place& place, unsigned seed) {
  tx::Array<T, N> host(dims);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (index_t i = 0; i < host.numel(); ++i) host.data()[i] = static_cast<T>(value(rng));
  return tx::to(host, place);
}

/// Compares `count` elements of `result` (elements i * stride of its row-major order, on any
/// place) with expected(flat index), relative to max(1, |expected|); prints the largest error and
/// returns whether it is within `tolerance`.
template <class T, int N, class Expected>
bool check(const std::string& what, const tx::Array<T, N>& result, Expected&& expected,
           double tolerance, index_t stride = 1) {
  const tx::Array<T, N> host = tx::to(result, tx::CpuPlace());
  double worst = 0;
  for (index_t i = 0; i < host.numel(); i += stride) {
    const double want = expected(tx::delinearize(i, host.dims()));
    const double error = std::abs(double(host.data()[i]) - want) / std::max(1.0, std::abs(want));
    worst = std::max(worst, error);
  }
  const bool ok = worst <= tolerance;
  std::printf("%-44s largest relative error %.2e %s\n", what.c_str(), worst, ok ? "ok" : "FAILED");
  return ok;
}

/// "CpuPlace" or "CudaPlace(0)", for the report.
inline std::string name(const tx::Place& place) {
  return tx::detail::message(place);
}

}  // namespace tc_example
