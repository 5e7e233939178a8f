// Local arrays (issue 27, cub's BlockRadixRank; issue 29, values the state
// holds): every lane has local memory of its own, so an element read back
// is the lane's, never a value uniform across the warp. An array its
// function only reads and assigns element by element is followed store by
// store: `idx[i] = 8 * threadIdx.x + i` gives a strided store through
// `a[idx[i]]`, keys loaded from memory an indirect one, and a loop storing
// element k at pass k of as many passes as the array has elements leaves
// every element known after it (`*dc[item]` in the next loop). An array
// that escapes (`fill(rows, 4)`), or a loop that may skip its store
// (`continue`), leaves the elements unknown, with the reason, unless every
// store into the array put data there (then an index read from it is data).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=shared:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=REASON
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
// REASON: "reason": "address depends on a per-lane value the engine cannot model: 'rows[2]' is read back from the thread's local memory ('rows'), whose stores the analysis does not follow there"
// REASON: "reason": "address depends on a per-lane value the engine cannot model: 'p[1]' is a pointer read back from a local array of pointers, which the analysis does not follow element by element"
// REASON: "reason": "address depends on a per-lane value the engine cannot model: 'own[1].a' is read back from the thread's local memory ('own'), whose stores the analysis does not follow there"
__device__ void fill(int *p, int n) {
  for (int i = 0; i < n; ++i) p[i] = threadIdx.x * n + i;
}
__global__ void values(const int *in, float *a, float *b, float *c) {
  int idx[4];
  for (int i = 0; i < 4; ++i) idx[i] = threadIdx.x * 8 + i;
  for (int i = 0; i < 4; ++i) a[idx[i]] = 1.0f;
// CHECK: [[@LINE-1]]:31: access: kernel=values op=store base=a elem=4 expr='a[idx[i]]' sectors=32 ideal=4 class=strided stride=32 {{.*}}
  int key[2];
  key[0] = in[threadIdx.x];
// CHECK: [[@LINE-1]]:12: access: kernel=values op=load base=in elem=4 expr='in[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  key[1] = in[threadIdx.x + 1];
// CHECK: [[@LINE-1]]:12: access: kernel=values op=load base=in elem=4 expr='in[threadIdx.x + 1]' sectors=5 ideal=4 class=misaligned {{.*}}
  b[key[0] & 31] = 2.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=values op=store base=b elem=4 expr='b[key[0] & 31]' sectors=n/a ideal=n/a class=indirect {{.*}}
  int rows[4];
  fill(rows, 4);
  c[rows[2]] = 3.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=values op=store base=c elem=4 expr='c[rows[2]]' sectors=n/a ideal=n/a class=unknown {{.*}}
}
__global__ void ranks(const int *keys, int *out) {
  __shared__ unsigned short counters[4][256][2];
  unsigned short *dc[4];
  int bins[4];
  for (int i = 0; i < 4; ++i) bins[i] = threadIdx.x & 7;
  for (int item = 0; item < 4; ++item) {
    unsigned digit = bins[item];
    dc[item] = &counters[digit & 3][threadIdx.x][digit >> 2];
    *dc[item] += 1;
// CHECK: [[@LINE-1]]:5: shared: kernel=ranks op=load+store base=counters elem=2 expr='*dc[item]' wavefronts=1 ideal=1 class=conflict-free {{.*}}
  }
  __syncthreads();
  for (int item = 0; item < 4; ++item)
    out[threadIdx.x + 256 * item] = *dc[item];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=ranks op=store base=out elem=4 expr='out[threadIdx.x + 256 * item]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:37: shared: kernel=ranks op=load base=counters elem=2 expr='*dc[item]' wavefronts=1 ideal=1 class=conflict-free {{.*}}
}
__global__ void skipped(const int *flags, int *out) {
  __shared__ int tile[256];
  int *p[2];
  for (int k = 0; k < 2; ++k) {
    if (flags[k]) continue;
// CHECK: [[@LINE-1]]:9: access: kernel=skipped op=load base=flags elem=4 expr='flags[k]' sectors=1 ideal=4 class=uniform {{.*}}
    p[k] = &tile[threadIdx.x];
  }
  out[threadIdx.x] = *p[1];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=skipped op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:22: shared: kernel=skipped op=load base=p[1] elem=4 expr='*p[1]' wavefronts=n/a ideal=n/a class=unknown {{.*}}
}
// Filled from memory, then handed to a function: not followed element by
// element, but every store into it put data there (cub's BlockLoad into the
// user's `items`): an index read from it is data.
__device__ unsigned get(const unsigned (&k)[4], int i) { return k[i]; }
__device__ unsigned scramble(unsigned k);
__global__ void filled(const unsigned *in, float *out) {
  unsigned keys[4];
  for (int i = 0; i < 4; ++i) keys[i] = in[threadIdx.x + 256 * i];
// CHECK: [[@LINE-1]]:41: access: kernel=filled op=load base=in elem=4 expr='in[threadIdx.x + 256 * i]' sectors=4 ideal=4 class=coalesced {{.*}}
  out[get(keys, 2)] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=filled op=store base=out elem=4 expr='out[get(keys, 2)]' sectors=n/a ideal=n/a class=indirect {{.*}}
  // A function the walker cannot see (a declaration, a library's) of data
  // is data (cub's bitfield_extract of a key).
  out[scramble(keys[3])] = 2.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=filled op=store base=out elem=4 expr='out[scramble(keys[3])]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
// moderngpu's array_t: an array field of a local object, written and read
// through its operator[] (`this->data[i]`): the object's variable is the
// memory's identity, so the loads stored into it make the index data.
template <typename T, int N> struct array_t {
  T data[N];
  __device__ T &operator[](int i) { return data[i]; }
};
__global__ void wrapped(const int *in, const int *edges, float *out) {
  array_t<int, 4> x;
  for (int i = 0; i < 4; ++i) x[i] = in[threadIdx.x * 4 + i];
// CHECK: [[@LINE-1]]:38: access: kernel=wrapped op=load base=in elem=4 expr='in[threadIdx.x * 4 + i]' sectors=16 ideal=4 class=strided {{.*}}
  out[x[2]] = edges[x[1]];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=wrapped op=store base=out elem=4 expr='out[x[2]]' sectors=n/a ideal=n/a class=indirect {{.*}}
// CHECK-DAG: [[@LINE-2]]:15: access: kernel=wrapped op=load base=edges elem=4 expr='edges[x[1]]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
// cub's guarded BlockLoad: a default the same in every lane, then data.
__device__ void load(int (&items)[4], const int *in, int n, int fill) {
  for (int i = 0; i < 4; ++i) items[i] = fill;
  for (int i = 0; i < 4; ++i)
    if (threadIdx.x * 4 + i < n) items[i] = in[threadIdx.x * 4 + i];
// CHECK: [[@LINE-1]]:45: access: kernel=defaults op=load base=in elem=4 expr='in[threadIdx.x * 4 + i]' sectors=16 ideal=4 class=strided {{.*}}
}
__global__ void defaults(const int *in, float *out, int n) {
  int items[4];
  load(items, in, n, 0);
  out[items[0]] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=defaults op=store base=out elem=4 expr='out[items[0]]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
// moderngpu's serial_merge: the array is a member of a local object that a
// function fills and returns by value, and that is passed on by value; its
// contents (data) go with the copies.
struct merged_t {
  array_t<int, 4> keys, indices;
};
__device__ merged_t merge(const int *in) {
  merged_t m;
  for (int i = 0; i < 4; ++i) m.indices[i] = in[threadIdx.x * 4 + i];
// CHECK: [[@LINE-1]]:46: access: kernel=copies op=load base=in elem=4 expr='in[threadIdx.x * 4 + i]' sectors=16 ideal=4 class=strided {{.*}}
  return m;
}
__device__ float gather(const float *a, array_t<int, 4> indices) {
  return a[indices[3]];
// CHECK: [[@LINE-1]]:10: access: kernel=copies op=load base=a elem=4 expr='a[indices[3]]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
__global__ void copies(const int *in, const float *a, float *out) {
  merged_t m = merge(in);
  out[m.indices[0]] = gather(a, m.indices);
// CHECK: [[@LINE-1]]:3: access: kernel=copies op=store base=out elem=4 expr='out[m.indices[0]]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
// Read 21 single-return calls deep (moderngpu's lambdas inside
// iterate_t<i, n>::eval chains): substituted as deep as calls are inlined.
template <int N> struct reader {
  __device__ static int at(array_t<int, 4> a, int i) {
    return reader<N - 1>::at(a, i);
  }
};
template <> struct reader<0> {
  __device__ static int at(array_t<int, 4> a, int i) { return a[i]; }
};
__global__ void deep(const int *in, float *out) {
  array_t<int, 4> a;
  for (int i = 0; i < 4; ++i) a[i] = in[threadIdx.x * 4 + i];
// CHECK: [[@LINE-1]]:38: access: kernel=deep op=load base=in elem=4 expr='in[threadIdx.x * 4 + i]' sectors=16 ideal=4 class=strided {{.*}}
  out[reader<20>::at(a, 1)] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=deep op=store base=out elem=4 expr='out[reader<20>::at(a, 1)]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
// A member of an element (`loaded[i].a`) is the lane's too, never uniform
// (it was: "assuming loaded[i].a = 1024", a uniform store). Objects stored
// as elements hold what they are built from: a pair of loads, returned by
// value, makes the members data; a pair with a lane's own value does not.
struct pair_t {
  int a, b;
};
__device__ pair_t loadPair(const int *p, int i) { return pair_t{p[i], p[i + 1]}; }
// CHECK: [[@LINE-1]]:65: access: kernel=members op=load base=p elem=4 expr='p[i]' sectors=8 ideal=4 class=strided {{.*}}
// CHECK: [[@LINE-2]]:71: access: kernel=members op=load base=p elem=4 expr='p[i + 1]' sectors=8.5 ideal=4 class=strided {{.*}}
__global__ void members(const int *p, float *out, const float *in) {
  array_t<pair_t, 2> loaded;
  for (int i = 0; i < 2; ++i) loaded[i] = loadPair(p, threadIdx.x * 2 + i);
  out[loaded[1].a] = in[loaded[0].b];
// CHECK: [[@LINE-1]]:3: access: kernel=members op=store base=out elem=4 expr='out[loaded[1].a]' sectors=n/a ideal=n/a class=indirect {{.*}}
// CHECK: [[@LINE-2]]:22: access: kernel=members op=load base=in elem=4 expr='in[loaded[0].b]' sectors=n/a ideal=n/a class=indirect {{.*}}
  pair_t own[2];
  for (int i = 0; i < 2; ++i) own[i] = pair_t{int(threadIdx.x) * 4, i};
  out[own[1].a] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=members op=store base=out elem=4 expr='out[own[1].a]' sectors=n/a ideal=n/a class=unknown {{.*}}
}
// Objects copied into an array from memory (bitsandbytes' int4 of packed
// codes) or from an object the walker holds put what they hold there.
__global__ void copied(const int4 *in, const int *p, const float *q,
                       float *out) {
  unsigned char codes[16];
  reinterpret_cast<int4 (&)[1]>(codes)[0] = in[threadIdx.x];
// CHECK: [[@LINE-1]]:45: access: kernel=copied op=load base=in elem=16 expr='in[threadIdx.x]' sectors=16 ideal=16 class=coalesced {{.*}}
  out[threadIdx.x] = q[codes[3]];
// CHECK: [[@LINE-1]]:3: access: kernel=copied op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK: [[@LINE-2]]:22: access: kernel=copied op=load base=q elem=4 expr='q[codes[3]]' sectors=n/a ideal=n/a class=indirect {{.*}}
  pair_t held = pair_t{p[threadIdx.x], 0};
// CHECK: [[@LINE-1]]:24: access: kernel=copied op=load base=p elem=4 expr='p[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  pair_t kept[2];
  kept[1] = held;
  out[kept[1].a] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=copied op=store base=out elem=4 expr='out[kept[1].a]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
int main() {
  values<<<1, 256>>>(nullptr, nullptr, nullptr, nullptr);
  ranks<<<1, 256>>>(nullptr, nullptr);
  skipped<<<1, 256>>>(nullptr, nullptr);
  filled<<<1, 256>>>(nullptr, nullptr);
  wrapped<<<1, 256>>>(nullptr, nullptr, nullptr);
  defaults<<<1, 256>>>(nullptr, nullptr, 1024);
  copies<<<1, 256>>>(nullptr, nullptr, nullptr);
  deep<<<1, 256>>>(nullptr, nullptr);
  members<<<1, 256>>>(nullptr, nullptr, nullptr);
  copied<<<1, 256>>>(nullptr, nullptr, nullptr, nullptr);
}
