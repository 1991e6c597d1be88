// libFuzzer target of the .npy reader: any input must load as an array no larger than the input,
// or be an NpyError; any other exception, a crash or a sanitizer report is a finding.
//   CXX=clang++ cmake -S . -B build-fuzz -DTENSORX_FUZZ=ON -DTENSORX_SANITIZE=ON \
//       -DTENSORX_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug
//   cmake --build build-fuzz --target fuzz_npy && build-fuzz/test/interop/fuzz_npy
//   -max_total_time=60
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "tensorx/interop/npy.h"

namespace tx = tensorx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    tx::detail::NpyReader reader(in, "input");
    const tx::detail::ErasedArray array = reader.read_data();
    if (static_cast<std::size_t>(array.numel()) * tx::size_of(array.type) > size) __builtin_trap();
  } catch (const tx::NpyError&) {
  }
  return 0;
}
