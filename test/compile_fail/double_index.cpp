// Must not compile: a(1.5, 0) would truncate the index; the error is a sentence that says so.
#include <tensorx/tensorx.h>

int main() {
  tensorx::Array<float, 2> a(tensorx::make_dim(2, 3));
  return a(1.5, 0) > 0.0f;
}
