// The independent reference of the product tests: a triple loop in double precision over host
// copies (any strides), and the ways the tests lay operands out in memory.
#pragma once

#include <random>

#include "support/reference.h"
#include "support/test_place.h"
#include "tensorx/array/array.h"

namespace tensorx {
namespace testing {

/// op(a) * op(b) for host matrices, where op transposes when asked.
template <class T>
Array<double, 2> matmul_reference(const Array<T, 2>& a, bool transpose_a, const Array<T, 2>& b,
                                  bool transpose_b) {
  auto at = [&](const Array<T, 2>& x, bool t, index_t i, index_t j) {
    return static_cast<double>(t ? x[make_dim(j, i)] : x[make_dim(i, j)]);
  };
  const index_t m = a.dims()[transpose_a ? 1 : 0];
  const index_t k = a.dims()[transpose_a ? 0 : 1];
  const index_t n = b.dims()[transpose_b ? 0 : 1];
  return reference(make_dim(m, n), [&](const Dim<2>& i) {
    double sum = 0.0;
    for (index_t p = 0; p < k; ++p)
      sum += at(a, transpose_a, i[0], p) * at(b, transpose_b, p, i[1]);
    return sum;
  });
}

/// A random rows x cols matrix on the test place stored as a strided view: every other column of
/// a wider matrix, starting one element in, so neither stride is the dense one.
template <class T>
Array<T, 2> random_strided_matrix(index_t rows, index_t cols, std::mt19937_64& rng) {
  const auto wide = random_array<T>(make_dim(rows, 2 * cols + 1), rng);
  return Array<T, 2>(wide.buffer(), make_dim(rows, cols), make_dim(2 * cols + 1, index_t{2}),
                     wide.offset() + 1);
}

/// Tolerance for a sum of k products of values in [-1, 1] accumulated in T.
template <class T>
double product_tolerance(index_t k) {
  return tolerance<T>() * static_cast<double>(k > 1 ? k : 1);
}

}  // namespace testing
}  // namespace tensorx
