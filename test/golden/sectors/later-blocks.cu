// An access whose condition depends on blockIdx (a causal mask: row t of
// the grid runs lanes t2 <= t) is simulated in the first blocks only; two
// windows inside the grid (at 37% and 71% of it) are simulated too, and
// when one gives another figure a note says so, with both numbers (issue
// 26: llm.c's attention measured 16.5 sectors per request where the first
// blocks give 1.5). An access whose blocks all behave alike, or whose later
// blocks only fall past a bounds guard, gets no such note.
// RUN: %coalesce-lint --fail-on=never %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not="the figure is for the first blocks"
__global__ void mask(const float *att, float *out, int T) {
  int t = blockIdx.y;
  int t2 = blockIdx.x * blockDim.x + threadIdx.x;
  if (t2 <= t) out[t * T + t2] = att[t2 * T + t];
// CHECK: later-blocks.cu:[[@LINE-1]]:34: warning: uncoalesced load of 'att[t2 * T + t]': adjacent lanes are 4096 bytes apart (4*T): 4.5 sectors per request on average, ideal 1
// CHECK: later-blocks.cu:[[@LINE-2]]:34: note: the access's condition depends on blockIdx.y: blocks 0 to 7 (simulated) give 4.5 sectors per request, blocks 727 to 734 of the launch's grid give 31.8; the figure is for the first blocks
}
__global__ void even(const float *in, float *out, int n) {
  if (blockIdx.x % 2 == 0 && blockIdx.x * blockDim.x + threadIdx.x < n) out[blockIdx.x * blockDim.x + threadIdx.x] = in[(blockIdx.x * blockDim.x + threadIdx.x) * 2];
// CHECK: later-blocks.cu:[[@LINE-1]]:118: warning: uncoalesced load of 'in[(blockIdx.x * blockDim.x + threadIdx.x) * 2]': adjacent lanes are 8 bytes apart: 8 sectors per request, ideal 4
}
void run(const float *a, float *o) {
  mask<<<dim3(4, 1024), 256>>>(a, o, 1024);
  even<<<64, 256>>>(a, o, 1024);
}
