//===- Predictor.h - Sectors per request of one access ----------*- C++ -*-===//
///
/// \file
/// The prediction step of the pipeline: from an AST-free description of one
/// global access (its byte address as an Expr, the predicate under which it
/// runs, its size) and a launch context (block shape, parameter values), the
/// sectors one warp request touches, averaged over the block's warps and over
/// the values of varying uniform symbols (blockIdx, loop iterations), against
/// Nsight Compute's ideal; plus a classification and the assumptions made.
///
/// Evaluation is exact, lane by lane: non-affine index functions (%, /, &, ^,
/// shifts, min/max, selects) need no approximation.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_PREDICTOR_H
#define COALESCE_PREDICTOR_H

#include "coalesce/Expr.h"
#include "coalesce/LaneModel.h"
#include "coalesce/SectorCounter.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// What an access does to memory.
enum class AccessOp {
  Load,      ///< Read.
  Store,     ///< Write.
  LoadStore, ///< Compound update (+=, ++): one load and one store.
  Atomic,    ///< atomicAdd & co.: one read-modify-write in memory.
};

/// "load", "store", "load+store", "atomic".
const char *accessOpName(AccessOp Op);

/// The memory an access reaches, which decides what one request costs:
/// 32-byte sectors of global memory (SectorCounter.h) or wavefronts of
/// shared memory's 32 banks (BankCounter.h).
enum class AccessSpace {
  Global, ///< Global memory: sectors per request.
  Shared, ///< __shared__ memory: wavefronts per request.
};

/// "global", "shared".
const char *accessSpaceName(AccessSpace S);

/// The unit a request's cost is counted in, singular: "sector" (global),
/// "wavefront" (shared).
const char *costUnitName(AccessSpace S);

/// Bytes one such unit stands for: 32 (a sector), 128 (one wavefront of the
/// 32 banks of 4 bytes).
unsigned costUnitBytes(AccessSpace S);

/// A loop around an access (AccessPattern::Loops), as the walker saw it.
struct EnclosingLoop {
  /// Its iteration counter (0, 1, ...), when the walker made one (a loop
  /// whose variables it follows in closed form); nullopt otherwise.
  std::optional<Symbol> Iter;
  /// The condition under which another pass runs, in terms of Iter (the
  /// constant 1 when the walker saw none it can evaluate).
  Expr Condition = Expr::constant(1);
  /// "the loop at f.cu:12", for notes.
  std::string Where;

  friend bool operator==(const EnclosingLoop &A, const EnclosingLoop &B) {
    return A.Iter == B.Iter && A.Condition == B.Condition && A.Where == B.Where;
  }
};

