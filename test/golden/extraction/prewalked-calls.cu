// A call inside an access's address is walked ahead of the access (its value
// is the address), and the statement skips it when it meets it. A call the
// statement never meets again (in cub's thread reduction the address
// `array[j]` is itself the call, operator[] of a local cuda::std::array)
// stayed marked as walked, so the next pass over the statement (the
// recording walk after a loop's probe) skipped it and lost what it does:
// here the local array handed to that operator, reported as excluded local
// memory. Now the mark lasts for its statement only: 12 such exclusions at
// the scan, 11 before (TransformerEngine's radix top-k, docs/real-code.md).
// 10 since the forty-first session: libcu++'s `::cuda::std::forward<U>(val)`
// (cub's uninitialized_copy) is the object it forwards, as std::forward
// is, no call walked for its own reads and writes (the census stays
// complete, the predictions the same).
// RUN: %coalesce-lint --self-check --format=json --fail-on=never %s > %t.json
// RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('load+store exclusions at the scan:', sum(1 for k in d['kernels'] for a in k['excluded'] if a['line'] == 25 and a['op'] == 'load+store'))" %t.json | FileCheck %s
// CHECK: load+store exclusions at the scan: 10
#include <cub/block/block_scan.cuh>

__global__ void prefix_counts(int *histogram) {
  typedef cub::BlockScan<int, 256> BlockScan;
  __shared__ typename BlockScan::TempStorage scan;
  int thread_data[4];
  for (int k = 0; k < 4; ++k)
    thread_data[k] = histogram[threadIdx.x * 4 + k];
  BlockScan(scan).InclusiveSum(thread_data, thread_data);
  for (int k = 0; k < 4; ++k)
    histogram[threadIdx.x * 4 + k] = thread_data[k];
}
