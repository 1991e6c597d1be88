// The .npy reader: preamble, header and data, each checked against what the file really holds
// before anything is allocated, so that no corrupt file can make tensorx read past its end or
// allocate more memory than the file could fill.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "interop/npy_format.h"
#include "interop/npy_header_dict.h"
#include "tensorx/interop/npy.h"

namespace tensorx {
namespace detail {
namespace {

// The .npy format stores little-endian data and lengths, which tensorx hands over as they are.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "The .npy reader assumes a little-endian host, as every tensorx platform is.");

/// Reads up to `count` bytes; returns how many there were.
std::size_t read_bytes(std::istream& in, void* dst, std::size_t count) {
  in.read(static_cast<char*>(dst), static_cast<std::streamsize>(count));
  return static_cast<std::size_t>(in.gcount());
}

/// The unsigned little-endian number in `count` bytes.
std::uint32_t little_endian(const unsigned char* bytes, int count) {
  std::uint32_t value = 0;
  for (int i = count - 1; i >= 0; --i) value = value << 8 | bytes[i];
  return value;
}

/// The header's text after the preamble (magic, version, header length).
std::string read_header_text(std::istream& in, const std::string& path) {
  unsigned char preamble[12];
  const std::size_t start = read_bytes(in, preamble, 8);
  const std::size_t magic_read = std::min(start, kNpyMagic.size());
  if (std::memcmp(preamble, kNpyMagic.data(), magic_read) != 0) {
    throw_npy_error(path, "not a .npy file: it does not start with the magic string \\x93NUMPY");
  }
  if (start < 8) {
    throw_npy_error(path, message("truncated preamble: the file ends after ", start, " bytes"));
  }
  const int major = preamble[6], minor = preamble[7];
  if (major < 1 || major > 3 || minor != 0) {
    throw_npy_error(path, message("unsupported .npy format version ", major, ".", minor,
                                  " (tensorx reads 1.0, 2.0 and 3.0)"));
  }
  // Version 1.0 has a 2-byte header length; 2.0 and 3.0 (UTF-8 header) have 4 bytes.
  const int length_bytes = major == 1 ? 2 : 4;
  if (read_bytes(in, preamble + 8, static_cast<std::size_t>(length_bytes)) <
      static_cast<std::size_t>(length_bytes)) {
    throw_npy_error(path, "truncated preamble: the file ends inside the header length");
  }
  const std::size_t length = little_endian(preamble + 8, length_bytes);
  if (length > kMaxNpyHeaderBytes) {
    throw_npy_error(path, message("the header length ", length, " is larger than ",
                                  kMaxNpyHeaderBytes, " bytes, which no valid header needs"));
  }
  std::string text(length, '\0');
  const std::size_t found = read_bytes(in, text.data(), length);
  if (found < length) {
    throw_npy_error(path, message("truncated header: the preamble announces ", length,
                                  " bytes, the file holds ", found));
  }
  return text;
}

/// The element type a dtype string names; big-endian and unknown ones throw.
DataType element_type(const std::string& descr, const std::string& path) {
  if (const auto type = data_type_of_descr(descr)) return *type;
  if (!descr.empty() && descr[0] == '>') {
    throw_npy_error(path, message("big-endian data (dtype '", descr,
                                  "') is not supported: save it little-endian, e.g. with "
                                  "a.astype(a.dtype.newbyteorder('<')) in NumPy"));
  }
  throw_npy_error(
      path, message("unsupported dtype '", descr, "' (tensorx reads ", supported_descrs(), ")"));
}

/// The array the header describes, without a buffer: C order is row-major, Fortran order
/// column-major strides over the same extents.
ErasedArray layout_of(const NpyHeader& header, const std::string& path) {
  ErasedArray layout;
  layout.type = header.type;
  layout.rank = static_cast<int>(header.shape.size());
  // Both the element count and the byte count must fit in index_t, which std::size_t holds too.
  const index_t element_size = static_cast<index_t>(size_of(header.type));
  index_t bytes = element_size;
  for (int d = 0; d < layout.rank; ++d) {
    const index_t extent = header.shape[static_cast<std::size_t>(d)];
    if (extent != 0 && bytes > std::numeric_limits<index_t>::max() / extent) {
      throw_npy_error(path, message("shape overflow: shape ", python_tuple(header.shape), " of ",
                                    name(header.type), " needs more than 2^63 bytes"));
    }
    bytes *= extent;
    layout.dims[d] = extent;
  }
  index_t stride = 1;
  for (int i = 0; i < layout.rank; ++i) {
    const int d = header.fortran_order ? i : layout.rank - 1 - i;
    layout.strides[d] = stride;
    stride *= layout.dims[d];
  }
  return layout;
}

/// The bytes between the stream's position and its end.
index_t bytes_left(std::istream& in, const std::string& path) {
  const std::streampos here = in.tellg();
  in.seekg(0, std::ios::end);
  const std::streampos end = in.tellg();
  in.seekg(here);
  if (here < 0 || end < 0 || !in) throw_npy_error(path, "cannot determine the size of the file");
  return static_cast<index_t>(end - here);
}

}  // namespace

NpyReader::NpyReader(std::istream& in, std::string path) : in_(in), path_(std::move(path)) {
  const NpyHeaderDict dict = parse_npy_header_dict(read_header_text(in_, path_), path_);
  header_.type = element_type(dict.descr, path_);
  header_.shape = dict.shape;
  header_.fortran_order = dict.fortran_order;
  layout_ = layout_of(header_, path_);
}

ErasedArray NpyReader::read_data() {
  const index_t bytes = layout_.numel() * static_cast<index_t>(size_of(layout_.type));
  const index_t available = bytes_left(in_, path_);
  const auto truncated = [&](index_t found) {
    throw_npy_error(path_, message("truncated data: shape ", python_tuple(header_.shape), " of ",
                                   name(header_.type), " needs ", bytes,
                                   " bytes after the header, the file holds ", found));
  };
  if (available < bytes) truncated(available);
  ErasedArray array = layout_;
  array.buffer = std::make_shared<Allocation>(static_cast<std::size_t>(bytes), CpuPlace());
  const std::size_t found = read_bytes(in_, array.buffer->data(), static_cast<std::size_t>(bytes));
  if (found < static_cast<std::size_t>(bytes)) truncated(static_cast<index_t>(found));
  return array;
}

std::ifstream open_npy(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw_npy_error(path, message("cannot open the file for reading: ", std::strerror(errno)));
  }
  return file;
}

}  // namespace detail

NpyHeader npy_header(const std::string& path) {
  std::ifstream file = detail::open_npy(path);
  return detail::NpyReader(file, path).header();
}

DArray load_npy(const std::string& path) {
  std::ifstream file = detail::open_npy(path);
  detail::NpyReader reader(file, path);
  detail::check_darray_rank(reader.layout(), reader.quoted_path(), "tx::load_npy<T, N>");
  return detail::darray_view(reader.read_data());
}

}  // namespace tensorx
