// The one header users include: every public layer of tensorx.
#pragma once

#include "tensorx/core/bfloat16.h"
#include "tensorx/core/config.h"
#include "tensorx/core/data_type.h"
#include "tensorx/core/error.h"
#include "tensorx/core/float16.h"

#include "tensorx/place/device.h"
#include "tensorx/place/event.h"
#include "tensorx/place/place.h"
#include "tensorx/place/stream.h"

#include "tensorx/shape/ddim.h"
#include "tensorx/shape/dim.h"

#include "tensorx/memory/allocation.h"
#include "tensorx/memory/memory_stats.h"
#include "tensorx/memory/strided_copy.h"

#include "tensorx/array/array.h"
#include "tensorx/array/array_view.h"
#include "tensorx/array/darray.h"
#include "tensorx/array/darray_ops.h"
#include "tensorx/array/global_ops.h"

#include "tensorx/blas/blas_vendor.h"
#include "tensorx/blas/gemm.h"
#include "tensorx/blas/trans.h"

#include "tensorx/blas/dot.h"
#include "tensorx/core/stats.h"
#include "tensorx/engine/assign.h"
#include "tensorx/engine/noalias.h"
#include "tensorx/expr/broadcast_exp.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/layout/concat_exp.h"
#include "tensorx/layout/one_hot_exp.h"
#include "tensorx/layout/permute_exp.h"
#include "tensorx/layout/permute_writer.h"
#include "tensorx/layout/slice_exp.h"
#include "tensorx/layout/take_exp.h"
#include "tensorx/normalize/normalize.h"
#include "tensorx/ops/arithmetic.h"
#include "tensorx/ops/compare.h"
#include "tensorx/ops/functor.h"
#include "tensorx/ops/math.h"
#include "tensorx/random/random.h"
#include "tensorx/reduce/darray_reductions.h"
#include "tensorx/reduce/reductions.h"

#include "tensorx/interop/npy.h"
#include "tensorx/labels/labels.h"
// DLPack interop needs the 1.x ABI; after a user's DLPack 0.x dlpack.h (no DLPACK_MAJOR_VERSION)
// the rest of tensorx stays usable, and including tensorx/interop/dlpack.h says why it cannot be.
#if !defined(DLPACK_DLPACK_H_) || defined(DLPACK_MAJOR_VERSION)
#include "tensorx/interop/dlpack.h"
#endif
