#pragma once
// The metadata file of a distributed checkpoint (brasa::distributed::checkpoint, Note [DCP format]
// in docs/distributed.md): which global tensors a checkpoint holds, their dtype and global shape,
// and for each stored chunk (a box of the global tensor) the shard file, the byte offset in it and
// the CRC-32 of every block of the chunk's bytes. A line-oriented text file:
//
//   brasa-dcp 1
//   generation 3
//   world_size 4
//   byte_order little
//   block_size 65536
//   files 2
//   file __3_0.distcp 448
//   file __3_1.distcp 392
//   tensors 1
//   tensor fc.weight float64 2 7 8 2        name dtype ndim dims... chunks
//   chunk 0 0 0 0 4 8 1a2b3c4d              file file_offset offsets... lengths... block CRCs...
//   chunk 1 0 4 0 3 8 5e6f7a8b
//   end 0badcafe                            CRC-32 of every byte before this line
//
// The parser treats the text as untrusted: every count, size and offset is bounded and checked
// (chunks inside the tensor, pairwise disjoint and covering it exactly; byte ranges inside their
// file; file names without paths), and any violation is a SerializationError naming the source,
// the line and what was expected.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "brasa/archive/error.h"
#include "brasa/core/dtype.h"

namespace brasa::serialize::dcp {

/// The name of the metadata file inside a checkpoint directory.
inline constexpr const char* kMetadataFile = ".metadata";

struct BRASA_API ChunkMeta {
  int64_t file = 0;                       // index into Metadata::files
  int64_t file_offset = 0;                // of the chunk's first byte in that file
  std::vector<int64_t> offsets, lengths;  // the box of the global tensor, one pair per dim
  std::vector<uint32_t> crcs;  // one per block_size bytes of the chunk (the last shorter)
  int64_t numel() const;
};

struct BRASA_API TensorMeta {
  std::string name;
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> shape;  // global
  std::vector<ChunkMeta> chunks;
  int64_t numel() const;
};

struct FileMeta {
  std::string name;  // relative to the checkpoint directory
  int64_t size = 0;  // bytes
};

struct BRASA_API Metadata {
  int64_t generation = 0;  // distinguishes the shard files of successive saves
  int64_t world_size = 1;  // of the save
  int64_t block_size = 65536;
  std::vector<FileMeta> files;
  std::vector<TensorMeta> tensors;
  /// The tensor called `name`, or nullptr.
  const TensorMeta* find(const std::string& name) const;
};

/// The text of `meta` (the checksum line included). InternalError when it would not parse back.
BRASA_API std::string format_metadata(const Metadata& meta);
/// Parses and validates metadata text. `source` names it in errors (the file path). With
/// verify_checksum false the last line's CRC is read but not compared (the fuzzer's mode).
BRASA_API Metadata parse_metadata(std::string_view text, const std::string& source,
                                  bool verify_checksum = true);

/// The dtype's name in the metadata ("float32", "bfloat16", ...), and back (SerializationError
/// for an unknown name).
BRASA_API const char* dtype_name(ScalarType dtype);
/// CRC-32 (zlib's) of n bytes.
BRASA_API uint32_t crc32(const void* data, size_t n);

/// The limits the parser enforces.
inline constexpr int64_t kMaxDims = 16;
inline constexpr int64_t kMaxChunksPerTensor = 4096;
inline constexpr int64_t kMaxNameLength = 1024;
inline constexpr int64_t kMaxTensorBytes = int64_t{1} << 50;

}  // namespace brasa::serialize::dcp
