// What the gemm tests are built from: operands laid out every way a caller can lay out a matrix
// (dense, a submatrix, a transposed view, both strides above 1, reversed rows, a repeated row),
// alone or in batches, made on the test place with a host copy; and the independent reference, a
// plain triple loop in double precision, with a check that also proves nothing around C changed.
#pragma once

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "support/reference.h"
#include "support/test_place.h"
#include "tensorx/array/array.h"
#include "tensorx/array/global_ops.h"
#include "tensorx/blas/gemm.h"
#include "tensorx/blas/trans.h"
#include "tensorx/core/bfloat16.h"
#include "tensorx/core/float16.h"

namespace tensorx {
namespace testing {

/// The element types gemm multiplies.
using GemmTypes = boost::mpl::list<float, double, float16, bfloat16>;

/// How a matrix lies in the array it is a view of.
enum class Layout {
  kDense,           // the whole array
  kSubmatrix,       // rows and columns cut out of a larger matrix: row stride > columns
  kTransposedView,  // the transpose of a larger matrix: row stride 1
  kStrided,         // every second row and column: both strides above 1, a BLAS cannot read it
  kReversedRows,    // the last row first: a negative row stride
  kRepeatedRow,     // one row seen M times: row stride 0 (inputs only, it cannot be written)
};

inline std::ostream& operator<<(std::ostream& out, Layout layout) {
  const char* names[] = {"dense",          "submatrix",     "transposed view",
                         "strided (2, 2)", "reversed rows", "repeated row"};
  return out << names[static_cast<int>(layout)];
}

/// Every layout an output can have, and those only an input can have besides.
inline const std::vector<Layout> kOutputLayouts = {Layout::kDense, Layout::kSubmatrix,
                                                   Layout::kTransposedView, Layout::kStrided,
                                                   Layout::kReversedRows};
inline const std::vector<Layout> kInputLayouts = {Layout::kDense,          Layout::kSubmatrix,
                                                  Layout::kTransposedView, Layout::kStrided,
                                                  Layout::kReversedRows,   Layout::kRepeatedRow};

/// How the matrices of a batch lie in their array.
enum class BatchLayout {
  kDense,       // one after the other
  kEveryOther,  // every second matrix of a larger batch
  kReversed,    // the last matrix first: a negative batch stride
};

inline std::ostream& operator<<(std::ostream& out, BatchLayout layout) {
  const char* names[] = {"dense batch", "every other matrix", "reversed batch"};
  return out << names[static_cast<int>(layout)];
}

inline const std::vector<BatchLayout> kBatchLayouts = {
    BatchLayout::kDense, BatchLayout::kEveryOther, BatchLayout::kReversed};

/// Where a view lies in its dense parent array.
template <int N>
struct ViewSpec {
  Dim<N> parent;
  Dim<N> dims;
  Dim<N> strides;
  index_t offset = 0;
};

inline ViewSpec<2> matrix_spec(index_t rows, index_t cols, Layout layout) {
  const index_t last_row = std::max<index_t>(rows - 1, 0);
  switch (layout) {
    case Layout::kDense:
      return {make_dim(rows, cols), make_dim(rows, cols), contiguous_strides(make_dim(rows, cols)),
              0};
    case Layout::kSubmatrix:
      return {make_dim(rows + 2, cols + 3), make_dim(rows, cols), make_dim(cols + 3, 1),
              (cols + 3) + 2};
    case Layout::kTransposedView:
      return {make_dim(cols, rows + 2), make_dim(rows, cols), make_dim(1, rows + 2), 0};
    case Layout::kStrided:
      return {make_dim(2 * rows + 1, 2 * cols + 1), make_dim(rows, cols),
              make_dim(2 * (2 * cols + 1), 2), (2 * cols + 1) + 1};
    case Layout::kReversedRows:
      return {make_dim(rows, cols), make_dim(rows, cols), make_dim(-cols, 1), last_row * cols};
    case Layout::kRepeatedRow:
      return {make_dim(1, cols), make_dim(rows, cols), make_dim(0, 1), 0};
  }
  throw std::logic_error("unknown layout");
}

inline ViewSpec<3> batch_spec(index_t count, index_t rows, index_t cols, BatchLayout batch,
                              Layout layout) {
  const ViewSpec<2> matrix = matrix_spec(rows, cols, layout);
  const index_t size = product(matrix.parent);
  const index_t last = std::max<index_t>(count - 1, 0);
  ViewSpec<3> spec;
  spec.parent = make_dim(batch == BatchLayout::kEveryOther ? 2 * count : count, matrix.parent.at(0),
                         matrix.parent.at(1));
  spec.dims = make_dim(count, rows, cols);
  const index_t stride = batch == BatchLayout::kEveryOther ? 2 * size
                         : batch == BatchLayout::kReversed ? -size
                                                           : size;
  spec.strides = make_dim(stride, matrix.strides.at(0), matrix.strides.at(1));
  spec.offset = matrix.offset + (batch == BatchLayout::kReversed ? last * size : 0);
  return spec;
}

/// A view operand: its parent array on the test place and a host copy of that parent, filled with
/// random values (or NaN), so that the reference can read it and the check can compare around it.
template <class T, int N>
class Operand {
 public:
  Operand(const ViewSpec<N>& spec, std::mt19937_64& rng, bool fill_nan = false)
      : spec_(spec), host_(spec.parent) {
    if (fill_nan) {
      fill(host_, std::numeric_limits<double>::quiet_NaN());
    } else {
      fill_random(host_, rng);
    }
    placed_ = on_test_place(host_);
  }

