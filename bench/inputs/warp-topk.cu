// bench/inputs/warp-topk.cu - a synthetic kernel family shaped like the
// slowest real-code files (issue 26): a warp-cooperative top-k router,
// instantiated for every combination of element type, index type, score
// function and output format (36 kernels), each inlining a radix selection
// (byte-packed bucket counts, an unrolled warp sum per bucket with a break)
// and device helpers that count lanes with __popc over a __ballot_sync mask
// inside loops over the experts, under tail tests (`i + 4 <= n`) that pile
// up conjuncts in the active-lane condition. No third-party code: written for this benchmark.
//
//   bash bench/run.sh bench/inputs/warp-topk.cu
//
// The cost per access must not depend on where the code comes from: this
// file's analysis time, against clang's parse of it, is the number to watch.
#include <cuda_runtime.h>

enum class Score { Softmax, Sigmoid, SqrtSoftplus };
enum class Format { Bitmap, Indices };

template <typename T> __device__ float toFloat(T V) { return float(V); }

template <Score S> __device__ float scoreOf(float X) {
  if (S == Score::Sigmoid)
    return 1.0f / (1.0f + __expf(-X));
  if (S == Score::SqrtSoftplus)
    return sqrtf(log1pf(__expf(X)));
  return X;
}

/// Lanes of the warp below this one whose value is at least Threshold, and
/// how many lanes of the warp qualify (an exclusive prefix over the ballot).
__device__ int warpPrefix(float V, float Threshold, int Lane, int &Total) {
  unsigned Ballot = __ballot_sync(0xffffffffu, V >= Threshold);
  Total = __popc(Ballot);
  return __popc(Ballot & ((1u << Lane) - 1));
}

__device__ unsigned warpSum(unsigned V) {
  for (int Offset = 16; Offset > 0; Offset >>= 1)
    V += __shfl_xor_sync(0xffffffffu, V, Offset);
  return V;
}

__device__ unsigned orderedBits(float X) {
  unsigned U = __float_as_uint(X);
  return (U & 0x80000000u) ? ~U : (U | 0x80000000u);
}

/// The k largest of N scores by radix selection on 4-bit digits: per pass,
/// byte-packed bucket counts per lane, a warp sum per bucket from the top,
/// then the elements above the k-th value and its ties written out in
/// order, their positions counted over the warp with __popc.
template <typename IdxT>
__device__ void radixTopK(const float *Scores, int N, int K, float *Vals,
                          IdxT *Idx, int Lane) {
  unsigned Want = 0, WantMask = 0;
  int Left = K;
#pragma unroll 1
  for (int Pass = 7; Pass >= 0; --Pass) {
    int Shift = Pass * 4;
    unsigned Packed[4] = {0, 0, 0, 0};
    for (int I = Lane; I < N; I += 32) {
      unsigned U = orderedBits(Scores[I]);
      if ((U & WantMask) == Want) {
        int Bucket = (U >> Shift) & 15;
        Packed[Bucket >> 2] += 1u << ((Bucket & 3) << 3);
      }
    }
    int Target = 0;
    int LeftHere = Left;
#pragma unroll
    for (int B = 15; B >= 0; --B) {
      unsigned Count = warpSum((Packed[B >> 2] >> ((B & 3) << 3)) & 0xffu);
      if (Count < unsigned(LeftHere)) {
        LeftHere -= Count;
      } else {
        Target = B;
        break;
      }
    }
    Left = LeftHere;
    Want |= unsigned(Target) << Shift;
    WantMask |= 15u << Shift;
  }
  int Written = 0;
  for (int Base = 0; Base < N; Base += 32) {
    int I = Base + Lane;
    bool Valid = I < N;
    unsigned U = Valid ? orderedBits(Scores[I]) : 0;
    bool Above = Valid && U > Want;
    unsigned Ballot = __ballot_sync(0xffffffffu, Above);
    int Before = __popc(Ballot & ((1u << Lane) - 1));
    if (Above && Written + Before < K) {
      Idx[Written + Before] = IdxT(I);
      Vals[Written + Before] = Scores[I];
    }
    Written += __popc(Ballot);
  }
  for (int Base = 0; Base < N && Left > 0; Base += 32) {
    int I = Base + Lane;
    bool Tie = I < N && orderedBits(Scores[I]) == Want;
    unsigned Ballot = __ballot_sync(0xffffffffu, Tie);
    int Before = __popc(Ballot & ((1u << Lane) - 1));
    if (Tie && Before < Left && Written + Before < K) {
      Idx[Written + Before] = IdxT(I);
      Vals[Written + Before] = Scores[I];
    }
    int Taken = __popc(Ballot) < Left ? __popc(Ballot) : Left;
    Written += Taken;
    Left -= Taken;
  }
}

