// cub's block primitives index the user's pointers with the thread's rank:
// the walker follows them (cub:: in the CUDA headers' include/cccl) and
// reports their accesses at the user's call.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %not %coalesce-lint %s | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
//
// A blocked arrangement (BLOCK_LOAD_DIRECT, LoadDirectBlocked): lane l reads
// ITEMS = 4 consecutive floats at 16*l bytes, so one request per item spans
// 32 lanes * 16 bytes = 512 bytes = 16 sectors, ideal 4. A striped one
// (LoadDirectStriped, BLOCK_LOAD_WARP_TRANSPOSE's global side): lane l reads
// item i at 4*(l + 128*i): 4 sectors per request.
#include <cub/cub.cuh>

__global__ void blocked(const float *in, float *out) {
  using Load = cub::BlockLoad<float, 128, 4, cub::BLOCK_LOAD_DIRECT>;
  using Store = cub::BlockStore<float, 128, 4, cub::BLOCK_STORE_DIRECT>;
  __shared__ typename Load::TempStorage loadTmp;
  __shared__ typename Store::TempStorage storeTmp;
  float items[4];
  int offset = blockIdx.x * 512;
  Load(loadTmp).Load(in + offset, items);
  // CHECK: [[@LINE-1]]:3: access: kernel=blocked op=load base=in elem=4 expr='Load(loadTmp).Load(in + offset, items)' sectors=16 ideal=4 class=strided stride=16 block=128(launch-site)
  // WARN: [[@LINE-2]]:3: warning: uncoalesced load of 'Load(loadTmp).Load(in + offset, items)': adjacent lanes are 16 bytes apart: 16 sectors per request, ideal 4
  Store(storeTmp).Store(out + offset, items);
  // CHECK: [[@LINE-1]]:3: access: kernel=blocked op=store base=out elem=4 expr='Store(storeTmp).Store(out + offset, items)' sectors=16 ideal=4 class=strided stride=16 block=128(launch-site)
  // WARN: [[@LINE-2]]:3: warning: uncoalesced store to 'Store(storeTmp).Store(out + offset, items)'
}

__global__ void striped(const float *in, float *out) {
  float v[4];
  cub::LoadDirectStriped<128>(threadIdx.x, in + blockIdx.x * 512, v);
  // CHECK: [[@LINE-1]]:3: access: kernel=striped op=load base=in elem=4 {{.*}} sectors=4 ideal=4 class=coalesced stride=4 block=128(launch-site)
  // WARN-NOT: [[@LINE-2]]:{{.*}}warning
  cub::StoreDirectStriped<128>(threadIdx.x, out + blockIdx.x * 512, v);
  // CHECK: [[@LINE-1]]:3: access: kernel=striped op=store base=out elem=4 {{.*}} sectors=4 ideal=4 class=coalesced stride=4 block=128(launch-site)
}

void run(const float *in, float *out) {
  blocked<<<100, 128>>>(in, out);
  striped<<<100, 128>>>(in, out);
}
// CHECK: 2 warnings in 2 kernels (4 accesses analyzed, 0 unknown)
// WARN: 2 warnings in 2 kernels (4 accesses analyzed, 0 unknown)
