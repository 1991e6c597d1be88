// The CUDA build of tc_mlp.cpp: the same source compiled as CUDA, so that it also runs on GPU 0.
#include "tc_mlp.cpp"
