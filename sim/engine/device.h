// Code that runs on the host and on a GPU: DICESIM_HD marks a function both
// compilers build (CUDA's __host__ __device__); in a plain C++ build it is
// nothing. The hot loops of the games are written once with it, so that the
// host build compiles and tests every line a GPU runs but the launch.
#pragma once

#if defined(__CUDACC__)
#define DICESIM_HD __host__ __device__
#else
#define DICESIM_HD
#endif

// Unrolls the loop that follows (a fixed count of games side by side), in
// either compiler's spelling.
#if defined(__CUDACC__)
#define DICESIM_UNROLL _Pragma("unroll")
#else
#define DICESIM_UNROLL _Pragma("GCC unroll 16")
#endif