/// The AST-free description of one access to global or shared memory.
struct AccessPattern {
  /// The memory it reaches. For AccessSpace::Shared every count of the
  /// prediction (Prediction::SectorsPerRequest and its ideal) is in
  /// wavefronts, and Address is the offset from the __shared__ variable.
  AccessSpace Space = AccessSpace::Global;
  /// Byte offset of the accessed element from the start of its base
  /// allocation, e.g. 4*threadIdx.x + 1024*blockIdx.x for a[i] on floats.
  Expr Address;
  /// Predicate (0/1 Expr) under which the access executes; 1 if always.
  Expr Active = Expr::constant(1);
  /// Bytes each lane accesses (4 for float, 16 for float4, ...).
  unsigned AccessBytes = 4;
  AccessOp Op = AccessOp::Load;
  AtomicKind Atomic = AtomicKind::None;
  /// When the access reads a field of a struct element (p[i].x): the size of
  /// that struct. Used to recognise arrays of structures.
  std::optional<unsigned> RecordBytes;
  /// With RecordBytes: the struct's alignment and the field's byte offset
  /// in it (used to find fields the compiler loads together).
  unsigned RecordAlign = 0;
  unsigned FieldOffset = 0;
  /// Set when the frontend saw the access but could not follow its address
  /// (a pointer it cannot trace, memory touched inside a library call): the
  /// access is reported as unknown with this reason instead of being lost.
  std::string UnknownReason;
  /// How many instructions of AccessBytes each the compiler issues for this
  /// source access: a struct copied with less alignment than its size is
  /// loaded field by field (`Particle p = ps[i]` of ten 4-byte-aligned
  /// floats is ten 4-byte loads). Each has the predicted sectors/request.
  unsigned Instructions = 1;
  /// For an access a call issues in a lane mapping or in pieces of its own
  /// (wmma::load_matrix_sync from global memory, memcpy through a char *):
  /// how it is issued, said with every prediction of it ("wmma::...",
  /// "memcpy: ..."; the finding's suggestion follows from it).
  std::string IssuedAs;
  /// For each IndirectValue symbol of Address or Active that is a value
  /// loaded from memory: the byte offset the load read it from. When that
  /// load reads one address per warp (`ix = inp[b * T + t]` with b and t
  /// the same in the warp's lanes), the value is the same in every lane and
  /// the access is predicted as through a uniform unknown, not a gather.
  /// For a LaneValue symbol the walker made opaque (a loop-carried value
  /// without a closed form) that is a function of other values: one entry
  /// per value; where all are the same in a warp's lanes, so is it.
  std::vector<std::pair<Symbol, Expr>> LoadAddresses;
  /// Why the walker made a LaneValue symbol of Address opaque, where it is
  /// a function of the values LoadAddresses gives it: the reason the access
  /// is unknown unless they are the same in all lanes of a warp. Equal to
  /// UnknownReason where such a value is a function of nothing known: the
  /// address is there, its values are what the engine cannot model.
  std::string OpaqueReason;
  /// The loops around the access, outermost first (across inlined calls):
  /// how many times it runs (RequestCount).
  std::vector<EnclosingLoop> Loops;
};

/// The launch context a prediction is made for.
struct PredictOptions {
  BlockShape Block;
  /// Values for Param symbols (and "gridDim.x" etc.), by symbol name.
  std::map<std::string, int64_t> Params;
  /// Value used for a fixed unknown (parameter, gridDim, uniform value)
  /// that the user did not give. Stated in the prediction's assumptions.
  int64_t DefaultValue = 1024;
  /// Upper bound on sampled combinations of varying symbols.
  unsigned MaxSamples = 512;
};

/// The classes of access the tool reports. Stable names in JSON and text.
enum class Classification {
  Coalesced,  ///< At or below the ideal.
  Misaligned, ///< Contiguous lanes, but the first one does not start a sector.
  Strided,    ///< Adjacent lanes are further apart than one element.
  AoS,        ///< Strided by the size of the struct whose field is accessed.
  Transposed, ///< threadIdx.x moves the slow dimension, another the fast one.
  Uniform,    ///< Every lane of the warp accesses the same address.
  Indirect,   ///< The address depends on data loaded from memory.
  Unknown,    ///< The engine cannot model the address.
  // Shared memory (uniform, indirect and unknown as above):
  ConflictFree, ///< At the ideal wavefronts per request.
  BankConflict, ///< Lanes hit distinct words of one bank: more wavefronts.
};

/// "coalesced", "misaligned", "strided", "aos", "transposed", "uniform",
/// "indirect", "unknown", "conflict-free", "bank-conflict".
const char *classificationName(Classification C);

/// One warp request of an access as the simulation evaluated it, kept to be
/// shown (WarpPicture.h): the byte address of every lane of the warp.
struct WarpRequest {
  /// The warp of the block (0-based) and its lanes' threads.
  unsigned Warp = 0;
  /// The sample it was taken at, one phrase per varying symbol:
  /// "blockIdx.x = 0", "iteration 2 of the loop over k"; empty when none.
  std::vector<std::string> At;
  /// Per lane of the warp (up to 32): the byte address, nullopt when the
  /// lane does not execute the access.
  std::vector<std::optional<int64_t>> LaneAddresses;
  /// Sectors this request costs (countRequestSectors()).
  unsigned Sectors = 0;
};

