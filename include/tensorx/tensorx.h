// The one header users include: every public layer of tensorx.
#pragma once

#include "tensorx/core/config.h"
#include "tensorx/core/data_type.h"
#include "tensorx/core/error.h"
#include "tensorx/core/float16.h"

#include "tensorx/place/device.h"
#include "tensorx/place/place.h"
#include "tensorx/place/stream.h"

#include "tensorx/shape/ddim.h"
#include "tensorx/shape/dim.h"

#include "tensorx/memory/allocation.h"
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
#include "tensorx/expr/broadcast_exp.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/layout/concat_exp.h"
#include "tensorx/layout/one_hot_exp.h"
#include "tensorx/layout/permute_exp.h"
#include "tensorx/layout/permute_writer.h"
#include "tensorx/layout/slice_exp.h"
#include "tensorx/layout/take_exp.h"
#include "tensorx/ops/arithmetic.h"
#include "tensorx/ops/compare.h"
#include "tensorx/ops/functor.h"
#include "tensorx/ops/math.h"
#include "tensorx/reduce/darray_reductions.h"
#include "tensorx/reduce/reductions.h"

#include "tensorx/labels/labels.h"
