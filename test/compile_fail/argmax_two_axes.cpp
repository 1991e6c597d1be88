// Must not compile: argmax takes exactly one axis; the one error is a sentence that says so.
#include <tensorx/tensorx.h>

int main() {
  tensorx::Array<float, 3> a(tensorx::make_dim(2, 3, 4));
  tensorx::Array<std::int64_t, 1> i;
  i = tensorx::argmax<0, 1>(a);
}
