// DLPack tensors tensorx cannot hold or that contradict themselves: each import is an error that
// says what the tensor was, thrown before the deleter could be called. Also checked: the element
// type and rank of typed and DArray imports, and the names DLPack dtypes and devices get.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "interop/foreign_tensor.h"
#include "support/errors.h"
#include "tensorx/interop/dlpack.h"

namespace tx = tensorx;

namespace {

struct Unholdable {
  const char* what;
  std::function<void(DLManagedTensorVersioned&)> change;
  std::string message;  // what the DLPackError says after "cannot import the DLPack tensor: "
};

std::vector<Unholdable> unholdable_tensors() {
  const auto dtype = [](std::uint8_t code, std::uint8_t bits, std::uint16_t lanes) {
    return [=](DLManagedTensorVersioned& t) { t.dl_tensor.dtype = DLDataType{code, bits, lanes}; };
  };
  const auto device = [](std::int32_t type, std::int32_t id) {
    return [=](DLManagedTensorVersioned& t) {
      t.dl_tensor.device = DLDevice{static_cast<DLDeviceType>(type), id};
    };
  };
  const std::string types =
      " is none of tensorx's float16, float32, float64, int32, int64 and bfloat16";
  const std::string holds =
      ", but tensorx holds CPU memory (kDLCPU, kDLCUDAHost) and CUDA memory (kDLCUDA, "
      "kDLCUDAManaged)";
  return {
      {"uint8", dtype(kDLUInt, 8, 1), "its element type uint8 (code 1, 8 bits, 1 lanes)" + types},
      {"bool", dtype(kDLBool, 8, 1), "its element type bool8 (code 6, 8 bits, 1 lanes)" + types},
      {"complex64", dtype(kDLComplex, 64, 1), "its element type complex64"},
      {"int16", dtype(kDLInt, 16, 1), "its element type int16"},
      {"a float8 type of DLPack 1.1", dtype(10, 8, 1),
       "its element type code 10 with 8 bits (code 10, 8 bits, 1 lanes)"},
      {"a vector type", dtype(kDLFloat, 32, 4),
       "its element type float32x4 (code 2, 32 bits, 4 lanes)"},
      {"ROCm memory", device(kDLROCM, 0), "its memory is on kDLROCM (10) device 0" + holds},
      {"OpenCL memory", device(kDLOpenCL, 1), "its memory is on kDLOpenCL (4) device 1"},
      {"an unknown device", device(99, 0), "its memory is on device type (99) device 0"},
      {"a negative CUDA device", device(kDLCUDA, -1), "negative CUDA device id -1"},
      {"DLPack 2.0",
       [](auto& t) {
         t.version = DLPackVersion{2, 0};
       },
       "it is DLPack version 2.0, and tensorx reads version 1.x"},
      {"a read-only tensor", [](auto& t) { t.flags |= DLPACK_FLAG_BITMASK_READ_ONLY; },
       "it is read-only (DLPACK_FLAG_BITMASK_READ_ONLY), and tensorx arrays are writable"},
      {"a negative rank", [](auto& t) { t.dl_tensor.ndim = -1; },
       "its rank -1 is outside the ranks 0 to 9 of tensorx arrays"},
      {"rank 10", [](auto& t) { t.dl_tensor.ndim = 10; },
       "its rank 10 is outside the ranks 0 to 9"},
      {"a NULL shape", [](auto& t) { t.dl_tensor.shape = nullptr; }, "its shape is NULL"},
      {"a negative extent", [](auto& t) { t.dl_tensor.shape[1] = -3; },
       "extent 1 is negative (-3)"},
      {"an element count beyond 64 bits",
       [](auto& t) { t.dl_tensor.shape[0] = t.dl_tensor.shape[1] = std::int64_t{1} << 40; },
       "its element count overflows 64 bits"},
      {"NULL data", [](auto& t) { t.dl_tensor.data = nullptr; },
       "its data is NULL but it has 6 elements"},
      {"a misaligned first element", [](auto& t) { t.dl_tensor.byte_offset = 2; },
       "its first element (data + byte_offset) is not aligned to the 4-byte float32 elements"},
      {"an overflowing stride",
       [](auto& t) {
         static std::int64_t strides[] = {std::numeric_limits<std::int64_t>::max() / 2 + 1, 1};
         t.dl_tensor.strides = strides;
         t.dl_tensor.shape[0] = 3;
       },
       "a stride's reach overflows 64 bits"},
      {"strides below address 0",
       [](auto& t) {
         static std::int64_t strides[] = {-(std::int64_t{1} << 60), 1};
         t.dl_tensor.strides = strides;
       },
       "its negative strides reach below address 0"},
      {"a byte offset past the address space",
       [](auto& t) { t.dl_tensor.byte_offset = std::numeric_limits<std::uint64_t>::max() - 2; },
       "data + byte_offset (18446744073709551613) overflows the address space"},
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dlpack_errors)

BOOST_AUTO_TEST_CASE(a_tensor_tensorx_cannot_hold_is_a_dlpack_error_saying_what_it_was) {
  int deletions = 0;
  for (const Unholdable& unholdable : unholdable_tensors()) {
    BOOST_TEST_CONTEXT(unholdable.what) {
      auto* tensor = tx::testing::make_foreign<DLManagedTensorVersioned>(
          tx::testing::dl_float32(), {2, 3}, {}, 24, 0, &deletions);
      unholdable.change(*tensor);
      const auto says =
          tx::testing::message_has({"cannot import the DLPack tensor: " + unholdable.message});
      BOOST_CHECK_EXCEPTION(tx::from_dlpack(tensor), tx::DLPackError, says);
      BOOST_CHECK_EXCEPTION((tx::from_dlpack<float, 2>(tensor)), tx::DLPackError, says);
      BOOST_TEST(deletions == 0);
      tensor->deleter(tensor);
      deletions = 0;
    }
  }
}

BOOST_AUTO_TEST_CASE(null_pointers_are_dlpack_errors) {
  BOOST_CHECK_EXCEPTION(tx::from_dlpack(static_cast<DLManagedTensorVersioned*>(nullptr)),
                        tx::DLPackError,
                        tx::testing::message_has({"the DLManagedTensorVersioned pointer is NULL"}));
  BOOST_CHECK_EXCEPTION((tx::from_dlpack<float, 1>(static_cast<DLManagedTensor*>(nullptr))),
                        tx::DLPackError,
                        tx::testing::message_has({"the DLManagedTensor pointer is NULL"}));
}

BOOST_AUTO_TEST_CASE(another_element_type_or_rank_is_a_type_error_naming_both) {
  int deletions = 0;
  auto* tensor = tx::testing::make_foreign<DLManagedTensor>(DLDataType{kDLInt, 32, 1}, {2, 3}, {},
                                                            24, 0, &deletions);
  BOOST_CHECK_EXCEPTION(
      (tx::from_dlpack<std::int64_t, 2>(tensor)), tx::TypeError,
      tx::testing::message_is(
          "expected an Array<int64, 2> but the DLPack tensor holds an Array<int32, 2>"));
  BOOST_CHECK_EXCEPTION((tx::from_dlpack<std::int32_t, 1>(tensor)), tx::TypeError,
                        tx::testing::message_has({"Array<int32, 1>", "Array<int32, 2>"}));
  tensor->dl_tensor.ndim = 0;
  BOOST_CHECK_EXCEPTION(tx::from_dlpack(tensor), tx::TypeError,
                        tx::testing::message_is(
                            "the DLPack tensor holds an Array<int32, 0> but a DArray holds ranks 1 "
                            "to 4; use tx::from_dlpack<T, N> for rank 0"));
  BOOST_TEST((tx::from_dlpack<std::int32_t, 0>(tensor).numel() == 1));
  BOOST_TEST(deletions == 1);
}

BOOST_AUTO_TEST_SUITE_END()
