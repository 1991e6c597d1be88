// Must not compile: a rank-1 expression assigned to a rank-2 array. One error, the sentence.
#include <tensorx/tensorx.h>

int main() {
  tensorx::Array<float, 1> a(tensorx::make_dim(3));
  tensorx::Array<float, 2> c(tensorx::make_dim(3, 3));
  c = a * 2.0f;
}
