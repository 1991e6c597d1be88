// Checks an element-wise operation against a double-precision reference loop: on every operand
// layout the engines treat differently (dense, transposed and sliced views, padded rows, broadcast
// rows and columns, numbers, empty and size-1 extents, arrays large enough for threads and SIMD),
// and on single numbers and SIMD batches. Operands live on the test place, so the same checks run
// on the GPU when the test sources are compiled as CUDA.
#pragma once

#include <array>
#include <cmath>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "support/test_place.h"
#include "tensorx/tensorx.h"

namespace tensorx {
namespace testing {

/// How far a result may be from the exact value: |got - want| <= absolute + relative * |want|.
struct Tolerance {
  double relative;
  double absolute;
};

/// Results are computed in the compute type and stored in T: float16 loses up to half an ulp
/// (2^-11) on the way, bfloat16 up to 2^-9; integers are exact.
template <class T>
Tolerance tolerance_of() {
  if constexpr (std::is_same_v<T, float>) {
    return {1e-5, 1e-6};
  } else if constexpr (std::is_same_v<T, double>) {
    return {1e-12, 1e-14};
  } else if constexpr (std::is_same_v<T, float16>) {
    return {1e-3, 1e-4};
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    return {4e-3, 4e-4};
  } else {
    return {0.0, 0.0};
  }
}

/// NaN matches NaN and an infinity matches only itself.
inline bool is_close(double got, double want, const Tolerance& tolerance) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::abs(got - want) <= tolerance.absolute + tolerance.relative * std::abs(want);
}

/// Random operand values of element type T: uniform in [low, high), or when step > 0 rounded to
/// multiples of step (frequent ties and equal values, for comparisons and rounding).
template <class T>
class Values {
 public:
  Values(double low, double high, double step = 0.0) : low_(low), high_(high), step_(step) {}

  compute_t<T> number(std::mt19937_64& rng) const {
    double value = std::uniform_real_distribution<double>(low_, high_)(rng);
    if (step_ > 0) value = std::round(value / step_) * step_;
    return static_cast<compute_t<T>>(static_cast<T>(value));
  }

  /// A dense array of the given extent on the test place.
  template <int N>
  Array<T, N> array(const Dim<N>& dims, std::mt19937_64& rng) const {
    Array<T, N> host(dims);
    for (T& element : make_view(host)) element = static_cast<T>(number(rng));
    return on_test_place(host);
  }

 private:
  double low_, high_, step_;
};

/// The transposed view of a matrix (same buffer, swapped extents and strides).
template <class T>
Array<T, 2> transposed(const Array<T, 2>& a) {
  return Array<T, 2>(a.buffer(), make_dim(a.dims()[1], a.dims()[0]),
                     make_dim(a.strides()[1], a.strides()[0]), a.offset());
}

/// An m x n view whose rows are 3 elements apart in a wider buffer: unit inner stride, not dense.
template <class T>
Array<T, 2> padded_rows(const Values<T>& values, index_t m, index_t n, std::mt19937_64& rng) {
  const Array<T, 2> wide = values.array(make_dim(m, n + 3), rng);
  return Array<T, 2>(wide.buffer(), make_dim(m, n), wide.strides(), wide.offset() + 1);
}

template <class T, int N>
Array<T, N> host_copy(const Array<T, N>& a) {
  return on_host(a);
}
template <class S, std::enable_if_t<std::is_arithmetic_v<S>, int> = 0>
S host_copy(S number) {
  return number;
}

/// The operand's value at `index` of the result, by NumPy's broadcasting rules.
template <int N, class T, int M>
double element_at(const Array<T, M>& host, const Dim<N>& index) {
  Dim<M> own;
  if constexpr (M > 0) {
    for (int i = 0; i < M; ++i) own.at(i) = host.dims().at(i) == 1 ? 0 : index.at(N - M + i);
  }
  return static_cast<double>(host[own]);
}
template <int N, class S, std::enable_if_t<std::is_arithmetic_v<S>, int> = 0>
double element_at(S number, const Dim<N>&) {
  return static_cast<double>(number);
}

/// reference(operand values...) at every index of `dims`, in row-major order.
template <int N, class Reference, class... Operands>
std::vector<double> reference_values(const Dim<N>& dims, Reference reference,
                                     const Operands&... host_operands) {
  std::vector<double> values(static_cast<std::size_t>(product(dims)));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Dim<N> index = delinearize(static_cast<index_t>(i), dims);
    values[i] = reference(element_at(host_operands, index)...);
  }
  return values;
}

