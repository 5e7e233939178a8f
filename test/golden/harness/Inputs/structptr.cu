// Kernels whose parameters point to structures holding pointers (issue 8):
// the structure lives in device memory, each pointer field the kernel
// dereferences gets a buffer of its own sized by exact bounds.
struct Params { const float *a; float *b; int n; };

// One structure behind a pointer; its integer field bounds the accesses.
__global__ void via_ptr(const Params *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p->n)
    p->b[i] = p->a[2 * i];
}

// An array of structures, one per block.
__global__ void per_block(Params *ps) {
  int t = threadIdx.x;
  ps[blockIdx.x].b[t] = ps[blockIdx.x].a[4 * t];
}

// A structure nested in the pointed-to one.
struct Outer { Params in; double *out; };
__global__ void nested(Outer *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o->out[i] = o->in.a[i];
}

// One structure per thread: more than 64, so they share one buffer per
// field, and each lane's loaded pointer is that buffer's start.
__global__ void per_thread(Params *ps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    ps[i].b[1] = ps[i].a[2];
}

int main() {
  Params *p, *ps;
  Outer *o;
  cudaMalloc(&p, sizeof(Params));
  cudaMalloc(&ps, 8 * sizeof(Params));
  cudaMalloc(&o, sizeof(Outer));
  via_ptr<<<8, 256>>>(p);
  per_block<<<8, 128>>>(ps);
  nested<<<4, 256>>>(o);
  per_thread<<<4, 256>>>(ps, 1000);
  return 0;
}
