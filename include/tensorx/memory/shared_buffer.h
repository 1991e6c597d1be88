// SharedBuffer: how an Array holds its Allocation. It is a std::shared_ptr whose copy, assignment
// and destruction are compiled once in libtensorx (src/memory/shared_buffer.cpp): inline, their
// atomic reference counting and the release of the last owner were expanded into every function
// that copies or drops an Array, and expressions hold their arrays by value, so every assignment's
// code carried several copies of it.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "tensorx/core/config.h"
#include "tensorx/memory/allocation.h"

namespace tensorx {
namespace detail {

class SharedBuffer {
 public:
  SharedBuffer() noexcept = default;
  explicit SharedBuffer(std::shared_ptr<Allocation> buffer) noexcept : buffer_(std::move(buffer)) {}
  SharedBuffer(const SharedBuffer& other) noexcept;
  SharedBuffer(SharedBuffer&& other) noexcept : buffer_(std::move(other.buffer_)) {}
  SharedBuffer& operator=(const SharedBuffer& other) noexcept;
  SharedBuffer& operator=(SharedBuffer&& other) noexcept;
  ~SharedBuffer();

  Allocation* get() const noexcept { return buffer_.get(); }
  Allocation* operator->() const noexcept { return buffer_.get(); }
  explicit operator bool() const noexcept { return buffer_ != nullptr; }
  const std::shared_ptr<Allocation>& shared() const noexcept { return buffer_; }

 private:
  std::shared_ptr<Allocation> buffer_;
};

/// A new allocation for `count` elements of `element_size` bytes on `place`, for an array of
/// extent `dims` (rank `rank`, named in the error). Throws OutOfMemoryError for more bytes than
/// memory can address or the place can serve, DeviceError for an unusable GPU.
SharedBuffer allocate_elements(std::uint64_t count, std::size_t element_size, const Place& place,
                               const index_t* dims, int rank);

}  // namespace detail
}  // namespace tensorx
