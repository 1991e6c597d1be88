// Must not compile: a DLPack 0.x dlpack.h (the fixture in v0/) included before tensorx's DLPack
// interop, which needs 1.x. The build of this file is a test that expects tensorx's #error.
#include <dlpack/dlpack.h>

#include <tensorx/interop/dlpack.h>

int main() {
  return 0;
}
