// --explain-access FILE:LINE[:COL]: each access on the line, its prediction
// and finding, and one warp request drawn lane by lane against the 32-byte
// sectors it touches ('#' the lane's bytes, '.' fetched bytes no lane uses).
// Lines stay within 100 columns: bytes are drawn 2 or 4 to a character.

__global__ void coalesced(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // RUN: %coalesce-lint --explain-access %s:%(line+1) | FileCheck %s --check-prefix=COALESCED --strict-whitespace
  a[i] = 1.0f;
  // COALESCED:      explain-access.cu:[[@LINE-1]]:3: store of 'a[i]' in kernel 'coalesced'
  // COALESCED-NEXT:   not a finding (coalesced)
  // COALESCED-NEXT:   predicted: 4 sectors per request, ideal 4, 100% of fetched bytes used (coalesced; mean over warps, blocks and iterations)
  // COALESCED-NEXT:   assuming a 1-D block of 256 threads (no launch found; use --block)
  // COALESCED-NEXT:   one request drawn (warp 0, blockIdx.x = 0): 32 of 32 lanes active, 4 bytes each
  // COALESCED-NEXT:   one character = 2 bytes, 16 per 32-byte sector; '|' starts a sector, ':' one after a gap
  // COALESCED-NEXT:   '#' bytes of the lane, '.' fetched but used by no lane (wasted)
  // COALESCED-NEXT:   offsets: bytes from the start of 'a'
  // COALESCED-NEXT:   byte offset +0               +32              +64              +96
  // COALESCED-NEXT:   lane 0      ##              |                |                |
  // COALESCED-NEXT:   lane 1        ##            |                |                |
  // COALESCED:        lane 8                      |##              |                |
  // COALESCED:        lane 31                     |                |                |              ##
  // COALESCED-NEXT:   all lanes   ################|################|################|################
  // COALESCED-NEXT:   sectors touched: 4, ideal 4; bytes requested: 128, fetched: 128; efficiency 100%
  // COALESCED-NOT: {{.}}
}

__global__ void strided(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // RUN: %coalesce-lint --explain-access %s:%(line+1) | FileCheck %s --check-prefix=STRIDED --strict-whitespace
  a[2 * i] = 1.0f;
  // STRIDED:      explain-access.cu:[[@LINE-1]]:3: store of 'a[2 * i]' in kernel 'strided'
  // STRIDED-NEXT:   warning [coalesce-stride]: uncoalesced store to 'a[2 * i]': adjacent lanes are 8 bytes apart: 8 sectors per request, ideal 4 (50% of fetched bytes used)
  // STRIDED-NEXT:   predicted: 8 sectors per request, ideal 4, 50% of fetched bytes used (strided;
  // STRIDED:        one character = 4 bytes, 8 per 32-byte sector;
  // STRIDED:        byte offset +0       +32      +64      +96      +128     +160     +192     +224
  // STRIDED-NEXT:   lane 0      #. . . .| . . . .| . . . .| . . . .| . . . .| . . . .| . . . .| . . . .
  // STRIDED-NEXT:   lane 1       .#. . .| . . . .| . . . .| . . . .| . . . .| . . . .| . . . .| . . . .
  // STRIDED:        lane 31      . . . .| . . . .| . . . .| . . . .| . . . .| . . . .| . . . .| . . .#.
  // STRIDED-NEXT:   all lanes   #.#.#.#.|#.#.#.#.|#.#.#.#.|#.#.#.#.|#.#.#.#.|#.#.#.#.|#.#.#.#.|#.#.#.#.
  // STRIDED-NEXT:   sectors touched: 8, ideal 4; bytes requested: 128, fetched: 256; efficiency 50%
}

