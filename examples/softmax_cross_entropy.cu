// The CUDA build of softmax_cross_entropy.cpp: the same source compiled as CUDA, so that its
// expressions can also run as kernels on GPU 0 (a plain C++ translation unit cannot launch them).
#include "softmax_cross_entropy.cpp"
