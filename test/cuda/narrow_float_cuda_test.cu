// bfloat16 conversions in device code give the host's bits: every encoding to float, and every
// float near every encoding (the midpoints and their neighbours), random bit patterns, NaNs and
// doubles to bfloat16, computed by a kernel and compared with the host's conversions.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "support/cuda_test.h"
#include "tensorx/core/bfloat16.h"
#include "tensorx/core/cuda_check.h"

namespace tx = tensorx;

namespace {

__global__ void widen(const std::uint16_t* bits, float* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = tx::bfloat16::from_bits(bits[i]);
}

__global__ void narrow(const float* in, std::uint16_t* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = tx::bfloat16(in[i]).bits();
}

__global__ void narrow_double(const double* in, std::uint16_t* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = tx::bfloat16(in[i]).bits();
}

/// `kernel(device input, device output, count)` on `input`, the output copied back.
template <class Out, class In, class Kernel>
std::vector<Out> on_device(Kernel kernel, const std::vector<In>& input) {
  const int count = static_cast<int>(input.size());
  In* device_in = nullptr;
  Out* device_out = nullptr;
  TENSORX_CUDA_CHECK(cudaMalloc(&device_in, input.size() * sizeof(In)));
  TENSORX_CUDA_CHECK(cudaMalloc(&device_out, input.size() * sizeof(Out)));
  TENSORX_CUDA_CHECK(
      cudaMemcpy(device_in, input.data(), input.size() * sizeof(In), cudaMemcpyHostToDevice));
  kernel<<<(count + 255) / 256, 256>>>(device_in, device_out, count);
  TENSORX_CUDA_CHECK(cudaGetLastError());
  std::vector<Out> output(input.size());
  TENSORX_CUDA_CHECK(
      cudaMemcpy(output.data(), device_out, output.size() * sizeof(Out), cudaMemcpyDeviceToHost));
  TENSORX_CUDA_CHECK(cudaFree(device_in));
  TENSORX_CUDA_CHECK(cudaFree(device_out));
  return output;
}

float float_from_bits(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bfloat16_on_the_device, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(every_encoding_widens_to_the_hosts_float) {
  std::vector<std::uint16_t> bits(1 << 16);
  for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = static_cast<std::uint16_t>(i);
  const auto floats = on_device<float>(widen, bits);
  int mismatches = 0;
  for (std::size_t i = 0; i < bits.size(); ++i) {
    const float host = tx::bfloat16::from_bits(bits[i]);
    mismatches += std::memcmp(&host, &floats[i], sizeof host) != 0;
  }
  BOOST_TEST(mismatches == 0);
}

BOOST_AUTO_TEST_CASE(floats_and_doubles_narrow_to_the_hosts_bits) {
  // Each encoding's value, the midpoint to the next one and the floats on either side of it.
  std::vector<float> floats;
  for (std::uint32_t bits = 0; bits < (1u << 16); ++bits) {
    const std::uint32_t value = bits << 16;
    for (const std::uint32_t delta : {0u, 0x7fffu, 0x8000u, 0x8001u}) {
      floats.push_back(float_from_bits(value + delta));
    }
  }
  std::mt19937 rng(20240631);
  for (int i = 0; i < (1 << 18); ++i) floats.push_back(float_from_bits(rng()));
  const auto narrowed = on_device<std::uint16_t>(narrow, floats);
  std::vector<double> doubles(floats.begin(), floats.end());
  for (double& d : doubles) d = std::nextafter(d, 0.0);  // off the float grid: one rounding
  const auto narrowed_doubles = on_device<std::uint16_t>(narrow_double, doubles);
  int mismatches = 0;
  for (std::size_t i = 0; i < floats.size(); ++i) {
    mismatches += narrowed[i] != tx::bfloat16(floats[i]).bits();
    mismatches += narrowed_doubles[i] != tx::bfloat16(doubles[i]).bits();
  }
  BOOST_TEST(mismatches == 0);
}

BOOST_AUTO_TEST_SUITE_END()
