// Large read buffers come from anonymous mappings that the kernel may back with 2 MiB pages
// (madvise(MADV_HUGEPAGE), as NumPy does for its arrays of 4 MiB and more). Reading a file into
// new memory is dominated by the first-touch page faults of 4 KiB pages, not by the copy from the
// page cache: bench_npy measured a 1 GiB load at 990 ms with ordinary memory, 284 ms for the same
// read() into memory already mapped, and about 250 ms into huge-page memory. The mapping is
// borrowed by the Allocation, which unmaps it when the last array using it dies. Small buffers,
// and any mapping the kernel refuses, are ordinary Allocations.
#include "interop/read_buffer.h"

#include <sys/mman.h>

namespace tensorx {
namespace detail {
namespace {

/// NumPy's threshold for huge pages: below it a 2 MiB page would be mostly unused.
constexpr std::size_t kHugePageThreshold = std::size_t{4} << 20;

}  // namespace

std::shared_ptr<Allocation> allocate_read_buffer(std::size_t bytes) {
  if (bytes >= kHugePageThreshold) {
    void* mapping =
        ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping != MAP_FAILED) {
      // Only advice: where transparent huge pages are off, the mapping has ordinary pages.
      ::madvise(mapping, bytes, MADV_HUGEPAGE);
      return std::make_shared<Allocation>(mapping, bytes, CpuPlace(),
                                          [mapping, bytes] { ::munmap(mapping, bytes); });
    }
  }
  return std::make_shared<Allocation>(bytes, CpuPlace());
}

}  // namespace detail
}  // namespace tensorx
