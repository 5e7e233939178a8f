#!/usr/bin/env python3
"""The probe's table: python3 ldgsts-probe-table.py probe.csv (the export of
ncu --page source --print-source cuda,sass --csv --print-kernel-base function):
one row per global load of ldgsts-probe.cu, sectors and ideal per request."""
import csv,io,sys
csv.field_size_limit(1<<30)
t=open(sys.argv[1]).read()
fn=None;hdr=None;f=None;line=None;seen=set();blk=0
print("kernel\tline\tsass\trequests\tsectors_per_req\tideal_per_req\tl1_tag_requests_per_req\taddress_space")
for row in csv.reader(io.StringIO(t)):
    if not row: continue
    if row[0]=="File Path": f=row[1].split('/')[-1]; blk+=1; continue
    if row[0]=="Function Name": fn=row[1]; continue
    if row[0]=="Line No": hdr={h:i for i,h in reversed(list(enumerate(row)))}; continue
    if not hdr: continue
    if row[0]!="": line=row[0]; continue
    if len(row)>3 and ('LDG' in row[3]) and 'DEPBAR' not in row[3] and f=='ldgsts-probe.cu':
        if (fn,row[2]) in seen: continue
        seen.add((fn,row[2]))
        g=lambda h: row[hdr[h]] if h in hdr else '-'
        r=int(g("Instructions Executed"))
        print(f"{fn}\t{line}\t{row[3].strip().split(' desc')[0]}\t{r}\t{int(g('L2 Theoretical Sectors Global'))/r:.2f}\t{int(g('L2 Theoretical Sectors Global Ideal'))/r:.2f}\t{int(g('L1 Tag Requests Global'))/r:.2f}\t{g('Address Space')}")
