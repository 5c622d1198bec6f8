#include "brasa/serialize/safetensors.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <set>

#include "brasa/archive/error.h"
#include "brasa/archive/file_io.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "serialize/json_reader.h"
#include "serialize/safetensors_header.h"

namespace brasa::serialize {

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; big-endian hosts need byte swapping");

namespace {

Tensor copy_out(const uint8_t* src, const safetensors::Entry& e) {
  Tensor t = empty(e.shape, TensorOptions(e.dtype));
  if (t.nbytes() != 0) std::memcpy(t.data_ptr(), src, t.nbytes());
  return t;
}

SafeTensors build(const safetensors::Header& h, const uint8_t* base,
                  const std::shared_ptr<MappedFile>& map) {
  SafeTensors out;
  out.metadata = h.metadata;
  for (const auto& e : h.entries) {
    const uint8_t* src = base + h.data_start + e.begin;
    const size_t itemsize = element_size(e.dtype);
    Tensor t;
    if (map && e.end != e.begin && reinterpret_cast<uintptr_t>(src) % itemsize == 0) {
      std::vector<int64_t> strides(e.shape.size());
      int64_t s = 1;
      for (size_t i = e.shape.size(); i-- > 0;) {
        strides[i] = s;
        s *= e.shape[i];
      }
      t = from_blob(
          const_cast<uint8_t*>(src), e.shape, strides, [keep = map](void*) {},
          TensorOptions(e.dtype));
    } else {
      t = copy_out(src, e);
    }
    out.tensors.insert(e.name, std::move(t));
  }
  return out;
}

struct Prepared {
  std::string header;
  std::vector<Tensor> data;  // contiguous CPU tensors in file order
};

bool valid_utf8(const std::string& s) {
  size_t bad = 0;
  return is_valid_utf8(s, &bad);
}

Prepared prepare(const NamedTensors& tensors, const std::map<std::string, std::string>& metadata) {
  struct Item {
    std::string name;
    Tensor tensor;
  };
  std::vector<Item> items;
  std::set<std::string> names;
  for (const auto& [name, t] : tensors.items) {
    BRASA_CHECK(t.defined(), "safetensors: tensor '", name, "' is undefined");
    BRASA_CHECK(!name.empty() && name != "__metadata__", "safetensors: invalid tensor name '", name,
                "'");
    BRASA_CHECK(valid_utf8(name), "safetensors: tensor name '", name, "' is not valid UTF-8");
    BRASA_CHECK(names.insert(name).second, "safetensors: tensor name '", name, "' appears twice");
    items.push_back({name, t});
  }
  for (const auto& [k, v] : metadata) {
    BRASA_CHECK(valid_utf8(k) && valid_utf8(v), "safetensors: metadata entry '", k,
                "' is not valid UTF-8");
  }
  for (size_t i = 0; i < items.size(); ++i) {
    const Tensor& a = items[i].tensor;
    if (a.numel() == 0) continue;
    for (size_t j = i + 1; j < items.size(); ++j) {
      const Tensor& b = items[j].tensor;
      BRASA_CHECK(b.numel() == 0 || a.storage().get() != b.storage().get(),
                  "safetensors: tensors '", items[i].name, "' and '", items[j].name,
                  "' share memory; the file would store the data twice and they would no longer "
                  "share it when loaded (save a clone of one of them)");
    }
  }
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    const int ra = safetensors::dtype_rank(a.tensor.scalar_type());
    const int rb = safetensors::dtype_rank(b.tensor.scalar_type());
    return ra != rb ? ra > rb : a.name < b.name;
  });
  Prepared p;
  std::vector<safetensors::Entry> entries;
  uint64_t offset = 0;
  for (auto& item : items) {
    Tensor t = item.tensor.detach().cpu().contiguous();
    safetensors::Entry e;
    e.name = item.name;
    e.dtype = t.scalar_type();
    e.shape.assign(t.sizes().begin(), t.sizes().end());
    e.begin = offset;
    offset += t.nbytes();
    e.end = offset;
    entries.push_back(std::move(e));
    p.data.push_back(std::move(t));
  }
  p.header = safetensors::write_header(entries, metadata);
  return p;
}

void emit(const Prepared& p, const ByteSink& sink) {
  uint8_t len[8];
  uint64_t n = p.header.size();
  for (uint8_t& b : len) {
    b = static_cast<uint8_t>(n & 0xFF);
    n >>= 8;
  }
  sink(len, 8);
  sink(p.header.data(), p.header.size());
  for (const Tensor& t : p.data) {
    if (t.nbytes() != 0) sink(t.data_ptr(), t.nbytes());
  }
}

}  // namespace

SafeTensors load_safetensors(const std::string& path) {
  std::shared_ptr<MappedFile> map = MappedFile::open(path);
  const safetensors::Header h = safetensors::parse_header(map->data(), map->size(), path);
  return build(h, map->data(), map);
}

SafeTensors load_safetensors_from_bytes(ArrayRef<uint8_t> bytes) {
  const safetensors::Header h = safetensors::parse_header(bytes.data(), bytes.size(), "<bytes>");
  return build(h, bytes.data(), nullptr);
}

void save_safetensors(const std::string& path, const NamedTensors& tensors,
                      const std::map<std::string, std::string>& metadata) {
  const Prepared p = prepare(tensors, metadata);
  write_file_atomic(path, [&](const ByteSink& sink) { emit(p, sink); });
}

std::vector<uint8_t> save_safetensors_to_bytes(const NamedTensors& tensors,
                                               const std::map<std::string, std::string>& metadata) {
  const Prepared p = prepare(tensors, metadata);
  std::vector<uint8_t> out;
  emit(p, [&](const void* data, size_t n) {
    const size_t at = out.size();
    out.resize(at + n);
    std::memcpy(out.data() + at, data, n);
  });
  return out;
}

void save_safetensors(const nn::Module& module, const std::string& path,
                      const std::map<std::string, std::string>& metadata) {
  save_safetensors(path, NamedTensors(nn::state_dict(module)), metadata);
}

nn::LoadStateDictResult load_safetensors(nn::Module& module, const std::string& path, bool strict) {
  return nn::load_state_dict(module, load_safetensors(path).tensors, strict);
}

}  // namespace brasa::serialize
