// Ground-truth driver for ankan-ban/llama_cu_awq (d0453fd0): stands in for
// llama2_q4.cu's main(), which needs a converted AWQ checkpoint and a
// tokenizer file (gigabytes, not on the GPU machine). The suite's file is
// #included unmodified (its main renamed), and its own host code runs: the
// driver fills a model of the given geometry with random weights through
// malloc_weights()/malloc_run_state(), then calls run_transformer() twice
// at position POS, as generate() does (CUDA graphs on, the suite's default):
//
//   1. a prompt token: greedy argmax (gen_token false), which advances pos;
//   2. a generated token: temperature 0.5, top-p 0.6 (main()'s defaults):
//      softmax_logits_kernel, cub's radix sort and scan, sample_top_p_kernel,
//      and the logits copied out as for perplexity (convert_fp16_to_fp32).
//
//   llama-awq-driver DIM HIDDEN HEADS KV_HEADS VOCAB SEQ_LEN LAYERS POS [check]
//
// Llama-2-7B: 4096 11008 32 32 32000 4096; the GQA branch of
// run_llama_network (three int4 matmuls writing the KV cache at loff) needs
// KV_HEADS < HEADS, and softmax_kernel_no_smem a position past 8192
// (MultiHeadAttention takes it when the sequence bin exceeds
// MAX_SEQ_LEN_SMEM_KERNEL). One deviation from the suite, needed for the
// latter: malloc_run_state() sizes the attention scores as HEADS * DIM
// halves, which a position past DIM overruns (softmax writes HEADS * (pos + 1));
// the driver reallocates them as HEADS * SEQ_LEN (cudaMalloc alignment, as before).
//
// With "check", it first compares the int4 GEMV (matmul(..., QWeight&, ...):
// layer 0's wq_o and wq_down) and the fp16 classifier GEMV with a CPU
// reference in double precision (relative L2 error), and checks that both
// generated steps give finite logits and a token inside the vocabulary.
// Exit status: 0 fine, 1 a check failed, 2 a CUDA error or bad arguments.
#include "gt-cub-max-compat.h"  // cub::Max/Min of CUDA 12 (removed in CCCL 3)
#define main llama_cu_awq_main
#include "llama2_q4.cu"
#undef main

#include <vector>

#include "driver-common.h"

