// Every math function at its special values (hardening issue, point 6): ±0, the smallest
// denormal, ±1, halves, large and huge arguments, the largest finite value, ±inf and NaN, in
// float and double, on the SIMD loop (dense operands) and the scalar loop (strided operands),
// each against the other and against the C library or the function's definition in double; and
// on SIMD batches directly, each special value at every lane position among ordinary arguments
// (issue #32: the batch functions handle the special lanes with masks, which must neither miss a
// lane nor disturb its neighbours). Infinities must match exactly, NaN must meet NaN, zeros keep
// their sign where C keeps it. The operands live on the test place: compiled as CUDA
// (test_cuda_ops), the same dense and strided operands go through the CUDA engine, whose results
// must meet the same references.
#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <vector>

#include <tensorx/tensorx.h>

#include "support/test_place.h"

namespace tx = tensorx;

namespace {

template <class T>
std::vector<T> special_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> values;
  for (T v : {T(0), L::denorm_min(), L::min(), T(1e-30), T(0.5), T(1), T(1.5), T(2), T(2.5), T(3),
              T(20), T(88.5), T(89), T(709), T(711), T(1e30), L::max(), L::infinity()}) {
    values.push_back(v);
    values.push_back(-v);
  }
  values.push_back(L::quiet_NaN());
  return values;
}

/// Copies of `values` on the test place laid out so that the CPU engine takes its SIMD loop
/// (dense) or its scalar loop (every other element of a buffer twice as long), and the values on
/// the host for the references.
template <class T>
struct Layouts {
  tx::Array<T, 1> host, dense, strided;
  explicit Layouts(const std::vector<T>& values, int copies) {
    const auto n = static_cast<tx::index_t>(values.size()) * copies;
    host = tx::Array<T, 1>(tx::make_dim(n));
    for (tx::index_t i = 0; i < n; ++i) {
      host(i) = values[static_cast<std::size_t>(i) % values.size()];
    }
    dense = tx::testing::on_test_place(host);
    const tx::Array<T, 1> wide(tx::make_dim(2 * n), tx::testing::test_place());
    strided = tx::Array<T, 1>(wide.buffer(), tx::make_dim(n), tx::make_dim(2), 0);
    tx::copy(strided, host);
  }
};

/// Same value: NaN meets NaN, infinities and zeros (with their sign where `signed_zero`) match
/// exactly, finite values within `ulps` units in the last place of T (denormals in absolute terms).
template <class T>
bool same(double got, double want, double ulps, bool signed_zero = true) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want) || want == 0) {
    return got == want && (!signed_zero || std::signbit(got) == std::signbit(want));
  }
  const double epsilon = std::numeric_limits<T>::epsilon();
  // Results below the smallest normal number may come out as zero (sigmoid(-89) in float is
  // 2.2e-39 in C and 0 on both loops): the absolute error is then below T's smallest normal.
  const double tiny = std::abs(want) < std::numeric_limits<T>::min()
                          ? std::numeric_limits<T>::min()
                          : 2 * std::numeric_limits<T>::denorm_min();
  return std::abs(got - want) <= ulps * epsilon * std::abs(want) + tiny;
}

/// `build` on SIMD batches of T whose lanes hold `ordinary` arguments, but for one lane, which
/// takes each argument tuple of `special` in turn, at every position: every lane of every result
/// matches `reference`. Nothing to check without SIMD batches of T.
template <class T, std::size_t Arity, class Build, class Reference>
void check_lanes(const char* name, Build build, Reference reference, double ulps, bool signed_zero,
                 const std::vector<std::array<T, Arity>>& special,
                 const std::array<T, Arity>& ordinary) {
#if TENSORX_HAS_SIMD
  using B = tx::detail::simd_batch_t<T>;
  int bad = 0;
  std::ostringstream first;
  for (const std::array<T, Arity>& arguments : special) {
    for (std::size_t lane = 0; lane < B::size; ++lane) {
      std::array<std::array<T, B::size>, Arity> in;
      for (std::size_t i = 0; i < Arity; ++i) {
        in[i].fill(ordinary[i]);
        in[i][lane] = arguments[i];
      }
      std::array<T, B::size> out;
      const auto batch = [&](std::size_t i) { return B::load_unaligned(in[i].data()); };
      if constexpr (Arity == 1) {
        build(batch(0)).store_unaligned(out.data());
      } else {
        build(batch(0), batch(1)).store_unaligned(out.data());
      }
      for (std::size_t l = 0; l < B::size; ++l) {
        const double want =
            Arity == 1 ? reference(in[0][l], in[0][l]) : reference(in[0][l], in[Arity - 1][l]);
        if (!same<T>(out[l], static_cast<T>(want), ulps, signed_zero) && bad++ == 0) {
          first << name << " with (" << arguments[0] << (Arity == 1 ? "" : ", ")
                << (Arity == 1 ? "" : std::to_string(arguments[Arity - 1])) << ") at lane " << lane
                << ": lane " << l << " is " << out[l] << ", expected " << static_cast<T>(want);
        }
      }
    }
  }
  BOOST_TEST(bad == 0, bad << " lanes differ; first " << first.str());
#else
  (void)name, (void)build, (void)reference, (void)ulps, (void)signed_zero, (void)special,
      (void)ordinary;
#endif
}

