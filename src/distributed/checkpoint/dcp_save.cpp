// checkpoint::save: each rank's shard file, then rank 0's metadata committed atomically
// (Note [DCP format] in docs/distributed.md).

#include <filesystem>
#include <map>
#include <sstream>

#include "brasa/archive/file_io.h"
#include "brasa/brasa.h"
#include "brasa/distributed/checkpoint.h"
#include "distributed/checkpoint/dcp_group.h"

namespace brasa::distributed::checkpoint {
namespace fs = std::filesystem;
namespace dcp = serialize::dcp;

namespace {

constexpr int64_t kBlockSize = 65536;

std::string shard_file_name(int64_t generation, int rank) {
  return "__" + std::to_string(generation) + "_" + std::to_string(rank) + ".distcp";
}

// The position of each entry's tensor among the distinct names, in first-seen order (a name
// with several pieces is one tensor; ranks may hold different numbers of pieces).
std::vector<size_t> tensor_of_entries(const StateDict& state, std::vector<size_t>* firsts) {
  std::map<std::string, size_t> seen;
  std::vector<size_t> out;
  for (size_t i = 0; i < state.entries().size(); ++i) {
    const auto [it, added] = seen.emplace(state.entries()[i].name, seen.size());
    if (added && firsts) firsts->push_back(i);
    out.push_back(it->second);
  }
  return out;
}

// The names, dtypes and global shapes of `state`: every rank's must agree.
uint32_t signature(const StateDict& state) {
  std::string s;
  std::vector<size_t> firsts;
  (void)tensor_of_entries(state, &firsts);
  for (size_t i : firsts) {
    const auto& e = state.entries()[i];
    s += e.name + " " + dcp::dtype_name(e.local.scalar_type());
    for (int64_t d : e.shape) s += " " + std::to_string(d);
    s += "\n";
  }
  return dcp::crc32(s.data(), s.size());
}

// The generation after the one committed in `dir` (0 when there is none or it does not parse).
int64_t next_generation(const std::string& dir) {
  try {
    return read_metadata(dir).generation + 1;
  } catch (const Error&) {
    return 0;
  }
}

struct LocalChunk {
  size_t entry;
  int64_t file_offset;
  std::vector<uint32_t> crcs;
};

// Writes this rank's pieces to `path` (atomically); the chunks and the file size.
std::vector<LocalChunk> write_shards(const StateDict& state, int rank, const std::string& path,
                                     int64_t& file_size) {
  std::vector<LocalChunk> chunks;
  std::vector<Tensor> pieces;
  file_size = 0;
  for (size_t i = 0; i < state.entries().size(); ++i) {
    const auto& e = state.entries()[i];
    const bool writes = e.plain ? rank == 0 : e.writer;
    if (!writes || e.local.numel() == 0) continue;
    Tensor piece = e.local.detach().contiguous();
    LocalChunk c{i, file_size, {}};
    const auto* bytes = static_cast<const uint8_t*>(piece.data_ptr());
    const int64_t n = piece.numel() * static_cast<int64_t>(element_size(piece.scalar_type()));
    for (int64_t b = 0; b < n; b += kBlockSize) {
      c.crcs.push_back(dcp::crc32(bytes + b, static_cast<size_t>(std::min(kBlockSize, n - b))));
    }
    file_size += n;
    chunks.push_back(std::move(c));
    pieces.push_back(piece);
  }
  if (chunks.empty()) return chunks;
  serialize::write_file_atomic(path, [&](const serialize::ByteSink& sink) {
    for (const auto& p : pieces) {
      sink(p.data_ptr(), static_cast<size_t>(p.numel()) * element_size(p.scalar_type()));
    }
  });
  return chunks;
}

std::string describe(const StateDict& state, const std::vector<LocalChunk>& chunks,
                     int64_t file_size) {
  std::ostringstream out;
  out << signature(state) << " " << file_size << "\n";
  const std::vector<size_t> tensor = tensor_of_entries(state, nullptr);
  for (const auto& c : chunks) {
    const auto& e = state.entries()[c.entry];
    out << tensor[c.entry] << " " << c.file_offset;
    for (int64_t o : e.offsets) out << " " << o;
    for (int64_t l : e.local.sizes()) out << " " << l;
    for (uint32_t crc : c.crcs) out << " " << crc;
    out << "\n";
  }
  return out.str();
}

// Rank 0: the metadata from every rank's description.
dcp::Metadata assemble(const StateDict& state, const std::vector<std::string>& described,
                       int64_t generation) {
  dcp::Metadata meta;
  meta.generation = generation;
  meta.world_size = static_cast<int64_t>(described.size());
  meta.block_size = kBlockSize;
  std::vector<size_t> firsts;
  (void)tensor_of_entries(state, &firsts);
  for (size_t i : firsts) {
    const auto& e = state.entries()[i];
    dcp::TensorMeta t;
    t.name = e.name;
    t.dtype = e.local.scalar_type();
    t.shape = e.shape;
    meta.tensors.push_back(std::move(t));
  }
  const uint32_t sig = signature(state);
  for (size_t r = 0; r < described.size(); ++r) {
    std::istringstream in(described[r]);
    uint32_t their_sig = 0;
    int64_t size = 0;
    in >> their_sig >> size;
    BRASA_CHECK(their_sig == sig, "checkpoint::save: rank ", r,
                " passed other names, dtypes or global shapes than rank 0 (every rank must save "
                "the same entries in the same order)");
    if (size == 0) continue;
    const int64_t file = static_cast<int64_t>(meta.files.size());
    meta.files.push_back({shard_file_name(generation, static_cast<int>(r)), size});
    size_t entry = 0;
    while (in >> entry) {
      auto& t = meta.tensors.at(entry);
      dcp::ChunkMeta c;
      c.file = file;
      in >> c.file_offset;
      c.offsets.resize(t.shape.size());
      c.lengths.resize(t.shape.size());
      for (auto& o : c.offsets) in >> o;
      for (auto& l : c.lengths) in >> l;
      const int64_t n = c.numel() * static_cast<int64_t>(element_size(t.dtype));
      c.crcs.resize(static_cast<size_t>((n + kBlockSize - 1) / kBlockSize));
      for (auto& crc : c.crcs) in >> crc;
      t.chunks.push_back(std::move(c));
    }
  }
  return meta;
}

void remove_other_generations(const std::string& dir, int64_t generation) {
  const std::string keep = "__" + std::to_string(generation) + "_";
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(dir, ec)) {
    const std::string name = item.path().filename().string();
    if (name.rfind("__", 0) == 0 && name.size() > 7 &&
        name.compare(name.size() - 7, 7, ".distcp") == 0 && name.rfind(keep, 0) != 0) {
      fs::remove(item.path(), ec);
    }
  }
}

}  // namespace

