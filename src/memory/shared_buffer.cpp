// SharedBuffer's reference counting and the allocation of an Array's elements, compiled once here
// instead of in every function that copies an Array (include/tensorx/memory/shared_buffer.h).
#include "tensorx/memory/shared_buffer.h"

#include <cstddef>
#include <sstream>

#include "tensorx/core/error.h"

namespace tensorx {
namespace detail {

SharedBuffer::SharedBuffer(const SharedBuffer& other) noexcept = default;
SharedBuffer& SharedBuffer::operator=(const SharedBuffer& other) noexcept = default;
SharedBuffer& SharedBuffer::operator=(SharedBuffer&& other) noexcept = default;
SharedBuffer::~SharedBuffer() = default;

SharedBuffer allocate_elements(std::uint64_t count, std::size_t element_size, const Place& place,
                               const index_t* dims, int rank) {
  // Byte counts past PTRDIFF_MAX cannot be addressed, let alone allocated.
  if (count > static_cast<std::uint64_t>(PTRDIFF_MAX) / element_size) {
    std::ostringstream shape;
    shape << '(';
    for (int i = 0; i < rank; ++i) shape << (i ? ", " : "") << dims[i];
    shape << ')';
    throw OutOfMemoryError(message("cannot allocate ", count, " elements of ", element_size,
                                   " bytes (shape ", shape.str(), ") on ", place,
                                   ": more bytes than memory can address"));
  }
  return SharedBuffer(
      std::make_shared<Allocation>(static_cast<std::size_t>(count) * element_size, place));
}

}  // namespace detail
}  // namespace tensorx
