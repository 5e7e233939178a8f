// Kernel templates instantiated only through std::make_unique: lmdeploy
// (TurboMind) registers each attention and GEMM kernel as
// `std::make_unique<KernelImpl<K>>()` in a registrar, and KernelImpl's
// constructor takes `&attention_kernel<K>`. The parse skips the bodies of
// system headers, so make_unique's `new T(...)` was never instantiated, nor
// the constructor, nor the kernel: 38 of lmdeploy's 120 files reported no
// kernel at first contact (fortieth session). make_unique's body is kept.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
#include <cuda_runtime.h>
#include <memory>
#include <vector>

template <class T> __global__ void scale_kernel(T *p, int stride) {
  p[threadIdx.x * stride] *= T(2);
// CHECK: [[@LINE-1]]:3: access: kernel=scale_kernel op=load+store base=p elem=4 expr='p[threadIdx.x * stride]' sectors=32 ideal=4 class=strided {{.*}}
}

struct Kernel {
  virtual ~Kernel() = default;
  const void *func = nullptr;
};

template <class T> struct KernelImpl : Kernel {
  KernelImpl() { func = reinterpret_cast<const void *>(&scale_kernel<T>); }
};

std::vector<std::unique_ptr<Kernel>> registry() {
  std::vector<std::unique_ptr<Kernel>> Kernels;
  Kernels.push_back(std::make_unique<KernelImpl<float>>());
  return Kernels;
}
// CHECK: 1 warning in 1 kernel (1 access analyzed, 0 unknown)