/// Checks every element of `result` (any place) against `expected`; reports the first mismatch.
template <class T, int N>
void check_close(const std::string& what, const Array<T, N>& result,
                 const std::vector<double>& expected) {
  const Array<T, N> host = on_host(result);
  BOOST_TEST_REQUIRE(static_cast<std::size_t>(host.numel()) == expected.size(), what);
  std::size_t failures = 0, i = 0;
  std::string first;
  for (const T& element : make_view(host)) {
    const double got = static_cast<double>(element);
    if (!is_close(got, expected[i], tolerance_of<T>()) && failures++ == 0) {
      first = "element " + std::to_string(i) + " is " + std::to_string(got) + ", expected " +
              std::to_string(expected[i]);
    }
    ++i;
  }
  BOOST_TEST(failures == 0u, what << ": " << failures << " of " << expected.size()
                                  << " elements differ; the first: " << first);
}

/// True when the CPU engine evaluates the expression in SIMD batches (on unit-stride rows).
template <class E>
constexpr bool runs_in_simd() {
  using Plan = decltype(make_plan(std::declval<const E&>(), std::declval<Dim<E::rank>>()));
  return detail::plan_vectorizable<Plan, compute_t<typename E::value_type>>();
}

/// Whether the CPU engine runs expressions of T in SIMD batches on this target: where xsimd has
/// batches of T itself, and for bfloat16 on x86, whose registers widen and narrow it (float16
/// computes in float but converts lane by lane, so it never runs in batches).
template <class T>
constexpr bool has_simd_batches() {
#if TENSORX_HAS_SIMD && defined(__SSE2__)
  if constexpr (std::is_same_v<T, bfloat16>) return true;
#endif
#if TENSORX_HAS_SIMD
  return !std::is_void_v<detail::simd_batch_t<T>>;
#else
  return false;
#endif
}

/// The checks of check_case that do not depend on the expression, compiled once per unit.
inline void check_case_facts(const std::string& what, bool runs_in_simd, bool has_simd_batches,
                             const Dim<2>& dims, const Dim<2>& expected_dims) {
  BOOST_TEST(runs_in_simd == has_simd_batches, what);
  BOOST_TEST_REQUIRE(dims == expected_dims, what);
}

/// build(operands...) assigned to a new matrix equals reference(...) element-wise.
template <class T, class Build, class Reference, class... Operands>
void check_case(const std::string& what, Build build, Reference reference, const Dim<2>& dims,
                const Operands&... operands) {
  const auto expression = build(operands...);
  static_assert(std::is_same_v<typename decltype(expression)::value_type, T>,
                "an element-wise operation keeps its operands' element type");
  const Array<T, 2> result = expression;
  check_case_facts(what, runs_in_simd<decltype(expression)>(), has_simd_batches<T>(), result.dims(),
                   dims);
  check_close(what, result, reference_values(dims, reference, host_copy(operands)...));
}

/// A one-operand operation on every layout, from a few elements to arrays that run in threads.
template <class T, class Build, class Reference>
void check_unary(const std::string& name, Build build, Reference reference, const Values<T>& x,
                 std::mt19937_64& rng) {
  const auto check = [&](const std::string& layout, const Dim<2>& dims, const auto& operand) {
    check_case<T>(name + " on " + layout, build, reference, dims, operand);
  };
  const index_t m = std::uniform_int_distribution<index_t>(2, 40)(rng);
  const index_t n = std::uniform_int_distribution<index_t>(2, 40)(rng);
  check("a dense matrix", make_dim(m, n), x.array(make_dim(m, n), rng));
  const Array<T, 2> t = transposed(x.array(make_dim(n, m), rng));
  check("a transposed view", make_dim(m, n), t);
  check("a slice of a transposed view", make_dim(m - 1, n), t.slice(1, m));
  check("padded rows", make_dim(m, n), padded_rows(x, m, n, rng));
  check("a single row", make_dim(1, n), x.array(make_dim(1, n), rng));
  check("a single column", make_dim(m, 1), x.array(make_dim(m, 1), rng));
  check("one element", make_dim(1, 1), x.array(make_dim(1, 1), rng));
  check("an empty matrix", make_dim(0, n), x.array(make_dim(0, n), rng));
  check("a matrix without columns", make_dim(m, 0), x.array(make_dim(m, 0), rng));
  // 131,400 elements: above the engine's threading threshold, with a SIMD tail in every row.
  const index_t rows = 360, columns = 365;
  check("a large dense matrix", make_dim(rows, columns), x.array(make_dim(rows, columns), rng));
  check("large padded rows", make_dim(rows, columns), padded_rows(x, rows, columns, rng));
  check("a large transposed view", make_dim(rows, columns),
        transposed(x.array(make_dim(columns, rows), rng)));
}

