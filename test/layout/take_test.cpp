// tx::take(table, indices): a gather of table rows in one pass, for tables of rank 1 to 4 and
// indices of rank 0 to 3 (int32 and int64), strided, broadcast and under slices; the bounds
// check that runs before any work, the clamp that keeps an unchecked plan in bounds, and aliasing.
#include <cstdint>

#include <boost/test/unit_test.hpp>

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

/// Passes of an assignment with one gather: on a GPU its indices are checked by a kernel first.
#if defined(TENSORX_TEST_ON_GPU)
constexpr std::uint64_t kCheckPasses = 1;
#else
constexpr std::uint64_t kCheckPasses = 0;
#endif

/// Random indices in [0, rows) of extent `dims`, on the test place.
template <class I, int K>
tx::Array<I, K> random_indices(const tx::Dim<K>& dims, index_t rows, std::mt19937_64& rng) {
  tx::Array<I, K> host(dims);
  std::uniform_int_distribution<index_t> row(0, rows - 1);
  for (I& index : tx::make_view(host)) index = static_cast<I>(row(rng));
  return tx::testing::on_test_place(host);
}

/// The reference gather: out[i, j] = table[indices[i], j].
template <class T, int R, class I, int K>
tx::Array<double, K + R - 1> gathered(const tx::Array<T, R>& table,
                                      const tx::Array<I, K>& indices) {
  const auto dims = tx::detail::join(indices.dims(), tx::detail::trailing<R - 1>(table.dims()));
  return reference(dims, [&](const auto& i) {
    const auto row = static_cast<index_t>(indices[tx::detail::leading<K>(i)]);
    return static_cast<double>(
        table[tx::detail::join(tx::make_dim(row), tx::detail::trailing<R - 1>(i))]);
  });
}

