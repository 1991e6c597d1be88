// Fully connected layers as one product with an epilogue: act(alpha * dot(a, w) + bias) for
// act = identity, relu, gelu, against a double reference, with their pass counts (one cuBLASLt
// call on the GPU, the BLAS call and one element-wise pass on the CPU), and every form that takes
// the general route instead (accumulating savers, odd biases, destinations sharing memory).
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>
#include <cmath>

#include "blas/dot_reference.h"
#include "support/errors.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::random_array;

namespace {

using FloatTypes = boost::mpl::list<float, double, tx::float16, tx::bfloat16>;

enum class Act { kIdentity, kRelu, kGelu };

double activate(Act act, double x) {
  switch (act) {
    case Act::kRelu:
      return x > 0.0 ? x : 0.0;
    case Act::kGelu:
      return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
    case Act::kIdentity:
      break;
  }
  return x;
}

// act(alpha * product + bias) with bias read at column j (a null bias adds nothing).
template <class B>
tx::Array<double, 2> expected(const tx::Array<double, 2>& product, double alpha, const B* bias,
                              Act act) {
  return tx::testing::reference(product.dims(), [&](const tx::Dim<2>& i) {
    const double b = bias == nullptr ? 0.0 : tx::testing::read_broadcast(*bias, tx::make_dim(i[1]));
    return activate(act, alpha * product[i] + b);
  });
}

// Runs `statement` and returns the passes it started.
template <class F>
std::uint64_t passes_of(F statement) {
  const auto before = tx::stats::passes();
  statement();
  return tx::stats::passes() - before;
}

// The passes of a fused product: the BLAS call and the epilogue pass on the CPU; one cuBLASLt
// call on the GPU for float and float16, whose bias and activation epilogues cuBLASLt has on
// every GPU tensorx targets. For double it offers them on some GPUs only, else the product
// takes two passes there too. cuBLASLt's gelu is precise enough for float16 and bfloat16 only
// (src/blas/cublaslt_gemm.cpp): a float or double gelu layer is the product and one pass.
template <class T>
void check_fused_passes(std::uint64_t passes, Act act) {
  constexpr bool kWide = std::is_same_v<T, float> || std::is_same_v<T, double>;
  if (tx::is_cpu_place(tx::testing::test_place()) || (kWide && act == Act::kGelu)) {
    BOOST_TEST(passes == 2u);
  } else if (std::is_same_v<T, double>) {
    BOOST_TEST((passes == 1u || passes == 2u), "passes: " << passes);
  } else {
    BOOST_TEST(passes == 1u);
  }
}

// The product tolerance plus the two-byte rounding of the bias sum.
template <class T>
double fused_tolerance(index_t k) {
  return tx::testing::product_tolerance<T>(k) + tx::testing::tolerance<T>();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fused_dot)

// Which expressions the fused writer takes (the CPU's pass counts are 2 either way, so this is
// what tells the fused route from the general one there).
template <class E>
constexpr bool kFused = tx::detail::FusedProduct<E>::value;

// Checked at compile time.
BOOST_AUTO_TEST_CASE(the_fused_forms_are_recognised) {
  const tx::Array<float, 2> a, w;
  const tx::Array<float, 1> bias;
  static_assert(kFused<decltype(tx::dot(a, w) + bias)>);
  static_assert(kFused<decltype(bias + tx::dot(a, w))>);
  static_assert(kFused<decltype(tx::relu(tx::dot(a, w) + bias))>);
  static_assert(kFused<decltype(tx::gelu(bias + tx::dot(a, w)))>);
  static_assert(kFused<decltype(tx::relu(tx::dot(a, w)))>);
  static_assert(kFused<decltype(tx::gelu(2.0f * tx::dot(a, w) + bias))>);
  static_assert(kFused<decltype(tx::relu(tx::dot(tx::transpose(a), w * 2.0f) + bias))>);
  // Not a product with an epilogue: a bare product (its own writer), other functions, a scalar
  // or matrix bias, a matrix-vector product, a batched product.
  static_assert(!kFused<decltype(tx::dot(a, w))>);
  static_assert(!kFused<decltype(2.0f * tx::dot(a, w))>);
  static_assert(!kFused<decltype(tx::sigmoid(tx::dot(a, w) + bias))>);
  static_assert(!kFused<decltype(tx::dot(a, w) - bias)>);
  static_assert(!kFused<decltype(tx::dot(a, w) + 1.0f)>);
  static_assert(!kFused<decltype(tx::dot(a, w) + a)>);
  static_assert(!kFused<decltype(tx::relu(tx::dot(a, bias) + bias))>);
  const tx::Array<float, 3> a3, w3;
  static_assert(!kFused<decltype(tx::relu(tx::batch_dot(a3, w3)))>);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(bias_and_activation_match_the_reference, T, FloatTypes) {
  auto rng = tx::testing::make_rng(701);
  std::uniform_int_distribution<index_t> extent(1, 40);
  for (int round = 0; round < 6; ++round) {
    const index_t m = round == 0 ? 1 : extent(rng);
    const index_t k = round == 1 ? 1 : extent(rng);
    const index_t n = round == 2 ? 1 : extent(rng);
    const auto a = random_array<T>(tx::make_dim(m, k), rng);
    const auto w = random_array<T>(tx::make_dim(k, n), rng);
    const auto bias = random_array<T>(tx::make_dim(n), rng);
    const auto hb = on_host(bias);
    const auto product = tx::testing::matmul_reference(on_host(a), false, on_host(w), false);
    tx::Array<T, 2> c(tx::make_dim(m, n), tx::testing::test_place());
    const double tolerance = fused_tolerance<T>(k);

    check_fused_passes<T>(passes_of([&] { c = tx::dot(a, w) + bias; }), Act::kIdentity);
    check_close(c, expected(product, 1.0, &hb, Act::kIdentity), tolerance);
    check_fused_passes<T>(passes_of([&] { c = bias + tx::dot(a, w); }), Act::kIdentity);
    check_close(c, expected(product, 1.0, &hb, Act::kIdentity), tolerance);
    check_fused_passes<T>(passes_of([&] { c = tx::relu(tx::dot(a, w) + bias); }), Act::kRelu);
    check_close(c, expected(product, 1.0, &hb, Act::kRelu), tolerance);
    check_fused_passes<T>(passes_of([&] { c = tx::gelu(bias + tx::dot(a, w)); }), Act::kGelu);
    check_close(c, expected(product, 1.0, &hb, Act::kGelu), tolerance);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(activation_of_a_bare_product_and_scaled_products, T, FloatTypes) {
  auto rng = tx::testing::make_rng(702);
  const auto a = random_array<T>(tx::make_dim(13, 9), rng);
  const auto w = random_array<T>(tx::make_dim(9, 6), rng);
  const auto bias = random_array<T>(tx::make_dim(6), rng);
  const auto hb = on_host(bias);
  const auto product = tx::testing::matmul_reference(on_host(a), false, on_host(w), false);
  const tx::Array<double, 1>* no_bias = nullptr;
  const double tolerance = fused_tolerance<T>(9);
  tx::Array<T, 2> c(tx::make_dim(13, 6), tx::testing::test_place());

  check_fused_passes<T>(passes_of([&] { c = tx::relu(tx::dot(a, w)); }), Act::kRelu);
  check_close(c, expected(product, 1.0, no_bias, Act::kRelu), tolerance);
  check_fused_passes<T>(passes_of([&] { c = tx::gelu(tx::dot(a, w)); }), Act::kGelu);
  check_close(c, expected(product, 1.0, no_bias, Act::kGelu), tolerance);
  check_fused_passes<T>(passes_of([&] { c = tx::relu(0.5f * tx::dot(a, w) + bias); }), Act::kRelu);
  check_close(c, expected(product, 0.5, &hb, Act::kRelu), tolerance);
  check_fused_passes<T>(passes_of([&] { c = tx::gelu(bias + tx::dot(a, w) * -2.0f); }), Act::kGelu);
  check_close(c, expected(product, -2.0, &hb, Act::kGelu), 2 * tolerance);
}

BOOST_AUTO_TEST_CASE(transposed_and_strided_operands_and_a_strided_destination) {
  auto rng = tx::testing::make_rng(703);
  // a^T is (11 x 7) seen through a transposed view; w is every other column of a wider matrix.
  const auto at = random_array<float>(tx::make_dim(7, 11), rng);
  const auto w = tx::testing::random_strided_matrix<float>(7, 5, rng);
  const auto bias = random_array<float>(tx::make_dim(5), rng);
  const auto hb = on_host(bias);
  const auto product = tx::testing::matmul_reference(on_host(at), true, on_host(w), false);
  const double tolerance = fused_tolerance<float>(7);

  tx::Array<float, 2> c(tx::make_dim(11, 5), tx::testing::test_place());
  c = tx::relu(tx::dot(tx::transpose(at), w) + bias);
  check_close(c, expected(product, 1.0, &hb, Act::kRelu), tolerance);

  // The destination: columns 2..6 of a wider matrix, whose other columns stay as they were.
  tx::Array<float, 2> wide = random_array<float>(tx::make_dim(11, 9), rng);
  const auto wide_before = on_host(wide);
  tx::Array<float, 2> view(wide.buffer(), tx::make_dim(11, 5), wide.strides(), wide.offset() + 2);
  view = tx::gelu(tx::dot(tx::transpose(at), w) + bias);
  check_close(view, expected(product, 1.0, &hb, Act::kGelu), tolerance);
  const auto wide_after = on_host(wide);
  for (index_t i = 0; i < 11; ++i) {
    for (index_t j : {0, 1, 7, 8}) {
      BOOST_TEST(wide_after(i, j) == wide_before(i, j));
    }
  }

  // A column-major destination (a transposed view) is written through the general route.
  tx::Array<float, 2> store = random_array<float>(tx::make_dim(5, 11), rng);
  tx::Array<float, 2> column_major(store.buffer(), tx::make_dim(11, 5),
                                   tx::make_dim(index_t{1}, index_t{11}), store.offset());
  column_major = tx::relu(tx::dot(tx::transpose(at), w) + bias);
  check_close(column_major, expected(product, 1.0, &hb, Act::kRelu), tolerance);
}

BOOST_AUTO_TEST_CASE(accumulating_savers_and_odd_biases_take_the_general_route) {
  auto rng = tx::testing::make_rng(704);
  const auto a = random_array<double>(tx::make_dim(6, 4), rng);
  const auto w = random_array<double>(tx::make_dim(4, 5), rng);
  const auto product = tx::testing::matmul_reference(on_host(a), false, on_host(w), false);
  const auto bias = random_array<double>(tx::make_dim(5), rng);
  const auto hb = on_host(bias);

  // +=: the product into a temporary, then one pass that adds the activation to c.
  tx::Array<double, 2> c = random_array<double>(tx::make_dim(6, 5), rng);
  const auto c0 = on_host(c);
  BOOST_TEST(passes_of([&] { c += tx::relu(tx::dot(a, w) + bias); }) == 2u);
  check_close(c, tx::testing::reference(product.dims(), [&](const tx::Dim<2>& i) {
                return c0[i] + activate(Act::kRelu, product[i] + hb(i[1]));
              }));
  tx::assign(c, tx::gelu(tx::dot(a, w) + bias), tx::OpReq::kNullOp);
  tx::assign(c, tx::gelu(tx::dot(a, w) + bias), tx::OpReq::kWriteTo);
  check_close(c, expected(product, 1.0, &hb, Act::kGelu));
  tx::assign(c, tx::dot(a, w) + bias, tx::OpReq::kAddTo);
  check_close(c, tx::testing::reference(product.dims(), [&](const tx::Dim<2>& i) {
                return activate(Act::kGelu, product[i] + hb(i[1])) + product[i] + hb(i[1]);
              }));

  // A bias of one value broadcast along the row, and a strided bias (every other element).
  const auto one = random_array<double>(tx::make_dim(1), rng);
  const auto h1 = on_host(one);
  c = tx::relu(tx::dot(a, w) + one);
  check_close(c, expected(product, 1.0, &h1, Act::kRelu));
  const auto every_other = random_array<double>(tx::make_dim(10), rng);
  const tx::Array<double, 1> strided(every_other.buffer(), tx::make_dim(5),
                                     tx::make_dim(index_t{2}), every_other.offset());
  const auto hs = on_host(strided);
  c = tx::relu(tx::dot(a, w) + strided);
  check_close(c, expected(product, 1.0, &hs, Act::kRelu));
}

BOOST_AUTO_TEST_CASE(a_destination_that_an_operand_reads_is_written_correctly) {
  auto rng = tx::testing::make_rng(705);
  // x = relu(x w + b): the BLAS must not write x while it reads it.
  tx::Array<float, 2> x = random_array<float>(tx::make_dim(8, 8), rng);
  const auto w = random_array<float>(tx::make_dim(8, 8), rng);
  const auto bias = random_array<float>(tx::make_dim(8), rng);
  const auto hb = on_host(bias);
  const auto product = tx::testing::matmul_reference(on_host(x), false, on_host(w), false);
  x = tx::relu(tx::dot(x, w) + bias);
  check_close(x, expected(product, 1.0, &hb, Act::kRelu), fused_tolerance<float>(8));

  // c = dot(a, w) + c[0]: the bias is the destination's first row, as it was before.
  const auto a = random_array<float>(tx::make_dim(5, 3), rng);
  const auto v = random_array<float>(tx::make_dim(3, 8), rng);
  tx::Array<float, 2> c = random_array<float>(tx::make_dim(5, 8), rng);
  const auto row0 = on_host(tx::Array<float, 1>(c[0]));
  tx::Array<float, 1> c_row0 = c[0];
  const auto av = tx::testing::matmul_reference(on_host(a), false, on_host(v), false);
  c = tx::dot(a, v) + c_row0;
  check_close(c, expected(av, 1.0, &row0, Act::kIdentity), fused_tolerance<float>(3));
}

BOOST_AUTO_TEST_CASE(degenerate_extents) {
  auto rng = tx::testing::make_rng(706);
  const auto bias = random_array<float>(tx::make_dim(4), rng);
  const auto hb = on_host(bias);
  // K = 0: the product is zero, so the result is act(bias) on every row.
  const tx::Array<float, 2> a(tx::make_dim(3, 0), tx::testing::test_place());
  const tx::Array<float, 2> w(tx::make_dim(0, 4), tx::testing::test_place());
  tx::Array<float, 2> c = tx::gelu(tx::dot(a, w) + bias);
  check_close(c, expected(tx::Array<double, 2>(tx::zeros<double>(tx::make_dim(3, 4))), 1.0, &hb,
                          Act::kGelu));
  // M = 0: nothing to compute, no pass.
  const tx::Array<float, 2> none(tx::make_dim(0, 2), tx::testing::test_place());
  const auto v = random_array<float>(tx::make_dim(2, 4), rng);
  tx::Array<float, 2> empty(tx::make_dim(0, 4), tx::testing::test_place());
  BOOST_TEST(passes_of([&] { empty = tx::relu(tx::dot(none, v) + bias); }) == 0u);
}

BOOST_AUTO_TEST_CASE(an_unallocated_destination_takes_the_shape_and_place) {
  auto rng = tx::testing::make_rng(707);
  const auto a = random_array<float>(tx::make_dim(4, 3), rng);
  const auto w = random_array<float>(tx::make_dim(3, 2), rng);
  const auto bias = random_array<float>(tx::make_dim(2), rng);
  const auto hb = on_host(bias);
  tx::Array<float, 2> h = tx::relu(tx::dot(a, w) + bias);
  BOOST_TEST(h.dims() == tx::make_dim(4, 2));
  BOOST_TEST(h.place() == tx::testing::test_place());
  const auto product = tx::testing::matmul_reference(on_host(a), false, on_host(w), false);
  check_close(h, expected(product, 1.0, &hb, Act::kRelu));
}

BOOST_AUTO_TEST_CASE(mismatches_throw_before_anything_is_written) {
  auto rng = tx::testing::make_rng(708);
  const auto a = random_array<float>(tx::make_dim(4, 3), rng);
  const auto w = random_array<float>(tx::make_dim(3, 2), rng);
  tx::Array<float, 2> c = random_array<float>(tx::make_dim(4, 2), rng);
  const auto c0 = on_host(c);
  const auto long_bias = random_array<float>(tx::make_dim(3), rng);
  BOOST_CHECK_EXCEPTION(c = tx::relu(tx::dot(a, w) + long_bias), tx::ShapeError,
                        tx::testing::message_has({"(4, 2)", "(3)"}));
  const auto wrong_inner = random_array<float>(tx::make_dim(2, 2), rng);
  const auto bias = random_array<float>(tx::make_dim(2), rng);
  BOOST_CHECK_THROW(c = tx::gelu(tx::dot(a, wrong_inner) + bias), tx::ShapeError);
  tx::Array<float, 2> wrong_shape(tx::make_dim(2, 4), tx::testing::test_place());
  BOOST_CHECK_EXCEPTION(wrong_shape = tx::relu(tx::dot(a, w) + bias), tx::ShapeError,
                        tx::testing::message_has({"(4, 2)", "(2, 4)"}));
#if defined(TENSORX_TEST_ON_GPU)
  const tx::Array<float, 1> host_bias = on_host(bias);
  BOOST_CHECK_THROW(c = tx::relu(tx::dot(a, w) + host_bias), tx::PlaceError);
#endif
  check_close(c,
              tx::Array<double, 2>(tx::testing::reference(
                  c0.dims(), [&](const tx::Dim<2>& i) { return double(c0[i]); })),
              0.0);
}

BOOST_AUTO_TEST_SUITE_END()
