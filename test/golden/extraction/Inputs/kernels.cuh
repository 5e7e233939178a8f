template <typename T, int N>
__global__ void scale(T *x, T a) { x[threadIdx.x * N] *= a; }
__global__ void plain(float *x) { x[threadIdx.x] = 0; }
