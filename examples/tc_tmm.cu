// The CUDA build of tc_tmm.cpp: the same source compiled as CUDA, so that it also runs on GPU 0.
#include "tc_tmm.cpp"
