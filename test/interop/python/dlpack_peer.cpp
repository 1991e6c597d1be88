// The tensorx side of dlpack_numpy_test.py: a shared library that Python loads with ctypes, as a
// tensorx-based extension would be, to exchange arrays with NumPy through DLPack. It holds one
// DArray at a time (an import, or the view it last exported) so that Python can compare addresses
// and elements with NumPy's, and it counts the buffers it exports that are still alive.
// C functions only: no exception crosses into Python (peer_import reports errors as text).
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include <tensorx/array/array_view.h>
#include <tensorx/array/darray.h>
#include <tensorx/interop/dlpack.h>

namespace tx = tensorx;

namespace {

std::optional<tx::DArray> held;
std::string last_error;
int live_exports = 0;

/// A strided, offset view of a new buffer: element (i, j, ...) of the view is element
/// (2i + 1, 2j + 1, ...) of a dense array of extents 2e + 1, so every stride is doubled and the
/// offset is one step along each axis. Element i (row-major) of the view holds i. The buffer is
/// malloc'ed memory that tensorx borrows, so that its release is visible in live_exports.
template <class T, int N>
tx::Array<T, N> strided_view(const tx::Dim<N>& dims) {
  tx::Dim<N> outer;
  for (int d = 0; d < N; ++d) outer.at(d) = 2 * dims.at(d) + 1;
  const tx::Dim<N> outer_strides = tx::contiguous_strides(outer);
  tx::Dim<N> strides;
  tx::index_t offset = 0;
  for (int d = 0; d < N; ++d) {
    strides.at(d) = 2 * outer_strides.at(d);
    offset += outer_strides.at(d);
  }
  const std::size_t bytes = static_cast<std::size_t>(tx::product(outer)) * sizeof(T);
  void* memory = std::malloc(bytes);
  ++live_exports;
  auto buffer = std::make_shared<tx::Allocation>(memory, bytes, tx::CpuPlace(), [memory] {
    std::free(memory);
    --live_exports;
  });
  const tx::Array<T, N> view(std::move(buffer), dims, strides, offset);
  std::int64_t i = 0;
  for (T& element : tx::make_view(view)) element = static_cast<T>(i++);
  return view;
}

/// The element at row-major position `linear` of the held array, as a reference of its type.
template <class F>
auto with_element(std::int64_t linear, F&& f) {
  return tx::visit([&](auto& array) { return f(array[tx::delinearize(linear, array.dims())]); },
                   *held);
}

}  // namespace

extern "C" {

/// Exports a strided view (see strided_view) of `rank` (1 to 4) extents `dims` of element type
/// `dtype` (a tx::DataType value), keeps it as the held array, and returns the tensor.
DLManagedTensorVersioned* peer_export(int dtype, int rank, const std::int64_t* dims) {
  held = tx::type_switch(static_cast<tx::DataType>(dtype), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return tx::detail::darray_rank_switch(rank, [&](auto n) {
      tx::Dim<n> extent;
      for (int d = 0; d < n; ++d) extent.at(d) = dims[d];
      return tx::DArray(strided_view<T, n>(extent));
    });
  });
  return tx::to_dlpack(*held);
}

/// Imports a versioned (`versioned` != 0) or legacy tensor as the held array. Returns 0, or 1
/// with the error in peer_last_error() (the tensor then still belongs to the caller).
int peer_import(void* tensor, int versioned) {
  try {
    held = versioned ? tx::from_dlpack(static_cast<DLManagedTensorVersioned*>(tensor))
                     : tx::from_dlpack(static_cast<DLManagedTensor*>(tensor));
    return 0;
  } catch (const tx::Error& e) {
    last_error = e.what();
    return 1;
  }
}

const char* peer_last_error() {
  return last_error.c_str();
}

/// Calls a tensor's deleter: what a capsule destructor does with a tensor nobody consumed.
void peer_delete(DLManagedTensorVersioned* tensor) {
  tensor->deleter(tensor);
}

/// Drops the held array (and with it tensorx's share of its memory).
void peer_forget() {
  held.reset();
}

/// How many exported buffers are still alive.
int peer_live_exports() {
  return live_exports;
}

/// The held array's element type, rank, extents, strides (in elements) and first element.
int peer_dtype() {
  return static_cast<int>(tx::dtype(*held));
}
int peer_rank() {
  return tx::rank(*held);
}
void peer_layout(std::int64_t* dims, std::int64_t* strides) {
  tx::visit(
      [&](auto& array) {
        for (int d = 0; d < array.rank; ++d) {
          dims[d] = array.dims().at(d);
          strides[d] = array.strides().at(d);
        }
      },
      *held);
}
std::uintptr_t peer_data() {
  return tx::visit([](auto& array) { return reinterpret_cast<std::uintptr_t>(array.data()); },
                   *held);
}

/// Element `linear` (row-major) of the held array, read and written as a double.
double peer_get(std::int64_t linear) {
  return with_element(linear, [](const auto& element) { return static_cast<double>(element); });
}
void peer_set(std::int64_t linear, double value) {
  with_element(linear, [&](auto& element) {
    element = static_cast<std::decay_t<decltype(element)>>(value);
    return 0;
  });
}

}  // extern "C"
