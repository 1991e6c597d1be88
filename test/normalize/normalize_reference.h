// The independent reference of the normalisation tests: an array read as rows along its last axis
// in double, the normalisations as plain loops over those rows (PyTorch's special values follow
// from the formulas in double, the max propagating NaN), and the check of a tensorx result
// against them within a tolerance derived from the element type and the row length.
#pragma once

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <type_traits>
#include <vector>

#include "support/reference.h"
#include "support/test_place.h"
#include "tensorx/array/array.h"
#include "tensorx/core/bfloat16.h"
#include "tensorx/core/float16.h"

namespace tensorx {
namespace testing {

/// Elements as rows of `length` along the last axis, in double, row-major.
struct Rows {
  index_t count = 0;
  index_t length = 0;
  std::vector<double> values;

  Rows() = default;
  Rows(index_t rows, index_t row_length)
      : count(rows), length(row_length), values(static_cast<std::size_t>(rows * row_length)) {}
  double at(index_t row, index_t k) const {
    return values[static_cast<std::size_t>(row * length + k)];
  }
  double& at(index_t row, index_t k) { return values[static_cast<std::size_t>(row * length + k)]; }
};

/// The rows along the last axis of `a` (any place, any strides), in double. A rank-0 array is one
/// row of one element.
template <class T, int N>
Rows rows_of(const Array<T, N>& a) {
  index_t length = 1, count = 1;
  if constexpr (N > 0) {
    length = a.dims()[N - 1];
    for (int d = 0; d < N - 1; ++d) count *= a.dims()[d];
  }
  Rows rows(count, length);
  const Array<T, N> host = on_host(a);
  if constexpr (N == 0) {
    rows.values[0] = static_cast<double>(host.item());
  } else {
    std::size_t next = 0;
    for_each_index(a.dims(),
                   [&](const Dim<N>& i) { rows.values[next++] = static_cast<double>(host[i]); });
  }
  return rows;
}

/// `values` (one row per line) as an array of T of extent `dims` on the test place.
template <class T, int N>
Array<T, N> array_from(const Dim<N>& dims, const std::vector<double>& values) {
  Array<T, N> host(dims);
  std::size_t next = 0;
  for_each_index(dims, [&](const Dim<N>& i) { host[i] = static_cast<T>(values[next++]); });
  return on_test_place(host);
}

/// The row lengths every normalisation is checked on: empty, one, around a SIMD batch and a
/// warp (31 to 33), around a GPU warp's longest row (1000, 1024), and rows a GPU block owns.
inline constexpr index_t kRowLengths[] = {0, 1, 31, 32, 33, 1000, 1024, 4097, 8192};

/// A random number of rows of `length`, 0 included: at most 3 rows or about 30,000 elements.
inline index_t random_row_count(std::mt19937_64& rng, index_t length) {
  const index_t most = std::max<index_t>(3, 30000 / std::max<index_t>(length, 1));
  return std::uniform_int_distribution<index_t>(0, most)(rng);
}

// ---------------------------------------------------------------------------------------------
// The references, row by row in double.

/// The largest element of row r, NaN if any is NaN, -inf for an empty row.
inline double row_max(const Rows& x, index_t r) {
  double m = -std::numeric_limits<double>::infinity();
  for (index_t k = 0; k < x.length; ++k) {
    const double v = x.at(r, k);
    if (std::isnan(v) || std::isnan(m)) {
      m = std::numeric_limits<double>::quiet_NaN();
    } else {
      m = std::max(m, v);
    }
  }
  return m;
}

inline double row_mean(const Rows& x, index_t r) {
  double total = 0.0;
  for (index_t k = 0; k < x.length; ++k) total += x.at(r, k);
  return total / static_cast<double>(x.length);
}

/// mean((x - mean)^2) of row r: the biased variance.
inline double row_var(const Rows& x, index_t r) {
  const double mean = row_mean(x, r);
  double total = 0.0;
  for (index_t k = 0; k < x.length; ++k) total += (x.at(r, k) - mean) * (x.at(r, k) - mean);
  return total / static_cast<double>(x.length);
}

/// exp(x - max) / sum(exp(x - max)) per row.
inline Rows reference_softmax(const Rows& x) {
  Rows out(x.count, x.length);
  for (index_t r = 0; r < x.count; ++r) {
    const double m = row_max(x, r);
    double total = 0.0;
    for (index_t k = 0; k < x.length; ++k) total += std::exp(x.at(r, k) - m);
    for (index_t k = 0; k < x.length; ++k) out.at(r, k) = std::exp(x.at(r, k) - m) / total;
  }
  return out;
}

/// x - max - log(sum(exp(x - max))) per row.
inline Rows reference_log_softmax(const Rows& x) {
  Rows out(x.count, x.length);
  for (index_t r = 0; r < x.count; ++r) {
    const double m = row_max(x, r);
    double total = 0.0;
    for (index_t k = 0; k < x.length; ++k) total += std::exp(x.at(r, k) - m);
    for (index_t k = 0; k < x.length; ++k) out.at(r, k) = x.at(r, k) - m - std::log(total);
  }
  return out;
}

/// PyTorch's logsumexp per row, one value each: the max shifted out where it is finite.
inline Rows reference_logsumexp(const Rows& x) {
  Rows out(x.count, 1);
  for (index_t r = 0; r < x.count; ++r) {
    double shift = row_max(x, r);
    if (!std::isfinite(shift) && !std::isnan(shift)) shift = 0.0;
    double total = 0.0;
    for (index_t k = 0; k < x.length; ++k) total += std::exp(x.at(r, k) - shift);
    out.at(r, 0) = shift + std::log(total);
  }
  return out;
}

/// The biased variance per row, one value each.
inline Rows reference_var(const Rows& x) {
  Rows out(x.count, 1);
  for (index_t r = 0; r < x.count; ++r) out.at(r, 0) = row_var(x, r);
  return out;
}

/// (x - mean) / sqrt(var + eps) * gamma + beta per row; gamma and beta hold one row of x's length.
inline Rows reference_layer_norm(const Rows& x, const Rows& gamma, const Rows& beta, double eps) {
  Rows out(x.count, x.length);
  for (index_t r = 0; r < x.count; ++r) {
    const double mean = row_mean(x, r), scale = 1.0 / std::sqrt(row_var(x, r) + eps);
    for (index_t k = 0; k < x.length; ++k) {
      out.at(r, k) = (x.at(r, k) - mean) * scale * gamma.at(0, k) + beta.at(0, k);
    }
  }
  return out;
}

/// x / sqrt(mean(x^2) + eps) * gamma per row.
inline Rows reference_rms_norm(const Rows& x, const Rows& gamma, double eps) {
  Rows out(x.count, x.length);
  for (index_t r = 0; r < x.count; ++r) {
    double squares = 0.0;
    for (index_t k = 0; k < x.length; ++k) squares += x.at(r, k) * x.at(r, k);
    const double scale = 1.0 / std::sqrt(squares / static_cast<double>(x.length) + eps);
    for (index_t k = 0; k < x.length; ++k) out.at(r, k) = x.at(r, k) * scale * gamma.at(0, k);
  }
  return out;
}

/// The mean over rows of logsumexp(row) - row[label], the labels (rows_of a rank-1 array) in
/// order; NaN for no rows.
inline double reference_cross_entropy(const Rows& logits, const Rows& labels) {
  const Rows lse = reference_logsumexp(logits);
  double total = 0.0;
  for (index_t r = 0; r < logits.count; ++r) {
    const auto label = static_cast<index_t>(labels.values[static_cast<std::size_t>(r)]);
    total += lse.at(r, 0) - logits.at(r, label);
  }
  return total / static_cast<double>(logits.count);
}

// ---------------------------------------------------------------------------------------------
// Tolerances and the check.

/// The unit roundoff of storing a value as T.
template <class T>
double storage_unit() {
  if constexpr (std::is_same_v<T, float16>) return 0x1p-11;
  if constexpr (std::is_same_v<T, bfloat16>) return 0x1p-8;
  if constexpr (std::is_same_v<T, float>) return 0x1p-24;
  return 0x1p-53;
}

/// The unit roundoff of computing with T: float16 and bfloat16 compute in float.
template <class T>
double compute_unit() {
  return std::is_same_v<T, double> ? 0x1p-53 : 0x1p-24;
}

/// The error growth of a sum over a row of `length` terms of one sign, in units of roundoff: a
/// few for the reducers' blocked sums, and a few per doubling of the row.
inline double sum_growth(index_t length) {
  return 8.0 + 4.0 * std::log2(static_cast<double>(length) + 1.0);
}

/// |got - want| <= relative * |want| + absolute; NaN meets NaN and an infinity the same one.
struct Tolerance {
  double relative;
  double absolute;
};

/// The spacing of T's subnormals: the absolute error of storing a value that underflows.
template <class T>
double subnormal_step() {
  if constexpr (std::is_same_v<T, float16>) return 0x1p-24;
  if constexpr (std::is_same_v<T, bfloat16>) return 0x1p-133;
  if constexpr (std::is_same_v<T, float>) return 0x1p-149;
  return 0x1p-1074;
}

/// softmax of rows of `length` whose elements lie within `spread` of their row's max: the
/// rounding of x - max (relative, so spread ulps of the exponent), of exp, of the sum and of the
/// division, then of the storage.
template <class T>
Tolerance softmax_tolerance(index_t length, double spread) {
  return {2 * storage_unit<T>() + compute_unit<T>() * (4 + spread + sum_growth(length)),
          subnormal_step<T>()};
}

/// log_softmax and logsumexp: the same roundings, now absolute (the log of a sum of relative
/// error e is off by e), and the storage relative to the result.
template <class T>
Tolerance log_sum_tolerance(index_t length, double spread) {
  return {2 * storage_unit<T>(), compute_unit<T>() * (4 + spread + sum_growth(length))};
}

/// layer_norm and rms_norm of rows whose elements are at most `ratio` times their row's standard
/// deviation (or root mean square) away from its mean (or 0), scaled by gammas of magnitude up to
/// `gain`: the mean and variance sums' growth, carried through the scale, then the storage.
template <class T>
Tolerance norm_tolerance(index_t length, double ratio, double gain) {
  return {2 * storage_unit<T>(), compute_unit<T>() * (8 + 2 * sum_growth(length)) * ratio * gain};
}

/// Checks the elements of `result` (any place and strides, row-major) against `expected`,
/// reporting how many differ and the first, by row and position.
template <class T, int N>
void check_rows(const Array<T, N>& result, const Rows& expected, Tolerance tolerance) {
  const Rows got = rows_of(result);
  BOOST_TEST_REQUIRE(got.values.size() == expected.values.size(),
                     "the result has " << got.values.size() << " elements, the reference "
                                       << expected.values.size());
  index_t bad = 0;
  std::ostringstream first;
  double used = 0.0;  // the largest share of its tolerance that an element's error takes
  for (std::size_t i = 0; i < got.values.size(); ++i) {
    const double g = got.values[i], w = expected.values[i];
    bool ok;
    if (std::isnan(w) || std::isinf(w)) {
      ok = std::isnan(w) ? std::isnan(g) : g == w;
    } else {
      const double allowed = tolerance.relative * std::abs(w) + tolerance.absolute;
      ok = std::abs(g - w) <= allowed;
      if (allowed > 0) used = std::max(used, std::abs(g - w) / allowed);
    }
    if (!ok && bad++ == 0) {
      const index_t length = std::max<index_t>(expected.length, 1);
      first << "at row " << static_cast<index_t>(i) / length << ", position "
            << static_cast<index_t>(i) % length << ": got " << g << ", expected " << w;
    }
  }
  BOOST_TEST(bad == 0,
             bad << " of " << got.values.size() << " elements differ; first " << first.str());
  BOOST_TEST_MESSAGE("the largest error takes " << used << " of its tolerance");
}

/// True when two arrays hold the same bits (read back to the host).
template <class T, int N>
bool same_bits(const Array<T, N>& a, const Array<T, N>& b) {
  const Array<T, N> ha = to(a, CpuPlace()), hb = to(b, CpuPlace());
  return ha.dims() == hb.dims() &&
         std::memcmp(ha.data(), hb.data(), sizeof(T) * static_cast<std::size_t>(ha.numel())) == 0;
}

/// The passes an assignment to `dst` takes when it runs as one row-local pass: none for an empty
/// destination.
template <class T, int N>
std::uint64_t one_pass_for(const Array<T, N>& dst) {
  return dst.numel() > 0 ? 1u : 0u;
}

}  // namespace testing
}  // namespace tensorx
