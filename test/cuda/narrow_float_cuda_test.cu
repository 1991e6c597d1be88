// float16 and bfloat16 conversions in device code give the host's bits: every encoding to float,
// and every float near every encoding (its value, the midpoint to the next encoding and the floats
// on either side of it), random bit patterns, NaNs of either sign and doubles to the narrow type,
// computed by a kernel and compared with the host's conversions. The device uses the CUDA
// conversion instructions, whose NaNs are canonical: tensorx keeps a NaN's sign and payload on
// both sides.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "support/cuda_test.h"
#include "tensorx/core/bfloat16.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/core/float16.h"
#include "tensorx/core/float_bits.h"

namespace tx = tensorx;

namespace {

using NarrowTypes = boost::mpl::list<tx::float16, tx::bfloat16>;

template <class T>
__global__ void widen(const std::uint16_t* bits, float* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = T::from_bits(bits[i]);
}

template <class T, class From>
__global__ void narrow(const From* in, std::uint16_t* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = T(in[i]).bits();
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

using tx::detail::bits_of;
using tx::detail::float_from_bits;

/// Every encoding's value, the midpoint to the next encoding of the same sign and the floats on
/// either side of that midpoint, then random bit patterns (NaNs among them) and NaNs of both
/// signs with payloads high and low.
template <class T>
std::vector<float> floats_near_every_encoding() {
  std::vector<float> floats;
  for (std::uint32_t bits = 0; bits < (1u << 16); ++bits) {
    const float value = T::from_bits(static_cast<std::uint16_t>(bits));
    floats.push_back(value);
    if ((bits & 0x7fffu) == 0x7fffu || !std::isfinite(value)) continue;
    const float next = T::from_bits(static_cast<std::uint16_t>(bits + 1));
    if (!std::isfinite(next)) continue;
    // Exact: the midpoint of two neighbouring narrow values has a few bits more than they do.
    const float middle = static_cast<float>((static_cast<double>(value) + next) / 2);
    floats.push_back(middle);
    floats.push_back(std::nextafter(middle, 0.0f));
    floats.push_back(std::nextafter(middle, 2.0f * middle));
  }
  std::mt19937 rng(20240631);
  for (int i = 0; i < (1 << 18); ++i) floats.push_back(float_from_bits(rng()));
  for (const std::uint32_t nan :
       {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fe12345u, 0xffd55555u}) {
    floats.push_back(float_from_bits(nan));
  }
  return floats;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(narrow_floats_on_the_device, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE_TEMPLATE(every_encoding_widens_to_the_hosts_float, T, NarrowTypes) {
  std::vector<std::uint16_t> bits(1 << 16);
  for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = static_cast<std::uint16_t>(i);
  const auto floats = on_device<float>(widen<T>, bits);
  int mismatches = 0;
  for (std::size_t i = 0; i < bits.size(); ++i) {
    const float host = T::from_bits(bits[i]);
    if (bits_of(host) != bits_of(floats[i]) && mismatches++ < 3) {
      BOOST_TEST_MESSAGE(std::hex << "encoding 0x" << bits[i] << ": host 0x" << bits_of(host)
                                  << ", device 0x" << bits_of(floats[i]));
    }
  }
  BOOST_TEST(mismatches == 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(floats_and_doubles_narrow_to_the_hosts_bits, T, NarrowTypes) {
  const std::vector<float> floats = floats_near_every_encoding<T>();
  const auto narrowed = on_device<std::uint16_t>(narrow<T, float>, floats);
  std::vector<double> doubles(floats.begin(), floats.end());
  for (double& d : doubles) d = std::nextafter(d, 0.0);  // off the float grid: one rounding
  const auto narrowed_doubles = on_device<std::uint16_t>(narrow<T, double>, doubles);
  int mismatches = 0;
  for (std::size_t i = 0; i < floats.size(); ++i) {
    const std::uint16_t host = T(floats[i]).bits(), host_double = T(doubles[i]).bits();
    if ((narrowed[i] != host || narrowed_doubles[i] != host_double) && mismatches++ < 3) {
      BOOST_TEST_MESSAGE(std::hex << "float 0x" << bits_of(floats[i]) << ": host 0x" << host
                                  << ", device 0x" << narrowed[i] << "; its double less an ulp: "
                                  << "host 0x" << host_double << ", device 0x"
                                  << narrowed_doubles[i]);
    }
  }
  BOOST_TEST(mismatches == 0);
}

BOOST_AUTO_TEST_SUITE_END()
