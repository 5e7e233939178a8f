// Input of html.test and test/tools/html-in-browser.sh: a strided and a
// misaligned finding, a suppressed one, a clean kernel, and source text that
// HTML must escape (<, >, &).
template <typename T> __device__ T twice(T v) { return v + v; }

__global__ void rows(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (n & 1) == 0)
    out[i] = twice<float>(in[2 * i]);
  out[i * 32] = 0; // NOLINT(coalesce-stride): measured, rows are short
}

__global__ void shifted(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i + 1] = 2.0f;
}

__global__ void clean(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
