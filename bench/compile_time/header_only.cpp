// The compile-time benchmark's smallest unit: the one public header and nothing else.
#include <tensorx/tensorx.h>
