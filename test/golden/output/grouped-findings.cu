// One finding per source access (issue 28): the predictions of one access
// across template instantiations, launch shapes and call sites are one
// warning. Identical verdicts say where they hold ("in all 2
// instantiations"), different ones are listed compactly under the costliest
// (a note each), an access in a device function whose verdict differs per
// call site is reported at each call site with the function's line as a
// note, and a suggestion is printed once per file unless --verbose.
// (--print-accesses keeps the source order; output/impact.cu checks the
// costliest-first order.)
// RUN: %not %coalesce-lint --print-accesses %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=suggestion:
// RUN: %not %coalesce-lint --print-accesses --verbose %s 2>&1 | FileCheck %s --check-prefix=VERBOSE
// In SARIF one result per group, the costliest first, where it holds in
// the message, a call site as the location of a verdict that differs per
// call.
// RUN: %coalesce-lint --format=sarif --fail-on=never %s | FileCheck %s --check-prefix=SARIF
// RUN: %coalesce-lint --format=sarif --fail-on=never %s | grep -c '"ruleId"' | FileCheck %s --check-prefix=RESULTS
// RESULTS: {{^6$}}

template <typename T, int B>
__global__ void scale(T *out, const T *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * 4] = in[i * 4] * 2;
}
// CHECK: grouped-findings.cu:[[@LINE-2]]:5: warning: uncoalesced store to 'out[i * 4]': adjacent lanes are 32 bytes apart: 32 sectors per request, ideal 8 (25% of fetched bytes used) [coalesce-stride]
// CHECK: grouped-findings.cu:[[@LINE-3]]:5: note: in 1 of 3 instantiations (scale<double, 128>)
// CHECK-NEXT: grouped-findings.cu:[[@LINE-4]]:5: note: in 2 of 3 instantiations (scale<float, 128>; scale<float, 256>): uncoalesced store to 'out[i * 4]': adjacent lanes are 16 bytes apart: 16 sectors per request, ideal 4 (25% of fetched bytes used)
// CHECK-NEXT: note: suggestion: make threadIdx.x drive the fastest-varying index
// CHECK: grouped-findings.cu:[[@LINE-6]]:18: warning: uncoalesced load of 'in[i * 4]': adjacent lanes are 32 bytes apart
// CHECK: note: in 1 of 3 instantiations (scale<double, 128>)
// CHECK-NEXT: note: in 2 of 3 instantiations (scale<float, 128>; scale<float, 256>): uncoalesced load of 'in[i * 4]'
// VERBOSE-COUNT-2: note: in 2 of 3 instantiations
// VERBOSE-COUNT-1: note: suggestion:
template __global__ void scale<float, 128>(float *, const float *, int);
template __global__ void scale<float, 256>(float *, const float *, int);
template __global__ void scale<double, 128>(double *, const double *, int);

template <int B>
__global__ void same(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x * 8];
}
// CHECK: grouped-findings.cu:[[@LINE-2]]:22: warning: uncoalesced load of 'in[threadIdx.x * 8]': adjacent lanes are 32 bytes apart: 32 sectors per request, ideal 4
// CHECK: note: in all 2 instantiations (same<1>; same<2>)
template __global__ void same<1>(const float *, float *);
template __global__ void same<2>(const float *, float *);

// Different per call site: a warning at each kernel's call.
__device__ float load2(const float *p, int i) { return p[i * 2]; }
__global__ void k1(const float *a, float *o) { o[threadIdx.x] = load2(a, threadIdx.x); }
// CHECK: grouped-findings.cu:[[@LINE-1]]:65: warning: uncoalesced load of 'p[i * 2]': adjacent lanes are 8 bytes apart: 8 sectors per request, ideal 4
// CHECK-NEXT: grouped-findings.cu:[[@LINE-3]]:56: note: the access, in the function kernel 'k1' calls here
// CHECK-NOT: called from kernel 'k1'
__global__ void k2(const float *a, float *o) { o[threadIdx.x] = load2(a, threadIdx.x * 16); }
// CHECK: grouped-findings.cu:[[@LINE-1]]:65: warning: uncoalesced load of 'p[i * 2]': adjacent lanes are 128 bytes apart: 32 sectors per request, ideal 4
// CHECK-NEXT: grouped-findings.cu:[[@LINE-7]]:56: note: the access, in the function kernel 'k2' calls here
// VERBOSE-COUNT-2: the access, in the function kernel

