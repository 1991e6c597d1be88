// DLPack export and import on the CPU: every element type at several ranks, strided views with
// offsets and negative strides, foreign tensors with NULL strides and byte offsets, the legacy
// struct, and empty arrays. Every exchange shares memory: no element is copied.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "interop/foreign_tensor.h"
#include "interop/interop_cases.h"
#include "tensorx/array/darray.h"
#include "tensorx/interop/dlpack.h"
#include "tensorx/layout/permute_exp.h"
#include "tensorx/layout/slice_exp.h"

namespace tx = tensorx;

namespace {

/// The DLPack dtype of T, written down independently of tensorx's table.
template <class T>
DLDataType expected_dtype() {
  const auto code = std::is_integral_v<T>             ? kDLInt
                    : std::is_same_v<T, tx::bfloat16> ? kDLBfloat
                                                      : kDLFloat;
  return DLDataType{static_cast<std::uint8_t>(code), static_cast<std::uint8_t>(8 * sizeof(T)), 1};
}

/// Checks that `tensor` describes `array` on the CPU: extents, strides, and the buffer's start
/// with the view's offset as byte_offset.
template <class T, int N>
void check_describes(const DLManagedTensorVersioned* tensor, const tx::Array<T, N>& array) {
  BOOST_TEST(tensor->version.major == 1u);
  BOOST_TEST(tensor->flags == 0u);
  const DLTensor& t = tensor->dl_tensor;
  BOOST_TEST(t.device.device_type == kDLCPU);
  BOOST_TEST(t.device.device_id == 0);
  BOOST_TEST(t.ndim == N);
  BOOST_TEST(t.dtype.code == expected_dtype<T>().code);
  BOOST_TEST(t.dtype.bits == expected_dtype<T>().bits);
  BOOST_TEST(t.dtype.lanes == 1);
  BOOST_TEST(t.data == array.buffer()->data());
  BOOST_TEST(t.byte_offset == static_cast<std::uint64_t>(array.offset()) * sizeof(T));
  if constexpr (N > 0) {
    for (int d = 0; d < N; ++d) {
      BOOST_TEST(t.shape[d] == array.dims()[d]);
      BOOST_TEST(t.strides[d] == array.strides()[d]);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dlpack_round_trip)

BOOST_AUTO_TEST_CASE(every_element_type_goes_out_and_back_without_a_copy) {
  auto rng = tx::testing::make_rng(31);
  tx::testing::for_each_element_type([&](auto tag) {
    using T = typename decltype(tag)::type;
    tx::testing::for_each_rank<0, 5>([&](auto rank) {
      constexpr int N = rank;
      BOOST_TEST_CONTEXT(tx::name(tx::data_type_of<T>()) << ", rank " << N) {
        const auto a = tx::testing::random_values<T>(tx::testing::random_dim<N>(rng, 1, 4), rng);
        DLManagedTensorVersioned* tensor = tx::to_dlpack(a);
        check_describes(tensor, a);
        const auto b = tx::from_dlpack<T, N>(tensor);
        BOOST_TEST(b.data() == a.data());
        BOOST_TEST(b.strides() == a.strides());
        tx::testing::check_same_elements(b, a);
      }
    });
  });
}

BOOST_AUTO_TEST_CASE(darrays_go_out_and_back_without_a_copy) {
  auto rng = tx::testing::make_rng(32);
  tx::testing::for_each_element_type([&](auto tag) {
    using T = typename decltype(tag)::type;
    tx::testing::for_each_rank<1, 4>([&](auto rank) {
      const auto a = tx::testing::random_values<T>(tx::testing::random_dim<rank>(rng, 1, 4), rng);
      const tx::DArray d = tx::from_dlpack(tx::to_dlpack(tx::DArray(a)));
      BOOST_TEST(tx::dtype(d) == tx::data_type_of<T>());
      BOOST_TEST(tx::dims(d) == tx::DDim(a.dims()));
      BOOST_TEST((d.as<T, rank>().data() == a.data()));
    });
  });
}

BOOST_AUTO_TEST_CASE(a_strided_offset_view_keeps_its_strides_and_offset) {
  auto rng = tx::testing::make_rng(33);
  const auto base = tx::testing::random_values<double>(tx::make_dim(6, 8), rng);
  // Rows 1, 3, 5 and columns 6, 4, 2, 0: a step, a negative stride and an offset at once.
  const tx::Array<double, 2> view(base.buffer(), tx::make_dim(3, 4), tx::make_dim(16, -2), 14);
  DLManagedTensorVersioned* tensor = tx::to_dlpack(view);
  check_describes(tensor, view);
  BOOST_TEST(tensor->dl_tensor.byte_offset == 14 * sizeof(double));

  const auto imported = tx::from_dlpack<double, 2>(tensor);
  BOOST_TEST(imported.data() == view.data());
  BOOST_TEST(imported.strides() == tx::make_dim(16, -2));
  tx::testing::check_same_elements(imported, view);
  imported(2, 3) = 42.0;  // row 5, column 0 of the base
  BOOST_TEST(base(5, 0) == 42.0);
}

BOOST_AUTO_TEST_CASE(a_transpose_or_slice_of_an_array_goes_out_with_its_strides) {
  auto rng = tx::testing::make_rng(34);
  const auto base = tx::testing::random_values<float>(tx::make_dim(5, 7), rng);
  DLManagedTensorVersioned* tensor = tx::to_dlpack(tx::transpose(base));
  check_describes(tensor, tx::transpose(base).array());
  BOOST_TEST(tensor->dl_tensor.strides[0] == 1);
  BOOST_TEST(tensor->dl_tensor.strides[1] == 7);
  const auto imported = tx::from_dlpack<float, 2>(tensor);
  BOOST_TEST(imported.data() == base.data());
  BOOST_TEST(imported(6, 4) == base(4, 6));

  DLManagedTensorVersioned* columns = tx::to_dlpack(tx::slice(base, 1, 2, 5));
  const auto sliced = tx::from_dlpack<float, 2>(columns);
  BOOST_TEST(sliced.dims() == tx::make_dim(5, 3));
  BOOST_TEST(sliced(3, 0) == base(3, 2));
}

BOOST_AUTO_TEST_CASE(null_strides_mean_row_major_and_byte_offsets_are_honoured) {
  int deletions = 0;
  auto* tensor = tx::testing::make_foreign<DLManagedTensorVersioned>(DLDataType{kDLInt, 32, 1},
                                                                     {2, 3}, {}, 64, 8, &deletions);
  std::int32_t* elements = tx::testing::foreign_elements<std::int32_t>(tensor);
  for (int i = 0; i < 6; ++i) elements[i] = 10 * i;
  {
    const auto a = tx::from_dlpack<std::int32_t, 2>(tensor);
    BOOST_TEST(a.data() == elements);
    BOOST_TEST(a.strides() == tx::make_dim(3, 1));
    BOOST_TEST(a(1, 2) == 50);
  }
  BOOST_TEST(deletions == 1);
}

BOOST_AUTO_TEST_CASE(the_legacy_struct_imports_with_any_strides) {
  struct Layout {
    const char* what;
    std::vector<std::int64_t> strides;
    std::uint64_t byte_offset;
  };
  const Layout layouts[] = {{"column-major", {1, 2}, 0},
                            {"reversed rows", {-3, 1}, 3 * sizeof(float)},
                            {"a broadcast row", {0, 1}, 0}};
  int deletions = 0;
  for (const Layout& layout : layouts) {
    BOOST_TEST_CONTEXT(layout.what) {
      auto* tensor = tx::testing::make_foreign<DLManagedTensor>(
          tx::testing::dl_float32(), {2, 3}, layout.strides, 64, layout.byte_offset, &deletions);
      auto* memory = static_cast<float*>(tensor->dl_tensor.data);
      for (int i = 0; i < 16; ++i) memory[i] = static_cast<float>(i);
      const float* first = tx::testing::foreign_elements<float>(tensor);
      const auto a = tx::from_dlpack<float, 2>(tensor);
      BOOST_TEST(a.data() == first);
      for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) {
          BOOST_TEST(a(i, j) == first[i * layout.strides[0] + j * layout.strides[1]]);
        }
      }
    }
  }
  BOOST_TEST(deletions == 3);
}

BOOST_AUTO_TEST_CASE(empty_and_unallocated_arrays_go_out_and_back) {
  const tx::Array<float, 2> unallocated;
  DLManagedTensorVersioned* tensor = tx::to_dlpack(unallocated);
  BOOST_TEST(tensor->dl_tensor.data == nullptr);
  BOOST_TEST(tensor->dl_tensor.shape[0] == 0);
  BOOST_TEST((tx::from_dlpack<float, 2>(tensor).numel() == 0));

  const auto empty = tx::zeros<std::int64_t>(tx::make_dim(0, 3));
  const tx::DArray d = tx::from_dlpack(tx::to_dlpack(empty));
  BOOST_TEST(tx::dims(d) == tx::make_ddim({0, 3}));
}

BOOST_AUTO_TEST_SUITE_END()
