// The CUDA build of tc_2lut.cpp: the same source compiled as CUDA, so that it also runs on GPU 0.
#include "tc_2lut.cpp"
