// Loop-carried state changed by an inner loop of fixed trip count inside an
// outer loop (issue 7): Rodinia dwt2d's band writers, whose `next` advances
// under `next != end` in `for (r = 2; r < 2 + WIN_SIZE_Y; r += 2)` inside the
// sliding-window loop. Inside the outer loop's probe and samples, an inner
// loop whose condition stays a known constant is followed to its end, so the
// outer loop's samples carry `next` exactly. An inner loop whose trip count
// is not known there still leaves `next` unknown, with the reason.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
template <bool CHECKED> struct Writer {
  int next, stride, end;
  __device__ void init(int first, int s, int e) { next = first; stride = s; end = e; }
  __device__ void write(float *out, float v) {
    if (!CHECKED || next != end) {
      out[next] = v;
// CHECK: [[@LINE-1]]:7: access: kernel=bands op=store base=out elem=4 expr='out[next]' sectors=4 ideal=4 class=coalesced {{.*}}block=64(launch-site)
// CHECK: [[@LINE-2]]:7: access: kernel=columns op=store base=out elem=4 expr='out[next]' sectors=32 ideal=4 class=strided {{.*}}block=64(launch-site)
// CHECK: [[@LINE-3]]:7: access: kernel=unknownInner op=store base=out elem=4 expr='out[next]' sectors=n/a ideal=n/a class=unknown {{.*}}block=64(launch-site)
// JSON: "reason": "address depends on a per-lane value the engine cannot model: w.next, its value after the loop at nested-loop-state.cu:[[#@LINE+30]] (the trip count is not known)"
      next += stride;
    }
  }
};

// A thread per column, rows written down the band: coalesced.
__global__ void bands(float *out, int width, int height, int steps) {
  Writer<true> w;
  w.init(blockIdx.x * 64 + threadIdx.x, width, width * height);
  for (int s = 0; s < steps; ++s)
    for (int r = 0; r < 4; ++r)
      w.write(out, 1.0f);
}

// A thread per row, the writer moving along it: a lane per row is strided.
__global__ void columns(float *out, int width, int steps) {
  Writer<true> w;
  w.init((blockIdx.x * 64 + threadIdx.x) * width, 1, -1);
  for (int s = 0; s < steps; ++s)
    for (int r = 0; r < 2; ++r)
      w.write(out, 1.0f);
}

// The inner trip count is a parameter: not a known constant inside the
// outer loop's samples.
__global__ void unknownInner(float *out, int width, int steps, int rows) {
  Writer<true> w;
  w.init(threadIdx.x, width, 1 << 30);
  for (int s = 0; s < steps; ++s)
    for (int r = 0; r < rows; ++r)
      w.write(out, 1.0f);
}

int main() {
  float *d = nullptr;
  bands<<<16, 64>>>(d, 1024, 1024, 8);
  columns<<<16, 64>>>(d, 1024, 8);
  unknownInner<<<16, 64>>>(d, 1024, 8, 3);
}
// CHECK-NOT: access:
