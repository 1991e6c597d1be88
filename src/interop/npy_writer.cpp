// The .npy writer: format 1.0 (a tensorx header is far below its 64 KiB limit), the header padded
// as NumPy pads it, the data straight from the array's buffer when it is dense host memory in C or
// Fortran order, otherwise from a dense host copy.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "interop/npy_format.h"
#include "tensorx/interop/npy.h"
#include "tensorx/memory/strided_copy.h"

namespace tensorx {
namespace detail {
namespace {

/// True when the array's elements are dense in row-major order (`fortran`: column-major), the
/// strides of size-1 extents ignored.
bool is_dense(const ErasedArray& array, bool fortran) {
  index_t expected = 1;
  for (int i = 0; i < array.rank; ++i) {
    const int d = fortran ? i : array.rank - 1 - i;
    if (array.dims[d] != 1 && array.strides[d] != expected) return false;
    expected *= array.dims[d];
  }
  return true;
}

StridedBytes strided_bytes_of(const ErasedArray& array) {
  StridedBytes bytes;
  bytes.data = array.data();
  bytes.buffer = array.buffer.get();  // a GPU array's record makes the copy wait for its writes
  bytes.place = array.buffer->place();
  bytes.rank = array.rank;
  for (int d = 0; d < array.rank; ++d) {
    bytes.dims[d] = array.dims[d];
    bytes.strides[d] = array.strides[d];
  }
  return bytes;
}

/// A dense row-major copy of `array` in host memory.
ErasedArray dense_host_copy(const ErasedArray& array) {
  ErasedArray dense = array;
  const std::size_t element_size = size_of(array.type);
  dense.buffer = std::make_shared<Allocation>(
      static_cast<std::size_t>(array.numel()) * element_size, CpuPlace());
  dense.offset = 0;
  index_t stride = 1;
  for (int d = array.rank - 1; d >= 0; --d) {
    dense.strides[d] = stride;
    stride *= dense.dims[d];
  }
  copy_strided(strided_bytes_of(dense), strided_bytes_of(array), element_size);
  return dense;
}

/// The header dictionary, padded with spaces and ended by a newline so that the data starts at a
/// multiple of kNpyAlignment bytes after the 10-byte preamble of format 1.0.
std::string header_text(std::string_view descr, bool fortran_order,
                        const std::vector<index_t>& shape) {
  std::string text =
      message("{'descr': '", descr, "', 'fortran_order': ", fortran_order ? "True" : "False",
              ", 'shape': ", python_tuple(shape), ", }");
  constexpr std::size_t kPreamble = 10;
  const std::size_t unpadded = kPreamble + text.size() + 1;
  text.append((kNpyAlignment - unpadded % kNpyAlignment) % kNpyAlignment, ' ');
  return text + '\n';
}

}  // namespace

void write_npy_file(const std::string& path, const ErasedArray& array) {
  const auto descr = descr_of(array.type);
  if (!descr) {
    throw_npy_error(path, message("cannot save an ", array.type_name(), ": NumPy has no dtype for ",
                                  name(array.type)));
  }
  // An array dense in both orders (at most one extent above 1) is C order, as NumPy says.
  const bool host = array.buffer && is_cpu_place(array.buffer->place());
  const bool fortran_order =
      host && array.rank > 1 && !is_dense(array, false) && is_dense(array, true);
  ErasedArray source = array;
  if (array.numel() > 0 && !fortran_order && !(host && is_dense(array, false))) {
    source = dense_host_copy(array);
  }

  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    throw_npy_error(path, message("cannot open the file for writing: ", std::strerror(errno)));
  }
  const std::string header =
      header_text(*descr, fortran_order, std::vector<index_t>(array.dims, array.dims + array.rank));
  const unsigned char version_and_length[4] = {1, 0, static_cast<unsigned char>(header.size()),
                                               static_cast<unsigned char>(header.size() >> 8)};
  file.write(kNpyMagic.data(), static_cast<std::streamsize>(kNpyMagic.size()));
  file.write(reinterpret_cast<const char*>(version_and_length), sizeof version_and_length);
  file << header;
  if (array.numel() > 0) {
    file.write(static_cast<const char*>(source.data()),
               static_cast<std::streamsize>(array.numel()) *
                   static_cast<std::streamsize>(size_of(array.type)));
  }
  file.close();
  if (!file) throw_npy_error(path, message("cannot write the file: ", std::strerror(errno)));
}

}  // namespace detail

template <class X, detail::if_darray<X>>
void save_npy(const std::string& path, const X& array) {
  detail::write_npy_file(path, detail::erase(array));
}
template void save_npy(const std::string& path, const DArray& array);

}  // namespace tensorx
