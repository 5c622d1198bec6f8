// The distributed checkpoint's metadata file: writer and the validating parser of untrusted text.

#include "brasa/serialize/dcp_metadata.h"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <set>

namespace brasa::serialize::dcp {
namespace {

struct DtypeName {
  ScalarType dtype;
  const char* name;
};
constexpr DtypeName kDtypes[] = {
    {ScalarType::Bool, "bool"},
    {ScalarType::Byte, "uint8"},
    {ScalarType::Char, "int8"},
    {ScalarType::Short, "int16"},
    {ScalarType::Int, "int32"},
    {ScalarType::Long, "int64"},
    {ScalarType::Half, "float16"},
    {ScalarType::BFloat16, "bfloat16"},
    {ScalarType::Float, "float32"},
    {ScalarType::Double, "float64"},
    {ScalarType::ComplexFloat, "complex64"},
    {ScalarType::ComplexDouble, "complex128"},
};

bool valid_tensor_name(std::string_view s) {
  if (s.empty() || static_cast<int64_t>(s.size()) > kMaxNameLength) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

bool valid_file_name(std::string_view s) {
  if (s.empty() || s.size() > 128 || s[0] == '.') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

std::string hex32(uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

// Lines of the text, each split into tokens at single spaces; errors name the line.
class Reader {
 public:
  Reader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  bool at_end() const { return pos_ >= text_.size(); }
  size_t line_start() const { return pos_; }
  int64_t line_number() const { return line_; }

  // The next line's tokens; its first must be `keyword` (and there must be `min_tokens`).
  const std::vector<std::string_view>& next(const char* keyword, size_t min_tokens) {
    if (at_end()) fail("missing line '", keyword, " ...' (the file ends early)");
    const size_t nl = text_.find('\n', pos_);
    if (nl == std::string_view::npos) {
      ++line_;
      fail("the line does not end with a newline");
    }
    std::string_view line = text_.substr(pos_, nl - pos_);
    pos_ = nl + 1;
    ++line_;
    tokens_.clear();
    size_t start = 0;
    while (true) {
      const size_t sp = line.find(' ', start);
      std::string_view tok =
          line.substr(start, sp == std::string_view::npos ? line.npos : sp - start);
      if (tok.empty()) fail("empty field (two spaces, or a space at the start or end)");
      tokens_.push_back(tok);
      if (sp == std::string_view::npos) break;
      start = sp + 1;
    }
    if (tokens_[0] != keyword) fail("expected '", keyword, "', found '", clip(tokens_[0]), "'");
    if (tokens_.size() < min_tokens) {
      fail("'", keyword, "' needs ", min_tokens - 1, " fields, has ", tokens_.size() - 1);
    }
    return tokens_;
  }

  void exact(size_t n) const {
    if (tokens_.size() != n) {
      fail("'", tokens_[0], "' has ", tokens_.size() - 1, " fields, expected ", n - 1);
    }
  }

  int64_t number(size_t i, const char* what, int64_t lo, int64_t hi) const {
    const std::string_view t = tokens_.at(i);
    int64_t v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size() || t[0] == '+' ||
        (t.size() > 1 && t[0] == '0')) {
      fail(what, " '", clip(t), "' is not a decimal integer");
    }
    if (v < lo || v > hi) fail(what, " ", v, " is outside [", lo, ", ", hi, "]");
    return v;
  }

  uint32_t hex(size_t i, const char* what) const {
    const std::string_view t = tokens_.at(i);
    uint32_t v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 16);
    if (t.size() != 8 || ec != std::errc() || end != t.data() + t.size()) {
      fail(what, " '", clip(t), "' is not 8 hex digits");
    }
    return v;
  }

  template <typename... Args>
  [[noreturn]] void fail(const Args&... args) const {
    BRASA_THROW(SerializationError, "distributed checkpoint metadata ", source_, ", line ", line_,
                ": ", args...);
  }

  static std::string clip(std::string_view s) {
    std::string out(s.substr(0, 40));
    for (char& c : out) {
      if (c < 0x20 || c >= 0x7f) c = '?';
    }
    return s.size() > 40 ? out + "..." : out;
  }

 private:
  std::string_view text_;
  const std::string& source_;
  size_t pos_ = 0;
  int64_t line_ = 0;
  std::vector<std::string_view> tokens_;
};

// a * b, or -1 when it exceeds `limit`.
int64_t mul_bounded(int64_t a, int64_t b, int64_t limit) {
  if (a == 0 || b == 0) return 0;
  if (a > limit / b) return -1;
  return a * b;
}

bool disjoint(const ChunkMeta& a, const ChunkMeta& b) {
  for (size_t d = 0; d < a.offsets.size(); ++d) {
    if (a.offsets[d] + a.lengths[d] <= b.offsets[d] || b.offsets[d] + b.lengths[d] <= a.offsets[d])
      return true;
  }
  return false;
}

void parse_chunks(Reader& r, Metadata& meta, TensorMeta& t, int64_t count) {
  const int64_t nd = static_cast<int64_t>(t.shape.size());
  const int64_t elem = static_cast<int64_t>(element_size(t.dtype));
  int64_t covered = 0;
  for (int64_t c = 0; c < count; ++c) {
    const auto& tok = r.next("chunk", static_cast<size_t>(3 + 2 * nd));
    ChunkMeta ch;
    ch.file = r.number(1, "file index", 0, static_cast<int64_t>(meta.files.size()) - 1);
    ch.file_offset = r.number(2, "file offset", 0, kMaxTensorBytes);
    int64_t numel = 1;
    for (int64_t d = 0; d < nd; ++d) {
      ch.offsets.push_back(r.number(static_cast<size_t>(3 + d), "chunk offset", 0, t.shape[d]));
      ch.lengths.push_back(
          r.number(static_cast<size_t>(3 + nd + d), "chunk length", 1, t.shape[d] - ch.offsets[d]));
      numel *= ch.lengths.back();  // bounded by the tensor's numel (checked on its line)
    }
    const int64_t nbytes = numel * elem;
    const int64_t blocks = (nbytes + meta.block_size - 1) / meta.block_size;
    if (static_cast<int64_t>(tok.size()) != 3 + 2 * nd + blocks) {
      r.fail("tensor '", t.name, "' chunk ", c, " of ", nbytes, " bytes needs ", blocks,
             " block CRCs, has ", static_cast<int64_t>(tok.size()) - 3 - 2 * nd);
    }
    for (int64_t b = 0; b < blocks; ++b)
      ch.crcs.push_back(r.hex(static_cast<size_t>(3 + 2 * nd + b), "block CRC"));
    const FileMeta& f = meta.files[static_cast<size_t>(ch.file)];
    if (ch.file_offset > f.size || nbytes > f.size - ch.file_offset) {
      r.fail("tensor '", t.name, "' chunk ", c, ": bytes [", ch.file_offset, ", ",
             ch.file_offset + nbytes, ") lie outside file ", f.name, " of ", f.size, " bytes");
    }
    for (size_t o = 0; o < t.chunks.size(); ++o) {
      if (!disjoint(ch, t.chunks[o])) {
        r.fail("tensor '", t.name, "' chunk ", c, " overlaps chunk ", o);
      }
    }
    covered += numel;
    t.chunks.push_back(std::move(ch));
  }
  if (covered != t.numel()) {
    r.fail("the chunks of tensor '", t.name, "' cover ", covered, " of its ", t.numel(),
           " elements");
  }
}

}  // namespace

int64_t ChunkMeta::numel() const {
  int64_t n = 1;
  for (int64_t l : lengths) n *= l;
  return n;
}

int64_t TensorMeta::numel() const {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

const TensorMeta* Metadata::find(const std::string& name) const {
  for (const auto& t : tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const char* dtype_name(ScalarType dtype) {
  for (const auto& d : kDtypes) {
    if (d.dtype == dtype) return d.name;
  }
  BRASA_THROW(TypeError, "distributed checkpoint: dtype ", dtype, " cannot be stored");
}

uint32_t crc32(const void* data, size_t n) {
  return static_cast<uint32_t>(
      ::crc32_z(::crc32_z(0, nullptr, 0), static_cast<const Bytef*>(data), n));
}

std::string format_metadata(const Metadata& meta) {
  std::string s = "brasa-dcp 1\n";
  auto line = [&s](const auto&... parts) {
    s += detail::str_cat(parts...);
    s += '\n';
  };
  line("generation ", meta.generation);
  line("world_size ", meta.world_size);
  line("byte_order little");
  line("block_size ", meta.block_size);
  line("files ", meta.files.size());
  for (const auto& f : meta.files) line("file ", f.name, " ", f.size);
  line("tensors ", meta.tensors.size());
  for (const auto& t : meta.tensors) {
    std::string dims;
    for (int64_t d : t.shape) dims += " " + std::to_string(d);
    line("tensor ", t.name, " ", dtype_name(t.dtype), " ", t.shape.size(), dims, " ",
         t.chunks.size());
    for (const auto& c : t.chunks) {
      std::string rest;
      for (int64_t o : c.offsets) rest += " " + std::to_string(o);
      for (int64_t l : c.lengths) rest += " " + std::to_string(l);
      for (uint32_t crc : c.crcs) rest += " " + hex32(crc);
      line("chunk ", c.file, " ", c.file_offset, rest);
    }
  }
  line("end ", hex32(crc32(s.data(), s.size())));
  return s;
}

Metadata parse_metadata(std::string_view text, const std::string& source, bool verify_checksum) {
  Reader r(text, source);
  Metadata meta;
  r.next("brasa-dcp", 2);
  r.exact(2);
  if (r.number(1, "format version", 0, std::numeric_limits<int64_t>::max()) != 1) {
    r.fail("format version ", r.number(1, "version", 0, std::numeric_limits<int64_t>::max()),
           " is not supported (this brasa reads version 1)");
  }
  r.next("generation", 2);
  r.exact(2);
  meta.generation = r.number(1, "generation", 0, std::numeric_limits<int64_t>::max());
  r.next("world_size", 2);
  r.exact(2);
  meta.world_size = r.number(1, "world size", 1, 1 << 20);
  const auto& bo = r.next("byte_order", 2);
  r.exact(2);
  if (bo[1] != "little") r.fail("byte order '", Reader::clip(bo[1]), "' is not 'little'");
  r.next("block_size", 2);
  r.exact(2);
  meta.block_size = r.number(1, "block size", 1, int64_t{1} << 30);
  r.next("files", 2);
  r.exact(2);
  const int64_t nfiles = r.number(1, "file count", 0, 1 << 20);
  std::set<std::string> file_names;
  for (int64_t i = 0; i < nfiles; ++i) {
    const auto& tok = r.next("file", 3);
    r.exact(3);
    FileMeta f;
    if (!valid_file_name(tok[1])) {
      r.fail("file name '", Reader::clip(tok[1]),
             "' is not a plain name ([A-Za-z0-9_.-], not starting with '.')");
    }
    f.name = std::string(tok[1]);
    f.size = r.number(2, "file size", 0, kMaxTensorBytes);
    if (!file_names.insert(f.name).second) r.fail("file ", f.name, " is listed twice");
    meta.files.push_back(std::move(f));
  }
  r.next("tensors", 2);
  r.exact(2);
  const int64_t ntensors = r.number(1, "tensor count", 0, 1 << 24);
  std::set<std::string> names;
  for (int64_t i = 0; i < ntensors; ++i) {
    const auto& tok = r.next("tensor", 4);
    TensorMeta t;
    if (!valid_tensor_name(tok[1])) {
      r.fail("tensor name '", Reader::clip(tok[1]), "' is empty, too long or has spaces or ",
             "control characters");
    }
    t.name = std::string(tok[1]);
    if (!names.insert(t.name).second) r.fail("tensor '", t.name, "' is listed twice");
    bool known = false;
    for (const auto& d : kDtypes) {
      if (tok[2] == d.name) {
        t.dtype = d.dtype;
        known = true;
      }
    }
    if (!known) r.fail("tensor '", t.name, "' has unknown dtype '", Reader::clip(tok[2]), "'");
    const int64_t nd = r.number(3, "number of dims", 0, kMaxDims);
    r.exact(static_cast<size_t>(5 + nd));
    int64_t numel = 1;
    for (int64_t d = 0; d < nd; ++d) {
      t.shape.push_back(r.number(static_cast<size_t>(4 + d), "dim size", 0, kMaxTensorBytes));
      numel = mul_bounded(numel, t.shape.back(), kMaxTensorBytes);
      if (numel < 0) r.fail("tensor '", t.name, "' is larger than ", kMaxTensorBytes, " elements");
    }
    if (mul_bounded(numel, static_cast<int64_t>(element_size(t.dtype)), kMaxTensorBytes) < 0) {
      r.fail("tensor '", t.name, "' is larger than ", kMaxTensorBytes, " bytes");
    }
    const int64_t nchunks =
        r.number(static_cast<size_t>(4 + nd), "chunk count", 0, kMaxChunksPerTensor);
    parse_chunks(r, meta, t, nchunks);
    meta.tensors.push_back(std::move(t));
  }
  const size_t end_start = r.line_start();
  r.next("end", 2);
  r.exact(2);
  const uint32_t want = r.hex(1, "checksum");
  if (!r.at_end()) r.fail("text after the 'end' line");
  if (verify_checksum) {
    const uint32_t got = crc32(text.data(), end_start);
    if (got != want) {
      r.fail("checksum ", hex32(got), " of the file does not match the recorded ", hex32(want),
             " (the file is corrupt)");
    }
  }
  return meta;
}

}  // namespace brasa::serialize::dcp
