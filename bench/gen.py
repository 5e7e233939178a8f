#!/usr/bin/env python3
"""bench/gen.py - synthetic CUDA inputs for the benchmarks.

  gen.py project DIR N      N small .cu files (two kernels and a host launch
                            each, varied access patterns) and
                            DIR/compile_commands.json (nvcc commands)
  gen.py kernels FILE K M   one file with K kernels of M global accesses each
                            (K*M accesses), for the growth curve

The patterns cycle through coalesced, strided, transposed, misaligned,
indirect and loop accesses, so every stage of the analysis is exercised.
"""
import json
import os
import sys

PATTERNS = [
    "out[i] = in[i] * a;",
    "out[i * {s}] = in[i];",
    "out[x * n + y] = in[y * n + x];",
    "out[i + 1] = in[i + {s}];",
    "out[idx[i]] = in[i];",
    "for (int k = 0; k < 8; ++k) out[i * 8 + k] += in[k * n + i];",
    "out[blockIdx.x * {s} + threadIdx.x] = in[threadIdx.x * n];",
    "if (i < n) out[i] = in[n - 1 - i];",
]


def kernel(name, accesses, seed):
    lines = [
        f"__global__ void {name}(const float *in, float *out, const int *idx, int n, float a) {{",
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
        "  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;",
    ]
    for j in range(accesses):
        p = PATTERNS[(seed + j) % len(PATTERNS)].format(s=2 + (seed + j) % 7)
        lines.append("  { " + p + " }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def project(directory, n):
    os.makedirs(directory, exist_ok=True)
    commands = []
    for f in range(n):
        name = f"unit{f:03d}.cu"
        body = ["#include <cuda_runtime.h>", ""]
        body.append(kernel(f"k{f}a", 3, f))
        body.append(kernel(f"k{f}b", 3, f + 3))
        body.append(
            f"void launch{f}(const float *in, float *out, const int *idx, int n) {{\n"
            f"  dim3 block(16, 16);\n"
            f"  k{f}a<<<n / 256, 256>>>(in, out, idx, n, 2.0f);\n"
            f"  k{f}b<<<dim3(n / 16, n / 16), block>>>(in, out, idx, n, 2.0f);\n"
            "}\n")
        with open(os.path.join(directory, name), "w") as out:
            out.write("\n".join(body))
        commands.append({
            "directory": directory,
            "file": name,
            "command": f"nvcc -O2 -arch=sm_90 -DUNIT={f // 25} -c {name} -o {name}.o",
        })
    with open(os.path.join(directory, "compile_commands.json"), "w") as out:
        json.dump(commands, out, indent=1)


def kernels(path, k, m):
    with open(path, "w") as out:
        out.write("#include <cuda_runtime.h>\n\n")
        for j in range(k):
            out.write(kernel(f"k{j}", m, j))


def main(argv):
    if len(argv) == 4 and argv[1] == "project":
        project(os.path.abspath(argv[2]), int(argv[3]))
    elif len(argv) == 5 and argv[1] == "kernels":
        kernels(argv[2], int(argv[3]), int(argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
