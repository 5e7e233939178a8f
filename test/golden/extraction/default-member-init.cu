// Fields a constructor does not name take their default member initializers
// (cub's BlockExchange: `unsigned int lane_id = get_sreg_laneid();`, `warp_offset =
// warp_id * WARP_TIME_SLICED_ITEMS;`), evaluated for the object: at first
// contact every access through them was unknown ("a per-lane value the
// engine cannot model: BlockExchange"; 63 in cub's examples, 612 in
// bitsandbytes). Closed world: an extra access fails the test.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=shared: --implicit-check-not=access:
struct Exchange {
  struct Storage { float buff[1024]; };
  Storage &temp;
  unsigned lane = threadIdx.x % 32;
  unsigned warp = threadIdx.x / 32;
  unsigned offset = warp * 128;
  int stride = 2;
  __device__ Exchange(Storage &s) : temp(s) {}
  __device__ Exchange(Storage &s, int n) : temp(s), stride(n) {}
  __device__ void put(const float (&in)[4]) {
#pragma unroll
    for (int i = 0; i < 4; i++)
      temp.buff[offset + i * 32 + lane] = in[i];
// CHECK: [[@LINE-1]]:7: shared: kernel=k op=store base=st elem=4 expr='temp.buff[offset + i * 32 + lane]' wavefronts=1 ideal=1 class=conflict-free
  }
  __device__ float get(const float *g) const { return g[threadIdx.x * stride]; }
// CHECK: [[@LINE-1]]:55: access: kernel=k op=load base=src elem=4 expr='g[threadIdx.x * stride]' sectors=8 ideal=4 class=strided stride=8
// CHECK: [[@LINE-2]]:55: access: kernel=k op=load base=src elem=4 expr='g[threadIdx.x * stride]' sectors=16 ideal=4 class=strided stride=16
};
__global__ void k(const float *src, float *out) {
  __shared__ Exchange::Storage st;
  float v[4];
  for (int i = 0; i < 4; i++) v[i] = src[threadIdx.x * 4 + i];
// CHECK: [[@LINE-1]]:38: access: kernel=k op=load base=src elem=4 expr='src[threadIdx.x * 4 + i]' sectors=16 ideal=4 class=strided stride=16
  Exchange(st).put(v);
  __syncthreads();
  out[threadIdx.x] = st.buff[threadIdx.x] + Exchange(st).get(src) + Exchange(st, 4).get(src);
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4
// CHECK: [[@LINE-2]]:22: shared: kernel=k op=load base=st elem=4 expr='st.buff[threadIdx.x]' wavefronts=1 ideal=1 class=conflict-free stride=4
}
void run(const float *s, float *o) { k<<<1, 256>>>(s, o); }
