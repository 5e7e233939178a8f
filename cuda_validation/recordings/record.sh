#!/usr/bin/env bash
# record.sh - run on a GPU machine: builds probe.cu, profiles it with Nsight
# Compute and writes the raw outputs the parser tests replay (into $1).
set -uo pipefail
out=${1:-.}
cd "$(dirname "$0")"
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -2
  ncu --version | tail -1
} > "$out/environment.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/probe probe.cu || exit 1
/tmp/probe || exit 1
ncu --clock-control none --section SourceCounters --import-source yes -f -o /tmp/probe-rep /tmp/probe > "$out/ncu-profile.log" 2>&1
ncu -i /tmp/probe-rep.ncu-rep --page source --print-source cuda,sass --csv --print-kernel-base function > "$out/source-page.csv" 2> "$out/source-page.err"
ncu -i /tmp/probe-rep.ncu-rep --page details --csv --print-kernel-base function > "$out/details-page.csv" 2>&1
m=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum
ncu --clock-control none --metrics "$m" --csv --print-kernel-base function /tmp/probe > "$out/metrics.csv" 2>&1
cp /tmp/probe-rep.ncu-rep "$out/probe.ncu-rep"
ls -la "$out"
