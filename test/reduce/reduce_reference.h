// The independent reference of the reduction tests: plain loops in double over every index of an
// operand (held on the host in double), and the check of a tensorx result against it, with a
// tolerance scaled by the size of what was summed.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <type_traits>

#include "support/reference.h"
#include "support/test_place.h"
#include "tensorx/array/array.h"

namespace tensorx {
namespace testing {

enum class Reduction { kSum, kMean, kMax, kMin, kProd, kArgMax, kArgMin };

/// A dense host copy of `a` in double.
template <class T, int N>
Array<double, N> to_double(const Array<T, N>& a) {
  const Array<T, N> host = on_host(a);
  Array<double, N> out(a.dims());
  for_each_index(a.dims(), [&](const Dim<N>& i) { out[i] = static_cast<double>(host[i]); });
  return out;
}

/// The index of the result that element `index` of the operand joins: reduced axes set to 0.
template <int N>
Dim<N> kept_index(Dim<N> index, unsigned mask) {
  for (int i = 0; i < N; ++i) {
    if ((mask >> i) & 1u) index[i] = 0;
  }
  return index;
}

/// The reference reduction of `values` over the axes in `mask`, reduced axes kept with extent 1
/// (NumPy's semantics: NaN propagates through max and min, argmax and argmin give the first NaN
/// or the first of equal values, along the one reduced axis). `scale` receives, per result, the
/// size of its rounding error's cause: the sum of |x| for sums and means, |product| * (count + 1)
/// for products, 0 otherwise.
template <int N>
Array<double, N> reference_reduce(const Array<double, N>& values, unsigned mask, Reduction kind,
                                  Array<double, N>& scale) {
  Dim<N> out_dims = values.dims();
  index_t count = 1;
  int axis = 0;
  for (int i = 0; i < N; ++i) {
    if ((mask >> i) & 1u) {
      out_dims[i] = 1;
      count *= values.dims()[i];
      axis = i;
    }
  }
  Array<double, N> out(out_dims), best(out_dims);
  scale = Array<double, N>(out_dims);
  for_each_index(out_dims, [&](const Dim<N>& o) {
    out[o] = kind == Reduction::kProd ? 1.0 : 0.0;
    best[o] = std::numeric_limits<double>::quiet_NaN();
    scale[o] = 0.0;
  });
  Array<double, N> seen(out_dims);  // elements visited per result, for the first-element cases
  for_each_index(out_dims, [&](const Dim<N>& o) { seen[o] = 0; });
  for_each_index(values.dims(), [&](const Dim<N>& i) {
    const Dim<N> o = kept_index(i, mask);
    const double x = values[i];
    const bool first = seen[o] == 0;
    seen[o] += 1;
    switch (kind) {
      case Reduction::kSum:
      case Reduction::kMean:
        out[o] += x;
        scale[o] += std::abs(x);
        break;
      case Reduction::kProd:
        out[o] *= x;
        break;
      case Reduction::kMax:
      case Reduction::kMin: {
        const bool better = kind == Reduction::kMax ? x > out[o] : x < out[o];
        if (first || std::isnan(x) || (!std::isnan(out[o]) && better)) out[o] = x;
        break;
      }
      case Reduction::kArgMax:
      case Reduction::kArgMin: {
        const double current = best[o];
        const bool better = kind == Reduction::kArgMax ? x > current : x < current;
        if (first || (std::isnan(x) && !std::isnan(current)) || (!std::isnan(current) && better)) {
          best[o] = x;
          out[o] = static_cast<double>(i[axis]);
        }
        break;
      }
    }
  });
  for_each_index(out_dims, [&](const Dim<N>& o) {
    if (kind == Reduction::kMean) {
      out[o] /= static_cast<double>(count);
      scale[o] /= static_cast<double>(count);
    }
    if (kind == Reduction::kProd) scale[o] = std::abs(out[o]) * static_cast<double>(count + 1);
  });
  return out;
}

/// Rounding of a result stored as T (relative), and of accumulating in T's compute type (per unit
/// of scale).
template <class T>
double storage_tolerance() {
  if constexpr (std::is_same_v<T, float16>) return 1e-3;
  if constexpr (std::is_same_v<T, bfloat16>) return 4e-3;
  if constexpr (std::is_same_v<T, float>) return 2e-7;
  if constexpr (std::is_same_v<T, double>) return 1e-15;
  return 0.0;
}
template <class T>
double accumulation_tolerance() {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16> ||
                std::is_same_v<T, float>) {
    return 64 * 0x1p-24;
  }
  if constexpr (std::is_same_v<T, double>) return 64 * 0x1p-53;
  return 0.0;
}

/// Checks `result` (the kept axes, or every axis with keepdims) against a keepdims reference
/// within storage_tolerance<T>() * |expected| + accumulation_tolerance<T>() * scale; NaN must
/// meet NaN. Reports how many results differ and the first.
template <class R, class T = R, int M, int N>
void check_reduction(const Array<R, M>& result, const Array<double, N>& expected,
                     const Array<double, N>& scale, unsigned mask) {
  const Array<R, M> host = on_host(result);
  index_t bad = 0, checked = 0;
  std::ostringstream first;
  for_each_index(expected.dims(), [&](const Dim<N>& o) {
    Dim<M> r;
    if constexpr (M > 0) {
      int next = 0;
      for (int i = 0; i < N; ++i) {
        if (M == N || !((mask >> i) & 1u)) r[next++] = o[i];
      }
    }
    const double got = static_cast<double>(host[r]);
    const double want = expected[o];
    const double tolerance =
        storage_tolerance<T>() * std::abs(want) + accumulation_tolerance<T>() * scale[o];
    const bool ok = std::isnan(want) ? std::isnan(got) : std::abs(got - want) <= tolerance;
    ++checked;
    if (!ok && bad++ == 0) first << "at " << o << ": got " << got << ", expected " << want;
  });
  BOOST_TEST(checked == result.numel(), "the result has one element per reference result");
  BOOST_TEST(bad == 0, bad << " of " << checked << " results differ; first " << first.str());
}

/// Assigns `reduction` to a new array (one element on the test place for rank 0: a default
/// rank-0 array lives on the CPU) and checks it against the reference `kind` over `mask` of
/// `values`, the operand's values in double.
template <class E, int N>
void check_reduction_of(const E& reduction, const Array<double, N>& values, unsigned mask,
                        Reduction kind) {
  Array<typename E::value_type, E::rank> result;
  if constexpr (E::rank == 0) result = scalar_on_test_place<typename E::value_type>();
  result = reduction;
  Array<double, N> scale;
  const auto expected = reference_reduce(values, mask, kind, scale);
  check_reduction(result, expected, scale, mask);
}

}  // namespace testing
}  // namespace tensorx
