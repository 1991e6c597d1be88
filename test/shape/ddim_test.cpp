// Tests of DDim, the run-time-rank extent: making one for every rank 1 to 9, reading it back
// through its functions and through boost::variant, converting to Dim<N>, and every error path.
#include "tensorx/shape/ddim.h"

#include <cstdint>
#include <numeric>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <boost/variant.hpp>

#include "support/errors.h"

namespace tx = tensorx;

namespace {

std::string to_string(const tx::DDim& dd) {
  std::ostringstream out;
  out << dd;
  return out.str();
}

/// Extents 2, 3, ..., rank + 1: distinct values, so a mix-up of positions shows.
std::vector<tx::index_t> sample_extents(int rank) {
  std::vector<tx::index_t> values(static_cast<std::size_t>(rank));
  std::iota(values.begin(), values.end(), tx::index_t{2});
  return values;
}

/// The same extents as a Dim<N>, built element by element.
template <int N>
tx::Dim<N> sample_dim() {
  tx::Dim<N> d;
  for (int i = 0; i < N; ++i) d[i] = i + 2;
  return d;
}

// A Dim argument picks Dim's product, a DDim argument DDim's: the overloads do not compete.
static_assert(std::is_same_v<decltype(tx::product(tx::make_dim(2, 3))), tx::index_t>,
              "product of a Dim is an index_t.");
static_assert(tx::product(tx::make_dim(2, 3)) == 6,
              "product of a Dim is the constexpr Dim overload, not DDim's.");
static_assert(std::is_convertible_v<tx::Dim<1>, tx::DDim> &&
                  std::is_convertible_v<tx::Dim<9>, tx::DDim>,
              "every Dim<1..9> converts implicitly to a DDim.");
static_assert(!std::is_convertible_v<tx::DDim, tx::Dim<2>> &&
                  std::is_constructible_v<tx::Dim<2>, tx::DDim>,
              "a DDim converts to a Dim only explicitly.");
static_assert(
    std::is_base_of_v<boost::variant<tx::Dim<1>, tx::Dim<2>, tx::Dim<3>, tx::Dim<4>, tx::Dim<5>,
                                     tx::Dim<6>, tx::Dim<7>, tx::Dim<8>, tx::Dim<9>>,
                      tx::DDim>,
    "a DDim is a boost::variant of Dim<1>..Dim<9>.");

/// Checks every DDim function on a DDim of rank N, made from a vector and from a Dim<N>.
template <int N>
void check_rank() {
  BOOST_TEST_CONTEXT("rank " << N) {
    const std::vector<tx::index_t> extents = sample_extents(N);
    const tx::Dim<N> dim = sample_dim<N>();
    const tx::DDim from_vector = tx::make_ddim(extents);
    const tx::DDim from_dim = dim;

    BOOST_TEST(tx::arity(from_vector) == N);
    BOOST_TEST(tx::arity(from_dim) == N);
    BOOST_TEST(from_vector.which() == N - 1);
    BOOST_TEST((from_vector == from_dim));
    BOOST_TEST((from_vector == dim));

    tx::index_t expected_product = 1;
    for (tx::index_t e : extents) expected_product *= e;
    BOOST_TEST(tx::product(from_vector) == expected_product);

    for (int i = 0; i < N; ++i) BOOST_TEST(from_vector[i] == extents[static_cast<std::size_t>(i)]);
    BOOST_TEST(tx::vectorize(from_vector) == extents, boost::test_tools::per_element());

    const tx::Dim<N>* held = boost::get<tx::Dim<N>>(&from_vector);
    BOOST_TEST_REQUIRE(held != nullptr);
    BOOST_TEST((*held == dim));
    BOOST_TEST((tx::to_dim<N>(from_vector) == dim));
    BOOST_TEST((static_cast<tx::Dim<N>>(from_vector) == dim));

    // Strides checked against the row-major rule computed here.
    std::vector<tx::index_t> expected_strides(static_cast<std::size_t>(N));
    tx::index_t stride = 1;
    for (int i = N - 1; i >= 0; --i) {
      expected_strides[static_cast<std::size_t>(i)] = stride;
      stride *= extents[static_cast<std::size_t>(i)];
    }
    const tx::DDim strides = tx::contiguous_strides(from_vector);
    BOOST_TEST(tx::arity(strides) == N);
    BOOST_TEST(tx::vectorize(strides) == expected_strides, boost::test_tools::per_element());

    std::string expected_text = "(";
    for (int i = 0; i < N; ++i) {
      expected_text += (i ? ", " : "") + std::to_string(extents[static_cast<std::size_t>(i)]);
    }
    expected_text += ")";
    BOOST_TEST(to_string(from_vector) == expected_text);
  }
}

template <int... Ranks>
void check_ranks(std::integer_sequence<int, Ranks...>) {
  (check_rank<Ranks + 1>(), ...);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ddim)

BOOST_AUTO_TEST_CASE(design_example) {
  const tx::DDim dd = tx::make_ddim({2, 3});
  BOOST_TEST(tx::arity(dd) == 2);
  BOOST_TEST(tx::product(dd) == 6);
  BOOST_TEST(dd[1] == 3);
  const std::vector<std::int64_t> values = tx::vectorize(dd);
  BOOST_TEST(values == std::vector<std::int64_t>({2, 3}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(every_function_works_for_every_rank_from_1_to_9) {
  check_ranks(std::make_integer_sequence<int, tx::kMaxRank>());
}

BOOST_AUTO_TEST_CASE(initializer_list_and_vector_give_the_same_ddim) {
  const std::vector<tx::index_t> extents = {4, 0, 1, 7};
  BOOST_TEST((tx::make_ddim({4, 0, 1, 7}) == tx::make_ddim(extents)));
  BOOST_TEST((tx::make_ddim({4, 0, 1, 7}) == tx::make_dim(4, 0, 1, 7)));
  BOOST_TEST(tx::product(tx::make_ddim({4, 0, 1, 7})) == 0);
  BOOST_TEST(tx::arity(tx::make_ddim({1, 2, 3, 4, 5, 6, 7, 8, 9})) == 9);
  BOOST_TEST(tx::product(tx::make_ddim({1, 2, 3, 4, 5, 6, 7, 8, 9})) == 362880);
}

BOOST_AUTO_TEST_CASE(a_dim_converts_implicitly) {
  tx::DDim dd = tx::make_dim(5, 6, 7);
  BOOST_TEST(tx::arity(dd) == 3);
  BOOST_TEST(tx::vectorize(dd) == std::vector<tx::index_t>({5, 6, 7}),
             boost::test_tools::per_element());
  dd = tx::make_dim(8);
  BOOST_TEST(tx::arity(dd) == 1);
  BOOST_TEST(dd[0] == 8);
}

BOOST_AUTO_TEST_CASE(default_ddim_is_the_empty_rank_1_extent) {
  const tx::DDim dd;
  BOOST_TEST(tx::arity(dd) == 1);
  BOOST_TEST(tx::product(dd) == 0);
  BOOST_TEST(to_string(dd) == "(0)");
}

BOOST_AUTO_TEST_CASE(copies_and_moves_keep_rank_and_extents_and_stay_independent) {
  // DDim's copy, move and assignment are compiled in libtensorx; a copy is a value of its own.
  static_assert(std::is_nothrow_move_constructible_v<tx::DDim>);
  static_assert(std::is_nothrow_move_assignable_v<tx::DDim>);
  const tx::DDim d3 = tx::make_ddim({2, 3, 4});
  tx::DDim copy = d3;
  copy[0] = 7;
  BOOST_TEST((d3 == tx::make_dim(2, 3, 4)));
  BOOST_TEST((copy == tx::make_dim(7, 3, 4)));
  tx::DDim moved = std::move(copy);
  BOOST_TEST((moved == tx::make_dim(7, 3, 4)));
  tx::DDim assigned = tx::make_ddim({1, 1, 1, 1, 1, 1, 1, 1, 9});
  assigned = d3;
  BOOST_TEST((assigned == tx::make_dim(2, 3, 4)));
  assigned = tx::make_ddim({5});
  BOOST_TEST((assigned == tx::make_dim(5)));
}

BOOST_AUTO_TEST_CASE(indexing_writes_through) {
  tx::DDim dd = tx::make_ddim({2, 3});
  dd[1] = 5;
  BOOST_TEST(dd[1] == 5);
  BOOST_TEST((dd == tx::make_dim(2, 5)));
  BOOST_TEST(tx::product(dd) == 10);
  tx::DDim d9 = tx::make_ddim({1, 1, 1, 1, 1, 1, 1, 1, 1});
  d9[8] = 4;
  d9[0] = 3;
  BOOST_TEST((d9 == tx::make_dim(3, 1, 1, 1, 1, 1, 1, 1, 4)));
}

BOOST_AUTO_TEST_CASE(index_out_of_range_throws_index_error_naming_index_and_rank) {
  tx::DDim dd = tx::make_ddim({2, 3});
  const tx::DDim& c = dd;
  BOOST_CHECK_EXCEPTION(dd[2], tx::IndexError,
                        tx::testing::message_has({"index 2", "rank 2", "(2, 3)"}));
  BOOST_CHECK_EXCEPTION(dd[-1], tx::IndexError, tx::testing::message_has({"index -1", "rank 2"}));
  BOOST_CHECK_EXCEPTION(c[2], tx::IndexError, tx::testing::message_has({"index 2", "rank 2"}));
  BOOST_CHECK_EXCEPTION(c[-3], tx::IndexError, tx::testing::message_has({"index -3", "rank 2"}));
  const tx::DDim d9 = tx::make_ddim({1, 2, 3, 4, 5, 6, 7, 8, 9});
  BOOST_CHECK_EXCEPTION(d9[9], tx::IndexError, tx::testing::message_has({"index 9", "rank 9"}));
  BOOST_CHECK_NO_THROW(d9[8]);
}

BOOST_AUTO_TEST_CASE(rank_outside_1_to_9_throws_shape_error_naming_the_rank) {
  BOOST_CHECK_EXCEPTION(tx::make_ddim(std::vector<tx::index_t>{}), tx::ShapeError,
                        tx::testing::message_has({"rank 0"}));
  BOOST_CHECK_EXCEPTION(tx::make_ddim(std::vector<tx::index_t>(10, 1)), tx::ShapeError,
                        tx::testing::message_has({"rank 10"}));
  BOOST_CHECK_EXCEPTION(tx::make_ddim({}), tx::ShapeError, tx::testing::message_has({"rank 0"}));
  BOOST_CHECK_EXCEPTION(tx::make_ddim({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), tx::ShapeError,
                        tx::testing::message_has({"rank 11"}));
  BOOST_CHECK_THROW(tx::make_ddim(std::vector<tx::index_t>(10, 1)), tx::Error);
}

BOOST_AUTO_TEST_CASE(to_dim_with_the_wrong_rank_throws_shape_error_naming_both_ranks) {
  const tx::DDim dd = tx::make_ddim({2, 3});
  BOOST_CHECK_EXCEPTION(tx::to_dim<3>(dd), tx::ShapeError,
                        tx::testing::message_has({"rank 2", "Dim<3>", "(2, 3)"}));
  BOOST_CHECK_EXCEPTION(tx::to_dim<1>(dd), tx::ShapeError,
                        tx::testing::message_has({"rank 2", "Dim<1>"}));
  BOOST_CHECK_EXCEPTION(static_cast<tx::Dim<9>>(dd), tx::ShapeError,
                        tx::testing::message_has({"rank 2", "Dim<9>"}));
  BOOST_CHECK_NO_THROW(tx::to_dim<2>(dd));
}

BOOST_AUTO_TEST_CASE(equality_compares_rank_then_extents) {
  const tx::DDim a = tx::make_ddim({2, 3});
  BOOST_TEST((a == tx::make_ddim({2, 3})));
  BOOST_TEST(!(a != tx::make_ddim({2, 3})));
  BOOST_TEST((a != tx::make_ddim({2, 4})));
  BOOST_TEST((a != tx::make_ddim({3, 3})));
  // Different ranks are unequal, even when the leading extents agree.
  BOOST_TEST((a != tx::make_ddim({2, 3, 1})));
  BOOST_TEST(!(a == tx::make_ddim({2})));
  // Against a Dim, on either side.
  BOOST_TEST((a == tx::make_dim(2, 3)));
  BOOST_TEST((tx::make_dim(2, 3) == a));
  BOOST_TEST((a != tx::make_dim(2, 3, 1)));
  BOOST_TEST((tx::make_dim(2, 4) != a));
  BOOST_TEST(!(a != tx::make_dim(2, 3)));
  BOOST_TEST(!(tx::make_dim(2, 3) != a));
}

BOOST_AUTO_TEST_CASE(product_picks_the_overload_of_its_argument) {
  const tx::Dim<3> d(2, 3, 4);
  const tx::DDim dd = d;
  BOOST_TEST(tx::product(d) == 24);
  BOOST_TEST(tx::product(dd) == 24);
  BOOST_TEST(tx::product(tx::Dim<0>()) == 1);
  BOOST_TEST((tx::contiguous_strides(d) == tx::make_dim(12, 4, 1)));
  static_assert(std::is_same_v<decltype(tx::contiguous_strides(d)), tx::Dim<3>>,
                "contiguous_strides of a Dim is a Dim.");
  static_assert(std::is_same_v<decltype(tx::contiguous_strides(dd)), tx::DDim>,
                "contiguous_strides of a DDim is a DDim.");
}

BOOST_AUTO_TEST_CASE(contiguous_strides_handles_zero_and_one_extents) {
  BOOST_TEST((tx::contiguous_strides(tx::make_ddim({3, 0, 2})) == tx::make_dim(0, 2, 1)));
  BOOST_TEST((tx::contiguous_strides(tx::make_ddim({1, 5, 1})) == tx::make_dim(5, 1, 1)));
  BOOST_TEST((tx::contiguous_strides(tx::make_ddim({7})) == tx::make_dim(1)));
}

BOOST_AUTO_TEST_CASE(boost_variant_tools_work_on_a_ddim) {
  tx::DDim dd = tx::make_ddim({4, 5, 6});
  BOOST_TEST(boost::get<tx::Dim<2>>(&dd) == nullptr);
  boost::get<tx::Dim<3>>(dd)[0] = 40;
  BOOST_TEST(dd[0] == 40);
  BOOST_CHECK_THROW(boost::get<tx::Dim<2>>(dd), boost::bad_get);
  const tx::index_t last = boost::apply_visitor(
      [](const auto& d) { return d[std::decay_t<decltype(d)>::dimensions - 1]; }, dd);
  BOOST_TEST(last == 6);
  // A copy into the plain variant goes through a reference to the base.
  const tx::DDim::Base base = static_cast<const tx::DDim::Base&>(dd);
  BOOST_TEST(base.which() == 2);
}

BOOST_AUTO_TEST_CASE(printing_matches_dim) {
  BOOST_TEST(to_string(tx::make_ddim({2, 3})) == "(2, 3)");
  BOOST_TEST(to_string(tx::make_ddim({7})) == "(7)");
  BOOST_TEST(to_string(tx::make_ddim({1, 2, 3, 4, 5, 6, 7, 8, 9})) ==
             "(1, 2, 3, 4, 5, 6, 7, 8, 9)");
  std::ostringstream dim_text;
  dim_text << tx::make_dim(-1, 0, 12);
  BOOST_TEST(to_string(tx::make_dim(-1, 0, 12)) == dim_text.str());
}

BOOST_AUTO_TEST_CASE(copies_are_independent_values) {
  tx::DDim a = tx::make_ddim({2, 3});
  tx::DDim b = a;
  b[0] = 9;
  BOOST_TEST(a[0] == 2);
  BOOST_TEST(b[0] == 9);
  tx::DDim c = std::move(b);
  BOOST_TEST((c == tx::make_dim(9, 3)));
}

BOOST_AUTO_TEST_SUITE_END()
