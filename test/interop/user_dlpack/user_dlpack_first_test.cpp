// A user's own DLPack 1.x header (the fixture in v1/, version 1.1) included before tensorx: tensorx
// uses its declarations and arrays still go out and back. Exports carry the version the compiled
// library implements (1.0), whichever 1.x header the caller has. A separate program, since its
// DLPack types come from another header than the rest of the tests'.
#include <dlpack/dlpack.h>

#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

namespace tx = tensorx;

static_assert(DLPACK_MINOR_VERSION == 1, "The user's dlpack.h, not tensorx's, must be in use.");

BOOST_AUTO_TEST_CASE(a_users_dlpack_header_is_used_when_it_comes_first) {
  const auto a = tx::ones<float>(tx::make_dim(2, 3));
  DLManagedTensorVersioned* tensor = tx::to_dlpack(a);
  BOOST_TEST(tensor->version.major == 1u);
  BOOST_TEST(tensor->version.minor == 0u);
  const auto b = tx::from_dlpack<float, 2>(tensor);
  BOOST_TEST(b.data() == a.data());
}
