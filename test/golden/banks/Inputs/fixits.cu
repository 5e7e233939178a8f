// Inputs of fix-its.test: which __shared__ arrays get the padding fix-it.
#define M 32
constexpr int TILE = 32;
__device__ void use(const float *p, float *out) { out[threadIdx.x] = p[0]; }
__global__ void k(const float *in, float *out, char *cout) {
  __shared__ float plain[32][32];      // padded: [32][33]
  __shared__ float named[TILE][TILE];  // padded: [TILE][TILE + 1]
  __shared__ char bytes[32][32];       // padded by one word: [32][36]
  __shared__ float sized[32][32];      // sizeof below: no fix
  __shared__ float passed[32][32];     // its address escapes: no fix
  __shared__ float macro[M][M];        // written by a macro: no fix
  __shared__ float within[2][64];      // the conflict is within a row: no fix
  __shared__ float fine[32][32];       // no conflict: no fix
  int x = threadIdx.x, y = threadIdx.y;
  plain[y][x] = in[x];
  named[y][x] = in[x];
  bytes[y][x] = cout[x];
  sized[y][x] = in[x];
  passed[y][x] = in[x];
  macro[y][x] = in[x];
  within[0][x] = in[x];
  fine[y][x] = in[x];
  __syncthreads();
  out[x] = plain[x][y] + named[x][y] + sized[x][y] + passed[x][y] +
           macro[x][y] + within[0][2 * x] + fine[y][x] + sizeof(sized);
  cout[x] = bytes[x][y];
  use(&passed[0][0], out);
}
void run(const float *in, float *out, char *c) { k<<<1, dim3(32, 8)>>>(in, out, c); }
