#include "brasa/distributed/device_mesh.h"

#include <algorithm>
#include <sstream>

#include "brasa/distributed/init.h"

namespace brasa::distributed {

struct DeviceMesh::Impl {
  std::string device_type;
  std::vector<int64_t> shape;
  std::vector<std::string> names;
  int rank = 0;
  std::vector<int64_t> coordinate;
  std::vector<IntrusivePtr<ProcessGroup>> groups;  // one per dim: this rank's slice
  std::vector<std::vector<int>> slices;            // one per dim: the global ranks of that slice
};

namespace {

// The global ranks of the slice along `dim` through `coordinate` (row-major layout).
std::vector<int> slice_through(const std::vector<int64_t>& shape, std::vector<int64_t> coordinate,
                               int64_t dim) {
  std::vector<int> ranks;
  for (int64_t i = 0; i < shape[static_cast<size_t>(dim)]; ++i) {
    coordinate[static_cast<size_t>(dim)] = i;
    int64_t r = 0;
    for (size_t d = 0; d < shape.size(); ++d) r = r * shape[d] + coordinate[d];
    ranks.push_back(static_cast<int>(r));
  }
  return ranks;
}

}  // namespace

DeviceMesh::DeviceMesh(std::string device_type, std::vector<int64_t> shape,
                       std::vector<std::string> dim_names) {
  BRASA_CHECK(!shape.empty() && shape.size() <= 3,
              "DeviceMesh: only 1-D, 2-D and 3-D meshes are supported, got shape ",
              IntArrayRef(shape));
  BRASA_CHECK(dim_names.empty() || dim_names.size() == shape.size(),
              "DeviceMesh: ", dim_names.size(), " dim names for a mesh of ", shape.size(), " dims");
  for (size_t i = 0; i < dim_names.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      BRASA_CHECK(dim_names[i] != dim_names[j], "DeviceMesh: dim name '", dim_names[i],
                  "' is used twice");
    }
  }
  int64_t total = 1;
  for (int64_t s : shape) {
    BRASA_CHECK(s >= 1, "DeviceMesh: every dim must have at least one rank, got shape ",
                IntArrayRef(shape));
    total *= s;
  }
  auto world = default_process_group();
  BRASA_CHECK(total == world->getSize(), "DeviceMesh: a mesh of shape ", IntArrayRef(shape),
              " has ", total, " ranks but the world has ", world->getSize());
  auto impl = std::make_shared<Impl>();
  impl->device_type = std::move(device_type);
  impl->shape = std::move(shape);
  impl->names = std::move(dim_names);
  impl->rank = world->getRank();
  impl->coordinate.resize(impl->shape.size());
  int64_t rest = impl->rank;
  for (size_t d = impl->shape.size(); d-- > 0;) {
    impl->coordinate[d] = rest % impl->shape[d];
    rest /= impl->shape[d];
  }
  const int64_t ndim = static_cast<int64_t>(impl->shape.size());
  for (int64_t d = 0; d < ndim; ++d) {
    impl->slices.push_back(slice_through(impl->shape, impl->coordinate, d));
    if (impl->shape[static_cast<size_t>(d)] == total) {
      impl->groups.push_back(world);
      continue;
    }
    // new_group is collective over the world: every rank creates every slice, in one order.
    IntrusivePtr<ProcessGroup> mine;
    for (int64_t r = 0; r < total; ++r) {
      std::vector<int64_t> c(impl->shape.size());
      int64_t v = r;
      for (size_t k = impl->shape.size(); k-- > 0;) {
        c[k] = v % impl->shape[k];
        v /= impl->shape[k];
      }
      if (c[static_cast<size_t>(d)] != 0) continue;  // one slice per coordinate with c[d] == 0
      auto group = new_group(slice_through(impl->shape, c, d));
      if (group) mine = group;
    }
    impl->groups.push_back(mine);
  }
  impl_ = std::move(impl);
}

DeviceMesh::DeviceMesh(std::shared_ptr<const Impl> impl, std::vector<int64_t> dims)
    : impl_(std::move(impl)), dims_(std::move(dims)) {
  for (int64_t d : dims_) {
    view_shape_.push_back(impl_->shape[static_cast<size_t>(d)]);
    if (!impl_->names.empty()) view_names_.push_back(impl_->names[static_cast<size_t>(d)]);
  }
}

namespace {
int64_t checked_dim(int64_t dim, int64_t ndim) {
  const int64_t d = dim < 0 ? dim + ndim : dim;
  BRASA_CHECK_TYPED(IndexError, d >= 0 && d < ndim, "DeviceMesh: dim ", dim,
                    " is out of range for a mesh of ", ndim, " dims");
  return d;
}
}  // namespace

