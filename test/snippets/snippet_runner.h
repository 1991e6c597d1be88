// The main() of a program of documentation snippets (scripts/extract-snippets writes the units that
// include it, once each): runs every registered snippet in the document's order, reports those
// that throw or return non-zero, and exits 1 when one did. With TENSORX_SNIPPETS_NEED_CUDA, a
// machine without a usable GPU prints "skipped: no CUDA device: <reason>", which ctest reports as a
// skip (as test/support/cuda_test.h does for the GPU test programs).
#pragma once

#include <exception>
#include <iostream>
#include <vector>

#include <tensorx/place/device.h>

namespace tensorx {
namespace snippets {

/// One snippet: where it is ("docs/streams.md:42", its opening fence) and the function it became.
struct Snippet {
  const char* where;
  int (*run)();
};

/// The snippets of this program, in the order of their registration (the documents' order).
inline std::vector<Snippet>& registry() {
  static std::vector<Snippet> snippets;
  return snippets;
}

/// A namespace-scope object per snippet registers it before main() runs.
struct Registration {
  Registration(const char* where, int (*run)()) { registry().push_back({where, run}); }
};

}  // namespace snippets
}  // namespace tensorx

int main() {
  namespace snippets = tensorx::snippets;
  if (TENSORX_SNIPPETS_NEED_CUDA && tensorx::cuda::device_count() == 0) {
    std::cout << "skipped: no CUDA device: " << tensorx::cuda::unavailable_reason() << std::endl;
    return 0;
  }
  int failures = 0;
  for (const snippets::Snippet& snippet : snippets::registry()) {
    std::cout << "---- " << snippet.where << std::endl;
    try {
      if (const int status = snippet.run(); status != 0) {
        std::cout << snippet.where << ": FAILED: returned " << status << std::endl;
        ++failures;
      }
    } catch (const std::exception& error) {
      std::cout << snippet.where << ": FAILED: threw " << error.what() << std::endl;
      ++failures;
    }
  }
  std::cout << snippets::registry().size() - failures << " of " << snippets::registry().size()
            << " snippets passed" << std::endl;
  return failures == 0 ? 0 : 1;
}
