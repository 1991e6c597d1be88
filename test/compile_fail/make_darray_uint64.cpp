// Must not compile: no DArray element type holds every 64-bit unsigned value exactly.
#include <tensorx/tensorx.h>

int main() {
  tensorx::make_darray(tensorx::make_ddim({1}), std::uint64_t{1} << 63);
}
