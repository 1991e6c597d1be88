// What the CPU-GPU agreement tests share (test_cuda_agreement): an expression is built once from
// operands on the CPU and once from copies of them on GPU 0 with the same layout (same strides and
// offsets), both are evaluated, and the GPU's result is compared with the CPU's element by element:
// bitwise where both engines must compute the same (layout ops, exact arithmetic, comparisons),
// within a few units in the last place where the two math libraries may round differently
// (transcendental functions), and within a bound scaled by the condition of the sum where the
// order of additions differs (reductions, products). NaN matches any NaN.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/cuda_test.h"
#include "support/random.h"

namespace tensorx {
namespace testing {
namespace agreement {

inline Place gpu() {
  return CudaPlace(0);
}

/// The element types every agreement case runs in.
using FloatTypes = boost::mpl::list<float, double, float16>;

/// How far the GPU's result may be from the CPU's: `ulps` units in the last place of the result
/// type, counted at max(|cpu result|, floor) so that results near zero that come from
/// cancellation get the spacing of their inputs. ulps = 0 asks for the same bits.
struct Tolerance {
  double ulps;
  double floor;
};
constexpr Tolerance kBitwise{0.0, 0.0};

/// The spacing of T's values at magnitude m (subnormal spacing at and below the normal range).
template <class T>
double ulp_at(double m) {
  constexpr int digits = std::is_same_v<T, float16> ? 11 : std::numeric_limits<T>::digits;
  constexpr int min_exponent =
      std::is_same_v<T, float16> ? -13 : std::numeric_limits<T>::min_exponent;
  const int exponent =
      m > 0 && std::isfinite(m) ? std::max(std::ilogb(m), min_exponent - 1) : min_exponent - 1;
  return std::ldexp(1.0, exponent - digits + 1);
}

/// The unit roundoff of the type T accumulates in (float for float16).
template <class T>
double unit_roundoff() {
  return std::is_same_v<T, double> ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
bool holds_nan(const T& x) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    return std::isnan(static_cast<double>(x));
  }
}

/// True when `gpu` is within `allowed` of `cpu`; allowed < 0 asks for the same bits. NaN
/// matches any NaN, an infinity only itself.
template <class T>
bool agrees(const T& cpu, const T& gpu, double allowed) {
  if (holds_nan(cpu) || holds_nan(gpu)) return holds_nan(cpu) && holds_nan(gpu);
  if (allowed < 0 || std::is_integral_v<T>) return same_bits(cpu, gpu);
  const double c = static_cast<double>(cpu), g = static_cast<double>(gpu);
  if (std::isinf(c) || std::isinf(g)) return c == g;
  return std::abs(g - c) <= allowed;
}

template <class T>
std::string describe(const T& x) {
  std::ostringstream out;
  out.precision(17);
  if constexpr (std::is_integral_v<T>) {
    out << x;
  } else {
    out << static_cast<double>(x);
  }
  return out.str();
}

/// A reference to allowed(i, cpu value), the largest difference allowed at row-major position i
/// of a result of element type T, that does not carry the callable's type: the comparison below is
/// compiled once per element type and rank, not once per case's lambda.
template <class T>
class AllowedDifference {
 public:
  template <class F, class = std::enable_if_t<std::is_invocable_r_v<double, const F&, index_t,
                                                                    const T&>>>
  AllowedDifference(const F& allowed)  // NOLINT(google-explicit-constructor): a lambda converts.
      : allowed_(&allowed), call_([](const void* f, index_t i, const T& cpu) {
          return static_cast<double>((*static_cast<const F*>(f))(i, cpu));
        }) {}

  double operator()(index_t i, const T& cpu) const { return call_(allowed_, i, cpu); }

