// The place a test program runs its expressions on: the CPU, or GPU 0 when the same test source
// is compiled into a CUDA test program (test/cuda/*.cu include the test/<layer>/*.cpp sources with
// TENSORX_TEST_ON_GPU defined). Tests make operands with on_test_place and read results back with
// on_host, so one source checks both engines against the same references. Whatever a test
// computes into is made there too (scalar_on_test_place, zeros_on_test_place, or an Array made
// with test_place()): an Array made without a place is on the CPU, and so is the result of an
// expression that reads no array (a generator, a broadcast number).
#pragma once

#include <random>

#include "support/random.h"
#include "tensorx/array/global_ops.h"

namespace tensorx {
namespace testing {

inline Place test_place() {
#if defined(TENSORX_TEST_ON_GPU)
  return CudaPlace(0);
#else
  return CpuPlace();
#endif
}

/// A copy of `a` on the test place.
template <class T, int N>
Array<T, N> on_test_place(const Array<T, N>& a) {
  return to(a, test_place());
}

/// A dense host copy of `a`, for element access in checks.
template <class T, int N>
Array<T, N> on_host(const Array<T, N>& a) {
  return to(a, CpuPlace());
}

/// A rank-0 array on the test place, to receive a full reduction or contraction: a default
/// rank-0 Array holds its one element on the CPU, where a GPU operand is a PlaceError.
template <class T>
Array<T, 0> scalar_on_test_place() {
  return Array<T, 0>(Dim<0>(), test_place());
}

/// tx::zeros and tx::ones on the test place: destinations and operands made with known values.
template <class T, int N>
Array<T, N> zeros_on_test_place(const Dim<N>& dims) {
  return zeros<T>(dims, test_place());
}
template <class T, int N>
Array<T, N> ones_on_test_place(const Dim<N>& dims) {
  return ones<T>(dims, test_place());
}

/// A new array of the given extent on the test place with uniform values in [low, high).
template <class T, int N>
Array<T, N> random_array(const Dim<N>& dims, std::mt19937_64& rng, double low = -1.0,
                         double high = 1.0) {
  Array<T, N> host(dims);
  fill_random(host, rng, low, high);
  return on_test_place(host);
}

}  // namespace testing
}  // namespace tensorx
