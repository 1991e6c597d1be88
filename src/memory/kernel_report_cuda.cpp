// The calling thread's report words (tensorx/memory/kernel_report.h): one block of mapped, portable
// pinned host memory a thread, grown to the most words it was asked for and freed when the thread
// ends. Pinning is slow (tens of microseconds), so a block is kept and only ever grows: a check
// asks for one word per block of its kernel, at most a wave of blocks on the largest device.
#include "tensorx/memory/kernel_report.h"

#include <cuda_runtime.h>

#include <cstddef>

#include "tensorx/core/cuda_check.h"
#include "tensorx/core/error.h"

namespace tensorx {
namespace detail {
namespace {

class ReportWords {
 public:
  ReportWords() = default;
  ReportWords(const ReportWords&) = delete;
  ReportWords& operator=(const ReportWords&) = delete;
  // The kernels that wrote the words have finished (their callers waited for them), so freeing
  // cannot race with a write. A thread's storage ends before the CUDA runtime's own teardown at
  // exit; an error then (a runtime already gone) has nobody to report to and is swallowed.
  ~ReportWords() {
    if (words_ != nullptr) cuda_ignore(cudaFreeHost(words_));
  }

  unsigned long long* at_least(index_t count) {
    if (count > count_) {
      const index_t grown = count < 2 * count_ ? 2 * count_ : count;
      const std::size_t bytes = static_cast<std::size_t>(grown) * sizeof(unsigned long long);
      void* words = nullptr;
      const cudaError_t status =
          cudaHostAlloc(&words, bytes, cudaHostAllocMapped | cudaHostAllocPortable);
      if (status == cudaErrorMemoryAllocation) {
        static_cast<void>(cudaGetLastError());  // not sticky: clear it for the next call
        throw OutOfMemoryError(
            message("cannot pin ", bytes, " bytes of host memory for a kernel's report"));
      }
      TENSORX_CUDA_CHECK(status);
      if (words_ != nullptr) TENSORX_CUDA_CHECK(cudaFreeHost(words_));
      words_ = static_cast<unsigned long long*>(words);
      count_ = grown;
    }
    return words_;
  }

 private:
  unsigned long long* words_ = nullptr;
  index_t count_ = 0;
};

}  // namespace

unsigned long long* thread_report_words(index_t count) {
  thread_local ReportWords words;
  return words.at_least(count);
}

}  // namespace detail
}  // namespace tensorx
