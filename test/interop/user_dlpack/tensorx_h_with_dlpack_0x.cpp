// tensorx.h after a DLPack 0.x dlpack.h (the fixture in v0/): the one header still compiles, with
// everything but DLPack interop, so that a program using an old DLPack elsewhere keeps building.
// Building this program is the test; running it checks the rest of interop is there.
#include <dlpack/dlpack.h>

#include <tensorx/tensorx.h>

namespace tx = tensorx;

int main() {
  return tx::NpyHeader().shape.empty() ? 0 : 1;
}
