// Found through -I, but included by a system header: a system header.
__global__ void innerKernel(float *p, int s) { p[threadIdx.x * s] = 1.f; }
