#pragma once
// DTensor (torch.distributed.tensor): a global tensor held as one local piece per rank of a
// DeviceMesh, described by one placement per mesh dim:
//   Shard(d)    the global tensor is split along tensor dim d over that mesh dim's ranks, with
//               torch.chunk's sizes: chunks of ceil(n / ranks) rows, the last ones shorter or
//               empty (a dim that the ranks do not divide is an "uneven" shard);
//   Replicate() every rank of that mesh dim holds the same values;
//   Partial()   the global tensor is the sum (or the given reduction) over that mesh dim's ranks.
// On a 2-D mesh the placements apply in mesh-dim order (Shard(0), Shard(0) chunks dim 0 by mesh
// dim 0, then each chunk again by mesh dim 1).
//
// redistribute() changes placements with the collective each change needs: Shard -> Replicate
// all-gathers, Partial -> Replicate all-reduces, Partial -> Shard reduce-scatters, Replicate ->
// Shard takes the local chunk, Replicate -> Partial keeps the values on the first rank of the
// mesh dim and zeros elsewhere. These are data movements: the result does not record autograd
// history (brasa's DTensor is the storage and layout description used by fully_shard).
//
//   auto d = DTensor::from_local(shard, mesh, {Shard(0)}, {10, 4});
//   Tensor all = d.full_tensor();                       // on every rank
//   DTensor r = d.redistribute(mesh, {Replicate()});

#include <optional>
#include <string>
#include <vector>

#include "brasa/distributed/device_mesh.h"

namespace brasa::distributed {

struct BRASA_API Placement {
  enum class Kind : uint8_t { Shard, Replicate, Partial };
  Kind kind = Kind::Replicate;
  int64_t dim = 0;                  // Shard only
  ReduceOp reduce = ReduceOp::SUM;  // Partial only

  bool is_shard() const { return kind == Kind::Shard; }
  bool is_shard(int64_t d) const { return kind == Kind::Shard && dim == d; }
  bool is_replicate() const { return kind == Kind::Replicate; }
  bool is_partial() const { return kind == Kind::Partial; }
  bool operator==(const Placement& o) const {
    return kind == o.kind && (kind != Kind::Shard || dim == o.dim) &&
           (kind != Kind::Partial || reduce.op_ == o.reduce.op_);
  }
  bool operator!=(const Placement& o) const { return !(*this == o); }
  std::string to_string() const;
};

inline Placement Shard(int64_t dim) { return {Placement::Kind::Shard, dim, ReduceOp::SUM}; }
inline Placement Replicate() { return {Placement::Kind::Replicate, 0, ReduceOp::SUM}; }
inline Placement Partial(ReduceOp op = ReduceOp::SUM) { return {Placement::Kind::Partial, 0, op}; }

/// torch.chunk's split of `size` into `parts`: the offset and length of piece `index` (the
/// length is 0 for pieces past the end).
BRASA_API std::pair<int64_t, int64_t> chunk_range(int64_t size, int64_t parts, int64_t index);

class BRASA_API DTensor {
 public:
  DTensor() = default;

  /// Wraps this rank's `local` piece. `shape` is the global shape; without it the shards are
  /// taken to be even (global size = local size x ranks on each Shard dim). ValueError when the
  /// placements are not one per mesh dim, a Shard dim is out of range (negative dims count from
  /// the end), or `local` is not the piece `shape` gives this rank.
  static DTensor from_local(const Tensor& local, const DeviceMesh& mesh,
                            std::vector<Placement> placements,
                            std::optional<std::vector<int64_t>> shape = std::nullopt);
  /// Splits `full` (the same values on every rank) by `placements`: each rank keeps its piece.
  static DTensor distribute(const Tensor& full, const DeviceMesh& mesh,
                            std::vector<Placement> placements);

  /// This rank's piece (shares storage with the DTensor).
  const Tensor& to_local() const { return local_; }
  /// The global tensor on every rank (all-gathers shards, all-reduces partials).
  Tensor full_tensor() const;
  /// The same global tensor with other placements on the same mesh (ValueError for another
  /// mesh or a mismatched placement list).
  DTensor redistribute(const DeviceMesh& mesh, std::vector<Placement> placements) const;

  const DeviceMesh& device_mesh() const { return *mesh_; }
  const std::vector<Placement>& placements() const { return placements_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t numel() const;
  bool defined() const { return local_.defined(); }
  std::string to_string() const;

  /// The shape of the piece that the rank at `coordinate` holds.
  static std::vector<int64_t> local_shape(const std::vector<int64_t>& global_shape,
                                          const std::vector<Placement>& placements,
                                          const DeviceMesh& mesh,
                                          const std::vector<int64_t>& coordinate);

 private:
  Tensor local_;
  std::optional<DeviceMesh> mesh_;
  std::vector<Placement> placements_;
  std::vector<int64_t> shape_;
};

}  // namespace brasa::distributed
