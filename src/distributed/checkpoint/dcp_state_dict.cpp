// checkpoint::StateDict: the pieces a rank saves or loads, with their place in the global tensor.

#include <algorithm>

#include "brasa/brasa.h"
#include "brasa/distributed/checkpoint.h"

namespace brasa::distributed::checkpoint {

void StateDict::push(Entry e) {
  BRASA_CHECK(
      !e.name.empty() && static_cast<int64_t>(e.name.size()) <= serialize::dcp::kMaxNameLength &&
          std::all_of(e.name.begin(), e.name.end(), [](char c) { return c > 0x20 && c < 0x7f; }),
      "checkpoint::StateDict: name '", e.name,
      "' must be 1 to 1024 printable characters without spaces");
  const Entry* prev = find(e.name);
  BRASA_CHECK(prev == nullptr || (prev->piece && e.piece), "checkpoint::StateDict: name '", e.name,
              "' added twice");
  BRASA_CHECK(prev == nullptr ||
                  (prev->shape == e.shape && prev->local.scalar_type() == e.local.scalar_type()),
              "checkpoint::StateDict: piece of '", e.name, "' with dtype ", e.local.scalar_type(),
              " and global shape ", IntArrayRef(e.shape), " but its first piece has ",
              prev->local.scalar_type(), " and ", IntArrayRef(prev->shape));
  entries_.push_back(std::move(e));
}

StateDict& StateDict::add_piece(const std::string& name, const Tensor& local,
                                std::vector<int64_t> shape, std::vector<int64_t> offsets,
                                bool writer) {
  BRASA_CHECK(local.defined(), "checkpoint::StateDict: piece of '", name, "' is undefined");
  bool inside = offsets.size() == shape.size() && local.dim() == static_cast<int64_t>(shape.size());
  for (size_t d = 0; inside && d < shape.size(); ++d) {
    inside = offsets[d] >= 0 && offsets[d] + local.size(static_cast<int64_t>(d)) <= shape[d];
  }
  BRASA_CHECK(inside, "checkpoint::StateDict: piece of '", name, "' of shape ", local.sizes(),
              " at offsets ", IntArrayRef(offsets), " is not inside its global shape ",
              IntArrayRef(shape));
  Entry e;
  e.name = name;
  e.local = local;
  e.shape = std::move(shape);
  e.offsets = std::move(offsets);
  e.writer = writer;
  e.piece = true;
  push(std::move(e));
  return *this;
}

StateDict& StateDict::add(const std::string& name, const Tensor& tensor) {
  BRASA_CHECK(tensor.defined(), "checkpoint::StateDict: tensor '", name, "' is undefined");
  Entry e;
  e.name = name;
  e.local = tensor;
  e.shape = tensor.sizes().vec();
  e.offsets.assign(e.shape.size(), 0);
  e.plain = true;
  push(std::move(e));
  return *this;
}

StateDict& StateDict::add(const std::string& name, const DTensor& tensor) {
  BRASA_CHECK(tensor.defined(), "checkpoint::StateDict: DTensor '", name, "' is undefined");
  DTensor d = tensor;
  const auto& mesh = d.device_mesh();
  bool partial = false;
  std::vector<Placement> placements = d.placements();
  for (auto& p : placements) {
    if (p.is_partial()) {
      p = Replicate();
      partial = true;
    }
  }
  if (partial) d = d.redistribute(mesh, placements);
  Entry e;
  e.name = name;
  e.local = d.to_local();
  e.shape = d.shape();
  e.offsets.assign(e.shape.size(), 0);
  std::vector<int64_t> lengths = e.shape;
  const auto coord = mesh.get_coordinate();
  const int64_t nd = static_cast<int64_t>(e.shape.size());
  for (size_t m = 0; m < placements.size(); ++m) {
    const Placement& p = placements[m];
    if (p.is_shard()) {
      const int64_t dim = p.dim < 0 ? p.dim + nd : p.dim;
      const auto [off, len] = chunk_range(lengths[static_cast<size_t>(dim)],
                                          mesh.size(static_cast<int64_t>(m)), coord[m]);
      e.offsets[static_cast<size_t>(dim)] += off;
      lengths[static_cast<size_t>(dim)] = len;
    } else if (coord[m] != 0) {
      e.writer = false;  // a replica: the first rank of this mesh dim stores it
    }
  }
  BRASA_INTERNAL_ASSERT(IntArrayRef(lengths) == e.local.sizes(), "checkpoint: DTensor '", name,
                        "' has local shape ", e.local.sizes(), " but its placements give ",
                        IntArrayRef(lengths));
  push(std::move(e));
  return *this;
}

const StateDict::Entry* StateDict::find(const std::string& name) const {
  for (const auto& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace brasa::distributed::checkpoint