/// A two-operand operation with broadcasting and numbers on either side.
template <class T, class Build, class Reference>
void check_binary(const std::string& name, Build build, Reference reference, const Values<T>& x,
                  const Values<T>& y, std::mt19937_64& rng) {
  const auto check = [&](const std::string& layout, const Dim<2>& dims, const auto& lhs,
                         const auto& rhs) {
    check_case<T>(name + " on " + layout, build, reference, dims, lhs, rhs);
  };
  const index_t m = std::uniform_int_distribution<index_t>(2, 40)(rng);
  const index_t n = std::uniform_int_distribution<index_t>(2, 40)(rng);
  const auto dims = make_dim(m, n);
  check("two dense matrices", dims, x.array(dims, rng), y.array(dims, rng));
  check("a transposed view and a matrix", dims, transposed(x.array(make_dim(n, m), rng)),
        y.array(dims, rng));
  check("a matrix and padded rows", dims, x.array(dims, rng), padded_rows(y, m, n, rng));
  check("a matrix and a vector", dims, x.array(dims, rng), y.array(make_dim(n), rng));
  check("a matrix and a row", dims, x.array(dims, rng), y.array(make_dim(1, n), rng));
  check("a column and a matrix", dims, x.array(make_dim(m, 1), rng), y.array(dims, rng));
  check("a column and a row", dims, x.array(make_dim(m, 1), rng), y.array(make_dim(1, n), rng));
  check("a matrix and a number", dims, x.array(dims, rng), y.number(rng));
  check("a number and a matrix", dims, x.number(rng), y.array(dims, rng));
  check("one element and a number", make_dim(1, 1), x.array(make_dim(1, 1), rng), y.number(rng));
  check("an empty matrix and a vector", make_dim(0, n), x.array(make_dim(0, n), rng),
        y.array(make_dim(n), rng));
  const auto large = make_dim(360, 365);
  check("two large dense matrices", large, x.array(large, rng), y.array(large, rng));
  check("a large matrix and a row", large, x.array(large, rng), y.array(make_dim(1, 365), rng));
  check("a large column and a matrix", large, x.array(make_dim(360, 1), rng), y.array(large, rng));
  check("a large transposed view and a number", large, transposed(x.array(make_dim(365, 360), rng)),
        y.number(rng));
}

/// A three-operand operation (clip, where) with broadcasting and numbers.
template <class T, class Build, class Reference>
void check_ternary(const std::string& name, Build build, Reference reference, const Values<T>& x,
                   const Values<T>& y, const Values<T>& z, std::mt19937_64& rng) {
  const auto check = [&](const std::string& layout, const Dim<2>& dims, const auto& first,
                         const auto& second, const auto& third) {
    check_case<T>(name + " on " + layout, build, reference, dims, first, second, third);
  };
  const index_t m = std::uniform_int_distribution<index_t>(2, 40)(rng);
  const index_t n = std::uniform_int_distribution<index_t>(2, 40)(rng);
  const auto dims = make_dim(m, n);
  check("three dense matrices", dims, x.array(dims, rng), y.array(dims, rng), z.array(dims, rng));
  check("a matrix and two numbers", dims, x.array(dims, rng), y.number(rng), z.number(rng));
  check("a column, a matrix and a row", dims, x.array(make_dim(m, 1), rng), y.array(dims, rng),
        z.array(make_dim(1, n), rng));
  check("a transposed view, a number and padded rows", dims,
        transposed(x.array(make_dim(n, m), rng)), y.number(rng), padded_rows(z, m, n, rng));
  check("an empty matrix", make_dim(m, 0), x.array(make_dim(m, 0), rng), y.number(rng),
        z.array(make_dim(0), rng));
  const auto large = make_dim(360, 365);
  check("three large dense matrices", large, x.array(large, rng), y.array(large, rng),
        z.array(large, rng));
  check("a large matrix, a row and a number", large, x.array(large, rng),
        y.array(make_dim(365), rng), z.number(rng));
}

