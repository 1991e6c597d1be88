// Who owns what across a DLPack exchange: an imported array and all its views keep the producer's
// memory alive and call its deleter exactly once, when the last of them dies; an exported buffer
// lives until the consumer calls the deleter; a failed import leaves the tensor with its owner.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "interop/foreign_tensor.h"
#include "tensorx/array/darray.h"
#include "tensorx/array/global_ops.h"
#include "tensorx/interop/dlpack.h"
#include "tensorx/place/device.h"

namespace tx = tensorx;

BOOST_AUTO_TEST_SUITE(dlpack_lifetime)

BOOST_AUTO_TEST_CASE(the_deleter_runs_once_when_the_last_view_dies) {
  int deletions = 0;
  auto* tensor = tx::testing::make_foreign<DLManagedTensorVersioned>(tx::testing::dl_float32(),
                                                                     {4, 5}, {}, 80, 0, &deletions);
  std::optional<tx::Array<float, 2>> imported = tx::from_dlpack<float, 2>(tensor);
  std::optional<tx::Array<float, 1>> row = (*imported)[2];
  std::optional<tx::Array<float, 2>> rows = imported->slice(1, 3);
  std::optional<tx::DArray> erased = tx::DArray(*imported);
  std::optional<tx::Array<float, 1>> flat = tx::reshape(*imported, tx::make_dim(20));

  imported.reset();
  rows.reset();
  erased.reset();
  flat.reset();
  BOOST_TEST(deletions == 0);
  (*row)(4) = 1.0f;  // the producer's memory is still there
  row.reset();
  BOOST_TEST(deletions == 1);
}

BOOST_AUTO_TEST_CASE(the_legacy_deleter_runs_once_too) {
  int deletions = 0;
  auto* tensor = tx::testing::make_foreign<DLManagedTensor>(DLDataType{kDLInt, 64, 1}, {3}, {}, 24,
                                                            0, &deletions);
  {
    const tx::DArray imported = tx::from_dlpack(tensor);
    const tx::DArray alias = imported;
    BOOST_TEST(deletions == 0);
  }
  BOOST_TEST(deletions == 1);
}

BOOST_AUTO_TEST_CASE(imported_memory_is_the_producers_in_both_directions) {
  int deletions = 0;
  auto* tensor = tx::testing::make_foreign<DLManagedTensorVersioned>(tx::testing::dl_float32(),
                                                                     {2, 2}, {}, 16, 0, &deletions);
  float* producer = tx::testing::foreign_elements<float>(tensor);
  const auto imported = tx::from_dlpack<float, 2>(tensor);
  producer[3] = 7.0f;
  BOOST_TEST(imported(1, 1) == 7.0f);
  tx::fill(imported, 2.0f);
  BOOST_TEST(producer[0] == 2.0f);
}

BOOST_AUTO_TEST_CASE(an_exported_buffer_lives_until_the_consumer_calls_the_deleter) {
  std::vector<float> memory(6, 1.0f);
  int releases = 0;
  auto buffer = std::make_shared<tx::Allocation>(memory.data(), memory.size() * sizeof(float),
                                                 tx::CpuPlace(), [&] { ++releases; });
  DLManagedTensorVersioned* tensor;
  {
    const tx::Array<float, 2> array(std::move(buffer), tx::make_dim(2, 3), tx::make_dim(3, 1), 0);
    tensor = tx::to_dlpack(array);
  }
  BOOST_TEST(releases == 0);
  BOOST_TEST(static_cast<float*>(tensor->dl_tensor.data)[5] == 1.0f);
  tensor->deleter(tensor);
  BOOST_TEST(releases == 1);
}

BOOST_AUTO_TEST_CASE(a_round_trip_keeps_the_buffer_until_both_sides_let_go) {
  std::vector<double> memory(4, 0.0);
  int releases = 0;
  std::optional<tx::Array<double, 1>> original = tx::Array<double, 1>(
      std::make_shared<tx::Allocation>(memory.data(), 32, tx::CpuPlace(), [&] { ++releases; }),
      tx::make_dim(4), tx::make_dim(1), 0);
  std::optional<tx::Array<double, 1>> round_trip =
      tx::from_dlpack<double, 1>(tx::to_dlpack(*original));
  BOOST_TEST(round_trip->data() == memory.data());
  original.reset();
  BOOST_TEST(releases == 0);
  (*round_trip)(3) = 5.0;
  round_trip.reset();
  BOOST_TEST(releases == 1);
  BOOST_TEST(memory[3] == 5.0);
}

BOOST_AUTO_TEST_CASE(a_failed_import_leaves_the_tensor_with_its_owner) {
  int deletions = 0;
  auto* tensor = tx::testing::make_foreign<DLManagedTensorVersioned>(tx::testing::dl_float32(),
                                                                     {2, 3}, {}, 24, 0, &deletions);
  BOOST_CHECK_THROW((tx::from_dlpack<double, 2>(tensor)), tx::TypeError);
  BOOST_CHECK_THROW((tx::from_dlpack<float, 3>(tensor)), tx::TypeError);
  tensor->flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  BOOST_CHECK_THROW(tx::from_dlpack(tensor), tx::DLPackError);
  tensor->flags = 0;
  tensor->dl_tensor.device = DLDevice{kDLCUDA, tx::cuda::device_count()};  // never usable
  BOOST_CHECK_THROW(tx::from_dlpack(tensor), tx::DeviceError);
  BOOST_TEST(deletions == 0);
  // After all that, the tensor is intact and still the caller's.
  tensor->dl_tensor.device = DLDevice{kDLCPU, 0};
  BOOST_TEST((tx::from_dlpack<float, 2>(tensor).dims() == tx::make_dim(2, 3)));
  BOOST_TEST(deletions == 1);
}

BOOST_AUTO_TEST_SUITE_END()
