// Inputs of workflow.test: one bank conflict suppressed in the source, one not.
__global__ void t(const float *in, float *out) {
  __shared__ float a[32][32];
  __shared__ float b[32][32];
  int x = threadIdx.x, y = threadIdx.y;
  a[y][x] = in[x];
  b[y][x] = in[x];
  __syncthreads();
  out[x] = a[x][y]; // NOLINT(coalesce-bank-conflict): measured cheap here
  out[x + 32] = b[x][y];
}
void run(const float *in, float *out) { t<<<1, dim3(32, 8)>>>(in, out); }