// The same from every call site: one warning at the function's line.
__device__ float load4(const float *p, int i) { return p[i * 4]; }
// CHECK: grouped-findings.cu:[[@LINE-1]]:56: warning: uncoalesced load of 'p[i * 4]': adjacent lanes are 16 bytes apart: 16 sectors per request, ideal 4
// CHECK: note: called from kernel 'k3' here
// CHECK: note: in all 2 call sites (k3 at {{.*}}grouped-findings.cu:[[@LINE+3]]:65; k4 at {{.*}}grouped-findings.cu:[[@LINE+4]]:65)
// The shifted block of k4 makes no difference: both read with 16-byte
// strides.
__global__ void k3(const float *a, float *o) { o[threadIdx.x] = load4(a, threadIdx.x); }
__global__ void k4(const float *a, float *o) { o[threadIdx.x] = load4(a, threadIdx.x + 32); }
// VERBOSE: suggestion:
// CHECK: 6 warnings in 9 kernels

// SARIF: "text": "uncoalesced load of 'in[threadIdx.x * 8]': {{.*}}. In all 2 instantiations (same<1>; same<2>). Suggestion:
// SARIF: "startLine": 40,
// SARIF: "rank": 100,
// SARIF: "text": "uncoalesced load of 'p[i * 2]': adjacent lanes are 128 bytes apart
// SARIF: "startLine": 53,
// SARIF: "rank": 83,
// SARIF: "startLine": 48,
// SARIF-NEXT: "startColumn": 56,
// SARIF: "text": "the access, in the function this call reaches"
// SARIF: "text": "uncoalesced store to 'out[i * 4]': {{.*}}. In 1 of 3 instantiations (scale<double, 128>). In 2 of 3 instantiations (scale<float, 128>; scale<float, 256>): uncoalesced store to 'out[i * 4]': adjacent lanes are 16 bytes apart
// SARIF: "text": "uncoalesced load of 'in[i * 4]'
// SARIF: "text": "uncoalesced load of 'p[i * 4]'
// SARIF: "text": "uncoalesced load of 'p[i * 2]': adjacent lanes are 8 bytes apart
// SARIF-NOT: "ruleId"

// In HTML a source access is one full box (the group's lead, with where its
// verdict holds and its other verdicts); its findings in the other
// instantiations and call sites are one line each linking to it, and the
// costliest list names source accesses, at the call site where the verdict
// differs per call.
// RUN: %coalesce-lint --format=html --fail-on=never %s | FileCheck %s --check-prefix=HTML
// RUN: %coalesce-lint --format=html --fail-on=never %s | grep -c '<div class="finding member' | FileCheck %s --check-prefix=MEMBERS
// RUN: %coalesce-lint --format=html --fail-on=never %s | grep -c '<div class="finding sev-' | FileCheck %s --check-prefix=BOXES
// MEMBERS: {{^6$}}
// BOXES: {{^6$}}
// HTML: <p class="totals" id="totals">6 findings in 9 kernels of 1 file;
// HTML: <tr><td><code>coalesce-stride</code></td><td class="num">6</td>
// HTML: <li><a href="#f-7">{{.*}}grouped-findings.cu:40:22</a> <code>coalesce-stride</code> ({{.*}}; in all 2 instantiations (same&lt;1&gt;; same&lt;2&gt;))</li>
// HTML-NEXT: <li><a href="#f-10">{{.*}}grouped-findings.cu:53:65</a>
// HTML-NEXT: <li><a href="#f-1">{{.*}}grouped-findings.cu:23:5</a> {{.*}}; in 1 of 3 instantiations (scale&lt;double, 128&gt;))</li>
// HTML: <div class="finding sev-warning" id="f-1">
// HTML: <ul class="verdicts">
// HTML-NEXT: <li>in 1 of 3 instantiations (scale&lt;double, 128&gt;)</li>
// HTML-NEXT: <li>in 2 of 3 instantiations (scale&lt;float, 128&gt;; scale&lt;float, 256&gt;): uncoalesced store to &#39;out[i * 4]&#39;: adjacent lanes are 16 bytes apart
// HTML: <div class="finding member sev-warning" id="f-3">
// HTML: <p class="muted">another verdict of <a href="#f-1">the finding at {{.*}}grouped-findings.cu:23:5</a>: in 2 of 3 instantiations (scale&lt;float, 128&gt;; scale&lt;float, 256&gt;)</p>
// HTML: <div class="finding member sev-warning" id="f-8">
// HTML: <p class="msg">as <a href="#f-7">{{.*}}grouped-findings.cu:40:22 in kernel <code>same&lt;1&gt;</code></a>, in all 2 instantiations (same&lt;1&gt;; same&lt;2&gt;)</p>
