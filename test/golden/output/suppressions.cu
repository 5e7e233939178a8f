// Suppression comments as clang-tidy users write them: suppressed findings
// are not printed, do not fail the run, and are marked in JSON.
// RUN: %not %coalesce-lint --list-unused-suppressions %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %not %coalesce-lint --format=json %s | FileCheck %s --check-prefix=JSON
// RUN: %not %coalesce-lint %s > /dev/null
// Without the two findings left, the run is clean (exit 0):
// RUN: %coalesce-lint --param=on=0 %s

__global__ void marked(float *a, float *b, float *c, float *d, float *e,
                       float *f, float *g, float *h, int on) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i * 2] = 1; // NOLINT
  // CHECK-NOT: :[[@LINE-1]]:{{.*}}warning
  b[i * 2] = 1; // NOLINT(coalesce-stride): rows are short
  // CHECK-NOT: :[[@LINE-1]]:{{.*}}warning
  // NOLINTNEXTLINE(coalesce-*)
  c[i * 2] = 1;
  // CHECK-NOT: :[[@LINE-1]]:{{.*}}warning
  // NOLINTBEGIN(coalesce-stride, coalesce-misaligned)
  d[i * 2] = 1;
  // CHECK-NOT: :[[@LINE-1]]:{{.*}}warning
  d[i + 1] = 1;
  // CHECK-NOT: :[[@LINE-1]]:{{.*}}warning
  // NOLINTEND(coalesce-stride, coalesce-misaligned)
  e[i * 2] = 1; // coalesce-lint: ignore[coalesce-stride]
  // CHECK-NOT: :[[@LINE-1]]:{{.*}}warning
  // coalesce-lint: ignore[coalesce-stride]
  f[i * 2] = 1;
  // CHECK-NOT: :[[@LINE-1]]:{{.*}}warning
  // Another tool's check, and another of our rules: not suppressed.
  if (on)
    g[i * 2] = 1; // NOLINT(bugprone-narrowing-conversions)
  // CHECK: :[[@LINE-1]]:5: warning: uncoalesced store to 'g[i * 2]'
  if (on)
    h[i * 2] = 1; // NOLINT(coalesce-aos)
  // CHECK: :[[@LINE-1]]:5: warning: uncoalesced store to 'h[i * 2]'
}
// The rule list of an END must match its BEGIN.
// NOLINTBEGIN(coalesce-aos)
// NOLINTEND(coalesce-stride)

// CHECK: 2 warnings in 1 kernel (9 accesses analyzed, 0 unknown); 7 suppressed
// CHECK-NEXT: warning: {{.*}}suppressions.cu:[[@LINE-3]]: unmatched NOLINT{{END}}(coalesce-stride) (it suppresses nothing)
// CHECK-NEXT: warning: {{.*}}suppressions.cu:[[@LINE-5]]: unmatched NOLINT{{BEGIN}}(coalesce-aos) (it suppresses nothing)
// CHECK-NEXT: suppressions.cu:[[@LINE-10]]:22: unused suppression 'NOLINT{{[(]}}coalesce-aos)'
// CHECK-NEXT: 1 unused suppression

// JSON: "expr": "b[i * 2]",
// JSON: "finding": {
// JSON: "rule": "coalesce-stride",
// JSON: "severity": "warning",
// JSON-NEXT: "fingerprint": "{{[0-9a-f]+}}",
// JSON-NEXT: "suppressed": true,
// JSON-NEXT: "suppression": {
// JSON-NEXT: "kind": "in-source",
// JSON-NEXT: "file": "{{.*}}suppressions.cu",
// JSON-NEXT: "line": 14,
// JSON-NEXT: "column": 20,
// JSON-NEXT: "text": "NOLINT{{[(]}}coalesce-stride)"
// JSON: "expr": "g[i * 2]",
// JSON: "suppressed": false,
// JSON-NEXT: "suppression": null
// JSON: "findings": 2,
// JSON-NEXT: "suppressed_findings": 7