SaveInfo save(const StateDict& state, const std::string& dir, ProcessGroup* group) {
  group = detail::resolve_group(group);
  const int rank = detail::group_rank(group);
  SaveInfo info;
  info.metadata_path = (fs::path(dir) / dcp::kMetadataFile).string();
  std::exception_ptr error;
  int64_t generation = 0;
  try {
    if (rank == 0) {
      fs::create_directories(dir);
      generation = next_generation(dir);
    }
  } catch (...) {
    error = std::current_exception();
  }
  detail::agree(group, error, "save", dir);
  generation = detail::broadcast_value(group, generation);
  info.generation = generation;

  std::vector<LocalChunk> chunks;
  int64_t file_size = 0;
  try {
    chunks = write_shards(state, rank, (fs::path(dir) / shard_file_name(generation, rank)).string(),
                          file_size);
  } catch (...) {
    error = std::current_exception();
  }
  detail::agree(group, error, "save (shard files)", dir);
  info.bytes_written = file_size;
  const auto described = detail::allgather_text(group, describe(state, chunks, file_size));

  // Rank 0 commits: the metadata parses back (so its chunks tile every tensor) before the rename.
  try {
    if (rank == 0) {
      const dcp::Metadata meta = assemble(state, described, generation);
      const std::string text = dcp::format_metadata(meta);
      try {
        (void)dcp::parse_metadata(text, info.metadata_path);
      } catch (const SerializationError& e) {
        BRASA_THROW(ValueError, "checkpoint::save: the ranks' pieces do not form whole tensors (",
                    e.what(), ")");
      }
      serialize::write_file_atomic(info.metadata_path, text.data(), text.size());
      remove_other_generations(dir, generation);
    }
  } catch (...) {
    error = std::current_exception();
  }
  detail::agree(group, error, "save (metadata)", dir);
  for (const auto& d : described) {
    std::istringstream in(d);
    uint32_t sig = 0;
    int64_t size = 0;
    in >> sig >> size;
    info.total_bytes += size;
  }
  info.metadata_bytes = static_cast<int64_t>(fs::file_size(info.metadata_path));
  return info;
}

}  // namespace brasa::distributed::checkpoint