template <class T, class Build, class Reference>
void check_unary(const char* name, Build build, Reference reference, double ulps,
                 bool signed_zero = true) {
  const std::vector<T> values = special_values<T>();
  const Layouts<T> in(values, 16);
  const tx::Array<T, 1> simd = tx::testing::on_host(tx::Array<T, 1>(build(in.dense)));
  const tx::Array<T, 1> scalar = tx::testing::on_host(tx::Array<T, 1>(build(in.strided)));
  int bad = 0;
  std::ostringstream first;
  for (tx::index_t i = 0; i < simd.numel(); ++i) {
    const T x = in.host(i);
    const double want = reference(static_cast<double>(x));
    const bool ok = same<T>(simd(i), scalar(i), ulps, signed_zero) &&
                    same<T>(scalar(i), static_cast<T>(want), ulps, signed_zero);
    if (!ok && bad++ == 0) {
      first << name << "(" << x << "): SIMD " << simd(i) << ", scalar " << scalar(i)
            << ", expected " << static_cast<T>(want);
    }
  }
  BOOST_TEST(bad == 0, bad << " values differ; first " << first.str());
  std::vector<std::array<T, 1>> lanes;
  for (T v : values) lanes.push_back({v});
  check_lanes<T>(name, build, [&](double x, double) { return reference(x); }, ulps, signed_zero,
                 lanes, {T(0.75)});
}

template <class T, class Build, class Reference>
void check_binary(const char* name, Build build, Reference reference, double ulps,
                  bool signed_zero = true) {
  const std::vector<T> values = special_values<T>();
  std::vector<T> xs, ys;
  for (T x : values) {
    for (T y : values) xs.push_back(x), ys.push_back(y);
  }
  const Layouts<T> x(xs, 2), y(ys, 2);
  const tx::Array<T, 1> simd = tx::testing::on_host(tx::Array<T, 1>(build(x.dense, y.dense)));
  const tx::Array<T, 1> scalar = tx::testing::on_host(tx::Array<T, 1>(build(x.strided, y.strided)));
  int bad = 0;
  std::ostringstream first;
  for (tx::index_t i = 0; i < simd.numel(); ++i) {
    const double want = reference(static_cast<double>(x.host(i)), static_cast<double>(y.host(i)));
    const bool ok = same<T>(simd(i), scalar(i), ulps) &&
                    same<T>(scalar(i), static_cast<T>(want), ulps, signed_zero);
    if (!ok && bad++ == 0) {
      first << name << "(" << x.host(i) << ", " << y.host(i) << "): SIMD " << simd(i) << ", scalar "
            << scalar(i) << ", expected " << static_cast<T>(want);
    }
  }
  BOOST_TEST(bad == 0, bad << " pairs differ; first " << first.str());
  std::vector<std::array<T, 2>> lanes;
  for (std::size_t i = 0; i < xs.size(); ++i) lanes.push_back({xs[i], ys[i]});
  check_lanes<T>(name, build, reference, ulps, signed_zero, lanes, {T(0.75), T(1.5)});
}

/// A comparison as check_binary builds it: on arrays the expression its operator makes, on SIMD
/// batches its functor (1 or 0), which is where xsimd's AVX `!=` differs from SSE's (core/simd.h).
template <class Op>
struct Comparison {
#if TENSORX_HAS_SIMD
  template <class T, class A>
  xsimd::batch<T, A> operator()(const xsimd::batch<T, A>& a, const xsimd::batch<T, A>& b) const {
    return Op{}(a, b);
  }
#endif
  template <class L, class R>
  auto operator()(const L& a, const R& b) const {
    return tx::F<Op>(a, b);
  }
};

/// tx::where(x, 1, 2) on arrays and on SIMD batches: a NaN condition is nonzero, so true.
template <class T>
struct WhereNonzero {
#if TENSORX_HAS_SIMD
  template <class A>
  xsimd::batch<T, A> operator()(const xsimd::batch<T, A>& x) const {
    return tx::where(x, xsimd::batch<T, A>(T(1)), xsimd::batch<T, A>(T(2)));
  }
#endif
  template <class X>
  auto operator()(const X& x) const {
    return tx::where(x, T(1), T(2));
  }
};

double nan_propagating_max(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::max(a, b);
}
double nan_propagating_min(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::min(a, b);
}