  /// The view on the test place: what gemm gets.
  Array<T, N> view() const { return over(placed_); }
  /// The same view over the host copy.
  Array<T, N> host_view() const { return over(host_); }
  const Array<T, N>& host_parent() const { return host_; }
  /// The parent as it is now on the test place, copied to the host.
  Array<T, N> parent_now() const { return on_host(placed_); }
  const ViewSpec<N>& spec() const { return spec_; }

  std::string describe() const {
    std::ostringstream out;
    out << "view " << spec_.dims << " strides " << spec_.strides << " offset " << spec_.offset
        << " of " << spec_.parent;
    return out.str();
  }

 private:
  Array<T, N> over(const Array<T, N>& parent) const {
    return Array<T, N>(parent.buffer(), spec_.dims, spec_.strides, spec_.offset);
  }

  ViewSpec<N> spec_;
  Array<T, N> host_;
  Array<T, N> placed_;
};

template <class T>
Operand<T, 2> matrix_operand(index_t rows, index_t cols, Layout layout, std::mt19937_64& rng,
                             bool fill_nan = false) {
  return Operand<T, 2>(matrix_spec(rows, cols, layout), rng, fill_nan);
}

template <class T>
Operand<T, 3> batch_operand(index_t count, index_t rows, index_t cols, BatchLayout batch,
                            Layout layout, std::mt19937_64& rng, bool fill_nan = false) {
  return Operand<T, 3>(batch_spec(count, rows, cols, batch, layout), rng, fill_nan);
}

/// The expected C, and the size of the terms that summed to it, which bounds the rounding error.
struct Expected {
  std::vector<double> values;     // row-major, batch by batch
  std::vector<double> magnitude;  // |alpha| * sum |a| |b| + |beta| |c|
  index_t inner = 0;              // K
};

/// C[i] = alpha * op(A[i]) * op(B[i]) + beta * C[i] as plain loops in double over host views;
/// batch extents of 1 in A or B repeat that matrix. beta == 0 ignores C (BLAS semantics).
template <class T>
Expected reference_batch_gemm(Trans trans_a, Trans trans_b, double alpha, const Array<T, 3>& a,
                              const Array<T, 3>& b, double beta, const Array<T, 3>& c) {
  const bool ta = trans_a == Trans::kYes;
  const bool tb = trans_b == Trans::kYes;
  Expected expected;
  expected.inner = ta ? a.dims().at(1) : a.dims().at(2);
  for (index_t i = 0; i < c.dims().at(0); ++i) {
    const index_t ia = a.dims().at(0) == 1 ? 0 : i;
    const index_t ib = b.dims().at(0) == 1 ? 0 : i;
    for (index_t row = 0; row < c.dims().at(1); ++row) {
      for (index_t col = 0; col < c.dims().at(2); ++col) {
        double sum = 0;
        double size = 0;
        for (index_t k = 0; k < expected.inner; ++k) {
          const double x = static_cast<double>(ta ? a(ia, k, row) : a(ia, row, k));
          const double y = static_cast<double>(tb ? b(ib, col, k) : b(ib, k, col));
          sum += x * y;
          size += std::abs(x * y);
        }
        const double old = beta == 0 ? 0.0 : static_cast<double>(c(i, row, col));
        expected.values.push_back(alpha * sum + beta * old);
        expected.magnitude.push_back(std::abs(alpha) * size + std::abs(beta * old));
      }
    }
  }
  return expected;
}

/// The rank-3 view of one matrix, a batch of one.
template <class T>
Array<T, 3> as_batch(const Array<T, 2>& m) {
  return Array<T, 3>(m.buffer(), make_dim(index_t{1}, m.dims().at(0), m.dims().at(1)),
                     make_dim(index_t{0}, m.strides().at(0), m.strides().at(1)), m.offset());
}

template <class T>
Expected reference_gemm(Trans trans_a, Trans trans_b, double alpha, const Array<T, 2>& a,
                        const Array<T, 2>& b, double beta, const Array<T, 2>& c) {
  return reference_batch_gemm(trans_a, trans_b, alpha, as_batch(a), as_batch(b), beta, as_batch(c));
}

/// How far a result may be from the reference, relative to the magnitude of its terms: a few
/// roundings per term in the accumulation type, plus the final rounding of a two-byte result.
template <class T>
double allowed_error(double magnitude, double value, index_t inner) {
  using Accumulator = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const double accumulation = static_cast<double>(std::numeric_limits<Accumulator>::epsilon()) *
                              static_cast<double>(inner + 4) * magnitude;
  const double rounding = std::is_same_v<T, float16>    ? std::ldexp(std::abs(value), -10)
                          : std::is_same_v<T, bfloat16> ? std::ldexp(std::abs(value), -7)
                                                        : 0.0;
  return accumulation + rounding + 1e-300;
}

/// Checks that C (an operand gemm wrote) holds `expected` and that every element of its parent
/// outside the view kept its old value. Reports the first mismatch and how many there were.
template <class T, int N>
void check_result(const Operand<T, N>& c, const Expected& expected) {
  const Array<T, N> before = c.host_parent();
  const Array<T, N> after = c.parent_now();
  const ViewSpec<N>& spec = c.spec();
  std::vector<bool> inside(static_cast<std::size_t>(product(spec.parent)), false);
  index_t wrong = 0;
  std::ostringstream first;
  index_t position = 0;
  for_each_index(spec.dims, [&](const Dim<N>& index) {
    const index_t offset = spec.offset + linearize(index, spec.strides);
    inside[static_cast<std::size_t>(offset)] = true;
    const auto at = static_cast<std::size_t>(position++);
    const double got = static_cast<double>(after.data()[offset]);
    const double want = expected.values[at];
    const double error = std::abs(got - want);
    if (!(error <= allowed_error<T>(expected.magnitude[at], want, expected.inner)) &&
        wrong++ == 0) {
      first << "C" << index << " is " << got << ", expected " << want;
    }
  });
  index_t touched = 0;
  for (index_t offset = 0; offset < product(spec.parent); ++offset) {
    const T old = before.data()[offset];
    const T now = after.data()[offset];
    const bool same = std::memcmp(&old, &now, sizeof(T)) == 0;
    if (!inside[static_cast<std::size_t>(offset)] && !same) ++touched;
  }
  BOOST_TEST(wrong == 0, wrong << " elements of C are wrong, the first: " << first.str() << " ("
                               << c.describe() << ")");
  BOOST_TEST(touched == 0,
             touched << " elements around the view of C changed (" << c.describe() << ")");
}

/// One product to check: C (m x n) = alpha * op(A) * op(B) + beta * C with op(A) m x k, each
/// operand laid out as given. beta == 0 fills C with NaN first, which the product must ignore.
struct GemmCase {
  Trans trans_a = Trans::kNo;
  Trans trans_b = Trans::kNo;
  double alpha = 1;
  double beta = 0;
  index_t m = 1;
  index_t n = 1;
  index_t k = 1;
  Layout a = Layout::kDense;
  Layout b = Layout::kDense;
  Layout c = Layout::kDense;
};

inline std::ostream& operator<<(std::ostream& out, const GemmCase& x) {
  return out << "C (" << x.m << " x " << x.n << ", " << x.c << ") = " << x.alpha << " * A"
             << (x.trans_a == Trans::kYes ? "^T" : "") << " (" << x.a << ") * B"
             << (x.trans_b == Trans::kYes ? "^T" : "") << " (" << x.b << ") + " << x.beta
             << " * C, k = " << x.k;
}

// The stored extent of an operand whose op() is rows x cols.
inline index_t stored_rows(Trans trans, index_t rows, index_t cols) {
  return trans == Trans::kYes ? cols : rows;
}

/// Runs tx::gemm on the case's operands and checks C against the reference.
template <class T>
void check_gemm(const GemmCase& x, std::mt19937_64& rng) {
  const auto a = matrix_operand<T>(stored_rows(x.trans_a, x.m, x.k),
                                   stored_rows(x.trans_a, x.k, x.m), x.a, rng);
  const auto b = matrix_operand<T>(stored_rows(x.trans_b, x.k, x.n),
                                   stored_rows(x.trans_b, x.n, x.k), x.b, rng);
  const auto c = matrix_operand<T>(x.m, x.n, x.c, rng, x.beta == 0);
  const Expected expected = reference_gemm(x.trans_a, x.trans_b, x.alpha, a.host_view(),
                                           b.host_view(), x.beta, c.host_view());
  gemm(x.trans_a, x.trans_b, static_cast<gemm_scalar_t<T>>(x.alpha), a.view(), b.view(),
       static_cast<gemm_scalar_t<T>>(x.beta), c.view());
  BOOST_TEST_CONTEXT(x) {
    check_result(c, expected);
  }
}

/// One batched product: C has `count` matrices; A and B have `count_a` and `count_b` (each 1 or
/// count), every batch laid out as `batch`.
struct BatchCase {
  GemmCase matrices;
  index_t count = 1;
  index_t count_a = 1;
  index_t count_b = 1;
  BatchLayout batch = BatchLayout::kDense;
};

inline std::ostream& operator<<(std::ostream& out, const BatchCase& x) {
  return out << x.matrices << ", batches of " << x.count_a << ", " << x.count_b << " and "
             << x.count << " (" << x.batch << ")";
}

/// Runs tx::batch_gemm on the case's operands and checks C against the reference.
template <class T>
void check_batch_gemm(const BatchCase& x, std::mt19937_64& rng) {
  const GemmCase& g = x.matrices;
  const auto a = batch_operand<T>(x.count_a, stored_rows(g.trans_a, g.m, g.k),
                                  stored_rows(g.trans_a, g.k, g.m), x.batch, g.a, rng);
  const auto b = batch_operand<T>(x.count_b, stored_rows(g.trans_b, g.k, g.n),
                                  stored_rows(g.trans_b, g.n, g.k), x.batch, g.b, rng);
  const auto c = batch_operand<T>(x.count, g.m, g.n, x.batch, g.c, rng, g.beta == 0);
  const Expected expected = reference_batch_gemm(g.trans_a, g.trans_b, g.alpha, a.host_view(),
                                                 b.host_view(), g.beta, c.host_view());
  batch_gemm(g.trans_a, g.trans_b, static_cast<gemm_scalar_t<T>>(g.alpha), a.view(), b.view(),
             static_cast<gemm_scalar_t<T>>(g.beta), c.view());
  BOOST_TEST_CONTEXT(x) {
    check_result(c, expected);
  }
}

}  // namespace testing
}  // namespace tensorx
