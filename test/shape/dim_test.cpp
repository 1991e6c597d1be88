// Tests of Dim<N>: construction, element access, product, strides, linearize/delinearize, contains
// and printing, for ranks 0 to 9, each against values written out by hand or an independent loop.
#include "tensorx/shape/dim.h"

#include <array>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "support/errors.h"

namespace tx = tensorx;

namespace {

template <int N>
std::string to_string(const tx::Dim<N>& d) {
  std::ostringstream out;
  out << d;
  return out.str();
}

/// The elements of a Dim read one by one through the checked operator[].
template <int N>
std::vector<tx::index_t> elements(const tx::Dim<N>& d) {
  std::vector<tx::index_t> values;
  for (int i = 0; i < N; ++i) values.push_back(d[i]);
  return values;
}

// Dims are kernel arguments and parts of plans copied to the device by value.
template <int... Ranks>
constexpr bool all_trivially_copyable(std::integer_sequence<int, Ranks...>) {
  return (std::is_trivially_copyable_v<tx::Dim<Ranks>> && ...);
}
static_assert(all_trivially_copyable(std::make_integer_sequence<int, tx::kMaxRank + 1>()),
              "Dim<0>..Dim<9> must be trivially copyable.");
static_assert(tx::Dim<0>::dimensions == 0 && tx::Dim<4>::dimensions == 4 &&
                  tx::Dim<9>::dimensions == 9,
              "dimensions is the rank.");

// Shape arithmetic is usable in constant expressions.
static_assert(tx::product(tx::make_dim(2, 3, 4)) == 24, "product is constexpr.");
static_assert(tx::contiguous_strides(tx::make_dim(2, 3, 4)) == tx::make_dim(12, 4, 1),
              "contiguous_strides is constexpr.");
static_assert(tx::linearize(tx::make_dim(1, 2), tx::make_dim(3, 1)) == 5,
              "linearize is constexpr.");
static_assert(tx::delinearize(5, tx::make_dim(2, 3)) == tx::make_dim(1, 2),
              "delinearize is constexpr.");
static_assert(tx::contains(tx::make_dim(2, 3), tx::make_dim(1, 2)), "contains is constexpr.");
static_assert(tx::get<1>(tx::make_dim(7, 8, 9)) == 8, "get is constexpr.");

// Only integers make a Dim: a floating-point extent is rejected, not truncated.
static_assert(std::is_constructible_v<tx::Dim<2>, int, long>, "integers make a Dim.");
static_assert(!std::is_constructible_v<tx::Dim<2>, double, int>, "a double first is rejected.");
static_assert(!std::is_constructible_v<tx::Dim<2>, int, double>, "a double later is rejected.");
static_assert(!std::is_constructible_v<tx::Dim<2>, int>, "one value per dimension.");
static_assert(!std::is_convertible_v<int, tx::Dim<1>>, "an integer is not implicitly a Dim.");

}  // namespace

BOOST_AUTO_TEST_SUITE(dim)

