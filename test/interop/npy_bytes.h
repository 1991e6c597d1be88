// .npy files built byte by byte, independently of tensorx's writer: the preamble of any format
// version, a header dictionary given as text (valid or not), padded as NumPy pads it, and data.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>

namespace tensorx {
namespace testing {

/// The 6 magic bytes every .npy file starts with.
inline std::string npy_magic() {
  return std::string("\x93NUMPY", 6);
}

/// A .npy file of format `major`.0 whose header is `dict`, padded with spaces and a newline so
/// that the data starts at a multiple of 64 bytes, followed by `data`.
inline std::string npy_bytes(const std::string& dict, const std::string& data = "", int major = 1) {
  const std::size_t preamble = major == 1 ? 10 : 12;
  std::string header = dict;
  header.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string bytes = npy_magic();
  bytes += static_cast<char>(major);
  bytes += '\0';
  const std::size_t length_bytes = preamble - 8;
  for (std::size_t i = 0; i < length_bytes; ++i) {
    bytes += static_cast<char>(header.size() >> (8 * i) & 0xff);
  }
  return bytes + header + data;
}

/// The raw bytes of `values`, as they lie in memory (little-endian on every tensorx host).
template <class T>
std::string raw_bytes(std::initializer_list<T> values) {
  std::string bytes;
  for (const T& value : values) bytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
  return bytes;
}

}  // namespace testing
}  // namespace tensorx
