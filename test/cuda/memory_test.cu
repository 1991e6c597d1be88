// Memory on GPUs, run where a CUDA device is usable and reported as skipped elsewhere: allocation,
// copies between every pair of places with strided views on both sides, fills, stream ordering,
// synchronize, and the CudaError of a failed CUDA call. Results are read back with plain CUDA calls
// and compared with the host reference loops of strided_case.h.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <boost/test/unit_test.hpp>

#include "support/cuda_test.h"
#include "support/errors.h"
#include "support/spin_kernel.cuh"
#include "support/strided_case.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/memory/strided_copy.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::StridedView;

namespace {

const std::size_t kElementSizes[] = {1, 2, 4, 8};
const int kRanks[] = {0, 1, 2, 3, 4, 9};

void require_success(cudaError_t status) {
  BOOST_TEST_REQUIRE(status == cudaSuccess, cudaGetErrorName(status));
}

// The CPU and the first two GPUs: every kind of pair a copy can meet.
std::vector<tx::Place> test_places() {
  std::vector<tx::Place> places = {tx::CpuPlace(), tx::CudaPlace(0)};
  if (tx::cuda::device_count() > 1) places.push_back(tx::CudaPlace(1));
  return places;
}

// Bytes on a place, written and read with cudaMemcpy so that the checks do not rest on the copies
// under test. read() first waits for every device, whatever stream the work went to.
class PlacedBytes {
 public:
  PlacedBytes(const std::vector<unsigned char>& bytes, const tx::Place& place)
      : allocation_(bytes.size(), place) {
    tx::synchronize();
    require_success(cudaMemcpy(data(), bytes.data(), bytes.size(), cudaMemcpyDefault));
  }

  void* data() const { return allocation_.data(); }
  const tx::Place& place() const { return allocation_.place(); }

  std::vector<unsigned char> read() const {
    tx::synchronize();
    std::vector<unsigned char> bytes(allocation_.size());
    require_success(cudaMemcpy(bytes.data(), data(), bytes.size(), cudaMemcpyDefault));
    return bytes;
  }

