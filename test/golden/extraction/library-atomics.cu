// The read-modify-write methods of libcu++'s atomics (cuda::atomic<T>,
// cuda::std::atomic<T>) are atomics of the object they are called on, as
// atomicAdd is of its pointer argument: cuCollections' multimap count ends
// with `num_matches->fetch_add(block_num_matches, ...)`, an unknown ("memory
// passed to '...::fetch_add', which the tool does not walk") until the
// thirty-seventh session. A user class's own fetch_add is walked as code.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 7 memory operations in the census of 2 kernels, 0 missing from the report
#include <cuda/atomic>
__global__ void count(const int *keys,
                      cuda::atomic<unsigned long, cuda::thread_scope_device> *total,
                      cuda::std::atomic<float> *sums, cuda::atomic<int> *slots) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    total->fetch_add(keys[i], cuda::std::memory_order_relaxed);
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=count op=atomic base=total elem=8 expr='total' sectors=1 ideal=1 class=uniform {{.*}}
// CHECK-DAG: [[@LINE-2]]:22: access: kernel=count op=load base=keys elem=4 expr='keys[i]' sectors=1 ideal=1 class=coalesced {{.*}}
  sums[i].fetch_add(1.0f);
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=count op=atomic base=sums elem=4 expr='sums[i]' sectors=4 ideal=4 class=coalesced {{.*}}
  int expected = 0;
  slots[keys[i]].compare_exchange_strong(expected, i);
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=count op=atomic base=slots elem=4 expr='slots[keys[i]]' sectors=n/a ideal=n/a class=indirect {{.*}}
// CHECK-DAG: [[@LINE-2]]:9: access: kernel=count op=load base=keys elem=4 expr='keys[i]' sectors=4 ideal=4 class=coalesced {{.*}}
}
struct Counter {
  int value;
  __device__ int fetch_add(int n) {
    int old = value;
// CHECK-DAG: [[@LINE-1]]:15: access: kernel=mine op=load base=counters elem=4 expr='value' sectors=16 ideal=4 class=strided {{.*}}
    value = old + n;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=mine op=store base=counters elem=4 expr='value' sectors=16 ideal=4 class=strided {{.*}}
    return old;
  }
};
__global__ void mine(Counter *counters) {
  counters[threadIdx.x * 4].fetch_add(1);
}