/// The k largest scores of one row, found by the warp: each round every
/// lane proposes its best remaining expert and the warp keeps the maximum.
template <typename T, typename IdxT, Score S>
__device__ void warpTopK(const T *Scores, int NumExperts, int K, float *Vals,
                         IdxT *Idx, int Lane) {
  for (int Round = 0; Round < K; ++Round) {
    float Best = -1e30f;
    int BestIdx = -1;
    for (int E = Lane; E < NumExperts; E += 32) {
      float X = scoreOf<S>(toFloat(Scores[E]));
      bool Taken = false;
      for (int J = 0; J < Round; ++J)
        Taken |= Idx[J] == IdxT(E);
      if (!Taken && X > Best) {
        Best = X;
        BestIdx = E;
      }
    }
    for (int Offset = 16; Offset > 0; Offset /= 2) {
      float OtherBest = __shfl_xor_sync(0xffffffffu, Best, Offset);
      int OtherIdx = __shfl_xor_sync(0xffffffffu, BestIdx, Offset);
      if (OtherBest > Best || (OtherBest == Best && OtherIdx < BestIdx)) {
        Best = OtherBest;
        BestIdx = OtherIdx;
      }
    }
    int Total = 0;
    int Before = warpPrefix(Best, Best, Lane, Total);
    if (Lane == 0 && Before == 0) {
      Vals[Round] = Best;
      Idx[Round] = IdxT(BestIdx);
    }
  }
}

template <typename T, typename IdxT, Score S, Format F>
__global__ void routerTopK(const T *Logits, float *Probs, IdxT *RoutingMap,
                           unsigned char *Bitmap, int NumTokens, int NumExperts,
                           int K) {
  extern __shared__ float Shared[];
  int Lane = threadIdx.x % 32;
  int Warp = threadIdx.x / 32;
  int WarpsPerBlock = blockDim.x / 32;
  float *Vals = Shared + Warp * 2 * K;
  IdxT *Idx = reinterpret_cast<IdxT *>(Vals + K);
  for (int Token = blockIdx.x * WarpsPerBlock + Warp; Token < NumTokens;
       Token += gridDim.x * WarpsPerBlock) {
    const T *Row = Logits + (size_t)Token * NumExperts;
    if (NumExperts > 256)
      radixTopK<IdxT>(Probs + (size_t)Token * NumExperts, NumExperts, K, Vals,
                      Idx, Lane);
    else
      warpTopK<T, IdxT, S>(Row, NumExperts, K, Vals, Idx, Lane);
    __syncwarp();
    // Vectorized clear of the row's outputs, with a scalar tail.
    int I = Lane * 4;
    for (; I + 4 <= NumExperts; I += 128) {
      if (F == Format::Bitmap) {
        Bitmap[(size_t)Token * NumExperts + I] = 0;
        Bitmap[(size_t)Token * NumExperts + I + 3] = 0;
      }
      Probs[(size_t)Token * NumExperts + I] = 0.0f;
      Probs[(size_t)Token * NumExperts + I + 1] = 0.0f;
    }
    for (int J = Lane; J < NumExperts % 4; J += 32)
      Probs[(size_t)Token * NumExperts + NumExperts - 1 - J] = 0.0f;
    __syncwarp();
    for (int J = Lane; J < K; J += 32) {
      int Expert = int(Idx[J]);
      int Total = 0;
      int Rank = warpPrefix(Vals[J], Vals[K - 1], Lane, Total);
      if (Rank < Total && Expert >= 0 && Expert < NumExperts) {
        Probs[(size_t)Token * NumExperts + Expert] = Vals[J];
        if (F == Format::Bitmap)
          Bitmap[(size_t)Token * NumExperts + Expert] = 1;
        else
          RoutingMap[(size_t)Token * K + J] = IdxT(Expert);
      }
    }
  }
}

