// The deterministic generators, as expression leaves that fuse into one pass (random/
// generator_exp.h): tx::arange, tx::full, tx::eye and tx::linspace. Values follow NumPy's
// definitions; each is computed with one rounding (an fma where a product meets a sum), so that the
// CPU and a GPU give the same bits.
#pragma once

#include <type_traits>

#include "tensorx/core/compute_type.h"
#include "tensorx/core/config.h"
#include "tensorx/core/data_type.h"
#include "tensorx/core/error.h"
#include "tensorx/random/generator_exp.h"
#include "tensorx/random/reproducible_math.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// ShapeError naming `function` and the shape when an extent is negative, or when there are more
/// elements than a 64-bit index counts.
template <int N>
void check_generator_extent(const char* function, const Dim<N>& dims) {
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) {
      if (dims.at(i) < 0) {
        throw ShapeError(
            message(function, " needs extents of at least 0, but the shape is ", dims));
      }
    }
  }
  checked_numel(dims);
}

template <class T>
constexpr void check_generator_element() {
  static_assert(is_supported_element_v<T>,
                "Generators make float, double, float16, bfloat16, int32 or int64 elements.");
}

/// start + i * step, rounded once (integers: exact, or wrapped like every integer sum).
template <class C>
struct ArangeGenerator {
  using value_type = C;
  C start;
  C step;

  TENSORX_HOST_DEVICE C operator()(index_t i) const {
    if constexpr (std::is_integral_v<C>) {
      return static_cast<C>(static_cast<std::uint64_t>(start) +
                            static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(step));
    } else {
      return fused_multiply_add(static_cast<C>(i), step, start);
    }
  }
};

/// The same value everywhere.
template <class C>
struct FullGenerator {
  using value_type = C;
  C value;

  TENSORX_HOST_DEVICE C operator()(index_t) const { return value; }
};

/// 1 on the diagonal of a matrix with `columns` columns, 0 elsewhere.
template <class C>
struct EyeGenerator {
  using value_type = C;
  index_t columns;

  TENSORX_HOST_DEVICE C operator()(index_t i) const {
    return i / columns == i % columns ? C(1) : C(0);
  }
};

/// start + i * (stop - start) / (n - 1) for i < n - 1, and stop itself last, computed in double.
template <class C>
struct LinspaceGenerator {
  using value_type = C;
  double start;
  double step;
  double stop;
  index_t last;

  TENSORX_HOST_DEVICE C operator()(index_t i) const {
    const double value = i == last ? stop : fused_multiply_add(static_cast<double>(i), step, start);
    return static_cast<C>(value);
  }
};

}  // namespace detail

/// The n numbers start, start + step, ..., start + (n - 1) * step as a rank-1 expression of T
/// (NumPy's arange by count). For floating-point T each is start + i * step rounded once in T's
/// compute type, the index converted exactly below 2^24 (float) or 2^53 (double); integers wrap.
/// Throws ShapeError for n < 0 and ValueError for a zero step (tx::full makes a constant). Like
/// every generator, a lazy GeneratorExp computed in the pass of the assignment it joins, on the
/// destination's place.
template <class T>
auto arange(index_t n, compute_t<T> start = compute_t<T>(0), compute_t<T> step = compute_t<T>(1)) {
  detail::check_generator_element<T>();
  if (n < 0) throw ShapeError(detail::message("tx::arange needs n >= 0, not ", n));
  if (step == compute_t<T>(0)) {
    throw ValueError(detail::message("tx::arange needs a nonzero step, not ", step,
                                     "; tx::full<T>(dims, value) makes a constant"));
  }
  using Generator = detail::ArangeGenerator<compute_t<T>>;
  return GeneratorExp<T, 1, Generator>(make_dim(n), Generator{start, step});
}

/// Every element of extent `dims` equal to `value` (converted to T), a generator as tx::arange.
/// Throws ShapeError for a negative extent.
template <class T, int N>
auto full(const Dim<N>& dims, compute_t<T> value) {
  detail::check_generator_element<T>();
  detail::check_generator_extent("tx::full", dims);
  using Generator = detail::FullGenerator<compute_t<T>>;
  return GeneratorExp<T, N, Generator>(dims, Generator{value});
}

/// The n x m matrix with ones on its main diagonal and zeros elsewhere, a generator as
/// tx::arange. Throws ShapeError for a negative n or m.
template <class T>
auto eye(index_t n, index_t m) {
  detail::check_generator_element<T>();
  detail::check_generator_extent("tx::eye", make_dim(n, m));
  using Generator = detail::EyeGenerator<compute_t<T>>;
  return GeneratorExp<T, 2, Generator>(make_dim(n, m), Generator{m});
}
/// The n x n identity matrix, as eye(n, n).
template <class T>
auto eye(index_t n) {
  return eye<T>(n, n);
}

/// n numbers evenly spaced from start to stop, both included (NumPy's linspace): start +
/// i * (stop - start) / (n - 1) computed in double and rounded once to T, the last exactly stop; n
/// = 1 gives start. A generator as tx::arange; throws ShapeError for n < 0.
template <class T>
auto linspace(double start, double stop, index_t n) {
  detail::check_generator_element<T>();
  if (n < 0) throw ShapeError(detail::message("tx::linspace needs n >= 0, not ", n));
  using Generator = detail::LinspaceGenerator<compute_t<T>>;
  const double step = n > 1 ? (stop - start) / static_cast<double>(n - 1) : 0.0;
  return GeneratorExp<T, 1, Generator>(make_dim(n),
                                       Generator{start, step, n == 1 ? start : stop, n - 1});
}

}  // namespace tensorx