/// How many warp requests one launch makes of an access, estimated from
/// the launch's values (or the defaults): the warps of a block that run it,
/// times the trip counts of the loops around it, times the blocks.
struct RequestCount {
  /// Requests per block: warps that execute it (the fraction of sampled
  /// warps, blocks and iterations in which some lane does) times the trip
  /// counts found; per iteration of the loops in PerIterationOf.
  double PerBlock = 0;
  /// Blocks of the launch's grid; nullopt when no launch gives the grid.
  std::optional<uint64_t> Blocks;
  /// Loops whose trip count is not known ("the loop at f.cu:12"): the
  /// counts are per iteration of each.
  std::vector<std::string> PerIterationOf;
  /// The factors, for notes: "4096 blocks x 8 warps x 64 iterations of the
  /// loop at f.cu:22".
  std::string Basis;

  /// Requests per launch, when the grid and every trip count are known.
  std::optional<double> perLaunch() const {
    if (!Blocks || !PerIterationOf.empty())
      return std::nullopt;
    return PerBlock * double(*Blocks);
  }
};

/// The result of predict(). Numbers are averages per warp request; for a
/// shared-memory access (AccessPattern::Space) the "sectors" are wavefronts.
struct Prediction {
  Classification Class = Classification::Unknown;
  /// Mean sectors per request under the assumptions; nullopt for
  /// indirect/unknown accesses and accesses that no lane executes.
  std::optional<double> SectorsPerRequest;
  /// Mean Nsight Compute ideal per request.
  std::optional<double> IdealSectorsPerRequest;
  /// Mean active lanes per request.
  std::optional<double> ActiveLanesPerRequest;
  /// Fraction of fetched sector bytes that lanes use (0..1).
  std::optional<double> UsedBytesFraction;
  /// When a fixed unknown (a parameter without a value) only shifts the
  /// address: the best and worst sectors per request over its values.
  std::optional<double> BestSectorsPerRequest, WorstSectorsPerRequest;
  /// The unknown responsible for Best/Worst (e.g. "4*off").
  std::string MisalignmentTerm;
  /// d(address)/d(threadIdx.x) in bytes, symbolically ("4*N") and with the
  /// values used; nullopt when threadIdx.x is not linear in the address.
  std::optional<Expr> LaneStrideBytes;
  std::optional<int64_t> LaneStrideBytesValue;
  /// Same for threadIdx.y.
  std::optional<Expr> RowStrideBytes;
  std::optional<int64_t> RowStrideBytesValue;
  /// Human-readable assumptions ("assuming N >= 8 (N = 1024 used)").
  std::vector<std::string> Assumptions;
  /// Values used for fixed unknowns the user did not give, by symbol name
  /// (of two symbols that print alike, the larger value).
  std::map<std::string, int64_t> AssumedValues;
  /// Why the access is indirect/unknown, or other detail.
  std::string Reason;
  /// No lane executes the access under the values used (dead code for this
  /// launch, or a guard an assumed value switches off).
  bool NoLaneExecutes = false;
  /// With NoLaneExecutes: the access's condition is false whatever the
  /// defaulted values (`if (loff != -1)` with loff = -1 from the launch):
  /// dead code for these values, not a guard a default switches off.
  bool DeadUnderKnownValues = false;
  /// One request whose sectors are nearest the mean (the first such in
  /// simulation order: block 0, iteration 0, warp 0 first), under the same
  /// values; nullopt for indirect/unknown accesses.
  std::optional<WarpRequest> Representative;
  /// How many requests a launch makes of the access; nullopt for accesses
  /// without a sector count.
  std::optional<RequestCount> Requests;
};

/// Predicts sectors per request for \p Access under \p Opts.
Prediction predict(const AccessPattern &Access, const PredictOptions &Opts);

} // namespace coalesce

#endif // COALESCE_PREDICTOR_H