template <typename T, typename IdxT, Score S, Format F>
void launchOne(const void *Logits, float *Probs, void *Map, unsigned char *Bits,
               int Tokens, int Experts, int K) {
  routerTopK<T, IdxT, S, F><<<(Tokens + 7) / 8, 256, 16 * K * sizeof(float)>>>(
      static_cast<const T *>(Logits), Probs, static_cast<IdxT *>(Map), Bits,
      Tokens, Experts, K);
}

template <typename T, typename IdxT>
void launchScores(int ScoreKind, bool AsBitmap, const void *Logits,
                  float *Probs, void *Map, unsigned char *Bits, int Tokens,
                  int Experts, int K) {
  switch (ScoreKind) {
  case 0:
    return AsBitmap ? launchOne<T, IdxT, Score::Softmax, Format::Bitmap>(
                          Logits, Probs, Map, Bits, Tokens, Experts, K)
                    : launchOne<T, IdxT, Score::Softmax, Format::Indices>(
                          Logits, Probs, Map, Bits, Tokens, Experts, K);
  case 1:
    return AsBitmap ? launchOne<T, IdxT, Score::Sigmoid, Format::Bitmap>(
                          Logits, Probs, Map, Bits, Tokens, Experts, K)
                    : launchOne<T, IdxT, Score::Sigmoid, Format::Indices>(
                          Logits, Probs, Map, Bits, Tokens, Experts, K);
  default:
    return AsBitmap ? launchOne<T, IdxT, Score::SqrtSoftplus, Format::Bitmap>(
                          Logits, Probs, Map, Bits, Tokens, Experts, K)
                    : launchOne<T, IdxT, Score::SqrtSoftplus, Format::Indices>(
                          Logits, Probs, Map, Bits, Tokens, Experts, K);
  }
}

/// Every combination: 3 element types x 2 index types x 3 scores x 2
/// formats.
void routerTopKAll(int Type, int IndexType, int ScoreKind, bool AsBitmap,
                   const void *Logits, float *Probs, void *Map,
                   unsigned char *Bits, int Tokens, int Experts, int K) {
  if (Type == 0 && IndexType == 0)
    launchScores<float, int>(ScoreKind, AsBitmap, Logits, Probs, Map, Bits,
                             Tokens, Experts, K);
  else if (Type == 0)
    launchScores<float, long long>(ScoreKind, AsBitmap, Logits, Probs, Map,
                                   Bits, Tokens, Experts, K);
  else if (Type == 1 && IndexType == 0)
    launchScores<double, int>(ScoreKind, AsBitmap, Logits, Probs, Map, Bits,
                              Tokens, Experts, K);
  else if (Type == 1)
    launchScores<double, long long>(ScoreKind, AsBitmap, Logits, Probs, Map,
                                    Bits, Tokens, Experts, K);
  else if (IndexType == 0)
    launchScores<int, int>(ScoreKind, AsBitmap, Logits, Probs, Map, Bits,
                           Tokens, Experts, K);
  else
    launchScores<int, long long>(ScoreKind, AsBitmap, Logits, Probs, Map, Bits,
                                 Tokens, Experts, K);
}