static void fill_bits(void *dev, size_t bytes) {  // random bits (packed int4 weights, zeros)
    std::vector<unsigned long long> h((bytes + 7) / 8);
    for (auto &v : h) v = next_u64();
    CK(cudaMemcpy(dev, h.data(), bytes, cudaMemcpyHostToDevice));
}
static void fill_half(half *dev, size_t n, float lo, float hi) {
    std::vector<half> h(n);
    for (auto &v : h) v = __float2half(lo + (hi - lo) * 0.5f * (urand() + 1.0f));
    CK(cudaMemcpy(dev, h.data(), n * sizeof(half), cudaMemcpyHostToDevice));
}
template <class T> static std::vector<T> to_host(const T *dev, size_t n) {
    std::vector<T> h(n);
    CK(cudaMemcpy(h.data(), dev, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

static void fill_qweight(QWeight &w, size_t height, size_t width) {  // as allocQWeight sizes them
    size_t packed_wt_height = getPackedWeightHeight(height);
    size_t scales_height = divUp(height, group_size);
    size_t packed_zeros_height = divUp(scales_height, 8);
    fill_bits(w.weight, packed_wt_height * width * sizeof(uint32_t));
    fill_bits(w.zeros, packed_zeros_height * width * sizeof(uint32_t));
    fill_half(w.scales, scales_height * width, 0.001f, 0.004f);
}

// out[o] = sum_k (q[o][k] - z[o][k / 128]) * s[o][k / 128] * x[k], the layout
// get_mat_vec_int4 reads (column-major packed weights, 8 nibbles a uint32)
static double check_int4(QWeight &w, int inp, int op, half *dx, half *dout) {
    int pwh = getPackedWeightHeight(inp), sh = divUp(inp, 128), pzh = divUp(sh, 8);
    auto q = to_host(w.weight, (size_t)pwh * op);
    auto z = to_host(w.zeros, (size_t)pzh * op);
    auto s = to_host(w.scales, (size_t)sh * op);
    auto x = to_host(dx, inp);
    matmul(dout, dx, w, inp, op);
    CK(cudaStreamSynchronize(stream));
    CK(cudaGetLastError());
    auto y = to_host(dout, op);
    double num = 0, den = 0;
    for (int o = 0; o < op; o++) {
        double acc = 0;
        for (int k = 0; k < inp; k++) {
            int g = k / 128;
            int qv = (q[(size_t)o * pwh + k / 8] >> (4 * (k % 8))) & 0xF;
            int zv = (z[(size_t)o * pzh + g / 8] >> (4 * (g % 8))) & 0xF;
            acc += (qv - zv) * (double)__half2float(s[(size_t)o * sh + g]) * __half2float(x[k]);
        }
        double d = __half2float(y[o]) - acc;
        num += d * d;
        den += acc * acc;
    }
    return std::sqrt(num / den);
}

static double check_fp16(half *wt, int n, int d, half *dx, half *dout) {
    auto w = to_host(wt, (size_t)n * d);
    auto x = to_host(dx, n);
    matmul(dout, dx, wt, n, d);
    CK(cudaStreamSynchronize(stream));
    CK(cudaGetLastError());
    auto y = to_host(dout, d);
    double num = 0, den = 0;
    for (int o = 0; o < d; o++) {
        double acc = 0;
        for (int k = 0; k < n; k++) acc += (double)__half2float(w[(size_t)o * n + k]) * __half2float(x[k]);
        double e = __half2float(y[o]) - acc;
        num += e * e;
        den += acc * acc;
    }
    return std::sqrt(num / den);
}

int main(int argc, char **argv) {
    if (argc < 9) {
        fprintf(stderr, "usage: %s DIM HIDDEN HEADS KV_HEADS VOCAB SEQ_LEN LAYERS POS [check]\n", argv[0]);
        return 2;
    }
    Transformer t = {};
    Config &p = t.config;
    p.dim = atoi(argv[1]);
    p.hidden_dim = atoi(argv[2]);
    p.n_heads = atoi(argv[3]);
    p.n_kv_heads = atoi(argv[4]);
    p.vocab_size = atoi(argv[5]);
    p.seq_len = atoi(argv[6]);
    p.n_layers = atoi(argv[7]);
    p.rope_theta = 10000.0f;
    int pos = atoi(argv[8]);
    bool check = argc > 9 && strcmp(argv[9], "check") == 0;
    if (p.dim <= 0 || p.n_heads <= 0 || p.n_kv_heads <= 0 || p.n_heads % p.n_kv_heads || p.dim % p.n_heads ||
        pos < 0 || pos + 2 >= p.seq_len || p.n_layers <= 0) {
        fprintf(stderr, "bad geometry\n");
        return 2;
    }
    int kv_dim = p.dim * p.n_kv_heads / p.n_heads;
    printf("geometry: dim %d hidden %d heads %d kv_heads %d (kv_dim %d) vocab %d seq_len %d layers %d pos %d\n",
           p.dim, p.hidden_dim, p.n_heads, p.n_kv_heads, kv_dim, p.vocab_size, p.seq_len, p.n_layers, pos);

    malloc_weights(&t.weights, &p);
    malloc_run_state(&t.state, &p, true);
    RunState &s = t.state;
    CK(cudaFree(s.att));  // HEADS * DIM in the suite; HEADS * SEQ_LEN needed past pos DIM
    CK(cudaMalloc((void **)&s.att, (size_t)p.n_heads * p.seq_len * sizeof(half)));

    TransformerWeights &w = t.weights;
    fill_half(w.token_embedding_table, (size_t)p.vocab_size * p.dim, -1.0f, 1.0f);
    fill_half(w.wcls, (size_t)p.vocab_size * p.dim, -0.02f, 0.02f);
    fill_half(w.rms_final_weight, p.dim, 0.5f, 1.5f);
    for (int l = 0; l < p.n_layers; l++) {
        PerLayerWeight &L = w.layers[l];
        fill_half(L.rms_att_weight, p.dim, 0.5f, 1.5f);
        fill_half(L.rms_ffn_weight, p.dim, 0.5f, 1.5f);
        fill_qweight(L.wq_q, p.dim, p.dim);
        fill_qweight(L.wq_k, p.dim, kv_dim);
        fill_qweight(L.wq_v, p.dim, kv_dim);
        fill_qweight(L.wq_o, p.dim, p.dim);
        fill_qweight(L.wq_gate, p.dim, p.hidden_dim);
        fill_qweight(L.wq_up, p.dim, p.hidden_dim);
        fill_qweight(L.wq_down, p.hidden_dim, p.dim);
    }
    // the positions before pos: cached keys and values, tokens
    size_t kv_elems = (size_t)p.n_layers * p.seq_len * kv_dim;
    fill_half(s.key_cache, kv_elems, -1.0f, 1.0f);
    fill_half(s.value_cache, kv_elems, -1.0f, 1.0f);
    for (int i = 0; i <= pos + 2; i++) s.shared_data->tokens[i] = (int)(next_u64() % p.vocab_size);

    CK(cudaStreamCreate(&stream));
    Sampler sampler;
    build_sampler(&sampler, p.vocab_size, 0.5f, 0.6f, 1234);

    int bad = 0;
    if (check) {
        int big = std::max(p.dim, p.hidden_dim);
        half *dx, *dout;
        CK(cudaMalloc((void **)&dx, big * sizeof(half)));
        CK(cudaMalloc((void **)&dout, std::max(big, p.vocab_size) * sizeof(half)));
        fill_half(dx, big, -1.0f, 1.0f);
        double e1 = check_int4(w.layers[0].wq_o, p.dim, p.dim, dx, dout);
        double e2 = check_int4(w.layers[0].wq_down, p.hidden_dim, p.dim, dx, dout);
        double e3 = check_fp16(w.wcls, p.dim, p.vocab_size, dx, dout);
        printf("check: int4 GEMV wq_o %d->%d rel L2 %.2e, wq_down %d->%d %.2e; fp16 classifier %d->%d %.2e\n",
               p.dim, p.dim, e1, p.hidden_dim, p.dim, e2, p.dim, p.vocab_size, e3);
        bad += !(e1 < 1e-2) + !(e2 < 1e-2) + !(e3 < 1e-2);
        CK(cudaFree(dx));
        CK(cudaFree(dout));
    }

    // generate(): position pos, then pos + 1
    CK(cudaMemcpy(s.pos, &pos, sizeof(int), cudaMemcpyHostToDevice));
    s.shared_data->pos = pos;
    for (int step = 0; step < 2; step++) {
        int at = s.shared_data->pos;
        bool gen = step == 1;
        run_transformer(gen, &p, &s, &w, gen, &sampler);
        CK(cudaStreamSynchronize(stream));
        CK(cudaGetLastError());
        int gpu_pos = -1;
        CK(cudaMemcpy(&gpu_pos, s.pos, sizeof(int), cudaMemcpyDeviceToHost));
        int next = s.shared_data->pos;
        int token = s.shared_data->tokens[next];
        printf("step %d (%s): at pos %d -> pos %d (gpu %d), token %d\n", step, gen ? "top-p" : "argmax", at, next,
               gpu_pos, token);
        if (check) {
            // step 1's logits are probabilities after top-p (softmax, sort, scan); the copy before them is raw
            int nonfinite = 0;
            if (gen) {
                auto lg = to_host(s.logits_array + (size_t)p.vocab_size * at, p.vocab_size);
                for (float v : lg) nonfinite += !std::isfinite(v);
                printf("check: step %d raw logits: %d non-finite of %d\n", step, nonfinite, p.vocab_size);
            }
            bad += nonfinite > 0 || !(token >= 0 && token < p.vocab_size) || next != at + 1 || gpu_pos != next;
        }
    }
    printf(check ? (bad ? "CHECK FAILED (%d)\n" : "check passed\n") : "done\n", bad);
    return bad ? 1 : 0;
}
