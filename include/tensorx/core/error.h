// The exception hierarchy of tensorx and a helper that builds messages naming the values involved.
// Every failure a user can cause is one of these, never an abort or a silent wrong result.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace tensorx {

/// Base of every exception tensorx throws.
class Error : public std::runtime_error {
 public:
  /// An error whose what() is `message`; each subclass takes the same argument.
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// Shapes that do not fit together (assignment, broadcasting, reshape, BLAS operands).
class ShapeError : public Error {
  using Error::Error;
};

/// An index outside the extent it addresses.
class IndexError : public Error {
  using Error::Error;
};

/// Operands on different places, or host access to device memory.
class PlaceError : public Error {
  using Error::Error;
};

/// Element type or rank that does not match what an operation needs (mostly DArray dispatch).
class TypeError : public Error {
  using Error::Error;
};

/// An argument value that an operation cannot take (tx::arange with a zero step, say); the message
/// names the value.
class ValueError : public Error {
  using Error::Error;
};

/// A device that is missing, not usable, or not compiled in.
class DeviceError : public Error {
  using Error::Error;
};

/// A failed CUDA runtime call: carries the CUDA error name and where it was detected.
class CudaError : public DeviceError {
 public:
  /// A failure named `error_name` (cudaGetErrorName), described by `message` (cudaGetErrorString),
  /// detected at `file`:`line`; what() holds all of them.
  CudaError(std::string error_name, const std::string& message, std::string file, int line)
      : DeviceError(error_name + ": " + message + " (at " + file + ":" + std::to_string(line) +
                    ")"),
        error_name_(std::move(error_name)),
        file_(std::move(file)),
        line_(line) {}
  /// The CUDA error's name, e.g. "cudaErrorInvalidValue".
  const std::string& error_name() const { return error_name_; }
  /// The source file of the failed call.
  const std::string& file() const { return file_; }
  /// The line of the failed call in file().
  int line() const { return line_; }

 private:
  std::string error_name_;
  std::string file_;
  int line_;
};

/// Memory that cannot be had: more bytes than the place can serve, or than a size_t counts. The
/// message names the bytes asked for (and, on a GPU, the device's free and total memory).
class OutOfMemoryError : public Error {
  using Error::Error;
};

/// A failed BLAS call (cuBLAS or CPU BLAS); the message names the status.
class BlasError : public Error {
  using Error::Error;
};

namespace detail {

// The parts of a message are appended one by one: text and integers directly, anything else
// (floating-point values, places, extents, ...) through its operator<<. Each kind of part is then
// compiled once per translation unit, not once for every combination of parts that a message
// names; the text is the same as streaming every part into one std::ostringstream.
inline void append_part(std::string& out, const char* text) {
  out += text;
}
inline void append_part(std::string& out, const std::string& text) {
  out += text;
}

template <class Part>
void append_part(std::string& out, const Part& part) {
  if constexpr (std::is_integral_v<Part> && !std::is_same_v<Part, bool> &&
                !std::is_same_v<Part, char> && !std::is_same_v<Part, signed char> &&
                !std::is_same_v<Part, unsigned char>) {
    out += std::to_string(part);
  } else {
    std::ostringstream stream;
    stream << part;
    out += stream.str();
  }
}

/// Every argument as text, in one string: message("shape ", dims, " is wrong").
template <class... Parts>
std::string message(const Parts&... parts) {
  std::string out;
  (append_part(out, parts), ...);
  return out;
}

}  // namespace detail
}  // namespace tensorx
