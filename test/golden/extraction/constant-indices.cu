// Names whose value clang folds (const and constexpr locals, enumerators,
// sizeof, template arguments, constexpr calls and members) are constants in
// an index; a const local initialized from a parameter is not. The walker
// asks clang's evaluator only for expressions that can fold, so these pin
// what must still fold.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
enum { kTwo = 2 };
const int kGlobalThree = 3;
constexpr int twice(int V) { return 2 * V; }
struct Shape {
  static constexpr int Width = 4;
};

template <int S> __global__ void strides(float *p, int n) {
  const int Four = 4;
  constexpr int Eight = 8;
  const int FromParam = n;
  p[threadIdx.x * Four] = 0.f;
  // CHECK: constant-indices.cu:[[@LINE-1]]:3: access: kernel=strides op=store base=p {{.*}} sectors=16 ideal=4 class=strided stride=16
  p[threadIdx.x * Eight + 1] = 0.f;
  // CHECK: constant-indices.cu:[[@LINE-1]]:3: access: kernel=strides op=store base=p {{.*}} sectors=32 ideal=4 class=strided stride=32
  p[threadIdx.x * kTwo] = 0.f;
  // CHECK: constant-indices.cu:[[@LINE-1]]:3: access: kernel=strides op=store base=p {{.*}} sectors=8 ideal=4 class=strided stride=8
  p[threadIdx.x * kGlobalThree] = 0.f;
  // CHECK: constant-indices.cu:[[@LINE-1]]:3: access: kernel=strides op=store base=p {{.*}} sectors=12 ideal=4 class=strided stride=12
  p[threadIdx.x * sizeof(double)] = 0.f;
  // CHECK: constant-indices.cu:[[@LINE-1]]:3: access: kernel=strides op=store base=p {{.*}} sectors=32 ideal=4 class=strided stride=32
  p[threadIdx.x * S] = 0.f;
  // CHECK: constant-indices.cu:[[@LINE-1]]:3: access: kernel=strides op=store base=p {{.*}} sectors=8 ideal=4 class=strided stride=8
  p[threadIdx.x * twice(kTwo)] = 0.f;
  // CHECK: constant-indices.cu:[[@LINE-1]]:3: access: kernel=strides op=store base=p {{.*}} sectors=16 ideal=4 class=strided stride=16
  p[threadIdx.x * Shape::Width - Four] = 0.f;
  // CHECK: constant-indices.cu:[[@LINE-1]]:3: access: kernel=strides op=store base=p {{.*}} sectors=17 ideal=4 class=strided stride=16
  // n is not known here: the prediction assumes a default (1024).
  p[threadIdx.x * FromParam] = 0.f;
  // CHECK: constant-indices.cu:[[@LINE-1]]:3: access: kernel=strides op=store base=p {{.*}} sectors=32 ideal=4 class=strided stride=4096
}

void run(float *p, int n) { strides<2><<<1, 32>>>(p, n); }
