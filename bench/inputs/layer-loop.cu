// bench/inputs/layer-loop.cu - what a transformer's decode kernels look
// like to the simulation (issue 26: calm's infer.cu took 5.6x clang's
// parse): 1024-thread blocks (32 warps per request sample), a loop over the
// model's layers that only its bound `l < n_layers` and a per-layer offset
// read, a grid-stride loop of one row per warp, and an inner loop over the
// row in 8-element chunks. Every parameter is defaulted, so each access is
// also probed for what the defaults hide (the stride probe: 64 simulations
// per parameter). No third-party code: written for this benchmark.
//
//   bash bench/run.sh bench/inputs/layer-loop.cu
#include <cuda_runtime.h>

struct Args {
  int dim, hidden_dim, n_layers, n_heads, head_dim, seq_len, kv_pos;
};

__global__ void __launch_bounds__(1024)
    matvecLayers(Args args, const float *w, const float *x, float *out,
                 float *cache) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int l = 0; l < args.n_layers; ++l) {
    const float *wl = w + (size_t)l * args.dim * args.hidden_dim;
    for (int j = blockIdx.x * 32 + warp; j < args.hidden_dim;
         j += gridDim.x * 32) {
      float acc = 0.f;
      for (int k = lane * 8; k < args.dim; k += 256)
        for (int e = 0; e < 8; ++e)
          acc += wl[(size_t)j * args.dim + k + e] * x[k + e];
      if (lane == 0)
        out[l * args.hidden_dim + j] = acc;
      cache[(size_t)l * args.seq_len * args.hidden_dim +
            (size_t)j * args.seq_len + args.kv_pos] = acc;
    }
  }
}

__global__ void __launch_bounds__(1024)
    attentionLayers(Args args, const float *q, const float *kcache,
                    float *att) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int l = 0; l < args.n_layers; ++l)
    for (int j = blockIdx.x * 32 + warp; j < args.n_heads * args.seq_len;
         j += gridDim.x * 32) {
      int h = j % args.n_heads, t = j / args.n_heads;
      float s = 0.f;
      for (int k = lane; k < args.head_dim; k += 32)
        s += q[h * args.head_dim + k] *
             kcache[((size_t)l * args.seq_len + t) * args.head_dim *
                        args.n_heads +
                    h * args.head_dim + k];
      att[(size_t)l * args.n_heads * args.seq_len + h * args.seq_len + t] = s;
    }
}
