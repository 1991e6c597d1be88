// For GPU test programs: cases marked `* tensorx::testing::needs_cuda()` are skipped where no CUDA
// device is usable, and the program then prints "skipped: no CUDA device: <reason>" once, which
// ctest reports as a skip (see tensorx_add_test). Include it from the program's GPU sources only.
#pragma once

#include <iostream>

#include <boost/test/unit_test.hpp>

#include "tensorx/place/device.h"

namespace tensorx {
namespace testing {

/// True where a CUDA device is usable; the predicate of needs_cuda().
inline boost::test_tools::assertion_result cuda_is_usable(boost::unit_test::test_unit_id) {
  boost::test_tools::assertion_result result(cuda::device_count() > 0);
  result.message() << "needs a CUDA device";
  return result;
}

/// The precondition of every GPU case or suite: BOOST_AUTO_TEST_SUITE(name, *needs_cuda()).
/// (A function pointer, not a lambda: g++ sees boost::function copy a captureless lambda's unset
/// bytes in nvcc's output, where Boost is no longer a system header, and warns.)
inline boost::unit_test::precondition needs_cuda() {
  return boost::unit_test::precondition(&cuda_is_usable);
}

/// Prints the skip line, once per program however many sources include this header.
inline void report_missing_cuda() {
  static const bool reported = [] {
    if (cuda::device_count() == 0) {
      std::cout << "skipped: no CUDA device: " << cuda::unavailable_reason() << std::endl;
    }
    return true;
  }();
  static_cast<void>(reported);
}

/// Runs report_missing_cuda() before the first test case.
struct CudaReport {
  CudaReport() { report_missing_cuda(); }
};

// Inside the namespace: the macro pastes the fixture's name into a variable name.
BOOST_TEST_GLOBAL_FIXTURE(CudaReport);

}  // namespace testing
}  // namespace tensorx
