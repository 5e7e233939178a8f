//===- NcuReport.cpp - Nsight Compute CSV exports as data -----------------===//

#include "NcuReport.h"

#include "KernelName.h"

#include "Csv.h"

#include <optional>
#include <set>
#include <tuple>
#include <utility>

namespace coalesce::verify {

const char *memOpName(MemOp Op) {
  switch (Op) {
  case MemOp::Load:
    return "load";
  case MemOp::Store:
    return "store";
  case MemOp::Atomic:
    return "atomic";
  }
  return "?";
}

namespace {

/// Column indices of one block's header row; -1 when absent.
struct Columns {
  int Line = -1, Address = -1, Sass = -1, Executed = -1, Space = -1,
      Operation = -1, Size = -1, Sectors = -1, Ideal = -1, Wavefronts = -1,
      WavefrontsIdeal = -1;

  explicit Columns(const CsvRow &Header) {
    int SourceSeen = 0;
    for (int I = 0, E = static_cast<int>(Header.size()); I != E; ++I) {
      const std::string &H = Header[I];
      if (H == "Line No")
        Line = I;
      else if (H == "Address")
        Address = I;
      else if (H == "Source" && SourceSeen++ == 1)
        Sass = I; // The second "Source" column holds the SASS text.
      else if (H == "Instructions Executed")
        Executed = I;
      else if (H == "Address Space")
        Space = I;
      else if (H == "Access Operation")
        Operation = I;
      else if (H == "Access Size")
        Size = I;
      else if (H == "L2 Theoretical Sectors Global")
        Sectors = I;
      else if (H == "L2 Theoretical Sectors Global Ideal")
        Ideal = I;
      else if (H == "L1 Wavefronts Shared")
        Wavefronts = I;
      else if (H == "L1 Wavefronts Shared Ideal")
        WavefrontsIdeal = I;
    }
  }
  bool usable() const { return Line >= 0 && Address >= 0 && Executed >= 0; }
};

std::string field(const CsvRow &Row, int I) {
  return I >= 0 && I < static_cast<int>(Row.size()) ? Row[I] : std::string();
}

double number(const CsvRow &Row, int I) {
  return parseNcuNumber(field(Row, I)).value_or(0.0);
}

/// The opcode of a SASS line: "@P0   REDG.E.ADD..." -> "REDG.E.ADD...".
std::string opcode(const std::string &Sass) {
  size_t I = Sass.find_first_not_of(" \t");
  if (I != std::string::npos && Sass[I] == '@') {
    I = Sass.find_first_of(" \t", I);
    I = I == std::string::npos ? I : Sass.find_first_not_of(" \t", I);
  }
  if (I == std::string::npos)
    return "";
  size_t End = Sass.find_first_of(" \t", I);
  return Sass.substr(I, End == std::string::npos ? End : End - I);
}

bool startsWith(const std::string &S, const char *Prefix) {
  return S.rfind(Prefix, 0) == 0;
}

/// Classifies a SASS row; false when it is neither a global- nor a
/// shared-memory access.
bool classify(const std::string &Sass, const std::string &Space,
              const std::string &Operation, MemOp &Op, MemSpace &Where) {
  std::string Opc = opcode(Sass);
  Where = MemSpace::Global;
  if (startsWith(Opc, "RED") || startsWith(Opc, "ATOM")) {
    if (startsWith(Opc, "ATOMS") || Space == "Shared")
      Where = MemSpace::Shared;
    else if (!Space.empty() && Space != "Global")
      return false; // Generic or local.
    Op = MemOp::Atomic;
    return true;
  }
  // LDGSTS (cp.async, memcpy_async): a global load written to shared
  // memory ("Global,Shared", "Load,Store"); its global side is the load.
  if (startsWith(Opc, "LDGSTS")) {
    Op = MemOp::Load;
    return true;
  }
  if (Space == "Shared") {
    Where = MemSpace::Shared;
    if (Operation == "Load" || startsWith(Opc, "LDS")) {
      Op = MemOp::Load;
      return true;
    }
    if (Operation == "Store" || startsWith(Opc, "STS")) {
      Op = MemOp::Store;
      return true;
    }
    return false;
  }
  if (Space != "Global")
    return false;
  if (Operation == "Load" || startsWith(Opc, "LDG") || startsWith(Opc, "LD.")) {
    Op = MemOp::Load;
    return true;
  }
  if (Operation == "Store" || startsWith(Opc, "STG") || startsWith(Opc, "ST.")) {
    Op = MemOp::Store;
    return true;
  }
  return false;
}

} // namespace

bool parseSourcePage(const std::string &Csv, SourcePage &Out,
                     std::string &Error) {
  std::vector<CsvRow> Rows = parseCsv(Csv);
  std::string File, Function;
  std::optional<Columns> Cols;
  unsigned Line = 0, Launch = 0;
  // (function, launch, address): each SASS row is listed twice per result.
  std::set<std::tuple<std::string, unsigned, std::string>> Seen;
  std::set<std::string> FilesOfResult; // Files of the current result so far.
  bool AnyBlock = false;
  for (const CsvRow &Row : Rows) {
    if (Row.empty())
      continue;
    if (Row[0] == "File Path") {
      File = field(Row, 1);
      Cols.reset();
      continue;
    }
    if (Row[0] == "Function Name") {
      std::string Name = field(Row, 1);
      // A result lists each of its files once: another function, or a file
      // of this one again, is the next result.
      if (Name != Function || !FilesOfResult.insert(File).second) {
        Function = Name;
        FilesOfResult = {File};
        Launch = ++Out.Launches[Function];
      }
      Out.FunctionInstructions.emplace(Function, 0.0);
      continue;
    }
    if (Row[0] == "Line No") {
      Cols.emplace(Row);
      if (!Cols->usable()) {
        Error = "source page header lacks Line No/Address/Instructions "
                "Executed columns";
        return false;
      }
      AnyBlock = true;
      Line = 0;
      continue;
    }
    if (!Cols || Function.empty())
      continue;
    std::string LineField = field(Row, Cols->Line);
    std::string Address = field(Row, Cols->Address);
    if (!LineField.empty()) { // A CUDA source line.
      Line = static_cast<unsigned>(parseNcuNumber(LineField).value_or(0));
      continue;
    }
    if (Address.empty() || Address == "-" || Address == "...")
      continue;
    if (!Seen.insert({Function, Launch, Address}).second)
      continue;
    double Executed = number(Row, Cols->Executed);
    Out.FunctionInstructions[Function] += Executed;
    SassInstruction I;
    if (!classify(field(Row, Cols->Sass), field(Row, Cols->Space),
                  field(Row, Cols->Operation), I.Op, I.Space))
      continue;
    I.Function = Function;
    I.Launch = Launch;
    I.File = File;
    I.Line = Line;
    I.Address = Address;
    I.Sass = field(Row, Cols->Sass);
    size_t First = I.Sass.find_first_not_of(' ');
    I.Sass = First == std::string::npos ? "" : I.Sass.substr(First);
    I.AccessBits = static_cast<unsigned>(number(Row, Cols->Size));
    I.Executed = Executed;
    bool Shared = I.Space == MemSpace::Shared;
    I.Sectors = number(Row, Shared ? Cols->Wavefronts : Cols->Sectors);
    I.IdealSectors = number(Row, Shared ? Cols->WavefrontsIdeal : Cols->Ideal);
    Out.Instructions.push_back(std::move(I));
  }
  if (!AnyBlock) {
    Error = "no \"Line No\" header found: not an Nsight Compute source-page "
            "CSV export (ncu -i REP --page source --csv)";
    return false;
  }
  return true;
}

const char *counterMetricList() {
  return "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
         "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
         "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,"
         "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,"
         "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,"
         "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,"
         "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,"
         "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum";
}

bool parseMetrics(const std::string &Csv,
                  std::map<std::string, KernelCounters> &Out,
                  std::string &Error) {
  int KernelCol = -1, NameCol = -1, ValueCol = -1;
  size_t Width = 0;
  for (const CsvRow &Row : parseCsv(Csv)) {
    if (KernelCol < 0) {
      for (int I = 0, E = static_cast<int>(Row.size()); I != E; ++I) {
        if (Row[I] == "Kernel Name")
          KernelCol = I;
        else if (Row[I] == "Metric Name")
          NameCol = I;
        else if (Row[I] == "Metric Value")
          ValueCol = I;
      }
      if (KernelCol < 0 || NameCol < 0 || ValueCol < 0)
        KernelCol = NameCol = ValueCol = -1;
      else
        Width = Row.size();
      continue;
    }
    if (Row.size() != Width)
      continue;
    KernelCounters &K = Out[Row[KernelCol]];
    double V = parseNcuNumber(Row[ValueCol]).value_or(0.0);
    const std::string &M = Row[NameCol];
    auto Is = [&](const char *Op, const char *What) {
      return M == std::string("l1tex__t_") + What +
                      "_pipe_lsu_mem_global_op_" + Op + ".sum";
    };
    if (Is("ld", "sectors"))
      K.LoadSectors += V;
    else if (Is("ld", "requests"))
      K.LoadRequests += V;
    else if (Is("st", "sectors"))
      K.StoreSectors += V;
    else if (Is("st", "requests"))
      K.StoreRequests += V;
    else if (Is("red", "sectors"))
      K.RedSectors += V;
    else if (Is("red", "requests"))
      K.RedRequests += V;
    else if (Is("atom", "sectors"))
      K.AtomSectors += V;
    else if (Is("atom", "requests"))
      K.AtomRequests += V;
  }
  if (KernelCol < 0) {
    Error = "no \"Kernel Name\"/\"Metric Name\"/\"Metric Value\" header: not "
            "an Nsight Compute --metrics --csv export";
    return false;
  }
  return true;
}

std::string kernelBaseName(const std::string &Name) {
  return unqualifiedKernelName(Name);
}

std::string fileBaseName(const std::string &Path) {
  size_t Slash = Path.find_last_of("/\\");
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

} // namespace coalesce::verify