BOOST_AUTO_TEST_CASE(default_construction_is_all_zeros) {
  BOOST_TEST(elements(tx::Dim<1>()) == std::vector<tx::index_t>({0}),
             boost::test_tools::per_element());
  BOOST_TEST(elements(tx::Dim<4>()) == std::vector<tx::index_t>(4, 0),
             boost::test_tools::per_element());
  BOOST_TEST(elements(tx::Dim<9>()) == std::vector<tx::index_t>(9, 0),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(construction_keeps_the_values_outermost_first) {
  const tx::Dim<3> d(2, 3, 4);
  BOOST_TEST(d.head == 2);
  BOOST_TEST(d.tail.head == 3);
  BOOST_TEST(d.tail.tail.head == 4);
  BOOST_TEST(elements(d) == std::vector<tx::index_t>({2, 3, 4}), boost::test_tools::per_element());

  // Mixed integer types, including values beyond 32 bits.
  const tx::index_t big = tx::index_t{1} << 40;
  const tx::Dim<3> mixed(static_cast<short>(1), 2u, big);
  BOOST_TEST(elements(mixed) == std::vector<tx::index_t>({1, 2, big}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(make_dim_deduces_the_rank) {
  static_assert(std::is_same_v<decltype(tx::make_dim()), tx::Dim<0>>, "no values, rank 0");
  static_assert(std::is_same_v<decltype(tx::make_dim(3, 3)), tx::Dim<2>>, "two values, rank 2");
  const auto d9 = tx::make_dim(1, 2, 3, 4, 5, 6, 7, 8, 9);
  static_assert(std::is_same_v<decltype(d9), const tx::Dim<9>>, "nine values, rank 9");
  BOOST_TEST(elements(d9) == std::vector<tx::index_t>({1, 2, 3, 4, 5, 6, 7, 8, 9}),
             boost::test_tools::per_element());
  BOOST_TEST(elements(tx::make_dim(7)) == std::vector<tx::index_t>({7}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(checked_access_reads_and_writes) {
  tx::Dim<4> d(5, 6, 7, 8);
  BOOST_TEST(d[0] == 5);
  BOOST_TEST(d[3] == 8);
  d[2] = 70;
  d[0] = -1;
  BOOST_TEST(elements(d) == std::vector<tx::index_t>({-1, 6, 70, 8}),
             boost::test_tools::per_element());
  const tx::Dim<4>& c = d;
  BOOST_TEST(c[2] == 70);
}

BOOST_AUTO_TEST_CASE(checked_access_out_of_range_throws_index_error) {
  tx::Dim<3> d(2, 3, 4);
  const tx::Dim<3>& c = d;
  BOOST_CHECK_EXCEPTION(d[3], tx::IndexError, tx::testing::message_has({"index 3", "Dim<3>"}));
  BOOST_CHECK_EXCEPTION(d[-1], tx::IndexError, tx::testing::message_has({"index -1", "Dim<3>"}));
  BOOST_CHECK_EXCEPTION(c[3], tx::IndexError, tx::testing::message_has({"index 3", "Dim<3>"}));
  BOOST_CHECK_EXCEPTION(c[-1], tx::IndexError, tx::testing::message_has({"index -1", "Dim<3>"}));
  tx::Dim<9> d9;
  BOOST_CHECK_EXCEPTION(d9[9], tx::IndexError, tx::testing::message_has({"index 9", "Dim<9>"}));
  BOOST_CHECK_NO_THROW(d9[8]);
  tx::Dim<1> d1(4);
  BOOST_CHECK_EXCEPTION(d1[1], tx::IndexError, tx::testing::message_has({"index 1", "Dim<1>"}));
  // An IndexError is a tx::Error and a std::runtime_error.
  BOOST_CHECK_THROW(d[3], tx::Error);
  BOOST_CHECK_THROW(d[3], std::runtime_error);
}

BOOST_AUTO_TEST_CASE(unchecked_access_matches_checked_access) {
  tx::Dim<9> d(10, 11, 12, 13, 14, 15, 16, 17, 18);
  for (int i = 0; i < 9; ++i) BOOST_TEST(d.at(i) == 10 + i);
  d.at(5) = -5;
  BOOST_TEST(d[5] == -5);
  const tx::Dim<1> d1(42);
  BOOST_TEST(d1.at(0) == 42);
}

BOOST_AUTO_TEST_CASE(get_reads_and_writes_by_compile_time_index) {
  tx::Dim<3> d(2, 3, 4);
  BOOST_TEST(tx::get<0>(d) == 2);
  BOOST_TEST(tx::get<1>(d) == 3);
  BOOST_TEST(tx::get<2>(d) == 4);
  tx::get<1>(d) = 30;
  BOOST_TEST(d[1] == 30);
  const tx::Dim<9> d9(1, 2, 3, 4, 5, 6, 7, 8, 9);
  BOOST_TEST(tx::get<0>(d9) == 1);
  BOOST_TEST(tx::get<8>(d9) == 9);
}

BOOST_AUTO_TEST_CASE(product_counts_the_elements) {
  BOOST_TEST(tx::product(tx::Dim<0>()) == 1);
  BOOST_TEST(tx::product(tx::make_dim(7)) == 7);
  BOOST_TEST(tx::product(tx::make_dim(2, 3, 4)) == 24);
  BOOST_TEST(tx::product(tx::make_dim(2, 0, 4)) == 0);
  BOOST_TEST(tx::product(tx::make_dim(1, 1, 1, 1)) == 1);
  BOOST_TEST(tx::product(tx::make_dim(1, 2, 3, 4, 5, 6, 7, 8, 9)) == 362880);
  // 2^40 * 3 does not fit 32 bits: the product is computed in 64 bits.
  BOOST_TEST(tx::product(tx::make_dim(tx::index_t{1} << 40, 3)) == (tx::index_t{3} << 40));
}

BOOST_AUTO_TEST_CASE(equality_compares_every_element) {
  BOOST_TEST((tx::make_dim(2, 3, 4) == tx::make_dim(2, 3, 4)));
  BOOST_TEST(!(tx::make_dim(2, 3, 4) != tx::make_dim(2, 3, 4)));
  BOOST_TEST((tx::make_dim(2, 3, 4) != tx::make_dim(2, 3, 5)));
  BOOST_TEST((tx::make_dim(2, 3, 4) != tx::make_dim(1, 3, 4)));
  BOOST_TEST((tx::make_dim(2, 3, 4) != tx::make_dim(2, 0, 4)));
  BOOST_TEST((tx::Dim<0>() == tx::Dim<0>()));
  BOOST_TEST(!(tx::Dim<0>() != tx::Dim<0>()));
  const auto d9 = tx::make_dim(1, 2, 3, 4, 5, 6, 7, 8, 9);
  BOOST_TEST((d9 == tx::make_dim(1, 2, 3, 4, 5, 6, 7, 8, 9)));
  BOOST_TEST((d9 != tx::make_dim(1, 2, 3, 4, 5, 6, 7, 8, 0)));
}

BOOST_AUTO_TEST_CASE(contiguous_strides_are_row_major) {
  BOOST_TEST((tx::contiguous_strides(tx::make_dim(2, 3, 4)) == tx::make_dim(12, 4, 1)));
  BOOST_TEST((tx::contiguous_strides(tx::make_dim(5)) == tx::make_dim(1)));
  BOOST_TEST((tx::contiguous_strides(tx::Dim<0>()) == tx::Dim<0>()));
  // A size-1 extent keeps the strides of its neighbours.
  BOOST_TEST((tx::contiguous_strides(tx::make_dim(1, 5, 1)) == tx::make_dim(5, 1, 1)));
  BOOST_TEST((tx::contiguous_strides(tx::make_dim(3, 1, 2)) == tx::make_dim(2, 2, 1)));
  // A zero extent makes every outer stride 0 (the array is empty).
  BOOST_TEST((tx::contiguous_strides(tx::make_dim(3, 0, 2)) == tx::make_dim(0, 2, 1)));
  BOOST_TEST((tx::contiguous_strides(tx::make_dim(4, 2, 0)) == tx::make_dim(0, 0, 1)));
  BOOST_TEST((tx::contiguous_strides(tx::make_dim(2, 2, 2, 2, 2, 2, 2, 2, 2)) ==
              tx::make_dim(256, 128, 64, 32, 16, 8, 4, 2, 1)));
}

BOOST_AUTO_TEST_CASE(linearize_is_the_dot_product_with_the_strides) {
  BOOST_TEST(tx::linearize(tx::Dim<0>(), tx::Dim<0>()) == 0);
  BOOST_TEST(tx::linearize(tx::make_dim(4), tx::make_dim(3)) == 12);
  BOOST_TEST(tx::linearize(tx::make_dim(1, 2, 3), tx::make_dim(12, 4, 1)) == 23);
  // Any strides, including transposed, broadcast (0) and negative ones.
  BOOST_TEST(tx::linearize(tx::make_dim(1, 2), tx::make_dim(1, 3)) == 7);
  BOOST_TEST(tx::linearize(tx::make_dim(5, 2), tx::make_dim(0, 1)) == 2);
  BOOST_TEST(tx::linearize(tx::make_dim(2, 3), tx::make_dim(-4, 1)) == -5);
}

BOOST_AUTO_TEST_CASE(delinearize_gives_the_row_major_index) {
  BOOST_TEST((tx::delinearize(0, tx::make_dim(2, 3, 4)) == tx::make_dim(0, 0, 0)));
  BOOST_TEST((tx::delinearize(23, tx::make_dim(2, 3, 4)) == tx::make_dim(1, 2, 3)));
  BOOST_TEST((tx::delinearize(13, tx::make_dim(2, 3, 4)) == tx::make_dim(1, 0, 1)));
  BOOST_TEST((tx::delinearize(6, tx::make_dim(10)) == tx::make_dim(6)));
  BOOST_TEST((tx::delinearize(0, tx::Dim<0>()) == tx::Dim<0>()));
}

BOOST_AUTO_TEST_CASE(contains_checks_every_index) {
  const auto extent = tx::make_dim(2, 3, 4);
  BOOST_TEST(tx::contains(extent, tx::make_dim(0, 0, 0)));
  BOOST_TEST(tx::contains(extent, tx::make_dim(1, 2, 3)));
  BOOST_TEST(!tx::contains(extent, tx::make_dim(2, 0, 0)));
  BOOST_TEST(!tx::contains(extent, tx::make_dim(0, 3, 0)));
  BOOST_TEST(!tx::contains(extent, tx::make_dim(0, 0, 4)));
  BOOST_TEST(!tx::contains(extent, tx::make_dim(0, -1, 0)));
  BOOST_TEST(!tx::contains(tx::make_dim(2, 0), tx::make_dim(0, 0)));
  // The one element of a scalar.
  BOOST_TEST(tx::contains(tx::Dim<0>(), tx::Dim<0>()));
}

BOOST_AUTO_TEST_CASE(printing_lists_the_values_in_parentheses) {
  BOOST_TEST(to_string(tx::Dim<0>()) == "()");
  BOOST_TEST(to_string(tx::make_dim(7)) == "(7)");
  BOOST_TEST(to_string(tx::make_dim(2, 3, 4)) == "(2, 3, 4)");
  BOOST_TEST(to_string(tx::make_dim(-1, 0)) == "(-1, 0)");
  BOOST_TEST(to_string(tx::make_dim(1, 2, 3, 4, 5, 6, 7, 8, 9)) == "(1, 2, 3, 4, 5, 6, 7, 8, 9)");
}

namespace {

/// Walks every index of an extent in row-major order with an odometer (last digit fastest) and
/// checks, at the k-th step, that delinearize(k) is that index and that linearize inverts it with
/// contiguous strides and matches a hand-computed sum with arbitrary strides.
template <int N>
void check_round_trip(std::mt19937& rng, tx::index_t max_extent) {
  std::uniform_int_distribution<tx::index_t> extent_value(1, max_extent);
  std::uniform_int_distribution<tx::index_t> stride_value(-50, 50);
  tx::Dim<N> extent;
  tx::Dim<N> strides;
  std::array<tx::index_t, N> extent_values{};
  std::array<tx::index_t, N> stride_values{};
  std::array<tx::index_t, N> expected_contiguous{};
  for (int i = 0; i < N; ++i) {
    extent_values[i] = extent_value(rng);
    stride_values[i] = stride_value(rng);
    extent[i] = extent_values[i];
    strides[i] = stride_values[i];
  }
  tx::index_t count = 1;
  for (int i = N - 1; i >= 0; --i) {
    expected_contiguous[i] = count;
    count *= extent_values[i];
  }
  BOOST_TEST_REQUIRE(tx::product(extent) == count);
  const tx::Dim<N> contiguous = tx::contiguous_strides(extent);
  for (int i = 0; i < N; ++i) BOOST_TEST_REQUIRE(contiguous[i] == expected_contiguous[i]);

  std::array<tx::index_t, N> odometer{};
  for (tx::index_t k = 0; k < count; ++k) {
    const tx::Dim<N> index = tx::delinearize(k, extent);
    tx::index_t strided_offset = 0;
    for (int i = 0; i < N; ++i) {
      BOOST_TEST_REQUIRE(index[i] == odometer[i], "rank " << N << " extent " << extent << " offset "
                                                          << k << " dimension " << i);
      strided_offset += odometer[i] * stride_values[i];
    }
    BOOST_TEST_REQUIRE(tx::contains(extent, index));
    BOOST_TEST_REQUIRE(tx::linearize(index, contiguous) == k);
    BOOST_TEST_REQUIRE(tx::linearize(index, strides) == strided_offset);
    for (int i = N - 1; i >= 0; --i) {
      if (++odometer[i] < extent_values[i]) break;
      odometer[i] = 0;
    }
  }
  // After the last index the odometer has wrapped around to all zeros.
  for (int i = 0; i < N; ++i) BOOST_TEST_REQUIRE(odometer[i] == 0);
}

}  // namespace

BOOST_AUTO_TEST_CASE(linearize_and_delinearize_round_trip_on_random_extents) {
  std::mt19937 rng(20240611);
  for (int trial = 0; trial < 5; ++trial) {
    check_round_trip<1>(rng, 50);
    check_round_trip<2>(rng, 12);
    check_round_trip<3>(rng, 7);
    check_round_trip<4>(rng, 5);
    check_round_trip<5>(rng, 4);
    check_round_trip<6>(rng, 3);
    check_round_trip<7>(rng, 3);
    check_round_trip<8>(rng, 2);
    check_round_trip<9>(rng, 2);
  }
}

BOOST_AUTO_TEST_SUITE_END()
