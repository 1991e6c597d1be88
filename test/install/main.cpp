// An application of an installed tensorx, written only against the public API of DESIGN.md through
// the one public header: places, shapes and arrays, with calls into the compiled layer
// (allocation, copies, device queries, a reduction) so that linking the library is exercised too.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <tensorx/tensorx.h>

namespace tx = tensorx;

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

template <class T, int N>
bool all_equal(const tx::Array<T, N>& array, T value) {
  for (T element : tx::make_view(array)) {
    if (element != value) return false;
  }
  return true;
}

}  // namespace

int main() {
  tx::Place place;
  expect(tx::is_cpu_place(place), "a default-constructed Place is the CPU");
  place = tx::CudaPlace(0);
  expect(tx::is_gpu_place(place) && !tx::is_cpu_place(place), "a CudaPlace is a GPU place");

  tx::Dim<3> d(2, 3, 4);
  expect(d[0] == 2 && tx::get<1>(d) == 3 && tx::product(d) == 24, "Dim<3>(2, 3, 4)");
  expect(tx::contiguous_strides(d) == tx::make_dim(12, 4, 1), "row-major strides");
  tx::DDim dd = tx::make_ddim({2, 3});
  expect(tx::arity(dd) == 2 && tx::product(dd) == 6 && dd[1] == 3, "make_ddim({2, 3})");
  expect(tx::vectorize(dd) == std::vector<std::int64_t>{2, 3}, "vectorize(make_ddim({2, 3}))");

  tx::Array<float, 2> a = tx::ones<float>(tx::make_dim(2, 3));
  tx::Array<float, 2> b = tx::zeros<float>(tx::make_dim(2, 3));
  expect(all_equal(a, 1.0f) && all_equal(b, 0.0f), "ones and zeros");
  a(0, 1) = 5.0f;
  tx::copy(b, a);
  expect(b(0, 1) == 5.0f && b(1, 2) == 1.0f, "copy between CPU arrays");
  tx::Array<float, 2> c = tx::to(a, tx::CpuPlace());
  expect(c.data() != a.data() && c(0, 1) == 5.0f, "to() makes a copy");

  // A reduction of a plain array runs in the compiled layer (its loops instantiated there), and
  // one of an expression in this unit.
  tx::Array<float, 1> row_sums = tx::sum<1>(a);
  tx::Array<float, 1> twice = tx::sum<1>(a * 2.0f);
  expect(row_sums(0) == 7.0f && row_sums(1) == 3.0f && twice(0) == 14.0f,
         "sum<1> of an array and of an expression");

  // DArray's members and functions are compiled into the library (array/darray.h): an outside
  // program links them.
  tx::DArray x = tx::make_darray(tx::make_ddim({2, 3}), 0.0f);
  tx::DArray y = x;
  y = tx::make_darray(tx::make_ddim({2, 3}), 2.0f);
  tx::copy(x, y);
  x[tx::make_ddim({1, 2})] = 7.0;
  const tx::DArray total = tx::sum(x);
  expect(tx::rank(x) == 2 && tx::numel(x) == 6 && tx::dtype(x) == tx::DataType::kFloat32 &&
             tx::dims(x) == tx::make_ddim({2, 3}) && tx::is_cpu_place(tx::place(x)),
         "a DArray's rank, extent, element type and place");
  expect(total.as<float, 1>()(0) == 17.0f, "tx::sum of a DArray");
  // So is the labelled copy between DArrays (labels/labelled_darray.h), which allocates its result.
  tx::DArray transposed;
  transposed("j,i") = x("i,j");
  expect(tx::dims(transposed) == tx::make_ddim({3, 2}) && transposed.as<float, 2>()(2, 1) == 7.0f,
         "a labelled copy of a DArray");

#ifdef TENSORX_WITH_CUDA
  expect(tx::cuda::compiled_with_cuda(), "TENSORX_WITH_CUDA matches the compiled layer");
#else
  expect(!tx::cuda::compiled_with_cuda(), "TENSORX_WITH_CUDA matches the compiled layer");
#endif
  if (tx::cuda::device_count() > 0) {
    tx::Array<float, 2> g = tx::to(a, tx::CudaPlace(0));
    tx::Array<float, 2> back = tx::to(g, tx::CpuPlace());
    expect(tx::is_gpu_place(g.place()) && back(0, 1) == 5.0f && back(1, 0) == 1.0f,
           "a round trip through GPU 0");
  } else {
    std::printf("no CUDA device, GPU round trip not run: %s\n", tx::cuda::unavailable_reason());
  }

  if (failures > 0) return 1;
  std::printf("install test passed\n");
  return 0;
}