/// The reference of a function computed in T: the C function in T's precision (what the scalar
/// loop calls), so that the comparison is about special values, not rounding.
template <class T>
void check_every_function() {
  // The C library's results in T, and definitions in double rounded to T.
  check_unary<T>(
      "exp", [](const auto& a) { return tx::exp(a); },
      [](double x) { return std::exp(static_cast<T>(x)); }, 4);
  check_unary<T>(
      "log", [](const auto& a) { return tx::log(a); },
      [](double x) { return std::log(static_cast<T>(x)); }, 4);
  check_unary<T>(
      "log1p", [](const auto& a) { return tx::log1p(a); },
      [](double x) { return std::log1p(static_cast<T>(x)); }, 4);
  check_unary<T>(
      "expm1", [](const auto& a) { return tx::expm1(a); },
      [](double x) { return std::expm1(static_cast<T>(x)); }, 4);
  check_unary<T>(
      "sqrt", [](const auto& a) { return tx::sqrt(a); },
      [](double x) { return std::sqrt(static_cast<T>(x)); }, 1);
  check_unary<T>(
      "rsqrt", [](const auto& a) { return tx::rsqrt(a); },
      [](double x) { return T(1) / std::sqrt(static_cast<T>(x)); }, 2);
  check_unary<T>(
      "tanh", [](const auto& a) { return tx::tanh(a); },
      [](double x) { return std::tanh(static_cast<T>(x)); }, 4);
  check_unary<T>(
      "erf", [](const auto& a) { return tx::erf(a); },
      [](double x) { return std::erf(static_cast<T>(x)); }, 4);
  check_unary<T>(
      "sigmoid", [](const auto& a) { return tx::sigmoid(a); },
      [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, 8, false);
  // GELU against the scalar loop's own (tanh of C), whose tanh form cancels at negative x (at -3,
  // 1 + tanh(-2.44) is 0.0146, so an ulp of tanh is 68 of the result) where the SIMD loop's
  // logistic form does not: finite values get 512 ulps; infinities, NaN and zeros must match.
  check_unary<T>(
      "gelu", [](const auto& a) { return tx::gelu(a); },
      [](double x) { return tx::gelu(static_cast<T>(x)); }, 512);
  check_unary<T>(
      "floor", [](const auto& a) { return tx::floor(a); }, [](double x) { return std::floor(x); },
      0);
  check_unary<T>(
      "ceil", [](const auto& a) { return tx::ceil(a); }, [](double x) { return std::ceil(x); }, 0);
  check_unary<T>(
      "round", [](const auto& a) { return tx::round(a); }, [](double x) { return std::round(x); },
      0);
  check_unary<T>(
      "abs", [](const auto& a) { return tx::abs(a); }, [](double x) { return std::fabs(x); }, 0);
  check_unary<T>(
      "relu", [](const auto& a) { return tx::relu(a); },
      [](double x) { return nan_propagating_max(x, 0.0); }, 0, false);
  check_unary<T>(
      "square", [](const auto& a) { return tx::square(a); },
      [](double x) { return static_cast<T>(x) * static_cast<T>(x); }, 0);
  check_unary<T>(
      "sign", [](const auto& a) { return tx::sign(a); },
      [](double x) { return x > 0   ? 1.0
                            : x < 0 ? -1.0
                                    : x; }, 0);
  check_binary<T>(
      "pow", [](const auto& a, const auto& b) { return tx::pow(a, b); },
      // The SIMD pow is exp(y log x): its error grows with |y log x|, up to 6 ulps at the
      // largest finite results here (0.5^88.5 in float is 4.3 ulps from C's powf).
      [](double x, double y) { return std::pow(static_cast<T>(x), static_cast<T>(y)); }, 8);
  check_binary<T>(
      "maximum", [](const auto& a, const auto& b) { return tx::maximum(a, b); },
      nan_propagating_max, 0, false);  // either zero is the maximum of +0 and -0
  check_binary<T>(
      "minimum", [](const auto& a, const auto& b) { return tx::minimum(a, b); },
      nan_propagating_min, 0, false);
  // Comparisons give 1 or 0; each is false where NaN is involved, but for !=, which is true.
  check_binary<T>(
      "equal", Comparison<tx::op::equal>{}, [](double x, double y) { return x == y ? 1.0 : 0.0; },
      0);
  check_binary<T>(
      "not_equal", Comparison<tx::op::not_equal>{},
      [](double x, double y) { return x != y ? 1.0 : 0.0; }, 0);
  check_binary<T>(
      "less", Comparison<tx::op::less>{}, [](double x, double y) { return x < y ? 1.0 : 0.0; }, 0);
  check_binary<T>(
      "greater_equal", Comparison<tx::op::greater_equal>{},
      [](double x, double y) { return x >= y ? 1.0 : 0.0; }, 0);
  check_unary<T>(
      "where", WhereNonzero<T>{}, [](double x) { return x != 0 ? 1.0 : 2.0; }, 0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(special_values)

BOOST_AUTO_TEST_CASE(every_math_function_agrees_on_simd_scalar_and_c_in_float) {
  check_every_function<float>();
}

BOOST_AUTO_TEST_CASE(every_math_function_agrees_on_simd_scalar_and_c_in_double) {
  check_every_function<double>();
}

BOOST_AUTO_TEST_SUITE_END()
