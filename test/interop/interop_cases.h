// What the interop tests share: loops over element types and a range of ranks, random
// arrays of any element type, and a bitwise comparison of two arrays (NaNs and signed zeros
// included, which is what a lossless exchange must keep).
#pragma once

#include <cstring>
#include <random>
#include <utility>

#include <boost/test/unit_test.hpp>

#include "support/random.h"
#include "tensorx/array/array.h"
#include "tensorx/array/array_view.h"
#include "tensorx/core/data_type.h"

namespace tensorx {
namespace testing {

/// Calls f(TypeTag<T>{}) for every tensorx element type.
template <class F>
void for_each_element_type(F&& f) {
  for (DataType type : kAllDataTypes) type_switch(type, f);
}

/// Calls f(TypeTag<T>{}) for every tensorx element type that NumPy has too (the .npy format's).
template <class F>
void for_each_numpy_element_type(F&& f) {
  for (DataType type : {DataType::kFloat16, DataType::kFloat32, DataType::kFloat64,
                        DataType::kInt32, DataType::kInt64}) {
    type_switch(type, f);
  }
}

/// Calls f(std::integral_constant<int, N>{}) for N = First .. Last.
template <int First, int Last, class F>
void for_each_rank(F&& f) {
  if constexpr (First <= Last) {
    f(std::integral_constant<int, First>{});
    for_each_rank<First + 1, Last>(f);
  }
}

/// A dense CPU array of extent `dims` with random values that every element type holds exactly
/// enough to tell elements apart: integers in [-10^6, 10^6), floating point in [-100, 100).
template <class T, int N>
Array<T, N> random_values(const Dim<N>& dims, std::mt19937_64& rng) {
  Array<T, N> array(dims);
  const double range = std::is_integral_v<T> ? 1e6 : 100.0;
  fill_random(array, rng, -range, range);
  return array;
}

/// Checks that two CPU arrays have the same extent and bitwise equal elements at every index.
template <class T, int N>
void check_same_elements(const Array<T, N>& actual, const Array<T, N>& expected) {
  BOOST_TEST_REQUIRE(actual.dims() == expected.dims());
  const auto actual_view = make_view(actual);
  auto a = actual_view.begin();
  index_t differences = 0;
  for (const T& e : make_view(expected)) differences += std::memcmp(&*a++, &e, sizeof(T)) != 0;
  BOOST_TEST(differences == 0);
}

}  // namespace testing
}  // namespace tensorx
