// Must not compile: axis 2 of a rank-2 array. One error, the static_assert's sentence.
#include <tensorx/tensorx.h>

int main() {
  tensorx::Array<float, 2> m(tensorx::make_dim(2, 3));
  tensorx::Array<float, 1> r;
  r = tensorx::sum<2>(m);
  return 0;
}
