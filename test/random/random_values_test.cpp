// tx::uniform and tx::normal element by element against the independent reference of
// random/random_reference.h, on every path the engines take (dense SIMD rows and threads, strided
// and broadcast operands, a transposed destination), on the test place: compiled as CUDA
// (test_cuda_random) the same cases check the GPU, and a draw on the GPU must equal the same draw
// on the CPU bit for bit.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "random/random_reference.h"
#include "support/reference.h"
#include "support/test_place.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using tx::testing::on_host;
using tx::testing::test_place;

namespace {

using FloatingTypes = boost::mpl::list<float, double, tx::float16, tx::bfloat16>;

constexpr std::uint64_t kSeed = 0x1234567890abcdefull;  // both key words matter
constexpr std::uint64_t kOffset = (std::uint64_t{3} << 32) + 7;

/// An expression assigned to a new array on the test place.
template <class T, int N, class E>
tx::Array<T, N> evaluate_on(const tx::Place& place, const E& e) {
  tx::Array<T, N> out(e.dims(), place);
  out = e;
  return out;
}

/// Counts the elements of `got` (host array in row-major order) that differ from want(i).
template <class T, int N, class Want>
void check_each(const std::string& what, const tx::Array<T, N>& got, Want want) {
  const auto host = on_host(got);
  std::uint64_t i = 0, bad = 0;
  std::string first;
  for (const T& element : tx::make_view(host)) {
    if (!want(i, static_cast<double>(element)) && bad++ == 0) {
      first =
          "element " + std::to_string(i) + " is " + std::to_string(static_cast<double>(element));
    }
    ++i;
  }
  BOOST_TEST(bad == 0u, what << ": " << bad << " of " << i << " differ; " << first);
}

/// The bits of the elements of an array on any place, for bitwise comparisons.
template <class T, int N>
std::string bytes_of(const tx::Array<T, N>& a) {
  const auto host = on_host(a);
  return std::string(reinterpret_cast<const char*>(host.data()), sizeof(T) * host.numel());
}

/// Whether float(x) and got are equal or adjacent floats: the value computed in double and
/// rounded once, against a long double reference whose rounding may fall on the other side.
bool within_one_float_ulp(long double reference, double got) {
  const auto want = static_cast<float>(reference);
  return static_cast<float>(got) == want ||
         static_cast<float>(got) == std::nextafter(want, std::numeric_limits<float>::infinity()) ||
         static_cast<float>(got) == std::nextafter(want, -std::numeric_limits<float>::infinity());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(random_values)

BOOST_AUTO_TEST_CASE_TEMPLATE(uniform_equals_the_reference_bit_for_bit, T, FloatingTypes) {
  constexpr int kDigits = std::numeric_limits<T>::digits;
  const auto equal = [&](std::uint64_t offset) {
    return [=](std::uint64_t i, double got) {
      return got == tx::testing::reference_uniform(kSeed, offset, i, kDigits);
    };
  };
  // Odd sizes: blocks straddle rows; large ones run in threads and SIMD batches.
  for (const auto dims : {tx::make_dim(1, 1), tx::make_dim(3, 5), tx::make_dim(517, 263)}) {
    check_each("uniform", evaluate_on<T, 2>(test_place(), tx::uniform<T>(dims, kSeed, kOffset)),
               equal(kOffset));
  }
  check_each("uniform, default offset",
             evaluate_on<T, 3>(test_place(), tx::uniform<T>(tx::make_dim(4, 3, 7), kSeed)),
             equal(0));
  // A transposed destination: elements written in another order, each still its own index.
  const auto dims = tx::make_dim(33, 70);
  tx::Array<T, 2> target(tx::make_dim(70, 33), test_place());
  tx::transpose(target) = tx::uniform<T>(dims, kSeed, kOffset);
  const tx::Array<T, 2> back = tx::transpose(target);
  check_each("uniform into a transposed view", back, equal(kOffset));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(uniform_values_lie_in_the_unit_interval_and_are_exact_in_t, T,
                              FloatingTypes) {
  const auto draw = evaluate_on<T, 1>(test_place(), tx::uniform<T>(tx::make_dim(100000), 5));
  check_each("uniform range", draw, [](std::uint64_t, double v) { return v >= 0.0 && v < 1.0; });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(normal_equals_the_reference_within_its_rounding, T, FloatingTypes) {
  constexpr bool kWide = std::is_same_v<T, double>;
  const auto close = [](std::uint64_t i, double got) {
    const long double want = tx::testing::reference_normal(kSeed, kOffset, i, kWide);
    if constexpr (kWide) {
      return std::abs(got - static_cast<double>(want)) <= 1e-14 * (1 + std::abs(want));
    } else if constexpr (std::is_same_v<T, float>) {
      return within_one_float_ulp(want, got);
    } else {
      return got == static_cast<double>(static_cast<T>(static_cast<float>(got))) &&
             std::abs(got - static_cast<double>(want)) <= 4e-3 * (1 + std::abs(want));
    }
  };
  for (const auto dims : {tx::make_dim(2, 3), tx::make_dim(301, 129)}) {
    check_each("normal", evaluate_on<T, 2>(test_place(), tx::normal<T>(dims, kSeed, kOffset)),
               close);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_draw_on_the_test_place_equals_the_draw_on_the_cpu_bit_for_bit, T,
                              FloatingTypes) {
  for (const auto dims : {tx::make_dim(7, 9), tx::make_dim(250, 333)}) {
    const auto uniform = tx::uniform<T>(dims, kSeed, kOffset);
    const auto normal = tx::normal<T>(dims, kSeed, kOffset);
    BOOST_TEST((bytes_of(evaluate_on<T, 2>(test_place(), uniform)) ==
                bytes_of(evaluate_on<T, 2>(tx::CpuPlace(), uniform))));
    BOOST_TEST((bytes_of(evaluate_on<T, 2>(test_place(), normal)) ==
                bytes_of(evaluate_on<T, 2>(tx::CpuPlace(), normal))));
    // Fused into a larger expression, on the strided path too.
    const auto shifted = normal * 2.0f + uniform;
    BOOST_TEST((bytes_of(evaluate_on<T, 2>(test_place(), shifted)) ==
                bytes_of(evaluate_on<T, 2>(tx::CpuPlace(), shifted))));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(lanes_of_a_dense_draw_equal_its_elements, T, FloatingTypes) {
  // The CUDA engine reads dense operands V elements at a time through load<V>: whole Philox blocks
  // for a draw. On the host its lanes must be the elements flat() gives, for every V it uses.
  const auto dims = tx::make_dim(6, 8);
  const auto check = [&](const auto& draw) {
    const auto plan = tx::make_plan(draw, dims);
    for (tx::index_t i = 0; i < 48; i += 8) {
      const auto eight = plan.template load<8>(i);
      const auto four = plan.template load<4>(i);
      const auto two = plan.template load<2>(i);
      const auto one = plan.template load<1>(i);
      for (int k = 0; k < 8; ++k) BOOST_TEST(eight[k] == plan.flat(i + k));
      for (int k = 0; k < 4; ++k) BOOST_TEST(four[k] == plan.flat(i + k));
      for (int k = 0; k < 2; ++k) BOOST_TEST(two[k] == plan.flat(i + k));
      BOOST_TEST(one[0] == plan.flat(i));
    }
  };
  check(tx::uniform<T>(dims, kSeed, kOffset));
  check(tx::normal<T>(dims, kSeed, kOffset));
}

BOOST_AUTO_TEST_CASE(an_element_depends_only_on_seed_offset_and_flat_index) {
  const auto flat = evaluate_on<float, 1>(test_place(), tx::uniform<float>(tx::make_dim(24), 9, 2));
  const auto matrix =
      evaluate_on<float, 2>(test_place(), tx::uniform<float>(tx::make_dim(6, 4), 9, 2));
  BOOST_TEST(bytes_of(flat) == bytes_of(matrix));
  const auto other_offset =
      evaluate_on<float, 1>(test_place(), tx::uniform<float>(tx::make_dim(24), 9, 3));
  const auto other_seed =
      evaluate_on<float, 1>(test_place(), tx::uniform<float>(tx::make_dim(24), 10, 2));
  BOOST_TEST(bytes_of(flat) != bytes_of(other_offset));
  BOOST_TEST(bytes_of(flat) != bytes_of(other_seed));
}

BOOST_AUTO_TEST_CASE(a_draw_broadcasts_like_any_operand) {
  // A row of 24 draws added to every row of a (5, 24) matrix of zeros, and a column of 5 draws to
  // every column: each row (column) is the draw itself.
  const auto zeros = tx::testing::zeros_on_test_place<float>(tx::make_dim(5, 24));
  const auto rows =
      evaluate_on<float, 2>(test_place(), zeros + tx::uniform<float>(tx::make_dim(24), 9, 2));
  check_each("a broadcast row", rows, [](std::uint64_t i, double got) {
    return got == tx::testing::reference_uniform(9, 2, i % 24, 24);
  });
  const auto columns =
      evaluate_on<float, 2>(test_place(), zeros + tx::uniform<float>(tx::make_dim(5, 1), 9, 2));
  check_each("a broadcast column", columns, [](std::uint64_t i, double got) {
    return got == tx::testing::reference_uniform(9, 2, i / 24, 24);
  });
}

BOOST_AUTO_TEST_CASE(dropout_is_one_pass_and_stores_no_mask) {
  auto rng = tx::testing::make_rng(91);
  const auto x = tx::testing::random_array<float>(tx::make_dim(300, 257), rng);
  const std::uint64_t seed = 42;
  tx::Array<float, 2> c(x.dims(), test_place());
  const auto before = tx::stats::passes();
  c = x * (tx::uniform<float>(x.dims(), seed) > 0.1f) / 0.9f;
  BOOST_TEST(tx::stats::passes() - before == 1u);
  const auto hx = on_host(x);
  tx::testing::check_close(c, tx::testing::reference(x.dims(), [&](const auto& index) {
                             const auto i = static_cast<std::uint64_t>(index[0] * 257 + index[1]);
                             const bool keep = tx::testing::reference_uniform(seed, 0, i, 24) > 0.1;
                             return keep ? static_cast<double>(hx[index]) / 0.9 : 0.0;
                           }));
}

BOOST_AUTO_TEST_CASE(negative_extents_are_shape_errors_naming_the_function) {
  BOOST_CHECK_EXCEPTION(tx::uniform<float>(tx::make_dim(3, -2), 1), tx::ShapeError,
                        [](const tx::ShapeError& e) {
                          return std::string(e.what()).find("tx::uniform") != std::string::npos &&
                                 std::string(e.what()).find("(3, -2)") != std::string::npos;
                        });
  BOOST_CHECK_THROW(tx::normal<double>(tx::make_dim(-1), 1, 0), tx::ShapeError);
}

BOOST_AUTO_TEST_SUITE_END()
