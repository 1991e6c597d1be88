// How many passes a labelled assignment starts, for the tests that check it runs as ONE pass.
#pragma once

#include <cstdint>

#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

namespace tensorx {
namespace testing {

/// The passes `assignment` starts; it must start no GEMM (an element-wise or reduction form).
template <class F>
std::uint64_t passes_without_gemm(F&& assignment) {
  const auto passes = stats::passes();
  const auto gemms = stats::gemms();
  assignment();
  BOOST_TEST(stats::gemms() == gemms);
  return stats::passes() - passes;
}

}  // namespace testing
}  // namespace tensorx
