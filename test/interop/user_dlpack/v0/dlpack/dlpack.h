// Test fixture: the include guard and version macro of a DLPack 0.x dlpack.h (Debian's
// libdlpack-dev is 0.6), which has no DLManagedTensorVersioned and no DLPACK_MAJOR_VERSION.
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_
#define DLPACK_VERSION 60
#endif  // DLPACK_DLPACK_H_
