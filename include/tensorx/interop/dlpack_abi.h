// The DLPack 1.x C ABI (https://dmlc.github.io/dlpack/latest/c_api.html): the structs and
// constants that DLPack producers and consumers exchange, declared here from the published
// specification because Debian's libdlpack-dev is 0.6, which lacks the versioned struct.
//
// It yields to a user's own dlpack.h: when one of version 1.x is included before tensorx, its
// declarations are used and these are skipped; when this header comes first, it defines the
// spec's include guard, so a later dlpack.h is skipped and these (the same ABI, the same names)
// serve it. A dlpack.h older than 1.0 included first is a compile error that says so.
#pragma once

#if defined(DLPACK_DLPACK_H_)

#if !defined(DLPACK_MAJOR_VERSION)
#error \
    "tensorx needs DLPack 1.x (DLManagedTensorVersioned), but the dlpack.h included before tensorx is older than 1.0 (it defines no DLPACK_MAJOR_VERSION): include a dlpack.h of version 1.x, or none and tensorx declares the ABI itself."
#elif DLPACK_MAJOR_VERSION != 1
#error \
    "tensorx speaks DLPack 1.x, but the dlpack.h included before tensorx has another major version."
#endif

#else  // no dlpack.h yet: declare DLPack 1.0

#define DLPACK_DLPACK_H_

#include <stddef.h>
#include <stdint.h>

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0

/// Bits of DLManagedTensorVersioned::flags.
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

#ifdef __cplusplus
extern "C" {
#endif

/// The ABI version of a DLManagedTensorVersioned: same major version, same layout.
typedef struct {
  uint32_t major;  ///< DLPACK_MAJOR_VERSION of the producer (1)
  uint32_t minor;  ///< DLPACK_MINOR_VERSION of the producer
} DLPackVersion;

/// Where a tensor's memory is; the values are fixed by the specification.
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
} DLDeviceType;

/// A device: its kind and ordinal.
typedef struct {
  DLDeviceType device_type;  ///< the kind of device
  int32_t device_id;         ///< the ordinal among devices of that kind (0 for the CPU)
} DLDevice;

/// The kind of number an element is; with a bit width, an element type.
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
} DLDataTypeCode;

/// An element type: code (a DLDataTypeCode), bits per lane and lanes (1 for scalars).
typedef struct {
  uint8_t code;    ///< a DLDataTypeCode
  uint8_t bits;    ///< bits per lane: 16, 32, 64, ...
  uint16_t lanes;  ///< lanes per element, 1 for scalars
} DLDataType;

/// A strided view of memory. shape and strides (in elements, NULL for a dense row-major layout)
/// have ndim entries; the first element is at (char*)data + byte_offset.
typedef struct {
  void* data;            ///< the memory (a device pointer for GPU memory)
  DLDevice device;       ///< where data is
  int32_t ndim;          ///< the number of dimensions
  DLDataType dtype;      ///< the element type
  int64_t* shape;        ///< ndim extents, outermost first
  int64_t* strides;      ///< ndim strides in elements, or NULL for dense row-major
  uint64_t byte_offset;  ///< bytes from data to the first element
} DLTensor;

/// The pre-1.0 exchange struct: a DLTensor and how to tell its producer that it is no longer used.
typedef struct DLManagedTensor {
  DLTensor dl_tensor;                             ///< the tensor
  void* manager_ctx;                              ///< the producer's context for the deleter
  void (*deleter)(struct DLManagedTensor* self);  ///< called once by the consumer when done
} DLManagedTensor;

/// The DLPack 1.x exchange struct. Fields up to flags keep their place in every 1.x version, so
/// that a consumer can always check the version and call the deleter.
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;  ///< the producer's ABI version
  void* manager_ctx;      ///< the producer's context for the deleter
  /// Called once by the consumer when it no longer uses the tensor (may be NULL).
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;      ///< DLPACK_FLAG_BITMASK_* bits
  DLTensor dl_tensor;  ///< the tensor
} DLManagedTensorVersioned;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // DLPACK_DLPACK_H_
