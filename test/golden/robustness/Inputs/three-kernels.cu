// Three kernels and their launches, for early-predictions.test.
__global__ void copy(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

__global__ void strided(float *out, const float *in, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * stride];
}

__global__ void column(float *m, int width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < width; ++c)
    m[row * width + c] += 1.0f;
}

void launch(float *a, float *b, int n) {
  copy<<<n / 256, 256>>>(a, b, n);
  strided<<<n / 128, 128>>>(a, b, 4);
  column<<<n / 64, 64>>>(a, n);
}
