// Must not compile: float and double arrays in one expression. One error, the sentence.
#include <tensorx/tensorx.h>

int main() {
  tensorx::Array<float, 1> a(tensorx::make_dim(3)), c;
  tensorx::Array<double, 1> b(tensorx::make_dim(3));
  c = tensorx::exp(a + b);
}
