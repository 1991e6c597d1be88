// A tour of tensorx: the core types (places, shapes, arrays and their views, the global operations,
// DArray), fused element-wise expressions with a user functor, a reduction and a matrix product,
// and a round trip through the GPU where one is present.
#include <cstdint>
#include <iostream>
#include <type_traits>
#include <vector>

#include <tensorx/tensorx.h>

namespace tx = tensorx;

namespace {

template <class T, int N>
void print(const char* name, const tx::Array<T, N>& array) {
  std::cout << name << ' ' << array.dims() << " on " << array.place() << ':';
  for (T element : tx::make_view(array)) std::cout << ' ' << element;
  std::cout << '\n';
}

// MXNet's smooth L1 loss, written once with tensorx's math functions: the same body runs in the
// scalar CPU loop, in SIMD batches and inside a CUDA kernel.
struct smooth_l1 {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& x, const T& sigma) const {
    const T sigma2 = sigma * sigma;
    const T magnitude = tx::abs(x);
    return tx::where(magnitude < T(1) / sigma2, T(0.5) * sigma2 * x * x,
                     magnitude - T(0.5) / sigma2);
  }
};

std::ostream& operator<<(std::ostream& out, const std::vector<std::int64_t>& values) {
  out << '(';
  for (std::size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
  return out << ')';
}

}  // namespace

int main() {
  // Places and shapes.
  tx::Place place;  // the CPU unless said otherwise
  std::cout << "default place: " << place << ", GPU 0 is " << tx::Place(tx::CudaPlace(0)) << '\n';
  tx::Dim<3> d(2, 3, 4);
  std::cout << "Dim " << d << ": d[0] = " << d[0] << ", product = " << tx::product(d)
            << ", row-major strides " << tx::contiguous_strides(d) << '\n';
  tx::DDim dd = tx::make_ddim({2, 3});
  std::cout << "DDim of arity " << tx::arity(dd) << ": " << tx::vectorize(dd) << '\n';

  // An array on the CPU, written element by element.
  tx::Array<float, 2> a(tx::make_dim(2, 3));
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) a(i, j) = static_cast<float>(10 * i + j);
  }
  print("a", a);

  // Views share a's buffer: writing through them writes a.
  tx::Array<float, 1> row = a[1];
  row(0) = -1.0f;
  print("a after a[1](0) = -1", a);
  print("a.slice(1, 2)", a.slice(1, 2));
  print("reshape(a, (3, 2))", tx::reshape(a, tx::make_dim(3, 2)));
  auto it = tx::make_iterator(a, tx::make_dim(0, 2));
  std::cout << "iterating from (0, 2): " << *it;
  ++it;
  std::cout << ", then " << *it << " at " << it.index() << '\n';

  // Global operations allocate, fill and copy; plain assignment only aliases.
  tx::Array<float, 2> b = tx::zeros<float>(a.dims());
  tx::copy(b, a);
  tx::fill(a, 7.0f);
  print("b, a copy of a taken before fill(a, 7)", b);
  print("ones", tx::ones<double>(tx::make_dim(3)));

  // DArray: element type and rank chosen at run time.
  tx::DArray x = tx::make_darray(tx::make_ddim({2, 3}), 0.0f);
  x[tx::make_ddim({0, 1})] = 1.0;
  std::cout << "DArray of dims " << tx::vectorize(tx::dims(x)) << " on " << tx::place(x) << '\n';
  tx::visit(
      [](auto& typed) {
        using Typed = std::decay_t<decltype(typed)>;
        std::cout << "  visited as an Array<T, " << Typed::rank << "> of " << typed.numel() << ' '
                  << sizeof(typename Typed::value_type) << "-byte elements\n";
      },
      x);

  // Fused expressions: each assignment is ONE pass over its destination, however many operations
  // the right-hand side has; tx::stats counts the passes.
  tx::Array<float, 2> u(tx::make_dim(2, 3)), v(tx::make_dim(2, 3));
  for (int i = 0; i < 6; ++i) {
    u.data()[i] = 0.5f * static_cast<float>(i) - 1.0f;
    v.data()[i] = 0.25f * static_cast<float>(i);
  }
  tx::Array<float, 1> bias(tx::make_dim(3));
  tx::fill(bias, 0.5f);
  const auto passes_before = tx::stats::passes();
  tx::Array<float, 2> sigmoid = 1.0f / (1.0f + tx::exp(-(u * v + bias)));  // bias broadcast
  tx::Array<float, 2> loss = tx::F<smooth_l1>(u - v, 1.5f);
  std::cout << "two fused assignments took " << tx::stats::passes() - passes_before << " passes\n";
  print("sigmoid(u * v + bias)", sigmoid);
  print("smooth_l1(u - v, 1.5)", loss);
  tx::Array<float, 0> total;
  total = tx::sum(loss * loss);  // one pass, no temporary for loss * loss
  std::cout << "sum of squared losses: " << total.item() << '\n';
  tx::Array<float, 2> gram = tx::dot(u, tx::transpose(v));  // BLAS, the transpose is a flag
  print("u . v^T", gram);

  // The GPU, where there is one.
  if (tx::cuda::device_count() > 0) {
    tx::Array<float, 2> on_gpu = tx::to(b, tx::CudaPlace(0));
    print("b through GPU 0 and back", tx::to(on_gpu, tx::CpuPlace()));
  } else {
    std::cout << "no GPU present: " << tx::cuda::unavailable_reason() << '\n';
  }
  return 0;
}
