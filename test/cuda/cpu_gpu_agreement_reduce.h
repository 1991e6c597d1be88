// The reduction checks of test_cuda_agreement (see cpu_gpu_agreement.h): every reduction over
// given axes of an input evaluated on the CPU and on the GPU and compared. max, min, argmax and
// argmin must give the same bits, ties and NaNs included (the first NaN, else the first of equal
// values); sums, means and products may differ by what two summation orders can: a few units of
// the accumulator's roundoff times the sum of the magnitudes, growing with the log of the count.
#pragma once

#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>

#include <tensorx/tensorx.h>

#include "cuda/cpu_gpu_agreement.h"

namespace tensorx {
namespace testing {
namespace agreement {

/// |x| in double, on the CPU.
template <class T, int N>
Array<double, N> absolute_values(const Array<T, N>& x) {
  Array<double, N> magnitudes(x.dims());
  for (index_t i = 0; i < x.numel(); ++i) {
    magnitudes.data()[i] = std::abs(static_cast<double>(x.data()[i]));
  }
  return magnitudes;
}

/// The inputs of one shape: values for sums, factors near 1 for products, values on a coarse
/// grid (many ties) and the same with NaNs here and there; and |values| and |ties_and_nans| in
/// double, whose sums bound the rounding of sums. Each is an array rather than an expression: an
/// assignment in a CUDA translation unit compiles the GPU kernels of its expression even where it
/// runs on the CPU, and every distinct expression would add its own.
template <class T, int N>
struct Inputs {
  Array<T, N> values, factors, ties, ties_and_nans;
  Array<double, N> magnitudes, magnitudes_with_nans;
};

template <class T, int N>
Inputs<T, N> make_inputs(const Dim<N>& dims, std::mt19937_64& rng) {
  Inputs<T, N> inputs;
  inputs.values = random_array<T>(dims, rng, -1, 1);
  // Factors 2^u, u uniform in [-1/100, 1/100]: their products neither drift (the mean of u is 0)
  // nor leave the normal range of float in any order of multiplication, for 2^22 factors too.
  inputs.factors = random_array<T>(dims, rng, -0.01, 0.01);
  for (T& factor : make_view(inputs.factors)) {
    factor = static_cast<T>(std::exp2(static_cast<double>(factor)));
  }
  inputs.ties = random_array<T>(dims, rng, -3, 3, 1.0);
  inputs.ties_and_nans = random_array<T>(dims, rng, -3, 3, 1.0);
  sprinkle_nans(inputs.ties_and_nans, rng, 397);
  inputs.magnitudes = absolute_values(inputs.values);
  inputs.magnitudes_with_nans = absolute_values(inputs.ties_and_nans);
  return inputs;
}

/// The number of elements each result reduces.
template <int... Axes, int N>
index_t reduced_count(const Dim<N>& dims) {
  if constexpr (sizeof...(Axes) == 0) {
    return product(dims);
  } else {
    return ((dims[Axes < 0 ? Axes + N : Axes]) * ...);
  }
}

/// How far two orders of summing `count` terms whose magnitudes add up to `magnitude` can be
/// apart (pairwise and blocked sums: a few roundoffs per level of a tree of depth log2(count)),
/// plus one unit in the last place of T for the final rounding of a float16 result.
template <class T>
double sum_bound(double magnitude, index_t count, double result) {
  const double levels = std::log2(static_cast<double>(count) + 1.0);
  return (4.0 + 2.0 * levels) * unit_roundoff<T>() * magnitude +
         (std::is_same_v<T, float16> ? ulp_at<T>(std::abs(result)) : 0.0);
}

/// Evaluates build(x) on the CPU and build(x on the GPU), and compares them within
/// bound(i, result) at row-major position i of the result.
template <class T, int N, class Build, class Bound>
void check_within(const std::string& what, const Array<T, N>& x, Build build, Bound bound) {
  using E = decltype(build(x));
  using R = typename E::value_type;
  const Array<R, E::rank> cpu = build(x);
  const Array<R, E::rank> gpu = build(mirror_on_gpu(x));
  const auto allowed = [&](index_t i, const R& c) { return bound(i, static_cast<double>(c)); };
  check_against_cpu(what, cpu, gpu, AllowedDifference<R>(allowed));
}

/// Evaluates build(x) on the CPU and build(x on the GPU), and asks for the same bits.
template <class T, int N, class Build>
void check_bitwise(const std::string& what, const Array<T, N>& x, Build build) {
  using E = decltype(build(x));
  using R = typename E::value_type;
  const Array<R, E::rank> cpu = build(x);
  const Array<R, E::rank> gpu = build(mirror_on_gpu(x));
  check_against_cpu(what, cpu, gpu, kBitwise);
}

/// Every value reduction over Axes (every axis when none are given), with `keep` empty or
/// keepdims.
template <int... Axes, class T, int N, class... Keep>
void check_value_reductions(const std::string& shape, const Inputs<T, N>& in, Keep... keep) {
  std::string axes;
  ((axes += std::to_string(Axes) + " "), ...);
  const std::string what = "over axes " + (axes.empty() ? std::string("all ") : axes) + "of " +
                           shape + " (" + type_name<T>() + (sizeof...(Keep) ? ", keepdims)" : ")");
  const index_t count = reduced_count<Axes...>(in.values.dims());
  // The sums of magnitudes, per result, that bound the sums' rounding.
  using Magnitudes = Array<double, decltype(tensorx::sum<Axes...>(in.values, keep...))::rank>;
  const Magnitudes of_values = tensorx::sum<Axes...>(in.magnitudes, keep...);
  const Magnitudes of_ties_and_nans = tensorx::sum<Axes...>(in.magnitudes_with_nans, keep...);
  const auto sum = [&](const auto& x) { return tensorx::sum<Axes...>(x, keep...); };
  // The CPU result names the float16 rounding's unit: the two float sums can round to either
  // side of a float16 midpoint.
  check_within("sum " + what, in.values, sum, [&](index_t i, double result) {
    return sum_bound<T>(of_values.data()[i], count, result);
  });
  check_within("sum with NaNs " + what, in.ties_and_nans, sum, [&](index_t i, double result) {
    return sum_bound<T>(of_ties_and_nans.data()[i], count, result);
  });
  check_within(
      "mean " + what, in.values, [&](const auto& x) { return tensorx::mean<Axes...>(x, keep...); },
      [&](index_t i, double result) {
        return sum_bound<T>(of_values.data()[i], count, result) / static_cast<double>(count) +
               ulp_at<T>(std::abs(result));
      });
  // Every rounding of a product of factors near 1 is relative: about one roundoff per factor.
  check_within(
      "prod " + what, in.factors, [&](const auto& x) { return tensorx::prod<Axes...>(x, keep...); },
      [&](index_t, double result) {
        return (static_cast<double>(count) + 2.0) * unit_roundoff<T>() * std::abs(result) +
               (std::is_same_v<T, float16> ? ulp_at<T>(std::abs(result)) : 0.0);
      });
  const auto max = [&](const auto& x) { return tensorx::max<Axes...>(x, keep...); };
  const auto min = [&](const auto& x) { return tensorx::min<Axes...>(x, keep...); };
  check_bitwise("max " + what, in.values, max);
  check_bitwise("min " + what, in.values, min);
  check_bitwise("max with ties and NaNs " + what, in.ties_and_nans, max);
  check_bitwise("min with ties and NaNs " + what, in.ties_and_nans, min);
}

/// argmax and argmin along Axis, on ties (the first of equal values) and with NaNs (the first
/// NaN).
template <int Axis, class T, int N, class... Keep>
void check_arg_reductions(const std::string& shape, const Inputs<T, N>& in, Keep... keep) {
  const std::string what = "along axis " + std::to_string(Axis) + " of " + shape + " (" +
                           type_name<T>() + (sizeof...(Keep) ? ", keepdims)" : ")");
  const auto argmax = [&](const auto& x) { return tensorx::argmax<Axis>(x, keep...); };
  const auto argmin = [&](const auto& x) { return tensorx::argmin<Axis>(x, keep...); };
  check_bitwise("argmax " + what, in.values, argmax);
  check_bitwise("argmin " + what, in.values, argmin);
  check_bitwise("argmax with ties " + what, in.ties, argmax);
  check_bitwise("argmin with ties " + what, in.ties, argmin);
  check_bitwise("argmax with ties and NaNs " + what, in.ties_and_nans, argmax);
  check_bitwise("argmin with ties and NaNs " + what, in.ties_and_nans, argmin);
}

/// The value reductions over Axes and the arg reductions along each single axis, with and
/// without keepdims.
template <int... Axes, class T, int N>
void check_axes(const std::string& shape, const Inputs<T, N>& in) {
  check_value_reductions<Axes...>(shape, in);
  check_value_reductions<Axes...>(shape, in, tensorx::keepdims);
  if constexpr (sizeof...(Axes) == 1) {
    check_arg_reductions<Axes...>(shape, in);
    check_arg_reductions<Axes...>(shape, in, tensorx::keepdims);
  }
}

template <int N>
std::string shape_name(const Dim<N>& dims) {
  std::ostringstream out;
  out << dims;
  return out.str();
}

}  // namespace agreement
}  // namespace testing
}  // namespace tensorx
