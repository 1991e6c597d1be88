// The normalisations: softmax, log_softmax, logsumexp, layer_norm, rms_norm and cross_entropy,
// each ONE pass along the last axis (reduce/row_fusion.h).
#pragma once

#include "tensorx/normalize/cross_entropy.h"
#include "tensorx/normalize/norms.h"
#include "tensorx/normalize/softmax.h"
