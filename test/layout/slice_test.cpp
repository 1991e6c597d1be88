// tx::slice(e, axis, begin, end): a view of an array on both sides of `=`, and a slice of an
// expression that prepare() pushes into the arrays it reads, so that it stays one fused pass.
#include <boost/test/unit_test.hpp>

#include <vector>

#include <tensorx/tensorx.h>

#include "layout/layout_cases.h"
#include "support/errors.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::passes_of;
using tx::testing::random_array;
using tx::testing::reference;

namespace {

/// `index` moved by `shift` along `axis`.
template <int N>
tx::Dim<N> shifted(tx::Dim<N> index, int axis, index_t shift) {
  index[axis] += shift;
  return index;
}

/// Every axis of arrays of rank N, dense and strided: the slice reads the right elements in one
/// pass and, as a view, shares the array's buffer.
template <int N>
void check_array_slices(std::mt19937_64& rng) {
  for (int trial = 0; trial < 6; ++trial) {
    const auto dims = tx::testing::random_extents<N>(rng, 7);
    const auto a = tx::testing::layout_variant(random_array<float>(dims, rng), trial);
    const auto ha = on_host(a);
    for (int axis = 0; axis < N; ++axis) {
      const auto range = tx::testing::random_range(rng, dims[axis]);
      const index_t begin = range.first, end = range.second;
      BOOST_TEST_CONTEXT("shape " << dims << ", axis " << axis << ", [" << begin << ", " << end
                                  << "), layout " << trial % 3) {
        // A slice of an array is a view of its buffer, as a.slice() is along axis 0.
        const tx::Array<float, N> view = tx::slice(a, axis, begin, end);
        BOOST_TEST(view.buffer() == a.buffer());
        BOOST_TEST(view.strides() == a.strides());
        const auto expected = reference(view.dims(), [&](const auto& i) {
          return static_cast<double>(ha[shifted(i, axis, begin)]);
        });
        check_close(view, expected);
        tx::Array<float, N> c;
        const auto passes = passes_of([&] { c = tx::slice(a, axis, begin, end) * 1.0f; });
        BOOST_TEST(passes == tx::testing::one_pass_unless_empty(c.dims()));
        check_close(c, expected);
      }
    }
  }
}

/// Every axis of an expression of rank N that broadcasts a row and reads a strided operand.
template <int N>
void check_expression_slices(std::mt19937_64& rng) {
  for (int trial = 0; trial < 6; ++trial) {
    const auto dims = tx::testing::random_extents<N>(rng, 6);
    const auto a = tx::testing::layout_variant(random_array<double>(dims, rng), trial);
    const auto b = random_array<double>(dims, rng);
    const auto row = random_array<double>(tx::make_dim(dims[N - 1]), rng);
    const auto ha = on_host(a), hb = on_host(b);
    const auto hrow = on_host(row);
    for (int axis = 0; axis < N; ++axis) {
      const auto range = tx::testing::random_range(rng, dims[axis]);
      const index_t begin = range.first, end = range.second;
      BOOST_TEST_CONTEXT("shape " << dims << ", axis " << axis << ", [" << begin << ", " << end
                                  << ")") {
        tx::Array<double, N> c;
        const auto passes = passes_of([&] { c = tx::slice(a * b + row, axis, begin, end); });
        BOOST_TEST(passes == tx::testing::one_pass_unless_empty(c.dims()));
        check_close(c, reference(c.dims(), [&](const auto& i) {
                      const auto at = shifted(i, axis, begin);
                      return ha[at] * hb[at] + hrow(at[N - 1]);
                    }));
      }
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(layout_slice)

BOOST_AUTO_TEST_CASE(a_slice_of_an_array_is_a_view_along_any_axis_of_ranks_1_to_4) {
  auto rng = tx::testing::make_rng(101);
  check_array_slices<1>(rng);
  check_array_slices<2>(rng);
  check_array_slices<3>(rng);
  check_array_slices<4>(rng);
}

BOOST_AUTO_TEST_CASE(a_slice_of_an_expression_is_one_pass_along_any_axis_of_ranks_1_to_4) {
  auto rng = tx::testing::make_rng(102);
  check_expression_slices<1>(rng);
  check_expression_slices<2>(rng);
  check_expression_slices<3>(rng);
  check_expression_slices<4>(rng);
}

BOOST_AUTO_TEST_CASE(prepare_pushes_the_slice_into_the_arrays_an_expression_reads) {
  auto rng = tx::testing::make_rng(103);
  const auto a = random_array<float>(tx::make_dim(6, 5), rng);
  const auto row = random_array<float>(tx::make_dim(5), rng);
  const auto column = random_array<float>(tx::make_dim(6, 1), rng);
  const tx::detail::EvalContext<tx::detail::ThisTranslationUnit> context{a.place()};
  // Rows 2 .. 4: a and the column are cut, the row (broadcast along axis 0) is read whole.
  const auto prepared = tx::prepare(tx::slice(a * row + column, 0, 2, 5), context);
  const auto& scaled = tx::detail::pack_get<0>(prepared.args());
  const auto& cut_column = tx::detail::pack_get<1>(prepared.args());
  const auto& cut_a = tx::detail::pack_get<0>(scaled.args());
  const auto& whole_row = tx::detail::pack_get<1>(scaled.args());
  BOOST_TEST(cut_a.data() == a.data() + 2 * a.strides()[0]);
  BOOST_TEST(cut_a.dims() == tx::make_dim(3, 5));
  BOOST_TEST(whole_row.data() == row.data());
  BOOST_TEST(whole_row.dims() == tx::make_dim(5));
  BOOST_TEST(cut_column.data() == column.data() + 2);
  BOOST_TEST(cut_column.dims() == tx::make_dim(3, 1));
}

BOOST_AUTO_TEST_CASE(slices_of_broadcasts_keep_the_stretched_operand_whole) {
  auto rng = tx::testing::make_rng(104);
  const auto row = random_array<float>(tx::make_dim(1, 7), rng);
  const auto hrow = on_host(row);
  tx::Array<float, 2> c = tx::slice(tx::broadcast_to(row, tx::make_dim(5, 7)), 0, 1, 4);
  check_close(c, reference(tx::make_dim(3, 7), [&](const auto& i) { return hrow(0, i[1]); }));
  const tx::Array<float, 2> d =
      tx::slice(tx::slice(tx::broadcast_to(row, tx::make_dim(5, 7)), 1, 2, 7), 0, 0, 3);
  BOOST_TEST(d.dims() == tx::make_dim(3, 5));
  check_close(d, reference(d.dims(), [&](const auto& i) { return hrow(0, i[1] + 2); }));
  // A number reads no array: the destination says where the pass runs.
  tx::Array<double, 1> filled(tx::make_dim(2), tx::testing::test_place());
  filled = tx::slice(tx::broadcast_to(2.5, tx::make_dim(9)), 0, 3, 5);
  check_close(filled, reference(tx::make_dim(2), [](const auto&) { return 2.5; }));
}

BOOST_AUTO_TEST_CASE(a_slice_of_an_array_is_an_lvalue) {
  auto rng = tx::testing::make_rng(105);
  const auto a = random_array<float>(tx::make_dim(4, 3), rng);
  auto c = tx::testing::zeros_on_test_place<float>(tx::make_dim(4, 6));
  const auto ha = on_host(a);
  tx::slice(c, 1, 2, 5) = a + 1.0f;
  check_close(c, reference(c.dims(), [&](const auto& i) {
                return i[1] >= 2 && i[1] < 5 ? ha(i[0], i[1] - 2) + 1.0 : 0.0;
              }));
  tx::slice(c, 1, 2, 5) -= a;
  tx::slice(c, 1, 0, 1) = 7.0f;
  // An array on the right is copied into the view, not aliased by it.
  tx::slice(c, 1, 5, 6) = tx::slice(a, 1, 0, 1);
  check_close(c, reference(c.dims(), [&](const auto& i) {
                if (i[1] == 0) return 7.0;
                if (i[1] == 5) return static_cast<double>(ha(i[0], 0));
                return i[1] >= 2 && i[1] < 5 ? 1.0 : 0.0;
              }));
  // Views of views: a slice of a slice, a slice of a transposed array.
  tx::slice(tx::slice(c, 0, 1, 3), 1, 0, 2) *= 2.0f;
  tx::slice(tx::transpose(c), 0, 3, 4) = 9.0f;
  const auto hc = on_host(c);
  BOOST_TEST(hc(1, 0) == 14.0f);
  BOOST_TEST(hc(3, 0) == 7.0f);
  BOOST_TEST(hc(2, 3) == 9.0f);
}

BOOST_AUTO_TEST_CASE(reading_the_destination_through_a_shifted_slice_goes_through_a_temporary) {
  auto rng = tx::testing::make_rng(106);
  auto a = random_array<double>(tx::make_dim(5, 8), rng);
  const auto old = on_host(a);
  const auto passes = passes_of([&] { tx::slice(a, 1, 0, 6) = tx::slice(a, 1, 2, 8) * 2.0; });
  BOOST_TEST(passes == 2u);
  check_close(a, reference(a.dims(), [&](const auto& i) {
                return i[1] < 6 ? 2.0 * old(i[0], i[1] + 2) : old[i];
              }));
  const auto shifted_old = on_host(a);
  a = tx::slice(tx::concat<1>(a, a), 1, 3, 11);
  check_close(
      a, reference(a.dims(), [&](const auto& i) { return shifted_old(i[0], (i[1] + 3) % 8); }));
}

BOOST_AUTO_TEST_CASE(disjoint_slices_of_the_destination_need_no_temporary) {
  auto rng = tx::testing::make_rng(107);
  auto a = random_array<float>(tx::make_dim(6, 4), rng);
  const auto old = on_host(a);
  const auto passes = passes_of([&] { tx::slice(a, 0, 0, 3) = tx::slice(a + 1.0f, 0, 3, 6); });
  BOOST_TEST(passes == 1u);
  check_close(a, reference(a.dims(), [&](const auto& i) {
                return i[0] < 3 ? old(i[0] + 3, i[1]) + 1.0 : old[i];
              }));
}

BOOST_AUTO_TEST_CASE(views_of_arrays_are_iterated_through_the_arrays_they_view) {
  // tx::transpose(a) and tx::slice(a, ...) are views of a's buffer: make_view takes them as it
  // takes the strided Array they view, in their own row-major order.
  tx::Array<float, 3> a(tx::make_dim(2, 3, 4));
  for (tx::index_t i = 0; i < a.numel(); ++i) a.data()[i] = static_cast<float>(i);
  std::vector<float> transposed;
  for (const float v : tx::make_view(tx::transpose(a))) transposed.push_back(v);
  BOOST_TEST_REQUIRE(transposed.size() == 24u);
  // transpose(a)(i, j, k) = a(k, j, i) = 12 k + 4 j + i.
  for (tx::index_t i = 0; i < 4; ++i) {
    for (tx::index_t j = 0; j < 3; ++j) {
      for (tx::index_t k = 0; k < 2; ++k) {
        BOOST_TEST(transposed[static_cast<std::size_t>(6 * i + 2 * j + k)] ==
                   static_cast<float>(12 * k + 4 * j + i));
      }
    }
  }
  std::vector<float> sliced;
  for (const float v : tx::make_view(tx::slice(a, 2, 1, 3))) sliced.push_back(v);
  BOOST_TEST_REQUIRE(sliced.size() == 12u);
  // slice(a, 2, 1, 3)(i, j, k) = a(i, j, k + 1).
  for (std::size_t n = 0; n < sliced.size(); ++n) {
    BOOST_TEST(sliced[n] == static_cast<float>(4 * (n / 2) + 1 + n % 2));
  }
}

BOOST_AUTO_TEST_CASE(empty_slices_and_empty_arrays_do_no_work) {
  const auto a = tx::testing::zeros_on_test_place<float>(tx::make_dim(3, 0, 2));
  tx::Array<float, 3> c;
  BOOST_TEST(passes_of([&] { c = tx::slice(a, 2, 1, 2) * 2.0f; }) == 0u);
  BOOST_TEST(c.dims() == tx::make_dim(3, 0, 1));
  tx::Array<float, 3> d;
  BOOST_TEST(passes_of([&] { d = tx::slice(a, 0, 3, 3); }) == 0u);
  BOOST_TEST(d.dims() == tx::make_dim(0, 0, 2));
}

BOOST_AUTO_TEST_CASE(out_of_range_slices_throw_index_errors_naming_the_values) {
  const tx::Array<float, 2> a(tx::make_dim(2, 4), tx::testing::test_place());
  using tx::testing::message_is;
  BOOST_CHECK_EXCEPTION(
      tx::slice(a, 1, 3, 2), tx::IndexError,
      message_is("slice [3, 2) along axis 1 is out of range for extent 4 of shape (2, 4)"));
  BOOST_CHECK_EXCEPTION(
      tx::slice(a, 1, 1, 5), tx::IndexError,
      message_is("slice [1, 5) along axis 1 is out of range for extent 4 of shape (2, 4)"));
  BOOST_CHECK_EXCEPTION(
      tx::slice(a * 2.0f, 0, -1, 1), tx::IndexError,
      message_is("slice [-1, 1) along axis 0 is out of range for extent 2 of shape (2, 4)"));
  BOOST_CHECK_EXCEPTION(tx::slice(a, 2, 0, 1), tx::IndexError,
                        message_is("slice axis 2 is out of range for shape (2, 4) of rank 2"));
  BOOST_CHECK_EXCEPTION(tx::slice(a, -1, 0, 1), tx::IndexError,
                        message_is("slice axis -1 is out of range for shape (2, 4) of rank 2"));
}

BOOST_AUTO_TEST_SUITE_END()