int64_t DeviceMesh::impl_dim(int64_t dim) const {
  const int64_t d = checked_dim(dim, ndim());
  return dims_.empty() ? d : dims_[static_cast<size_t>(d)];
}

const std::string& DeviceMesh::device_type() const { return impl_->device_type; }

int64_t DeviceMesh::ndim() const {
  return dims_.empty() ? static_cast<int64_t>(impl_->shape.size())
                       : static_cast<int64_t>(dims_.size());
}

const std::vector<int64_t>& DeviceMesh::shape() const {
  return dims_.empty() ? impl_->shape : view_shape_;
}

const std::vector<std::string>& DeviceMesh::dim_names() const {
  return dims_.empty() ? impl_->names : view_names_;
}

int64_t DeviceMesh::size() const {
  int64_t n = 1;
  for (int64_t d = 0; d < ndim(); ++d) n *= size(d);
  return n;
}

int64_t DeviceMesh::size(int64_t dim) const {
  return impl_->shape[static_cast<size_t>(impl_dim(dim))];
}

int DeviceMesh::get_rank() const { return impl_->rank; }

int DeviceMesh::get_local_rank(int64_t dim) const {
  return static_cast<int>(impl_->coordinate[static_cast<size_t>(impl_dim(dim))]);
}

int DeviceMesh::get_local_rank(const std::string& dim_name) const {
  return get_local_rank(dim_index(dim_name));
}

std::vector<int64_t> DeviceMesh::get_coordinate() const {
  if (dims_.empty()) return impl_->coordinate;
  std::vector<int64_t> c;
  for (int64_t d : dims_) c.push_back(impl_->coordinate[static_cast<size_t>(d)]);
  return c;
}

IntrusivePtr<ProcessGroup> DeviceMesh::get_group(int64_t dim) const {
  return impl_->groups[static_cast<size_t>(impl_dim(dim))];
}

IntrusivePtr<ProcessGroup> DeviceMesh::get_group(const std::string& dim_name) const {
  return get_group(dim_index(dim_name));
}

std::vector<int> DeviceMesh::slice_ranks(int64_t dim) const {
  return impl_->slices[static_cast<size_t>(impl_dim(dim))];
}

int64_t DeviceMesh::dim_index(const std::string& name) const {
  const auto& names = dim_names();
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) {
    std::ostringstream known;
    for (const auto& n : names) known << " '" << n << "'";
    BRASA_THROW(ValueError, "DeviceMesh: no dim named '", name, "'; the mesh's dims are",
                names.empty() ? std::string(" unnamed") : known.str());
  }
  return it - names.begin();
}

DeviceMesh DeviceMesh::operator[](const std::string& dim_name) const {
  return (*this)[std::vector<std::string>{dim_name}];
}

DeviceMesh DeviceMesh::operator[](const std::vector<std::string>& dim_names) const {
  BRASA_CHECK(!dim_names.empty(), "DeviceMesh: a slice needs at least one dim name");
  std::vector<int64_t> dims;
  for (const auto& name : dim_names) {
    const int64_t d = impl_dim(dim_index(name));
    BRASA_CHECK(std::find(dims.begin(), dims.end(), d) == dims.end(), "DeviceMesh: dim '", name,
                "' is named twice in a slice of ", to_string());
    dims.push_back(d);
  }
  if (dims_ == dims || (dims_.empty() && dims.size() == impl_->shape.size() &&
                        std::is_sorted(dims.begin(), dims.end()))) {
    return *this;
  }
  return DeviceMesh(impl_, std::move(dims));
}

bool DeviceMesh::operator==(const DeviceMesh& other) const {
  if (impl_ == other.impl_) {
    auto all = [](const DeviceMesh& m) {
      if (!m.dims_.empty()) return m.dims_;
      std::vector<int64_t> d(m.impl_->shape.size());
      for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<int64_t>(i);
      return d;
    };
    return all(*this) == all(other);
  }
  // Slices of different meshes over the same ranks share no group, so they are different meshes
  // unless both are the whole world in one dim.
  return ndim() == 1 && other.ndim() == 1 && get_group(0) == other.get_group(0);
}

std::string DeviceMesh::to_string() const {
  std::ostringstream s;
  s << "DeviceMesh(" << device_type() << ", shape " << IntArrayRef(shape());
  if (!dim_names().empty()) {
    s << ", dims";
    for (const auto& n : dim_names()) s << " '" << n << "'";
  }
  s << ")";
  return s.str();
}

DeviceMesh init_device_mesh(const std::string& device_type, const std::vector<int64_t>& mesh_shape,
                            const std::vector<std::string>& mesh_dim_names) {
  return DeviceMesh(device_type, mesh_shape, mesh_dim_names);
}

}  // namespace brasa::distributed
