// Allocations that borrow memory tensorx did not allocate: the release callback runs exactly once,
// when the Allocation dies, and nothing is freed; an unusable GPU throws without releasing.
#include <memory>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "support/errors.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/place/device.h"

namespace tx = tensorx;

BOOST_AUTO_TEST_SUITE(borrowed_allocation)

BOOST_AUTO_TEST_CASE(release_runs_once_when_the_last_owner_lets_go) {
  std::vector<char> memory(100);
  int releases = 0;
  auto allocation = std::make_shared<tx::Allocation>(memory.data(), memory.size(), tx::CpuPlace(),
                                                     [&] { ++releases; });
  BOOST_TEST(allocation->data() == memory.data());
  BOOST_TEST(allocation->size() == 100u);
  BOOST_TEST(tx::is_cpu_place(allocation->place()));
  auto second_owner = allocation;
  allocation.reset();
  BOOST_TEST(releases == 0);
  second_owner.reset();
  BOOST_TEST(releases == 1);
}

BOOST_AUTO_TEST_CASE(without_a_release_nothing_is_freed) {
  // Memory on the stack: a free() of it would be caught by AddressSanitizer builds.
  char memory[16];
  { tx::Allocation allocation(memory, sizeof memory, tx::CpuPlace(), nullptr); }
  { tx::Allocation empty(nullptr, 0, tx::CpuPlace(), {}); }
  memory[0] = 1;
  BOOST_TEST(memory[0] == 1);
}

BOOST_AUTO_TEST_CASE(an_unusable_gpu_throws_and_never_releases) {
  int releases = 0;
  const int device = tx::cuda::device_count();
  char memory[16];
  BOOST_CHECK_EXCEPTION(
      tx::Allocation(memory, sizeof memory, tx::CudaPlace(device), [&] { ++releases; }),
      tx::DeviceError,
      tx::testing::message_has({"cannot use CudaPlace(" + std::to_string(device) + "): "}));
  BOOST_TEST(releases == 0);
}

BOOST_AUTO_TEST_SUITE_END()