 private:
  tx::Allocation allocation_;
};

index_t max_extent(int rank) {
  return rank == 9 ? 3 : 7;
}

std::size_t buffer_bytes(const StridedView& view, std::size_t element_size) {
  return static_cast<std::size_t>(tx::testing::buffer_elements(view)) * element_size;
}

void check_copy(const tx::Place& dst_place, const tx::Place& src_place, int rank,
                std::size_t element_size, std::mt19937& rng) {
  const std::vector<index_t> dims = tx::testing::random_extents(rank, max_extent(rank), rng);
  const StridedView src = tx::testing::random_view(dims, true, rng);
  const StridedView dst = tx::testing::random_view(dims, false, rng);
  BOOST_TEST_CONTEXT(dst_place << " <- " << src_place << ", element size " << element_size
                               << ", src " << src.describe() << ", dst " << dst.describe()) {
    const auto src_bytes = tx::testing::random_bytes(buffer_bytes(src, element_size), rng);
    const auto dst_bytes = tx::testing::random_bytes(buffer_bytes(dst, element_size), rng);
    auto expected = dst_bytes;
    tx::testing::reference_copy(expected.data(), dst, src_bytes.data(), src, element_size);

    const PlacedBytes source(src_bytes, src_place);
    const PlacedBytes target(dst_bytes, dst_place);
    tx::detail::copy_strided(dst.over(target.data(), dst_place, element_size),
                             src.over(source.data(), src_place, element_size), element_size);
    BOOST_TEST((target.read() == expected));
    BOOST_TEST((source.read() == src_bytes), "the source is left as it was");
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gpu_memory, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(allocations_on_a_gpu_are_usable_device_memory) {
  tx::Allocation allocation(1000, tx::CudaPlace(0));
  BOOST_TEST_REQUIRE(allocation.data() != nullptr);
  BOOST_TEST(allocation.size() == 1000u);
  BOOST_TEST(allocation.place() == tx::Place(tx::CudaPlace(0)));
  BOOST_TEST(reinterpret_cast<std::uintptr_t>(allocation.data()) % 16 == 0u);
  cudaPointerAttributes attributes{};
  require_success(cudaPointerGetAttributes(&attributes, allocation.data()));
  BOOST_TEST(attributes.type == cudaMemoryTypeDevice);
  BOOST_TEST(attributes.device == 0);

  tx::Allocation empty(0, tx::CudaPlace(0));
  BOOST_TEST(empty.data() == nullptr);
  BOOST_TEST(empty.place() == tx::Place(tx::CudaPlace(0)));
}

BOOST_AUTO_TEST_CASE(an_impossible_allocation_is_an_out_of_memory_error_naming_the_bytes) {
  const std::size_t impossible = std::size_t{1} << 60;
  BOOST_CHECK_EXCEPTION(tx::Allocation(impossible, tx::CudaPlace(0)), tx::OutOfMemoryError,
                        tx::testing::message_has({"cannot allocate " + std::to_string(impossible) +
                                                      " bytes on CudaPlace(0)",
                                                  "bytes free of"}));
  // The failure is not left behind for the next launch check to report.
  BOOST_TEST(cudaGetLastError() == cudaSuccess);
  const std::vector<unsigned char> bytes = {1, 2, 3, 4, 5, 6};
  const PlacedBytes buffer(bytes, tx::CudaPlace(0));
  const std::uint16_t value = 0x0707;
  StridedView every_other;
  every_other.dims = {3};
  every_other.strides = {2};
  BOOST_CHECK_NO_THROW(
      tx::detail::fill_strided(every_other.over(buffer.data(), buffer.place(), 1), &value, 1));
  const std::vector<unsigned char> filled = {7, 2, 7, 4, 7, 6};
  BOOST_TEST(buffer.read() == filled, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(copies_between_every_pair_of_places) {
  std::mt19937 rng(4242);
  for (const tx::Place& dst_place : test_places()) {
    for (const tx::Place& src_place : test_places()) {
      for (std::size_t element_size : kElementSizes) {
        for (int rank : kRanks) {
          for (int trial = 0; trial < 6; ++trial) {
            check_copy(dst_place, src_place, rank, element_size, rng);
          }
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(overlapping_views_of_one_gpu_buffer_copy_as_if_read_first) {
  std::mt19937 rng(17);
  for (std::size_t element_size : kElementSizes) {
    for (int rank : kRanks) {
      for (int trial = 0; trial < 10; ++trial) {
        const auto dims = tx::testing::random_extents(rank, max_extent(rank), rng);
        StridedView src = tx::testing::random_view(dims, true, rng);
        StridedView dst = tx::testing::random_view(dims, false, rng);
        src.offset += static_cast<index_t>(rng() % 4);
        dst.offset += static_cast<index_t>(rng() % 4);
        BOOST_TEST_CONTEXT("element size " << element_size << ", src " << src.describe() << ", dst "
                                           << dst.describe()) {
          const auto bytes = tx::testing::random_bytes(
              std::max(buffer_bytes(src, element_size), buffer_bytes(dst, element_size)), rng);
          auto expected = bytes;
          tx::testing::reference_copy(expected.data(), dst, expected.data(), src, element_size);
          const PlacedBytes buffer(bytes, tx::CudaPlace(0));
          tx::detail::copy_strided(dst.over(buffer.data(), buffer.place(), element_size),
                                   src.over(buffer.data(), buffer.place(), element_size),
                                   element_size);
          BOOST_TEST((buffer.read() == expected));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(fills_of_random_gpu_views) {
  std::mt19937 rng(23);
  for (std::size_t element_size : kElementSizes) {
    for (int rank : kRanks) {
      for (int trial = 0; trial < 10; ++trial) {
        const auto dims = tx::testing::random_extents(rank, max_extent(rank), rng);
        const StridedView dst = tx::testing::random_view(dims, false, rng);
        BOOST_TEST_CONTEXT("element size " << element_size << ", dst " << dst.describe()) {
          const auto bytes = tx::testing::random_bytes(buffer_bytes(dst, element_size), rng);
          const auto value = tx::testing::random_bytes(element_size, rng);
          auto expected = bytes;
          tx::testing::reference_fill(expected.data(), dst, value.data(), element_size);
          const PlacedBytes buffer(bytes, tx::CudaPlace(0));
          tx::detail::fill_strided(dst.over(buffer.data(), buffer.place(), element_size),
                                   value.data(), element_size);
          BOOST_TEST((buffer.read() == expected));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(more_elements_than_32_bit_indices_reach) {
  // 2^31 + 16 one-byte elements take the kernels' 64-bit index path.
  const index_t count = (index_t{1} << 31) + 16;
  tx::Allocation buffer(static_cast<std::size_t>(count), tx::CudaPlace(0));
  StridedView all;
  all.dims = {count};
  all.strides = {1};
  const std::uint8_t value = 0x5a;
  tx::detail::fill_strided(all.over(buffer.data(), buffer.place(), 1), &value, 1);
  tx::synchronize();
  for (index_t position : {index_t{0}, index_t{1} << 31, count - 1}) {
    std::uint8_t byte = 0;
    require_success(cudaMemcpy(&byte, static_cast<std::uint8_t*>(buffer.data()) + position, 1,
                               cudaMemcpyDeviceToHost));
    BOOST_TEST(byte == value, "at " << position);
  }
}

BOOST_AUTO_TEST_CASE(a_stream_guard_makes_a_stream_current_for_its_scope) {
  tx::Stream stream(tx::CudaPlace(0));
  BOOST_TEST(stream.handle() != nullptr);
  BOOST_TEST(tx::current_stream(0) == nullptr);
  {
    tx::StreamGuard guard(stream);
    BOOST_TEST(tx::current_stream(0) == stream.handle());
    tx::Stream inner(tx::CudaPlace(0));
    {
      tx::StreamGuard nested(inner);
      BOOST_TEST(tx::current_stream(0) == inner.handle());
    }
    BOOST_TEST(tx::current_stream(0) == stream.handle());
  }
  BOOST_TEST(tx::current_stream(0) == nullptr);

  tx::Stream moved = std::move(stream);
  BOOST_TEST(stream.handle() == nullptr);
  BOOST_TEST(moved.handle() != nullptr);
  BOOST_CHECK_NO_THROW(stream.synchronize());
  BOOST_CHECK_NO_THROW(moved.synchronize());
}

BOOST_AUTO_TEST_CASE(copies_are_ordered_after_earlier_work_on_the_current_stream) {
  // The stream is non-blocking, so only stream order (not the legacy default stream's implicit
  // synchronisation) can make the copy see what the slow kernel writes.
  constexpr int count = 1024;
  tx::Stream stream(tx::CudaPlace(0));
  tx::StreamGuard guard(stream);
  tx::Allocation device(count * sizeof(std::int32_t), tx::CudaPlace(0));
  auto* data = static_cast<std::int32_t*>(device.data());
  require_success(cudaMemsetAsync(data, 0, count * sizeof(std::int32_t), stream.handle()));
  tx::testing::spin_then_fill(stream.handle(), data, count, std::int32_t{42});

  std::vector<std::int32_t> host(count, -1);
  StridedView view;
  view.dims = {count};
  view.strides = {1};
  tx::detail::copy_strided(view.over(host.data(), tx::CpuPlace(), 4),
                           view.over(data, tx::CudaPlace(0), 4), 4);
  BOOST_TEST(host == std::vector<std::int32_t>(count, 42), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(synchronize_waits_for_every_stream) {
  constexpr int count = 256;
  tx::Stream stream(tx::CudaPlace(0));
  tx::StreamGuard guard(stream);
  tx::Allocation device(count * sizeof(std::int32_t), tx::CudaPlace(0));
  auto* data = static_cast<std::int32_t*>(device.data());
  std::vector<std::int32_t> host(count, 0);
  const auto launch = [&](std::int32_t value) {
    tx::testing::spin_then_fill(stream.handle(), data, count, value);
  };
  // cudaMemcpyAsync on a second non-blocking stream reads without waiting for `stream`.
  cudaStream_t reader = nullptr;
  require_success(cudaStreamCreateWithFlags(&reader, cudaStreamNonBlocking));
  const auto read = [&] {
    require_success(cudaMemcpyAsync(host.data(), data, count * sizeof(std::int32_t),
                                    cudaMemcpyDeviceToHost, reader));
    require_success(cudaStreamSynchronize(reader));
  };

  launch(1);
  tx::synchronize();
  read();
  BOOST_TEST(host == std::vector<std::int32_t>(count, 1), boost::test_tools::per_element());
  launch(2);
  tx::synchronize(tx::CudaPlace(0));
  read();
  BOOST_TEST(host == std::vector<std::int32_t>(count, 2), boost::test_tools::per_element());
  launch(3);
  stream.synchronize();
  read();
  BOOST_TEST(host == std::vector<std::int32_t>(count, 3), boost::test_tools::per_element());
  require_success(cudaStreamDestroy(reader));
}

BOOST_AUTO_TEST_CASE(device_guards_restore_the_previous_device) {
  const int last = tx::cuda::device_count() - 1;
  tx::cuda::set_device(0);
  {
    tx::cuda::DeviceGuard guard(last);
    BOOST_TEST(tx::cuda::current_device() == last);
  }
  BOOST_TEST(tx::cuda::current_device() == 0);
  BOOST_CHECK_EXCEPTION(
      tx::cuda::DeviceGuard(last + 1), tx::DeviceError,
      tx::testing::message_has({"CudaPlace(" + std::to_string(last + 1) + ")", "out of range"}));
  BOOST_TEST(tx::cuda::current_device() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
