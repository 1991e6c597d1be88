// Independent references for expression tests: plain loops over every index in double precision,
// reading operands with NumPy broadcasting by hand (not through tensorx's plans).
#pragma once

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <sstream>

#include "support/test_place.h"
#include "tensorx/array/array.h"
#include "tensorx/core/bfloat16.h"
#include "tensorx/core/float16.h"

namespace tensorx {
namespace testing {

/// Calls f(index) for every index of `dims` in row-major order.
template <int N, class F>
void for_each_index(const Dim<N>& dims, F&& f) {
  if (product(dims) == 0) return;
  Dim<N> index;
  for (index_t n = 0; n < product(dims); ++n) {
    f(index);
    for (int i = N - 1; i >= 0; --i) {
      if (++index[i] < dims[i]) break;
      index[i] = 0;
    }
  }
}

/// Element `index` (of an N-dimensional iteration space) of a host array of rank M <= N read with
/// broadcasting: right-aligned, size-1 dimensions pinned to 0.
template <class T, int M, int N>
double read_broadcast(const Array<T, M>& host, const Dim<N>& index) {
  Dim<M> own;
  for (int i = 0; i < M; ++i) {
    own[i] = host.dims()[i] == 1 ? 0 : index[N - M + i];
  }
  return static_cast<double>(host[own]);
}

/// The reference result: f(index) in double for every index of `dims`.
template <int N, class F>
Array<double, N> reference(const Dim<N>& dims, F&& f) {
  Array<double, N> out(dims);
  for_each_index(dims, [&](const Dim<N>& index) { out[index] = f(index); });
  return out;
}

/// Tolerance for comparing a result of element type T with a double reference.
template <class T>
double tolerance() {
  if constexpr (std::is_same_v<T, float16>) return 2e-3;
  if constexpr (std::is_same_v<T, bfloat16>) return 8e-3;
  if constexpr (std::is_same_v<T, float>) return 2e-6;
  if constexpr (std::is_same_v<T, double>) return 1e-13;
  return 0.0;
}

/// Checks every element of `result` (any place, any strides) against `expected`, relative to
/// max(1, |expected|), and reports the first mismatching index.
template <class T, int N>
void check_close(const Array<T, N>& result, const Array<double, N>& expected,
                 double tol = tolerance<T>()) {
  BOOST_TEST_REQUIRE(result.dims() == expected.dims());
  const Array<T, N> host = on_host(result);
  index_t bad = 0;
  std::ostringstream first;
  for_each_index(expected.dims(), [&](const Dim<N>& index) {
    const double got = static_cast<double>(host[index]);
    const double want = expected[index];
    const bool ok = (std::isnan(got) && std::isnan(want)) ||
                    std::abs(got - want) <= tol * std::max(1.0, std::abs(want));
    if (!ok && bad++ == 0) first << "at " << index << ": got " << got << ", expected " << want;
  });
  BOOST_TEST(bad == 0, bad << " elements differ; first " << first.str());
}

}  // namespace testing
}  // namespace tensorx
