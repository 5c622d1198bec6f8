#pragma once
// Distributed checkpoints (torch.distributed.checkpoint): every rank writes the pieces it owns to
// its own shard file, rank 0 commits one metadata file (Note [DCP format], docs/distributed.md),
// and a load into any world size reads only the slices each rank's pieces need.
//
//   namespace dcp = brasa::distributed::checkpoint;
//   dcp::save(dcp::get_state_dict(*model, &optimizer, mesh), "ckpt/step100");   // a collective
//   ...  // later, maybe with another number of ranks or in one process without any group:
//   dcp::load_state_dict(*model, &optimizer, "ckpt/step100", mesh);
//
// A save is a collective over the group (the default group when one exists, else one process):
// each rank writes and fsyncs its shard file, then rank 0 writes the metadata to a temporary file,
// fsyncs it and renames it over `<dir>/.metadata` after every rank reported success. The shard
// files of each save carry a new generation number, so until that rename the previous checkpoint
// in the directory stays complete and loadable; after it, rank 0 deletes the previous generation's
// files. A checkpoint exists exactly when `.metadata` does.
//
// A load parses the metadata (untrusted input: SerializationError naming the file and line),
// checks every requested tensor's dtype and global shape, reads the overlapping part of every
// stored chunk (whole CRC-checked blocks only) into staging tensors, and only when every rank
// succeeded copies them in: a corrupt or missing shard file is a SerializationError naming the
// file and the tensor, and nothing is changed on any rank.

#include <optional>
#include <string>
#include <vector>

#include "brasa/distributed/dtensor.h"
#include "brasa/serialize/dcp_metadata.h"

namespace brasa::nn {
class Module;
}
namespace brasa::optim {
class Optimizer;
}

namespace brasa::distributed::checkpoint {

/// Named tensors to save or load. A DTensor contributes this rank's piece (Partial placements are
/// reduced to Replicate when added, a collective); a plain Tensor is the whole tensor, the same on
/// every rank. For loads, the pieces are written in place (they may share storage with a model).
class BRASA_API StateDict {
 public:
  struct Entry {
    std::string name;
    Tensor local;                  // this rank's piece
    std::vector<int64_t> shape;    // global
    std::vector<int64_t> offsets;  // of the piece in the global tensor
    bool writer = true;            // whether this rank stores the piece (one replica does)
    bool plain = false;            // added as a whole Tensor: rank 0 of the group stores it
    bool piece = false;            // added by add_piece: one of several boxes of the tensor
  };
  /// ValueError for an empty or repeated name, or a name with spaces or control characters.
  StateDict& add(const std::string& name, const DTensor& tensor);
  StateDict& add(const std::string& name, const Tensor& tensor);
  /// One box of a global tensor `shape`, at `offsets`, whose values are `local` (which a load
  /// writes in place: pass views to fill a larger tensor). A name may take several pieces (a rank
  /// whose share of a tensor is not one box, as tensor parallel's fused q/k/v blocks under
  /// fully_shard), all with the same dtype and global shape; every rank must add at least one
  /// (an empty one when it holds nothing). `writer`: whether this rank stores the piece.
  /// ValueError for a name already added otherwise, or a box outside the tensor.
  StateDict& add_piece(const std::string& name, const Tensor& local, std::vector<int64_t> shape,
                       std::vector<int64_t> offsets, bool writer);
  const std::vector<Entry>& entries() const { return entries_; }
  /// The first entry of that name.
  const Entry* find(const std::string& name) const;
  size_t size() const { return entries_.size(); }

 private:
  void push(Entry e);
  std::vector<Entry> entries_;
};

struct SaveInfo {
  std::string metadata_path;
  int64_t generation = 0;
  int64_t bytes_written = 0;  // by this rank (its shard file)
  int64_t total_bytes = 0;    // every rank's shard files together
  int64_t metadata_bytes = 0;
};

struct LoadInfo {
  int64_t bytes_needed = 0;  // of the requested pieces on this rank
  int64_t bytes_read = 0;    // from shard files by this rank (whole CRC blocks)
  int64_t files_opened = 0;
};

/// Writes `state` to directory `dir` (created when missing). A collective over `group` (null: the
/// default group if initialized, else this process alone); every rank must pass the same names in
/// the same order, with the same dtypes and global shapes. SerializationError for I/O failures
/// (every rank throws; the previous checkpoint in `dir` stays loadable).
BRASA_API SaveInfo save(const StateDict& state, const std::string& dir,
                        ProcessGroup* group = nullptr);
/// Fills every entry of `state` from the checkpoint in `dir`, whatever the world size of the save.
/// A collective over `group` (as for save). ValueError naming the entry for a tensor the
/// checkpoint lacks or holds with another dtype or global shape; SerializationError for corrupt
/// metadata or a missing, short or corrupt shard file. On any error no entry changes on any rank.
BRASA_API LoadInfo load(StateDict& state, const std::string& dir, ProcessGroup* group = nullptr);
/// The checkpoint's metadata (parsed and validated).
BRASA_API serialize::dcp::Metadata read_metadata(const std::string& dir);

/// The state of a model and its optimizer under the names "model.<param or buffer>" and
/// "optim.<param>.<state key>" (parameter-shaped optimizer state is placed like its parameter),
/// "optim.<param>.<scalar>" (0-d float64, e.g. step) and "optim.group<g>.<option>" (0-d float64).
/// With a mesh, parameters that fully_shard manages are their Shard(0) DTensors (the local pieces
/// are copies); without one, every entry is the whole tensor. NotImplementedError for optimizer
/// state other than parameter-shaped tensors and scalars.
BRASA_API StateDict get_state_dict(nn::Module& model, optim::Optimizer* optimizer,
                                   const std::optional<DeviceMesh>& mesh = std::nullopt);
/// Loads the model (and optimizer) state from `dir` as get_state_dict names it, into a model laid
/// out for this run (sharded by fully_shard over `mesh` or plain), whatever the layout of the save.
/// Optimizer state is created for the parameters the checkpoint has state for. Errors as for
/// load(); nothing changes on error.
BRASA_API LoadInfo load_state_dict(nn::Module& model, optim::Optimizer* optimizer,
                                   const std::string& dir,
                                   const std::optional<DeviceMesh>& mesh = std::nullopt,
                                   ProcessGroup* group = nullptr);

}  // namespace brasa::distributed::checkpoint
