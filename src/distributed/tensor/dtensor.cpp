// DTensor: construction, layout arithmetic and redistribute (Note [Redistribute order]).

#include "brasa/distributed/dtensor.h"

#include <sstream>

#include "brasa/brasa.h"
#include "distributed/tensor/collectives.h"

namespace brasa::distributed {

std::string Placement::to_string() const {
  switch (kind) {
    case Kind::Shard: return "Shard(dim=" + std::to_string(dim) + ")";
    case Kind::Replicate: return "Replicate()";
    case Kind::Partial: return reduce.op_ == ReduceOp::SUM ? "Partial(sum)" : "Partial(reduce)";
  }
  return "?";
}

std::pair<int64_t, int64_t> chunk_range(int64_t size, int64_t parts, int64_t index) {
  const int64_t chunk = (size + parts - 1) / parts;
  const int64_t begin = std::min(size, chunk * index);
  const int64_t end = std::min(size, begin + chunk);
  return {begin, end - begin};
}

namespace {

std::string placements_string(const std::vector<Placement>& p) {
  std::string s = "(";
  for (size_t i = 0; i < p.size(); ++i) s += (i ? ", " : "") + p[i].to_string();
  return s + ")";
}

// Checks one placement per mesh dim and Shard dims in range; negative Shard dims count from the
// end of a tensor of `ndim` dims.
std::vector<Placement> normalized(const char* op, std::vector<Placement> placements,
                                  const DeviceMesh& mesh, int64_t ndim) {
  BRASA_CHECK(static_cast<int64_t>(placements.size()) == mesh.ndim(), op, ": ", placements.size(),
              " placements ", placements_string(placements), " for ", mesh.to_string(),
              ", which has ", mesh.ndim(), " dims: give one per mesh dim");
  for (auto& p : placements) {
    if (!p.is_shard()) continue;
    const int64_t d = p.dim < 0 ? p.dim + ndim : p.dim;
    BRASA_CHECK(d >= 0 && d < ndim, op, ": ", p.to_string(), " is out of range for a tensor of ",
                ndim, " dims");
    p.dim = d;
  }
  return placements;
}

// The shape before mesh dim `level`'s placement applies (the levels before it applied).
std::vector<int64_t> level_shape(std::vector<int64_t> shape, const std::vector<Placement>& pl,
                                 const DeviceMesh& mesh, const std::vector<int64_t>& coordinate,
                                 int64_t level) {
  for (int64_t i = 0; i < level; ++i) {
    const Placement& p = pl[static_cast<size_t>(i)];
    if (!p.is_shard()) continue;
    auto& s = shape[static_cast<size_t>(p.dim)];
    s = chunk_range(s, mesh.size(i), coordinate[static_cast<size_t>(i)]).second;
  }
  return shape;
}

}  // namespace

std::vector<int64_t> DTensor::local_shape(const std::vector<int64_t>& global_shape,
                                          const std::vector<Placement>& placements,
                                          const DeviceMesh& mesh,
                                          const std::vector<int64_t>& coordinate) {
  return level_shape(global_shape, placements, mesh, coordinate,
                     static_cast<int64_t>(placements.size()));
}

DTensor DTensor::from_local(const Tensor& local, const DeviceMesh& mesh,
                            std::vector<Placement> placements,
                            std::optional<std::vector<int64_t>> shape) {
  BRASA_CHECK(local.defined(), "DTensor.from_local: the local tensor is undefined");
  DTensor t;
  t.placements_ = normalized("DTensor.from_local", std::move(placements), mesh, local.dim());
  if (shape) {
    BRASA_CHECK(static_cast<int64_t>(shape->size()) == local.dim(),
                "DTensor.from_local: global shape ", IntArrayRef(*shape), " has ", shape->size(),
                " dims but the local tensor ", local.sizes(), " has ", local.dim());
    t.shape_ = *shape;
  } else {
    t.shape_ = local.sizes().vec();
    for (int64_t i = 0; i < mesh.ndim(); ++i) {
      const Placement& p = t.placements_[static_cast<size_t>(i)];
      if (p.is_shard()) t.shape_[static_cast<size_t>(p.dim)] *= mesh.size(i);
    }
  }
  const auto expected = local_shape(t.shape_, t.placements_, mesh, mesh.get_coordinate());
  BRASA_CHECK(local.sizes() == IntArrayRef(expected), "DTensor.from_local: rank ", mesh.get_rank(),
              " holds a local tensor of shape ", local.sizes(), " but ",
              placements_string(t.placements_), " of a global ", IntArrayRef(t.shape_), " on ",
              mesh.to_string(), " give it ", IntArrayRef(expected));
  t.local_ = local;
  t.mesh_ = mesh;
  return t;
}

DTensor DTensor::distribute(const Tensor& full, const DeviceMesh& mesh,
                            std::vector<Placement> placements) {
  auto pl = normalized("DTensor.distribute", std::move(placements), mesh, full.dim());
  Tensor local = full;
  const auto coordinate = mesh.get_coordinate();
  for (int64_t i = 0; i < mesh.ndim(); ++i) {
    const Placement& p = pl[static_cast<size_t>(i)];
    if (p.is_shard()) local = detail::local_chunk(local, p.dim, mesh.size(i), coordinate[i]);
    if (p.is_partial()) local = detail::to_partial(local, p.reduce, mesh.get_local_rank(i));
  }
  if (local.is_same(full)) local = full.clone();
  return from_local(local, mesh, std::move(pl), full.sizes().vec());
}

// Note [Redistribute order]
// Placements apply in mesh-dim order, so a mesh dim can only be changed while every later mesh
// dim that shards is undone. redistribute therefore (1) walks the mesh dims from the last to the
// first, turning each dim that must change (and every shard after a changed dim) into Replicate:
// all-gather for Shard, all-reduce for Partial -- or, for Partial -> Shard with nothing sharded
// after it and no earlier dim changing, one reduce-scatter straight to the target; then (2) walks
// from the first to the last, placing the targets on the replicated dims: a local chunk for Shard,
// zeros off the first rank for Partial(sum).
DTensor DTensor::redistribute(const DeviceMesh& mesh, std::vector<Placement> placements) const {
  BRASA_CHECK(defined(), "DTensor.redistribute: the DTensor is undefined");
  BRASA_CHECK(mesh == *mesh_, "DTensor.redistribute: the DTensor lives on ", mesh_->to_string(),
              " but the target is ", mesh.to_string(), "; redistribute keeps the mesh");
  const auto target = normalized("DTensor.redistribute", std::move(placements), mesh,
                                 static_cast<int64_t>(shape_.size()));
  const int64_t ndim = mesh.ndim();
  const auto coordinate = mesh.get_coordinate();
  std::vector<Placement> cur = placements_;
  std::vector<bool> reset(static_cast<size_t>(ndim), false);
  bool earlier_reset = false;
  for (int64_t i = 0; i < ndim; ++i) {
    const auto u = static_cast<size_t>(i);
    reset[u] = cur[u] != target[u] || (earlier_reset && cur[u].is_shard());
    earlier_reset = earlier_reset || reset[u];
  }
  Tensor x = local_;
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const auto u = static_cast<size_t>(i);
    if (!reset[u] || cur[u].is_replicate()) continue;
    auto group = mesh.get_group(i);
    const auto level = level_shape(shape_, cur, mesh, coordinate, i);
    if (cur[u].is_shard()) {
      x = detail::gather_dim(*group, x, cur[u].dim, level[static_cast<size_t>(cur[u].dim)]);
      cur[u] = Replicate();
      continue;
    }
    // Straight to the target only when no later dim shards now and no earlier dim will change
    // (a shard placed on an earlier dim afterwards would nest in the wrong order).
    bool blocked = false;
    for (int64_t j = i + 1; j < ndim; ++j) blocked |= cur[static_cast<size_t>(j)].is_shard();
    for (int64_t k = 0; k < i; ++k) blocked |= static_cast<bool>(reset[static_cast<size_t>(k)]);
    if (target[u].is_shard() && !blocked) {
      x = detail::reduce_scatter_dim(*group, x, target[u].dim, cur[u].reduce);
      cur[u] = target[u];
    } else {
      x = detail::all_reduce(*group, x, cur[u].reduce);
      cur[u] = Replicate();
    }
  }
  for (int64_t i = 0; i < ndim; ++i) {
    const auto u = static_cast<size_t>(i);
    if (cur[u] == target[u]) continue;
    if (target[u].is_shard()) {
      x = detail::local_chunk(x, target[u].dim, mesh.size(i), coordinate[u]);
    } else if (target[u].is_partial()) {
      x = detail::to_partial(x, target[u].reduce, mesh.get_local_rank(i));
    }
    cur[u] = target[u];
  }
  if (x.is_same(local_)) x = local_.clone();
  return from_local(x, mesh, target, shape_);
}

Tensor DTensor::full_tensor() const {
  std::vector<Placement> all(placements_.size(), Replicate());
  return redistribute(*mesh_, all).to_local();
}

int64_t DTensor::numel() const {
  int64_t n = 1;
  for (int64_t s : shape_) n *= s;
  return n;
}

std::string DTensor::to_string() const {
  std::ostringstream s;
  s << "DTensor(shape " << IntArrayRef(shape_) << ", placements " << placements_string(placements_)
    << ", " << (mesh_ ? mesh_->to_string() : std::string("no mesh")) << ")";
  return s.str();
}

}  // namespace brasa::distributed