 private:
  const void* allowed_;
  double (*call_)(const void*, index_t, const T&);
};

/// T where deduction must not look (a lambda converts to AllowedDifference<T>).
template <class T>
struct NotDeduced {
  using type = T;
};

/// Compares every element of the GPU result with the CPU result; allowed(i, cpu value) is the
/// largest difference allowed at row-major position i (negative: the same bits). Reports the
/// count and the first three that differ.
template <class T, int N>
void check_against_cpu(const std::string& what, const Array<T, N>& cpu_result,
                       const Array<T, N>& gpu_result,
                       typename NotDeduced<AllowedDifference<T>>::type allowed) {
  BOOST_TEST_REQUIRE(cpu_result.dims() == gpu_result.dims(), what << ": shapes differ");
  BOOST_TEST_REQUIRE(is_cpu_place(cpu_result.place()), what << ": the CPU result is on the CPU");
  BOOST_TEST_REQUIRE(is_gpu_place(gpu_result.place()), what << ": the GPU result is on the GPU");
  const Array<T, N> cpu = cpu_result.is_contiguous() ? cpu_result : to(cpu_result, CpuPlace());
  const Array<T, N> gpu = to(gpu_result, CpuPlace());
  const T* c = cpu.data();
  const T* g = gpu.data();
  index_t differing = 0;
  std::ostringstream first;
  for (index_t i = 0; i < cpu.numel(); ++i) {
    if (agrees(c[i], g[i], allowed(i, c[i]))) continue;
    if (differing++ < 3) {
      first << "\n  at " << delinearize(i, cpu.dims()) << ": CPU " << describe(c[i]) << ", GPU "
            << describe(g[i]);
    }
  }
  BOOST_TEST(differing == 0, what << ": " << differing << " of " << cpu.numel()
                                  << " elements differ" << first.str());
}

/// Compares under a Tolerance (see there).
template <class T, int N>
void check_against_cpu(const std::string& what, const Array<T, N>& cpu_result,
                       const Array<T, N>& gpu_result, const Tolerance& tolerance) {
  if (tolerance.ulps == 0) {
    // The same bytes need no element-wise look (2^31 elements take a while at -O0).
    const Array<T, N> cpu = cpu_result.is_contiguous() ? cpu_result : to(cpu_result, CpuPlace());
    const Array<T, N> gpu = to(gpu_result, CpuPlace());
    const auto bytes = sizeof(T) * static_cast<std::size_t>(cpu.numel());
    if (cpu.dims() == gpu.dims() && std::memcmp(cpu.data(), gpu.data(), bytes) == 0) {
      BOOST_TEST(true, what << ": the same bits");
      return;
    }
  }
  const auto allowed = [&](index_t, const T& cpu) {
    if (tolerance.ulps == 0) return -1.0;
    const double magnitude = std::max(std::abs(static_cast<double>(cpu)), tolerance.floor);
    return tolerance.ulps * ulp_at<T>(magnitude);
  };
  check_against_cpu(what, cpu_result, gpu_result, AllowedDifference<T>(allowed));
}

/// A copy of `a` on the GPU with a's layout: its whole buffer copied, viewed with a's extents,
/// strides and offset, so that the GPU engine reads the same strided or offset view.
template <class T, int N>
Array<T, N> mirror_on_gpu(const Array<T, N>& a) {
  if (a.numel() == 0) return Array<T, N>(a.dims(), gpu());
  const index_t elements = static_cast<index_t>(a.buffer()->size() / sizeof(T));
  const Array<T, 1> whole(a.buffer(), make_dim(elements), make_dim(index_t{1}), 0);
  const Array<T, 1> copy = to(whole, gpu());
  return Array<T, N>(copy.buffer(), a.dims(), a.strides(), a.offset());
}
template <class S, std::enable_if_t<std::is_arithmetic_v<S>, int> = 0>
S mirror_on_gpu(S number) {
  return number;
}

/// build(operands...) evaluated from CPU operands and from their GPU mirrors; the two results
/// compared under `tolerance`.
template <class Build, class... Operands>
void check_build(const std::string& what, const Tolerance& tolerance, Build build,
                 const Operands&... cpu_operands) {
  using E = decltype(build(cpu_operands...));
  using R = typename E::value_type;
  const Array<R, E::rank> cpu_result = build(cpu_operands...);
  const Array<R, E::rank> gpu_result = build(mirror_on_gpu(cpu_operands)...);
  check_against_cpu(what, cpu_result, gpu_result, tolerance);
}

/// A CPU array of T with values uniform in [low, high), rounded to multiples of `step` when
/// step > 0 (frequent ties and equal values; zeros are +0, since which of -0 and +0 a max or a
/// sum of both returns depends on the order of combination, which the engines need not share).
template <class T, int N>
Array<T, N> random_array(const Dim<N>& dims, std::mt19937_64& rng, double low, double high,
                         double step = 0.0) {
  Array<T, N> a(dims);
  std::uniform_real_distribution<double> value(low, high);
  for (T& element : make_view(a)) {
    double v = value(rng);
    if (step > 0) v = std::round(v / step) * step + 0.0;
    element = static_cast<T>(v);
  }
  return a;
}

/// Sets about one element in `every` of a CPU array to NaN.
template <class T, int N>
void sprinkle_nans(const Array<T, N>& a, std::mt19937_64& rng, index_t every) {
  std::uniform_int_distribution<index_t> pick(0, every - 1);
  for (T& element : make_view(a)) {
    if (pick(rng) == 0) element = static_cast<T>(std::numeric_limits<double>::quiet_NaN());
  }
}

/// The values where math libraries tend to disagree: NaN, infinities, signed zeros, the
/// smallest and largest magnitudes, halfway cases of rounding, overflow thresholds of exp.
inline std::vector<double> special_values() {
  const double inf = std::numeric_limits<double>::infinity();
  return {std::numeric_limits<double>::quiet_NaN(),
          inf,
          -inf,
          0.0,
          -0.0,
          1.0,
          -1.0,
          0.5,
          -2.5,
          3.5,
          1e-3,
          -1e-3,
          1e-6,
          6e-8,
          1e-40,
          static_cast<double>(std::numeric_limits<float>::max()),
          -static_cast<double>(std::numeric_limits<float>::max()),
          65504.0,
          88.0,
          -88.0,
          -104.0,
          710.0,
          -745.0,
          1e300};
}

/// special_values() as a column (k, 1) and as a row (1, k) of T: an operation of the two
/// broadcasts to every pair.
template <class T>
Array<T, 2> special_column() {
  const auto values = special_values();
  Array<T, 2> column(make_dim(static_cast<index_t>(values.size()), index_t{1}));
  for (std::size_t i = 0; i < values.size(); ++i) column.data()[i] = static_cast<T>(values[i]);
  return column;
}
template <class T>
Array<T, 2> special_row() {
  const Array<T, 2> column = special_column<T>();
  return Array<T, 2>(column.buffer(), make_dim(index_t{1}, column.dims()[0]),
                     make_dim(column.dims()[0], index_t{1}), 0);
}

/// The transposed view of a matrix (same buffer, extents and strides swapped).
template <class T>
Array<T, 2> transposed(const Array<T, 2>& a) {
  return Array<T, 2>(a.buffer(), make_dim(a.dims()[1], a.dims()[0]),
                     make_dim(a.strides()[1], a.strides()[0]), a.offset());
}

/// A dense m x n view that starts one element into its buffer (not 16-byte aligned).
template <class T>
Array<T, 2> offset_by_one(const Array<T, 1>& buffer_of_mn_plus_1, index_t m, index_t n) {
  return Array<T, 2>(buffer_of_mn_plus_1.buffer(), make_dim(m, n), make_dim(n, index_t{1}), 1);
}

/// The CPU operands of one case: the views the element-wise cases read, all m x n.
template <class T>
struct MatrixLayouts {
  Array<T, 2> dense, transposed_view, offset_view, padded_rows;
};

/// Random m x n operands in four layouts: dense (the GPU's vector kernel), a transposed view
/// (strided kernel), a dense view off alignment (one element per step) and rows padded apart.
template <class T>
MatrixLayouts<T> matrix_layouts(index_t m, index_t n, std::mt19937_64& rng, double low, double high,
                                double step = 0.0) {
  MatrixLayouts<T> layouts;
  layouts.dense = random_array<T>(make_dim(m, n), rng, low, high, step);
  layouts.transposed_view = transposed(random_array<T>(make_dim(n, m), rng, low, high, step));
  layouts.offset_view =
      offset_by_one(random_array<T>(make_dim(m * n + 1), rng, low, high, step), m, n);
  const Array<T, 2> wide = random_array<T>(make_dim(m, n + 5), rng, low, high, step);
  layouts.padded_rows = Array<T, 2>(wide.buffer(), make_dim(m, n), wide.strides(), 2);
  return layouts;
}

/// A short name of T for messages.
template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, float16>) return "float16";
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  return "?";
}

}  // namespace agreement
}  // namespace testing
}  // namespace tensorx
