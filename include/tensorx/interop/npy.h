// .npy files, NumPy's format for one array (versions 1.0, 2.0 and 3.0, little-endian data):
//   tx::save_npy("a.npy", a);                  // any Array or DArray, any place and strides
//   tx::DArray x = tx::load_npy("a.npy");       // element type and rank (1 to 4) from the file
//   auto y = tx::load_npy<float, 2>("a.npy");   // TypeError unless the file holds exactly that
// Loading reads into CPU memory. A Fortran-order file loads without a copy, as an array of the
// file's shape whose strides are column-major (NumPy's own F-contiguous layout), so y(i, j) is
// NumPy's a[i, j] in either order; saving such an array writes it in Fortran order again.
// The reader and writer are compiled (src/interop/); a file that is not a valid .npy file of a
// tensorx element type is an NpyError naming the path and what is wrong, never a crash.
#pragma once

#include <fstream>
#include <istream>
#include <string>
#include <vector>

#include "tensorx/array/array.h"
#include "tensorx/array/darray.h"
#include "tensorx/core/data_type.h"
#include "tensorx/core/error.h"
#include "tensorx/interop/erased_array.h"

namespace tensorx {

/// A file that is not a valid .npy file, or one whose content tensorx cannot hold (an element
/// type it lacks, big-endian data, a rank above 9), or that cannot be read or written.
class NpyError : public Error {
  using Error::Error;
};

/// What the header of a .npy file says.
struct NpyHeader {
  DataType type = DataType::kFloat32;  ///< the element type ('descr')
  std::vector<index_t> shape;          ///< the extents, outermost first; empty for a scalar
  bool fortran_order = false;          ///< true when the data is column-major
};

namespace detail {

/// Reads a .npy stream in two steps, so that callers can check the header's element type and
/// rank before any data is read.
class NpyReader {
 public:
  /// Reads and checks the preamble and header of `in` (seekable, at the start of the file);
  /// `path` names the file in errors. Throws NpyError.
  NpyReader(std::istream& in, std::string path);

  const NpyHeader& header() const { return header_; }
  /// The array the file holds, without its buffer: type, rank, extents and strides.
  const ErasedArray& layout() const { return layout_; }
  /// "'<path>'", how messages name the file.
  std::string quoted_path() const { return "'" + path_ + "'"; }
  /// The array, in new CPU memory; throws NpyError when the file ends before its data does.
  ErasedArray read_data();

 private:
  std::istream& in_;
  std::string path_;
  NpyHeader header_;
  ErasedArray layout_;
};

/// Opens `path` for reading as a binary file; throws NpyError naming it when that fails.
std::ifstream open_npy(const std::string& path);

/// Writes `array` as a .npy file at `path` (format 1.0); throws NpyError when that fails.
void write_npy_file(const std::string& path, const ErasedArray& array);

}  // namespace detail

/// The header of the .npy file at `path`. Throws NpyError.
NpyHeader npy_header(const std::string& path);

/// Writes `array` to `path` as a .npy file: C order, or Fortran order for an array whose strides
/// are column-major; other views and GPU arrays are copied into dense host memory first. Throws
/// NpyError when the element type has no NumPy dtype or the file cannot be written.
template <class T, int N>
void save_npy(const std::string& path, const Array<T, N>& array) {
  detail::write_npy_file(path, detail::erase(array));
}

/// Writes the array a DArray holds, as the typed form does (compiled: src/interop/npy_writer.cpp).
template <class X, detail::if_darray<X> = 0>
void save_npy(const std::string& path, const X& array);

/// The Array<T, N> in the .npy file at `path`, in CPU memory. Throws TypeError, before reading
/// any data, when the file's element type or rank differs; NpyError for a malformed file.
template <class T, int N>
Array<T, N> load_npy(const std::string& path) {
  std::ifstream file = detail::open_npy(path);
  detail::NpyReader reader(file, path);
  detail::check_type_and_rank<T, N>(reader.layout(), reader.quoted_path());
  return detail::typed_view<T, N>(reader.read_data());
}

/// The array in the .npy file at `path` as a DArray, in CPU memory. Throws TypeError, before
/// reading any data, for a rank a DArray cannot hold (0, or above 4: load those with
/// load_npy<T, N>); NpyError for a malformed file. Compiled (src/interop/npy_reader.cpp).
DArray load_npy(const std::string& path);

}  // namespace tensorx