/// A table of rank R and indices of rank K with random extents, dense and strided.
template <int R, int K, class I>
void check_take(std::mt19937_64& rng) {
  for (int trial = 0; trial < 4; ++trial) {
    auto table_dims = tx::testing::random_extents<R>(rng, 6);
    table_dims[0] = std::max<index_t>(table_dims[0], 1);
    const auto table = tx::testing::layout_variant(random_array<double>(table_dims, rng), trial);
    const auto indices = tx::testing::layout_variant(
        random_indices<I>(tx::testing::random_extents<K>(rng, 5), table_dims[0], rng), trial + 1);
    BOOST_TEST_CONTEXT("table " << table_dims << ", indices " << indices.dims()) {
      tx::Array<double, K + R - 1> c(tx::take(table, indices).dims(), table.place());
      const auto passes = passes_of([&] { c = tx::take(table, indices); });
      BOOST_TEST(passes == tx::testing::one_pass_unless_empty(c.dims()) * (1 + kCheckPasses));
      check_close(c, gathered(on_host(table), on_host(indices)));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(layout_take)

BOOST_AUTO_TEST_CASE(rows_of_tables_of_rank_1_to_4_by_indices_of_rank_0_to_3) {
  auto rng = tx::testing::make_rng(301);
  check_take<1, 1, std::int32_t>(rng);
  check_take<1, 3, std::int64_t>(rng);
  check_take<2, 0, std::int32_t>(rng);
  check_take<2, 1, std::int64_t>(rng);
  check_take<2, 2, std::int32_t>(rng);
  check_take<3, 1, std::int32_t>(rng);
  check_take<3, 2, std::int64_t>(rng);
  check_take<4, 1, std::int64_t>(rng);
}

BOOST_AUTO_TEST_CASE(a_scalar_index_into_a_vector_is_a_rank_0_result) {
  auto rng = tx::testing::make_rng(310);
  const auto vector = random_array<double>(tx::make_dim(9), rng);
  const auto index = random_indices<std::int32_t>(tx::Dim<0>(), 9, rng);
  tx::Array<double, 0> s(tx::Dim<0>(), vector.place());
  s = tx::take(vector, index) * 3.0;
  BOOST_TEST(s.item() == 3.0 * on_host(vector)(index.item()));
}

BOOST_AUTO_TEST_CASE(an_embedding_lookup_of_long_rows_in_one_pass) {
  // Rows long enough for SIMD batches with a tail; float16, float and int64 tables.
  auto rng = tx::testing::make_rng(302);
  const auto indices = random_indices<std::int32_t>(tx::make_dim(4, 7), 50, rng);
  const auto hi = on_host(indices);
  const auto f32 = random_array<float>(tx::make_dim(50, 37), rng);
  tx::Array<float, 3> c = tx::take(f32, indices);
  check_close(c, gathered(on_host(f32), hi));
  const auto f16 = random_array<tx::float16>(tx::make_dim(50, 37), rng);
  tx::Array<tx::float16, 3> h = tx::take(f16, indices);
  check_close(h, gathered(on_host(f16), hi));
  const auto i64 = random_array<std::int64_t>(tx::make_dim(50, 3), rng, -1e6, 1e6);
  tx::Array<std::int64_t, 3> n = tx::take(i64, indices);
  check_close(n, gathered(on_host(i64), hi));
}

BOOST_AUTO_TEST_CASE(the_table_may_be_an_expression_computed_only_where_gathered) {
  auto rng = tx::testing::make_rng(303);
  const auto table = random_array<double>(tx::make_dim(9, 5), rng);
  const auto bias = random_array<double>(tx::make_dim(5), rng);
  const auto indices = random_indices<std::int64_t>(tx::make_dim(12), 9, rng);
  const auto ht = on_host(table);
  const auto hb = on_host(bias);
  const auto hi = on_host(indices);
  tx::Array<double, 2> c;
  const auto passes = passes_of([&] { c = tx::take(tx::exp(table) + bias, indices) * 2.0; });
  BOOST_TEST(passes == 1 + kCheckPasses);
  check_close(c, reference(c.dims(), [&](const auto& i) {
                return 2.0 * (std::exp(ht(hi(i[0]), i[1])) + hb(i[1]));
              }));
}

BOOST_AUTO_TEST_CASE(a_gather_broadcasts_inside_a_larger_expression) {
  auto rng = tx::testing::make_rng(304);
  const auto table = random_array<float>(tx::make_dim(6, 1), rng);
  const auto indices = random_indices<std::int32_t>(tx::make_dim(4), 6, rng);
  const auto m = random_array<float>(tx::make_dim(3, 4, 5), rng);
  const auto ht = on_host(table);
  const auto hm = on_host(m);
  const auto hi = on_host(indices);
  // take(...) is (4, 1): stretched along the last axis and right-aligned under (3, 4, 5).
  tx::Array<float, 3> c = m * tx::take(table, indices);
  check_close(c, reference(c.dims(), [&](const auto& i) {
                return static_cast<double>(hm[i]) * ht(hi(i[1]), 0);
              }));
}

BOOST_AUTO_TEST_CASE(slices_of_a_gather_cut_its_indices_or_its_table) {
  auto rng = tx::testing::make_rng(305);
  const auto table = random_array<float>(tx::make_dim(7, 6), rng);
  const auto indices = random_indices<std::int64_t>(tx::make_dim(5), 7, rng);
  const auto expected = gathered(on_host(table), on_host(indices));
  tx::Array<float, 2> c;
  BOOST_TEST(passes_of([&] { c = tx::slice(tx::take(table, indices), 0, 1, 4); }) ==
             1 + kCheckPasses);
  check_close(c, reference(c.dims(), [&](const auto& i) { return expected(i[0] + 1, i[1]); }));
  const tx::Array<float, 2> d = tx::slice(tx::take(table * 2.0f, indices), 1, 2, 5);
  check_close(d,
              reference(d.dims(), [&](const auto& i) { return 2.0 * expected(i[0], i[1] + 2); }));
}

BOOST_AUTO_TEST_CASE(index_expressions_are_materialised_then_checked) {
  auto rng = tx::testing::make_rng(306);
  const auto table = random_array<double>(tx::make_dim(8, 3), rng);
  const auto indices = random_indices<std::int32_t>(tx::make_dim(6), 7, rng);
  tx::Array<double, 2> c;
  BOOST_TEST(passes_of([&] { c = tx::take(table, indices + 1); }) == 2 + kCheckPasses);
  const tx::Array<std::int32_t, 1> next = indices + 1;
  check_close(c, gathered(on_host(table), on_host(next)));
  BOOST_CHECK_THROW(c = tx::take(table, indices + 8), tx::IndexError);
}

BOOST_AUTO_TEST_CASE(empty_indices_and_empty_rows_do_no_work) {
  auto rng = tx::testing::make_rng(307);
  const auto table = random_array<float>(tx::make_dim(4, 3), rng);
  const auto none = tx::testing::on_test_place(tx::Array<std::int64_t, 2>(tx::make_dim(2, 0)));
  tx::Array<float, 3> c;
  BOOST_TEST(passes_of([&] { c = tx::take(table, none); }) == 0u);
  BOOST_TEST(c.dims() == tx::make_dim(2, 0, 3));
  const auto thin = random_array<float>(tx::make_dim(4, 0), rng);
  const auto indices = random_indices<std::int32_t>(tx::make_dim(3), 4, rng);
  tx::Array<float, 2> d;
  BOOST_TEST(passes_of([&] { d = tx::take(thin, indices); }) == 0u);
  BOOST_TEST(d.dims() == tx::make_dim(3, 0));
}

BOOST_AUTO_TEST_CASE(gathering_into_the_table_itself_goes_through_a_temporary) {
  auto rng = tx::testing::make_rng(308);
  auto table = random_array<float>(tx::make_dim(6, 4), rng);
  const auto old = on_host(table);
  tx::Array<std::int64_t, 1> host(tx::make_dim(6));
  const std::int64_t order[] = {5, 0, 0, 2, 1, 3};
  for (int k = 0; k < 6; ++k) host(k) = order[k];
  const auto indices = tx::testing::on_test_place(host);
  const auto passes = passes_of([&] { table = tx::take(table, indices); });
  BOOST_TEST(passes == 2 + kCheckPasses);
  check_close(table,
              reference(table.dims(), [&](const auto& i) { return old(order[i[0]], i[1]); }));
}

BOOST_AUTO_TEST_CASE(an_out_of_range_index_is_an_index_error_before_anything_is_written) {
  const auto table = tx::testing::ones_on_test_place<float>(tx::make_dim(5, 3));
  tx::Array<std::int32_t, 2> host(tx::make_dim(2, 3));
  tx::fill(host, 1);
  host(1, 2) = 5;
  auto c = tx::testing::zeros_on_test_place<float>(tx::make_dim(2, 3, 3));
  BOOST_CHECK_EXCEPTION(
      c = tx::take(table, tx::testing::on_test_place(host)), tx::IndexError,
      tx::testing::message_is(
          "tx::take: index 5 at position (1, 2) is out of range for a table of 5 rows"));
  host(1, 2) = 0;
  host(0, 1) = -3;
  BOOST_CHECK_EXCEPTION(
      c += tx::take(table, tx::testing::on_test_place(host)), tx::IndexError,
      tx::testing::message_is(
          "tx::take: index -3 at position (0, 1) is out of range for a table of 5 rows"));
  check_close(c, reference(c.dims(), [](const auto&) { return 0.0; }));
}

BOOST_AUTO_TEST_CASE(a_plan_built_from_unchecked_indices_clamps_them_into_the_table) {
  // The engine is handed the plan directly, past prepare() and its check: nothing is read out of
  // bounds (the sanitizers and compute-sanitizer would say), rows are clamped.
  auto rng = tx::testing::make_rng(309);
  const auto table = random_array<float>(tx::make_dim(4, 3), rng);
  tx::Array<std::int64_t, 1> host(tx::make_dim(3));
  host(0) = -7;
  host(1) = 2;
  host(2) = 1000;
  const auto indices = tx::testing::on_test_place(host);
  tx::Array<float, 2> c(tx::make_dim(3, 3), table.place());
  const tx::StreamHandle stream =
      tx::is_gpu_place(c.place()) ? tx::detail::ordered_stream(c, table, indices) : nullptr;
  tx::detail::run<tx::saver::write, tx::detail::ThisTranslationUnit>(
      c, tx::make_plan(tx::take(table, indices), c.dims()), stream);
  const std::int64_t clamped[] = {0, 2, 3};
  const auto ht = on_host(table);
  check_close(c, reference(c.dims(), [&](const auto& i) { return ht(clamped[i[0]], i[1]); }));
}

BOOST_AUTO_TEST_SUITE_END()
