#pragma once
// Writes a model's parameters and buffers as a safetensors file (readable by the `safetensors`
// Python package and torch), atomically: a temporary file, fsync, then rename.

#include <fcntl.h>
#include <torch/torch.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

inline const char* safetensors_dtype(torch::ScalarType t) {
  switch (t) {
    case torch::kFloat: return "F32";
    case torch::kDouble: return "F64";
    case torch::kLong: return "I64";
    case torch::kInt: return "I32";
    default: throw std::runtime_error("checkpoint: unsupported dtype");
  }
}

inline void save_checkpoint(const torch::nn::Module& model, const std::string& path) {
  std::vector<std::pair<std::string, torch::Tensor>> items;
  for (const auto& p : model.named_parameters()) items.emplace_back(p.key(), p.value());
  for (const auto& b : model.named_buffers()) items.emplace_back(b.key(), b.value());
  std::string header = "{";
  size_t offset = 0;
  std::vector<torch::Tensor> data;
  for (const auto& [name, t] : items) {
    torch::Tensor c = t.detach().contiguous();
    size_t n = c.numel() * c.element_size();
    if (header.size() > 1) header += ",";
    header +=
        "\"" + name + "\":{\"dtype\":\"" + safetensors_dtype(c.scalar_type()) + "\",\"shape\":[";
    for (int64_t d = 0; d < c.dim(); ++d) header += (d ? "," : "") + std::to_string(c.size(d));
    header +=
        "],\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(offset + n) + "]}";
    offset += n;
    data.push_back(c);
  }
  header += "}";
  while (header.size() % 8) header += ' ';
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error("checkpoint: cannot write " + tmp);
  uint64_t len = header.size();
  bool ok = std::fwrite(&len, 8, 1, f) == 1 && std::fwrite(header.data(), 1, len, f) == len;
  for (const auto& c : data) {
    size_t n = c.numel() * c.element_size();
    ok = ok && std::fwrite(c.data_ptr(), 1, n, f) == n;
  }
  ok = ok && std::fflush(f) == 0 && fsync(fileno(f)) == 0;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("checkpoint: writing " + path + " failed");
  }
}