/// Every got[i] is close to want[i]; `what` says what was computed, the first mismatch is named.
inline void check_numbers_close(const std::string& what, const std::vector<double>& got,
                                const std::vector<double>& want, const Tolerance& tolerance) {
  std::size_t failures = 0;
  std::string first;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!is_close(got[i], want[i], tolerance) && failures++ == 0) {
      first = std::to_string(got[i]) + ", expected " + std::to_string(want[i]);
    }
  }
  BOOST_TEST(failures == 0u, what << ": " << failures << " of " << got.size()
                                  << " results differ; the first: " << first);
}

/// check_numbers with the operand positions I as a pack. The results are collected and checked
/// by check_numbers_close, so that each function checked compiles only its own calls.
template <class T, class Compute, class Reference, std::size_t... I>
void check_numbers_at(const std::string& name, Compute compute, Reference reference,
                      std::mt19937_64& rng, std::index_sequence<I...>,
                      const std::array<Values<T>, sizeof...(I)>& inputs) {
  using C = compute_t<T>;
  std::vector<double> got, want;
  for (int trial = 0; trial < 64; ++trial) {
    const std::array<C, sizeof...(I)> arguments = {inputs[I].number(rng)...};
    got.push_back(static_cast<double>(compute(arguments[I]...)));
    want.push_back(reference(static_cast<double>(arguments[I])...));
  }
  check_numbers_close(name + " on numbers", got, want, tolerance_of<C>());
#if TENSORX_HAS_SIMD
  if constexpr (has_simd_batches<C>()) {
    using B = detail::simd_batch_t<C>;
    std::vector<double> lanes_got, lanes_want, lanes_scalar;
    for (int trial = 0; trial < 16; ++trial) {
      std::array<std::array<C, B::size>, sizeof...(I)> lanes;
      for (std::size_t i = 0; i < lanes.size(); ++i) {
        for (C& lane : lanes[i]) lane = inputs[i].number(rng);
      }
      std::array<C, B::size> results;
      compute(B::load_unaligned(lanes[I].data())...).store_unaligned(results.data());
      for (std::size_t lane = 0; lane < B::size; ++lane) {
        lanes_got.push_back(static_cast<double>(results[lane]));
        lanes_want.push_back(reference(static_cast<double>(lanes[I][lane])...));
        lanes_scalar.push_back(static_cast<double>(compute(lanes[I][lane]...)));
      }
    }
    check_numbers_close(name + " on a SIMD batch", lanes_got, lanes_want, tolerance_of<C>());
    check_numbers_close(name + " on a SIMD batch against numbers", lanes_got, lanes_scalar,
                        tolerance_of<C>());
  }
#endif
}

/// `compute` on single numbers of T's compute type, and on SIMD batches where T has them: every
/// result matches the reference, and each SIMD lane matches the result on the lane's numbers.
template <class T, class Compute, class Reference, class... Inputs>
void check_numbers(const std::string& name, Compute compute, Reference reference,
                   std::mt19937_64& rng, const Values<T>& input, const Inputs&... inputs) {
  check_numbers_at<T>(name, compute, reference, rng,
                      std::make_index_sequence<1 + sizeof...(Inputs)>{},
                      std::array<Values<T>, 1 + sizeof...(Inputs)>{input, inputs...});
}

/// A math function on expressions (check_unary or check_binary), on numbers and on SIMD batches
/// (check_numbers): `apply` is a generic lambda calling the tx:: function, so the same call goes
/// through all three overload families.
template <class T, class Apply, class Reference>
void check_function(const std::string& name, Apply apply, Reference reference, const Values<T>& x,
                    std::mt19937_64& rng) {
  check_unary(name, apply, reference, x, rng);
  check_numbers(name, apply, reference, rng, x);
}
template <class T, class Apply, class Reference>
void check_function(const std::string& name, Apply apply, Reference reference, const Values<T>& x,
                    const Values<T>& y, std::mt19937_64& rng) {
  check_binary(name, apply, reference, x, y, rng);
  check_numbers(name, apply, reference, rng, x, y);
}

}  // namespace testing
}  // namespace tensorx
