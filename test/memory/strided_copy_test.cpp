// copy_strided and fill_strided on the CPU, against the reference loops of strided_case.h: every
// element size, ranks 0 to 4 and 9, random slices, transposes, reversals and broadcast sources,
// empty and size-1 extents, views that overlap in one buffer, and the errors.
#include <cstdint>
#include <random>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "support/errors.h"
#include "support/strided_case.h"
#include "tensorx/memory/strided_copy.h"
#include "tensorx/place/device.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::StridedView;

namespace {

const std::size_t kElementSizes[] = {1, 2, 4, 8};
const int kRanks[] = {0, 1, 2, 3, 4, 9};

// Extents stay small at rank 9 so that a case remains a few thousand elements.
index_t max_extent(int rank) {
  return rank == 9 ? 3 : 7;
}

StridedView dense_view(std::vector<index_t> dims) {
  StridedView view;
  view.strides.assign(dims.size(), 1);
  for (auto d = dims.size(); d-- > 1;) view.strides[d - 1] = view.strides[d] * dims[d];
  view.dims = std::move(dims);
  return view;
}

// Copies between two random views of separate buffers and compares whole buffers, so that writes
// outside dst's elements are caught as well as wrong elements.
void check_random_copy(int rank, std::size_t element_size, std::mt19937& rng) {
  const std::vector<index_t> dims = tx::testing::random_extents(rank, max_extent(rank), rng);
  const StridedView src = tx::testing::random_view(dims, true, rng);
  const StridedView dst = tx::testing::random_view(dims, false, rng);
  BOOST_TEST_CONTEXT("element size " << element_size << ", src " << src.describe() << ", dst "
                                     << dst.describe()) {
    const auto src_buffer = tx::testing::random_bytes(
        static_cast<std::size_t>(tx::testing::buffer_elements(src)) * element_size, rng);
    auto dst_buffer = tx::testing::random_bytes(
        static_cast<std::size_t>(tx::testing::buffer_elements(dst)) * element_size, rng);
    auto expected = dst_buffer;
    tx::testing::reference_copy(expected.data(), dst, src_buffer.data(), src, element_size);

    auto source = src_buffer;
    tx::detail::copy_strided(dst.over(dst_buffer.data(), tx::CpuPlace(), element_size),
                             src.over(source.data(), tx::CpuPlace(), element_size), element_size);
    BOOST_TEST((dst_buffer == expected));
    BOOST_TEST((source == src_buffer), "the source is left as it was");
  }
}

// Two random views of ONE buffer, shifted against each other so that they overlap.
void check_overlapping_copy(int rank, std::size_t element_size, std::mt19937& rng) {
  const std::vector<index_t> dims = tx::testing::random_extents(rank, max_extent(rank), rng);
  StridedView src = tx::testing::random_view(dims, true, rng);
  StridedView dst = tx::testing::random_view(dims, false, rng);
  src.offset += static_cast<index_t>(rng() % 4);
  dst.offset += static_cast<index_t>(rng() % 4);
  BOOST_TEST_CONTEXT("element size " << element_size << ", src " << src.describe() << ", dst "
                                     << dst.describe()) {
    const index_t elements =
        std::max(tx::testing::buffer_elements(src), tx::testing::buffer_elements(dst));
    auto buffer = tx::testing::random_bytes(static_cast<std::size_t>(elements) * element_size, rng);
    auto expected = buffer;
    tx::testing::reference_copy(expected.data(), dst, expected.data(), src, element_size);

    tx::detail::copy_strided(dst.over(buffer.data(), tx::CpuPlace(), element_size),
                             src.over(buffer.data(), tx::CpuPlace(), element_size), element_size);
    BOOST_TEST((buffer == expected));
  }
}

void check_random_fill(int rank, std::size_t element_size, std::mt19937& rng) {
  const std::vector<index_t> dims = tx::testing::random_extents(rank, max_extent(rank), rng);
  const StridedView dst = tx::testing::random_view(dims, false, rng);
  BOOST_TEST_CONTEXT("element size " << element_size << ", dst " << dst.describe()) {
    auto buffer = tx::testing::random_bytes(
        static_cast<std::size_t>(tx::testing::buffer_elements(dst)) * element_size, rng);
    const auto value = tx::testing::random_bytes(element_size, rng);
    auto expected = buffer;
    tx::testing::reference_fill(expected.data(), dst, value.data(), element_size);

    tx::detail::fill_strided(dst.over(buffer.data(), tx::CpuPlace(), element_size), value.data(),
                             element_size);
    BOOST_TEST((buffer == expected));
  }
}

std::vector<std::int32_t> iota_values(int count) {
  std::vector<std::int32_t> values(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = i;
  return values;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(strided_copy)

BOOST_AUTO_TEST_CASE(strided_bytes_describes_a_dim_layout) {
  float data[24] = {};
  const auto bytes =
      tx::detail::strided_bytes(data, tx::CpuPlace(), tx::make_dim(2, 3, 4), tx::make_dim(1, 8, 2));
  BOOST_TEST(bytes.data == static_cast<void*>(data));
  BOOST_TEST(tx::is_cpu_place(bytes.place));
  BOOST_TEST(bytes.rank == 3);
  const index_t dims[] = {2, 3, 4};
  const index_t strides[] = {1, 8, 2};
  BOOST_TEST(
      std::vector<index_t>(bytes.dims, bytes.dims + 3) == std::vector<index_t>(dims, dims + 3),
      boost::test_tools::per_element());
  BOOST_TEST(std::vector<index_t>(bytes.strides, bytes.strides + 3) ==
                 std::vector<index_t>(strides, strides + 3),
             boost::test_tools::per_element());
  const auto scalar = tx::detail::strided_bytes(data, tx::CpuPlace(), tx::Dim<0>(), tx::Dim<0>());
  BOOST_TEST(scalar.rank == 0);
}

BOOST_AUTO_TEST_CASE(copies_between_random_views) {
  std::mt19937 rng(20240611);
  for (std::size_t element_size : kElementSizes) {
    for (int rank : kRanks) {
      for (int trial = 0; trial < 40; ++trial) check_random_copy(rank, element_size, rng);
    }
  }
}

BOOST_AUTO_TEST_CASE(copies_between_overlapping_views_of_one_buffer) {
  std::mt19937 rng(7);
  for (std::size_t element_size : kElementSizes) {
    for (int rank : kRanks) {
      for (int trial = 0; trial < 40; ++trial) check_overlapping_copy(rank, element_size, rng);
    }
  }
}

BOOST_AUTO_TEST_CASE(fills_random_views) {
  std::mt19937 rng(99);
  for (std::size_t element_size : kElementSizes) {
    for (int rank : kRanks) {
      for (int trial = 0; trial < 40; ++trial) check_random_fill(rank, element_size, rng);
    }
  }
}

BOOST_AUTO_TEST_CASE(shifting_a_buffer_in_place_reads_before_it_writes) {
  // a[1:] = a[:-1] forwards and a[:-1] = a[1:] backwards, as memmove would.
  auto values = iota_values(10);
  StridedView head = dense_view({9});
  StridedView tail = dense_view({9});
  tail.offset = 1;
  tx::detail::copy_strided(tail.over(values.data(), tx::CpuPlace(), 4),
                           head.over(values.data(), tx::CpuPlace(), 4), 4);
  const std::vector<std::int32_t> forwards = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8};
  BOOST_TEST(values == forwards, boost::test_tools::per_element());

  values = iota_values(10);
  tx::detail::copy_strided(head.over(values.data(), tx::CpuPlace(), 4),
                           tail.over(values.data(), tx::CpuPlace(), 4), 4);
  const std::vector<std::int32_t> backwards = {1, 2, 3, 4, 5, 6, 7, 8, 9, 9};
  BOOST_TEST(values == backwards, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(transposing_a_square_matrix_in_place) {
  auto values = iota_values(9);
  const StridedView rows = dense_view({3, 3});
  StridedView columns = rows;
  std::swap(columns.strides[0], columns.strides[1]);
  tx::detail::copy_strided(rows.over(values.data(), tx::CpuPlace(), 4),
                           columns.over(values.data(), tx::CpuPlace(), 4), 4);
  const std::vector<std::int32_t> transposed = {0, 3, 6, 1, 4, 7, 2, 5, 8};
  BOOST_TEST(values == transposed, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(copying_a_view_onto_itself_changes_nothing) {
  auto values = iota_values(12);
  const auto original = values;
  StridedView view = dense_view({3, 2});
  view.strides = {4, -1};
  view.offset = 1;
  tx::detail::copy_strided(view.over(values.data(), tx::CpuPlace(), 4),
                           view.over(values.data(), tx::CpuPlace(), 4), 4);
  BOOST_TEST(values == original, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_scalar_is_one_element) {
  const double src = 2.5;
  double dst = 0.0;
  tx::detail::copy_strided(
      tx::detail::strided_bytes(&dst, tx::CpuPlace(), tx::Dim<0>(), tx::Dim<0>()),
      tx::detail::strided_bytes(const_cast<double*>(&src), tx::CpuPlace(), tx::Dim<0>(),
                                tx::Dim<0>()),
      sizeof(double));
  BOOST_TEST(dst == 2.5);
  const double value = -1.0;
  tx::detail::fill_strided(
      tx::detail::strided_bytes(&dst, tx::CpuPlace(), tx::Dim<0>(), tx::Dim<0>()), &value,
      sizeof(double));
  BOOST_TEST(dst == -1.0);
}

BOOST_AUTO_TEST_CASE(empty_arrays_touch_nothing) {
  // Null data is never dereferenced when an extent is 0.
  const StridedView empty = dense_view({4, 0, 3});
  tx::detail::copy_strided(empty.over(nullptr, tx::CpuPlace(), 4),
                           empty.over(nullptr, tx::CpuPlace(), 4), 4);
  const std::int32_t value = 1;
  tx::detail::fill_strided(empty.over(nullptr, tx::CpuPlace(), 4), &value, 4);
}

BOOST_AUTO_TEST_CASE(extents_that_differ_are_a_shape_error_naming_both) {
  auto values = iota_values(6);
  const auto original = values;
  const StridedView two_by_three = dense_view({2, 3});
  const StridedView three_by_two = dense_view({3, 2});
  BOOST_CHECK_EXCEPTION(
      tx::detail::copy_strided(two_by_three.over(values.data(), tx::CpuPlace(), 4),
                               three_by_two.over(values.data(), tx::CpuPlace(), 4), 4),
      tx::ShapeError, tx::testing::message_has({"(3, 2)", "(2, 3)"}));
  const StridedView six = dense_view({6});
  BOOST_CHECK_EXCEPTION(
      tx::detail::copy_strided(six.over(values.data(), tx::CpuPlace(), 4),
                               two_by_three.over(values.data(), tx::CpuPlace(), 4), 4),
      tx::ShapeError, tx::testing::message_has({"(6)", "(2, 3)"}));
  BOOST_TEST(values == original, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(unsupported_element_sizes_ranks_and_extents_are_rejected) {
  std::int32_t values[4] = {};
  const StridedView four = dense_view({4});
  const auto bytes = four.over(values, tx::CpuPlace(), 1);
  for (std::size_t element_size : {std::size_t{0}, std::size_t{3}, std::size_t{16}}) {
    BOOST_CHECK_EXCEPTION(
        tx::detail::copy_strided(bytes, bytes, element_size), tx::TypeError,
        tx::testing::message_has({"1, 2, 4 or 8 bytes", std::to_string(element_size)}));
    BOOST_CHECK_EXCEPTION(tx::detail::fill_strided(bytes, values, element_size), tx::TypeError,
                          tx::testing::message_has({"1, 2, 4 or 8 bytes"}));
  }
  auto too_deep = bytes;
  too_deep.rank = tx::kMaxRank + 1;
  BOOST_CHECK_EXCEPTION(tx::detail::copy_strided(too_deep, too_deep, 4), tx::ShapeError,
                        tx::testing::message_has({"ranks 0 to 9", "not 10"}));
  auto negative = bytes;
  negative.dims[0] = -2;
  BOOST_CHECK_EXCEPTION(tx::detail::fill_strided(negative, values, 4), tx::ShapeError,
                        tx::testing::message_has({"negative", "(-2)"}));
}

BOOST_AUTO_TEST_CASE(an_unusable_gpu_side_is_a_device_error_before_any_write) {
  // CudaPlace(device_count()) is never usable: with no GPU it says why, with GPUs it is out of
  // range.
  const int device = tx::cuda::device_count();
  auto values = iota_values(4);
  const auto original = values;
  const StridedView four = dense_view({4});
  const auto host = four.over(values.data(), tx::CpuPlace(), 4);
  const auto gpu = four.over(values.data(), tx::CudaPlace(device), 4);
  const auto names_device =
      tx::testing::message_has({"cannot use CudaPlace(" + std::to_string(device) + "): "});
  BOOST_CHECK_EXCEPTION(tx::detail::copy_strided(host, gpu, 4), tx::DeviceError, names_device);
  BOOST_CHECK_EXCEPTION(tx::detail::copy_strided(gpu, host, 4), tx::DeviceError, names_device);
  BOOST_CHECK_EXCEPTION(tx::detail::fill_strided(gpu, values.data(), 4), tx::DeviceError,
                        names_device);
  BOOST_TEST(values == original, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
