// The CPU and the GPU agree on the layout ops (transpose and permute, slice, concat, take,
// one_hot), which must give the same bits, on the products (dot with transposed operands,
// scaled and accumulated, batch_dot, gemm) and the fused layer (relu or gelu of
// dot(x, w) + bias), which may differ by what two orders of summation can, in float, double and
// float16; and on a float16 array past 2^31 elements (its transpose, row, column and full
// reductions, argmax) where the GPU and the host have the memory for it.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>

#include <cuda_runtime.h>
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "cuda/cpu_gpu_agreement.h"
#include "support/cuda_test.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::agreement::check_against_cpu;
using tx::testing::agreement::check_build;
using tx::testing::agreement::FloatTypes;
using tx::testing::agreement::gpu;
using tx::testing::agreement::kBitwise;
using tx::testing::agreement::mirror_on_gpu;
using tx::testing::agreement::random_array;
using tx::testing::agreement::transposed;
using tx::testing::agreement::type_name;
using tx::testing::agreement::ulp_at;
using tx::testing::agreement::unit_roundoff;

namespace {

/// Integer indices in [low, high] of element type I.
template <class I, int N>
tx::Array<I, N> random_indices(const tx::Dim<N>& dims, std::mt19937_64& rng, index_t low,
                               index_t high) {
  tx::Array<I, N> indices(dims);
  std::uniform_int_distribution<index_t> pick(low, high);
  for (I& index : tx::make_view(indices)) index = static_cast<I>(pick(rng));
  return indices;
}

/// |a| in double, dense, in a's logical order.
template <class T, int N>
tx::Array<double, N> magnitudes(const tx::Array<T, N>& a) {
  tx::Array<double, N> out(a.dims());
  double* o = out.data();
  for (const T& element : tx::make_view(a)) *o++ = std::abs(static_cast<double>(element));
  return out;
}

/// The difference two orders of summing a product's `inner` terms can make, per element whose
/// terms' magnitudes add up to `magnitude`: cuBLAS and the CPU BLAS block and split the inner
/// dimension differently (float16 accumulates in float on both). A float16 result is rounded
/// once more, and the CPU's fused layer rounds its product to float16 before the bias pass.
template <class T>
double product_bound(double magnitude, index_t inner, double result) {
  const double rounding =
      std::is_same_v<T, tx::float16> ? 2.0 * ulp_at<T>(std::max(std::abs(result), magnitude)) : 0.0;
  return (4.0 + 2.0 * std::sqrt(static_cast<double>(inner))) * unit_roundoff<T>() * magnitude +
         rounding;
}

/// build(operands...) on the CPU and on the GPU, within product_bound of magnitude, which is
/// build applied to the operands' magnitudes (|a| |b| for a product) on the CPU in double.
template <class T, class Build, class... Operands>
void check_product(const std::string& what, index_t inner, Build build,
                   const Operands&... operands) {
  using E = decltype(build(operands...));
  const tx::Array<T, E::rank> cpu = build(operands...);
  const tx::Array<T, E::rank> gpu_result = build(mirror_on_gpu(operands)...);
  const tx::Array<double, E::rank> magnitude = build(magnitudes(operands)...);
  check_against_cpu(what, cpu, gpu_result, [&](index_t i, const T& c) {
    return product_bound<T>(magnitude.data()[i], inner, static_cast<double>(c));
  });
}

/// A product written into an existing destination (accumulating forms, gemm): `write(c, a, b)`
/// on CPU arrays and on GPU mirrors, compared within the bound of |c| + |a| |b|.
template <class T, class Write>
void check_written_product(const std::string& what, index_t inner, Write write,
                           const tx::Array<T, 2>& c, const tx::Array<T, 2>& a,
                           const tx::Array<T, 2>& b) {
  tx::Array<T, 2> cpu = tx::to(c, tx::CpuPlace());
  tx::Array<T, 2> gpu_result = mirror_on_gpu(c);
  write(cpu, a, b);
  write(gpu_result, mirror_on_gpu(a), mirror_on_gpu(b));
  tx::Array<double, 2> magnitude = magnitudes(c);
  write(magnitude, magnitudes(a), magnitudes(b));
  check_against_cpu(what, cpu, gpu_result, [&](index_t i, const T& value) {
    return product_bound<T>(magnitude.data()[i], inner, static_cast<double>(value));
  });
}

template <class T>
std::string in_type(const std::string& what) {
  return what + " (" + type_name<T>() + ")";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cpu_gpu_agreement_layout, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE_TEMPLATE(transposes_and_permutations_give_the_same_bits, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1301);
  const auto transpose = [](const auto& a) { return tx::transpose(a); };
  for (const auto dims :
       {tx::make_dim(517, 301), tx::make_dim(1, 7), tx::make_dim(33, 1), tx::make_dim(64, 96)}) {
    check_build(in_type<T>("transpose of a matrix"), kBitwise, transpose,
                random_array<T>(dims, rng, -4, 4));
  }
  check_build(in_type<T>("transpose of a transposed view"), kBitwise, transpose,
              transposed(random_array<T>(tx::make_dim(129, 65), rng, -4, 4)));
  check_build(
      in_type<T>("transpose of an expression"), kBitwise,
      [](const auto& a) { return tx::transpose(a * 2.0); },
      random_array<T>(tx::make_dim(77, 131), rng, -4, 4));
  const auto a3 = random_array<T>(tx::make_dim(7, 45, 33), rng, -4, 4);
  for (const auto axes : {tx::make_dim(0, 2, 1), tx::make_dim(2, 0, 1), tx::make_dim(1, 0, 2),
                          tx::make_dim(2, 1, 0)}) {
    check_build(
        in_type<T>("permute of rank 3"), kBitwise,
        [axes](const auto& a) { return tx::permute(a, axes); }, a3);
  }
  const auto a4 = random_array<T>(tx::make_dim(5, 3, 17, 11), rng, -4, 4);
  for (const auto axes : {tx::make_dim(3, 1, 2, 0), tx::make_dim(0, 1, 3, 2),
                          tx::make_dim(2, 3, 0, 1), tx::make_dim(1, 3, 0, 2)}) {
    check_build(
        in_type<T>("permute of rank 4"), kBitwise,
        [axes](const auto& a) { return tx::permute(a, axes); }, a4);
  }
  // Writing through a transposed view of the destination.
  const auto source = random_array<T>(tx::make_dim(301, 517), rng, -4, 4);
  tx::Array<T, 2> cpu(tx::make_dim(517, 301)), gpu_result(tx::make_dim(517, 301), gpu());
  tx::transpose(cpu) = source;
  tx::transpose(gpu_result) = mirror_on_gpu(source);
  check_against_cpu(in_type<T>("assignment through a transposed view"), cpu, gpu_result, kBitwise);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(slices_and_concats_give_the_same_bits, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1302);
  const auto a = random_array<T>(tx::make_dim(19, 23, 29), rng, -4, 4);
  for (int axis = 0; axis < 3; ++axis) {
    const std::string along = " along axis " + std::to_string(axis);
    check_build(
        in_type<T>("slice" + along), kBitwise,
        [axis](const auto& x) { return tx::slice(x, axis, 3, 17); }, a);
    check_build(
        in_type<T>("slice of an expression" + along), kBitwise,
        [axis](const auto& x) { return tx::slice(x * 2.0 + 1.0, axis, 1, 18); }, a);
  }
  const auto b = random_array<T>(tx::make_dim(19, 23, 29), rng, -4, 4);
  const auto c = random_array<T>(tx::make_dim(19, 23, 29), rng, -4, 4);
  check_build(
      in_type<T>("concat along axis 0"), kBitwise,
      [](const auto& x, const auto& y) { return tx::concat<0>(x, y); }, a, b);
  check_build(
      in_type<T>("concat of three along axis 1"), kBitwise,
      [](const auto& x, const auto& y, const auto& z) { return tx::concat<1>(x, y, z); }, a, b, c);
  check_build(
      in_type<T>("concat along axis 2 of slices"), kBitwise,
      [](const auto& x, const auto& y) {
        return tx::concat<2>(tx::slice(x, 2, 0, 5), tx::slice(y, 2, 7, 29));
      },
      a, b);
  check_build(
      in_type<T>("concat of matrices, one transposed"), kBitwise,
      [](const auto& x, const auto& y) { return tx::concat<0>(x, tx::transpose(y)); },
      random_array<T>(tx::make_dim(40, 333), rng, -4, 4),
      random_array<T>(tx::make_dim(333, 17), rng, -4, 4));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(gathers_and_one_hots_give_the_same_bits, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1303);
  const auto table = random_array<T>(tx::make_dim(1000, 37), rng, -4, 4);
  const auto take = [](const auto& t, const auto& i) { return tx::take(t, i); };
  check_build(in_type<T>("take by int32 indices"), kBitwise, take, table,
              random_indices<std::int32_t>(tx::make_dim(500), rng, 0, 999));
  check_build(in_type<T>("take by a matrix of int64 indices"), kBitwise, take, table,
              random_indices<std::int64_t>(tx::make_dim(20, 30), rng, 0, 999));
  check_build(in_type<T>("take from a rank-3 table"), kBitwise, take,
              random_array<T>(tx::make_dim(50, 6, 7), rng, -4, 4),
              random_indices<std::int64_t>(tx::make_dim(300), rng, 0, 49));
  // Indices outside [0, depth) give rows of zeros.
  const auto one_hot = [](const auto& i) { return tx::one_hot<T>(i, 17); };
  check_build(in_type<T>("one_hot of int32 indices"), kBitwise, one_hot,
              random_indices<std::int32_t>(tx::make_dim(1000), rng, -2, 18));
  check_build(in_type<T>("one_hot of a matrix of int64 indices"), kBitwise, one_hot,
              random_indices<std::int64_t>(tx::make_dim(31, 29), rng, -2, 18));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(products_agree_within_the_summation_bound, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1304);
  const index_t m = 257, k = 129, n = 65;
  const auto a = random_array<T>(tx::make_dim(m, k), rng, -1, 1);
  const auto b = random_array<T>(tx::make_dim(k, n), rng, -1, 1);
  const auto at = transposed(random_array<T>(tx::make_dim(k, m), rng, -1, 1));
  const auto bt = transposed(random_array<T>(tx::make_dim(n, k), rng, -1, 1));
  const auto dot = [](const auto& x, const auto& y) { return tx::dot(x, y); };
  check_product<T>(in_type<T>("dot"), k, dot, a, b);
  check_product<T>(in_type<T>("dot of a transposed view and a matrix"), k, dot, at, b);
  check_product<T>(in_type<T>("dot of a matrix and a transposed view"), k, dot, a, bt);
  check_product<T>(in_type<T>("dot of two transposed views"), k, dot, at, bt);
  check_product<T>(
      in_type<T>("dot of transpose(a)"), k,
      [](const auto& x, const auto& y) { return tx::dot(tx::transpose(x), y); },
      random_array<T>(tx::make_dim(k, m), rng, -1, 1), b);
  check_product<T>(
      in_type<T>("0.5 * dot"), k, [](const auto& x, const auto& y) { return 0.5 * tx::dot(x, y); },
      a, b);
  check_product<T>(in_type<T>("dot of a matrix and a vector"), k, dot, a,
                   random_array<T>(tx::make_dim(k), rng, -1, 1));
  check_product<T>(in_type<T>("dot of a vector and a matrix"), k, dot,
                   random_array<T>(tx::make_dim(k), rng, -1, 1), b);
  check_product<T>(in_type<T>("dot of two vectors"), 4099, dot,
                   random_array<T>(tx::make_dim(4099), rng, -1, 1),
                   random_array<T>(tx::make_dim(4099), rng, -1, 1));
  // Tensor-core sizes for float16, and a long inner dimension.
  check_product<T>(in_type<T>("dot of 512 x 1024 and 1024 x 256"), 1024, dot,
                   random_array<T>(tx::make_dim(512, 1024), rng, -1, 1),
                   random_array<T>(tx::make_dim(1024, 256), rng, -1, 1));

  const auto batch_dot = [](const auto& x, const auto& y) { return tx::batch_dot(x, y); };
  const auto xs = random_array<T>(tx::make_dim(9, 33, 47), rng, -1, 1);
  const auto ys = random_array<T>(tx::make_dim(9, 47, 21), rng, -1, 1);
  check_product<T>(in_type<T>("batch_dot"), 47, batch_dot, xs, ys);
  check_product<T>(
      in_type<T>("batch_dot of a transposed batch"), 47,
      [](const auto& x, const auto& y) {
        return tx::batch_dot(x, tx::permute(y, tx::make_dim(0, 2, 1)));
      },
      xs, random_array<T>(tx::make_dim(9, 21, 47), rng, -1, 1));
  check_product<T>(in_type<T>("batch_dot with one matrix for the batch"), 47, batch_dot, xs,
                   random_array<T>(tx::make_dim(1, 47, 21), rng, -1, 1));

  const auto c = random_array<T>(tx::make_dim(m, n), rng, -1, 1);
  check_written_product<T>(
      in_type<T>("c += 0.5 * dot"), k,
      [](auto& out, const auto& x, const auto& y) { out += 0.5 * tx::dot(x, y); }, c, a, b);
  check_written_product<T>(
      in_type<T>("gemm(kYes, kYes, 0.75, a, b, 0.5, c)"), k,
      [](auto& out, const auto& x, const auto& y) {
        tx::gemm(tx::Trans::kYes, tx::Trans::kYes, 0.75, x, y, 0.5, out);
      },
      c, random_array<T>(tx::make_dim(k, m), rng, -1, 1),
      random_array<T>(tx::make_dim(n, k), rng, -1, 1));
  check_written_product<T>(
      in_type<T>("gemm(kNo, kYes, 1, a, b, 0, c)"), k,
      [](auto& out, const auto& x, const auto& y) {
        tx::gemm(tx::Trans::kNo, tx::Trans::kYes, 1.0, x, y, 0.0, out);
      },
      c, a, random_array<T>(tx::make_dim(n, k), rng, -1, 1));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(fused_layers_agree_within_the_summation_bound, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1305);
  for (const auto& [m, k, n] : {std::tuple<index_t, index_t, index_t>{257, 129, 65},
                                std::tuple<index_t, index_t, index_t>{512, 1024, 256}}) {
    const auto x = random_array<T>(tx::make_dim(m, k), rng, -1, 1);
    const auto w = random_array<T>(tx::make_dim(k, n), rng, -1, 1);
    const auto bias = random_array<T>(tx::make_dim(n), rng, -1, 1);
    const std::string size =
        " of " + std::to_string(m) + " x " + std::to_string(k) + " x " + std::to_string(n);
    // relu is exact, so the activation keeps the bound of its argument.
    check_product<T>(
        in_type<T>("relu(dot(x, w) + bias)" + size), k,
        [](const auto& a, const auto& b, const auto& c) { return tx::relu(tx::dot(a, b) + c); }, x,
        w, bias);
    check_product<T>(
        in_type<T>("dot(x, w) + bias" + size), k,
        [](const auto& a, const auto& b, const auto& c) { return tx::dot(a, b) + c; }, x, w, bias);
    check_product<T>(
        in_type<T>("relu(bias + dot(x, w))" + size), k,
        [](const auto& a, const auto& b, const auto& c) { return tx::relu(c + tx::dot(a, b)); }, x,
        w, bias);
    check_product<T>(
        in_type<T>("relu(dot(x, w))" + size), k,
        [](const auto& a, const auto& b) { return tx::relu(tx::dot(a, b)); }, x, w);
    // gelu of magnitudes is not a bound of gelu's error, so its case takes the bound of the
    // product and bias it wraps, times gelu's largest slope (1.13), and 2^-10 of the result for
    // the activation itself: cuBLASLt documents its GELU epilogue as the tanh form without
    // saying how exactly it evaluates tanh (the hardware's tanh.approx is good to 2^-11).
    const index_t inner = k;  // a lambda cannot capture a structured binding in C++17
    const tx::Array<T, 2> cpu = tx::gelu(tx::dot(x, w) + bias);
    const tx::Array<T, 2> gpu_result =
        tx::gelu(tx::dot(mirror_on_gpu(x), mirror_on_gpu(w)) + mirror_on_gpu(bias));
    const tx::Array<double, 2> magnitude = tx::dot(magnitudes(x), magnitudes(w)) + magnitudes(bias);
    check_against_cpu(in_type<T>("gelu(dot(x, w) + bias)" + size), cpu, gpu_result,
                      [&](index_t i, const T& c) {
                        const double value = static_cast<double>(c);
                        return 1.2 * product_bound<T>(magnitude.data()[i], inner, value) +
                               std::ldexp(std::max(std::abs(value), 0.5), -10);
                      });
  }
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

// 46341^2 = 2^31 + 4633 float16 elements (4.3 GB): past the 32-bit index range.
constexpr index_t kHugeSide = 46341;
constexpr std::size_t kHugeBytes = std::size_t{kHugeSide} * kHugeSide * sizeof(tx::float16);

/// True where GPU 0 and the host have room for the case: two huge arrays on the GPU (after
/// handing the pool's cached blocks back) and three on the host, with 2 GiB to spare on each.
boost::test_tools::assertion_result memory_for_huge_arrays(boost::unit_test::test_unit_id) {
  std::size_t gpu_free = 0, gpu_total = 0;
  if (tx::cuda::device_count() > 0) {
    tx::cuda::empty_cache();  // tensorx's own pool: the device's default pool holds none of it
    if (cudaMemGetInfo(&gpu_free, &gpu_total) != cudaSuccess) gpu_free = 0;
  }
  const std::size_t host_free = static_cast<std::size_t>(sysconf(_SC_AVPHYS_PAGES)) *
                                static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t spare = std::size_t{2} << 30;
  boost::test_tools::assertion_result result(gpu_free >= 2 * kHugeBytes + spare &&
                                             host_free >= 3 * kHugeBytes + spare);
  result.message() << "needs " << (2 * kHugeBytes + spare) << " bytes free on GPU 0 (has "
                   << gpu_free << ") and " << (3 * kHugeBytes + spare)
                   << " bytes free on the host (has " << host_free << ")";
  return result;
}

/// A huge matrix of multiples of 1/64 in [-4, 4], from a hash of the position: exact in
/// float16, and cheap to make for 2^31 elements.
tx::Array<tx::float16, 2> huge_matrix() {
  tx::Array<tx::float16, 2> a(tx::make_dim(kHugeSide, kHugeSide));
  tx::float16* data = a.data();
  const index_t count = a.numel();
  // On tensorx's CPU thread pool: 2^31 elements are seconds of work for one thread.
  tx::detail::parallel_for(count, tx::detail::kParallelGrain, [&](index_t begin, index_t end) {
    for (index_t i = begin; i < end; ++i) {
      std::uint64_t h = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
      h ^= h >> 29;
      data[i] = tx::float16(static_cast<float>(static_cast<int>(h % 513) - 256) / 64.0f);
    }
  });
  return a;
}

}  // namespace

// Excluded from runs under compute-sanitizer (--run_test='!@large'), where its 2^31-element
// kernels would take most of the time.
BOOST_AUTO_TEST_SUITE(cpu_gpu_agreement_past_2_to_the_31,
                      *tx::testing::needs_cuda() * boost::unit_test::label("large"))

BOOST_AUTO_TEST_CASE(huge_arrays_agree, *boost::unit_test::precondition(memory_for_huge_arrays)) {
  using half = tx::float16;
  tx::Array<half, 2> a = huge_matrix();
  // One maximum past 2^31 in the flattened array, for argmax to find there.
  const index_t planted = (index_t{1} << 31) + 1234;
  a.data()[planted] = half(100.0f);
  tx::Array<half, 2> a_gpu = tx::to(a, gpu());
  {
    const tx::Array<half, 2> cpu = tx::transpose(a);
    const tx::Array<half, 2> gpu_result = tx::transpose(a_gpu);
    check_against_cpu("transpose past 2^31 elements", cpu, gpu_result, kBitwise);
  }
  const auto sum_bound = [](index_t count) {
    return [count](index_t, const half& c) {
      // Magnitudes are at most 4 on average 2: bound the sum of them by 4 count.
      const double levels = std::log2(static_cast<double>(count) + 1.0);
      return (4.0 + 2.0 * levels) * unit_roundoff<half>() * 4.0 * static_cast<double>(count) +
             ulp_at<half>(std::abs(static_cast<double>(c)));
    };
  };
  {
    const tx::Array<half, 1> cpu = tx::sum<1>(a), gpu_result = tx::sum<1>(a_gpu);
    check_against_cpu("row sums past 2^31 elements", cpu, gpu_result, sum_bound(kHugeSide));
  }
  {
    const tx::Array<half, 1> cpu = tx::sum<0>(a), gpu_result = tx::sum<0>(a_gpu);
    check_against_cpu("column sums past 2^31 elements", cpu, gpu_result, sum_bound(kHugeSide));
  }
  {
    const tx::Array<half, 0> cpu = tx::mean(a), gpu_result = tx::mean(a_gpu);
    const index_t count = a.numel();
    check_against_cpu("the mean of 2^31 elements", cpu, gpu_result, [&](index_t, const half& c) {
      return sum_bound(count)(0, c) / static_cast<double>(count) +
             ulp_at<half>(std::abs(static_cast<double>(c)));
    });
  }
  {
    const auto flat = tx::make_dim(a.numel());
    const tx::Array<std::int64_t, 0> cpu = tx::argmax<0>(tx::reshape(a, flat));
    const tx::Array<std::int64_t, 0> gpu_result = tx::argmax<0>(tx::reshape(a_gpu, flat));
    check_against_cpu("argmax of 2^31 elements", cpu, gpu_result, kBitwise);
    BOOST_TEST(cpu.item() == planted);
  }
}

BOOST_AUTO_TEST_SUITE_END()
