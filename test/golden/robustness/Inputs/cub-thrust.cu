// cub and thrust from the CUDA toolkit's include/cccl: they compile in the
// tool as they do with clang's driver (cuda_wrappers/<new> on the path).
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
template <int BLOCK, int ITEMS>
__global__ void load(const int *in, int *out) {
  using Load = cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_DIRECT>;
  __shared__ typename Load::TempStorage tmp;
  int items[ITEMS];
  Load(tmp).Load(in + blockIdx.x * BLOCK * ITEMS, items);
  out[threadIdx.x * ITEMS] = items[0];
}
template __global__ void load<128, 4>(const int *, int *);
void sortit(thrust::device_vector<int> &v) { thrust::sort(v.begin(), v.end()); }
