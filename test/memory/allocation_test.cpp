// Allocation on the CPU: 64-byte alignment, zero sizes, the place it records, and the errors for
// sizes no host can hold and for GPUs that cannot be used.
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <string>

#include <boost/test/unit_test.hpp>

#include "support/errors.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/place/device.h"

namespace tx = tensorx;

BOOST_AUTO_TEST_SUITE(allocation)

BOOST_AUTO_TEST_CASE(host_memory_is_64_byte_aligned_and_writable) {
  for (std::size_t bytes : {1, 7, 63, 64, 65, 1000, 4096, 1 << 20}) {
    BOOST_TEST_CONTEXT(bytes << " bytes") {
      tx::Allocation allocation(bytes, tx::CpuPlace());
      BOOST_TEST_REQUIRE(allocation.data() != nullptr);
      BOOST_TEST(reinterpret_cast<std::uintptr_t>(allocation.data()) % tx::kCpuAlignment == 0u);
      BOOST_TEST(allocation.size() == bytes);
      BOOST_TEST(tx::is_cpu_place(allocation.place()));
      // Every byte is ours (AddressSanitizer builds check it).
      std::memset(allocation.data(), 0xab, bytes);
      BOOST_TEST(static_cast<unsigned char*>(allocation.data())[bytes - 1] == 0xab);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_default_place_is_the_cpu) {
  tx::Allocation allocation(16, tx::Place());
  BOOST_TEST(tx::is_cpu_place(allocation.place()));
  BOOST_TEST(allocation.data() != nullptr);
}

BOOST_AUTO_TEST_CASE(zero_bytes_allocate_nothing) {
  tx::Allocation allocation(0, tx::CpuPlace());
  BOOST_TEST(allocation.data() == nullptr);
  BOOST_TEST(allocation.size() == 0u);
  BOOST_TEST(tx::is_cpu_place(allocation.place()));
}

BOOST_AUTO_TEST_CASE(a_size_no_host_can_hold_is_an_out_of_memory_error_naming_the_bytes) {
  BOOST_CHECK_EXCEPTION(tx::Allocation(std::numeric_limits<std::size_t>::max() - 8, tx::CpuPlace()),
                        tx::OutOfMemoryError,
                        tx::testing::message_has({"18446744073709551607 bytes", "CPU"}));
  BOOST_CHECK_EXCEPTION(tx::Allocation(std::size_t{1} << 62, tx::CpuPlace()), tx::OutOfMemoryError,
                        tx::testing::message_has({"4611686018427387904"}));
}

BOOST_AUTO_TEST_CASE(an_unusable_gpu_is_a_device_error_even_for_zero_bytes) {
  // CudaPlace(device_count()) is never usable: with no GPU it says why, with GPUs it is out of
  // range.
  const int device = tx::cuda::device_count();
  const auto names_device =
      tx::testing::message_has({"cannot use CudaPlace(" + std::to_string(device) + "): "});
  BOOST_CHECK_EXCEPTION(tx::Allocation(64, tx::CudaPlace(device)), tx::DeviceError, names_device);
  BOOST_CHECK_EXCEPTION(tx::Allocation(0, tx::CudaPlace(device)), tx::DeviceError, names_device);
  BOOST_CHECK_EXCEPTION(tx::Allocation(64, tx::CudaPlace(-1)), tx::DeviceError,
                        tx::testing::message_has({"cannot use CudaPlace(-1): "}));
}

BOOST_AUTO_TEST_SUITE_END()