__global__ void misaligned(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // RUN: %coalesce-lint --explain-access %s:%(line+1):3 | FileCheck %s --check-prefix=MISALIGNED --strict-whitespace
  a[i + 1] = 1.0f;
  // MISALIGNED:      explain-access.cu:[[@LINE-1]]:3: store of 'a[i + 1]' in kernel 'misaligned'
  // MISALIGNED-NEXT:   warning [coalesce-misaligned]: misaligned store to 'a[i + 1]': 5 sectors per request, ideal 4; the warp's 128 bytes start 4 bytes into a sector
  // MISALIGNED:        byte offset +0               +32              +64              +96              +128
  // MISALIGNED-NEXT:   lane 0      ..##            |                |                |                |  ..............
  // MISALIGNED-NEXT:   lane 1      ..  ##          |                |                |                |  ..............
  // MISALIGNED:        lane 31     ..              |                |                |                |##..............
  // MISALIGNED-NEXT:   all lanes   ..##############|################|################|################|##..............
  // MISALIGNED-NEXT:   sectors touched: 5, ideal 4; bytes requested: 128, fetched: 160; efficiency 80%
}

// Every access of the line; lanes drawn the same share a row (a warp-uniform
// load); a suppressed finding says so.
__global__ void uniform(const float *p, float *out) {
  // RUN: %coalesce-lint --explain-access %s:%(line+1) | FileCheck %s --check-prefix=UNIFORM --strict-whitespace
  out[threadIdx.x * 32] = p[blockIdx.x]; // NOLINT(coalesce-stride)
  // UNIFORM:      explain-access.cu:[[@LINE-1]]:3: store of 'out[threadIdx.x * 32]' in kernel 'uniform'
  // UNIFORM-NEXT:   warning [coalesce-stride]: uncoalesced store
  // UNIFORM-NEXT:   suppressed by 'NOLINT(coalesce-stride)' at line [[@LINE-3]]
  // UNIFORM:        one character = 16 bytes, 2 per 32-byte sector; '|' starts a sector, ':' one after a gap
  // UNIFORM:        sectors at offsets 0, 128, ..., 3968 (every 128 bytes)
  // UNIFORM-NEXT:   sectors     |-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-:-
  // UNIFORM-NEXT:   lane 0      #. . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . .
  // UNIFORM:        all lanes   +.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.+.
  // UNIFORM-NEXT:               ('+': some bytes of the character used)
  // UNIFORM-NEXT:   sectors touched: 32, ideal 4; bytes requested: 128, fetched: 1024; efficiency 12.5%
  // UNIFORM-EMPTY:
  // UNIFORM-NEXT: explain-access.cu:[[@LINE-12]]:{{[0-9]+}}: load of 'p[blockIdx.x]' in kernel 'uniform'
  // UNIFORM:        predicted: 1 sector per request, ideal 4, 12.5% of fetched bytes used (uniform;
  // UNIFORM-NEXT:   below the ideal: lanes share addresses, and the ideal (Nsight Compute's) counts every active lane's bytes as distinct, contiguous and aligned
  // UNIFORM:        lanes 0-31  ####............................
  // UNIFORM-NEXT:   all lanes   ####............................
  // UNIFORM-NEXT:   sectors touched: 1, ideal 4; bytes requested: 128, fetched: 32; efficiency 12.5%
  // UNIFORM-NEXT:   (4 distinct bytes: lanes share addresses)
}

// No access on the line: exit 2, naming the nearest lines that have some.
// RUN: sh -c '%coalesce-lint --explain-access %s:%(line) 2>&1; echo "exit=$?"' | FileCheck %s --check-prefix=NONE
// NONE: error: no access on {{.*}}explain-access.cu:[[@LINE-1]]; the nearest lines with accesses: 31, 47 and 62
// NONE-NEXT: exit=2
// RUN: sh -c '%coalesce-lint --explain-access %s:47:9 2>&1; echo "exit=$?"' | FileCheck %s --check-prefix=COLUMN
// COLUMN: error: no access at {{.*}}explain-access.cu:47:9; the accesses on line 47 start at column 3
// COLUMN-NEXT: exit=2
// RUN: sh -c '%coalesce-lint --explain-access %s 2>&1; echo "exit=$?"' | FileCheck %s --check-prefix=USAGE
// USAGE: error: invalid --explain-access '{{.*}}explain-access.cu': expected FILE:LINE[:COL]
// USAGE: exit=2
