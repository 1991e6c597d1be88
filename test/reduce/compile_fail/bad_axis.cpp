// Must not compile: axis 2 of a rank-2 array (test_reduce_bad_axis_does_not_compile checks that
// the compiler's message is the static_assert's sentence).
#include <tensorx/tensorx.h>

int main() {
  tensorx::Array<float, 2> m(tensorx::make_dim(2, 3));
  tensorx::Array<float, 1> r;
  r = tensorx::sum<2>(m);
  return 0;
}
