#pragma once
// DeviceMesh (torch.distributed.device_mesh): the ranks of the default group laid out as an
// n-dimensional array (1-D to 3-D here), each dimension optionally named. Every dimension has
// its own process group per slice: on a 2x2 mesh of ranks [[0, 1], [2, 3]], rank 1's group of
// dim 0 is {1, 3} and of dim 1 is {0, 1}. A 1-D mesh over the whole world uses the default group.
//
//   auto mesh = brasa::distributed::init_device_mesh("cpu", {2, 2}, {"dp", "tp"});
//   mesh.get_group("tp")->allreduce(...);   mesh.get_local_rank("dp");   mesh["tp"].size();
//
// Copies share the groups. Creating a mesh is a collective (new_group for every slice): every
// process of the default group must create the same meshes in the same order.

#include <memory>
#include <string>
#include <vector>

#include "brasa/distributed/process_group.h"

namespace brasa::distributed {

class BRASA_API DeviceMesh {
 public:
  /// A mesh of `shape` over ranks 0..prod(shape)-1 of the default group, row-major. ValueError
  /// when the product is not the world size, when names are not one per dim or repeat, or for
  /// more than 3 dims; the default group must exist.
  DeviceMesh(std::string device_type, std::vector<int64_t> shape,
             std::vector<std::string> dim_names = {});

  const std::string& device_type() const;
  int64_t ndim() const;
  const std::vector<int64_t>& shape() const;
  const std::vector<std::string>& dim_names() const;
  /// The number of ranks of the whole mesh, or along `dim`.
  int64_t size() const;
  int64_t size(int64_t dim) const;
  /// This process's rank in the default group, and its index along `dim` (= its rank in
  /// get_group(dim)).
  int get_rank() const;
  int get_local_rank(int64_t dim = 0) const;
  int get_local_rank(const std::string& dim_name) const;
  /// This rank's coordinates, one per dim.
  std::vector<int64_t> get_coordinate() const;
  /// The process group of this rank's slice along `dim` (IndexError for a dim out of range,
  /// ValueError for an unknown name).
  IntrusivePtr<ProcessGroup> get_group(int64_t dim = 0) const;
  IntrusivePtr<ProcessGroup> get_group(const std::string& dim_name) const;
  /// The 1-D mesh of this rank's slice along the named dim (sharing its group).
  DeviceMesh operator[](const std::string& dim_name) const;
  /// The mesh of this rank's slice along several named dims, in the order given (PyTorch's
  /// mesh["dp_replicate", "dp_shard"]; a 2-D HSDP mesh inside a 3-D one), sharing their groups.
  /// ValueError for an unknown or repeated name.
  DeviceMesh operator[](const std::vector<std::string>& dim_names) const;
  /// The global ranks of this rank's slice along `dim`, in order.
  std::vector<int> slice_ranks(int64_t dim) const;
  /// The dim called `name` (ValueError naming the known names otherwise).
  int64_t dim_index(const std::string& name) const;

  /// Same mesh object (copies of one mesh, or the same slice of it).
  bool operator==(const DeviceMesh& other) const;
  bool operator!=(const DeviceMesh& other) const { return !(*this == other); }
  std::string to_string() const;

 private:
  struct Impl;
  DeviceMesh(std::shared_ptr<const Impl> impl, std::vector<int64_t> dims);
  int64_t impl_dim(int64_t dim) const;  // this mesh's dim `dim` as a dim of impl_
  std::shared_ptr<const Impl> impl_;
  // A slice: impl_'s dims `dims_` in this order, with their shape and names (empty: all of it).
  std::vector<int64_t> dims_;
  std::vector<int64_t> view_shape_;
  std::vector<std::string> view_names_;
};

/// torch.distributed.device_mesh.init_device_mesh.
BRASA_API DeviceMesh init_device_mesh(const std::string& device_type,
                                      const std::vector<int64_t>& mesh_shape,
                                      const std::vector<std::string>& mesh_dim_names = {});

}  // namespace brasa::distributed
