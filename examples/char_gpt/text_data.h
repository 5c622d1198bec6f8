#pragma once
// The character-level data of char_gpt: the text of Debian's `fortunes` packages (one file, or
// every fortune file of a directory in name order), decoded from UTF-8 to code points, a
// vocabulary of the distinct characters, a deterministic train/val split and random batches.
//
// Split: fortunes are separated by lines holding only "%"; fortune i (counted over the whole
// text) goes to validation when i % 10 == 9, to training otherwise, so both halves sample every
// file. train_torch.py makes the same split.

#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace char_data {

/// Decodes UTF-8; throws naming `where` and the byte offset of the first invalid sequence.
inline std::u32string decode_utf8(const std::string& bytes, const std::string& where) {
  std::u32string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    const int extra = b < 0x80         ? 0
                      : (b >> 5) == 6  ? 1
                      : (b >> 4) == 14 ? 2
                      : (b >> 3) == 30 ? 3
                                       : -1;
    char32_t c = extra == 0 ? b : extra == 1 ? b & 0x1F : extra == 2 ? b & 0x0F : b & 0x07;
    bool ok = extra >= 0 && i + static_cast<size_t>(extra) < bytes.size();
    for (int k = 1; ok && k <= extra; ++k) {
      const auto cont = static_cast<unsigned char>(bytes[i + k]);
      ok = (cont >> 6) == 2;
      c = (c << 6) | (cont & 0x3F);
    }
    static constexpr char32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    ok = ok && c >= kMin[extra] && c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF);
    if (!ok)
      throw std::runtime_error(where + ": not UTF-8 text (invalid byte sequence at byte " +
                               std::to_string(i) + ")");
    out.push_back(c);
    i += static_cast<size_t>(extra) + 1;
  }
  return out;
}

inline std::string encode_utf8(char32_t c) {
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (c >> 18));
    s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

/// The fortune files of `path`: the file itself, or the regular files of a directory that are
/// not strfile indexes (.dat) or symlinks (the .u8 names), sorted by name.
inline std::vector<std::string> text_files(const std::string& path) {
  namespace fs = std::filesystem;
  if (!fs::exists(path)) throw std::runtime_error(path + ": no such file or directory");
  if (!fs::is_directory(path)) return {path};
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(path))
    if (entry.is_regular_file() && !entry.is_symlink() && entry.path().extension() != ".dat")
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  if (files.empty()) throw std::runtime_error(path + ": no text files in this directory");
  return files;
}

struct Corpus {
  std::vector<char32_t> vocab;  // the distinct characters, sorted: token id -> character
  torch::Tensor train, val;     // token ids (int64)
  int64_t vocab_size() const { return static_cast<int64_t>(vocab.size()); }
  /// Token ids of `text`; throws for a character the corpus does not have.
  torch::Tensor encode(const std::string& text) const {
    std::vector<int64_t> ids;
    for (char32_t c : decode_utf8(text, "the prompt")) {
      auto it = std::lower_bound(vocab.begin(), vocab.end(), c);
      if (it == vocab.end() || *it != c)
        throw std::runtime_error("the prompt: character '" + encode_utf8(c) +
                                 "' is not in the text");
      ids.push_back(it - vocab.begin());
    }
    return torch::tensor(ids, torch::kLong);
  }
  std::string decode(const torch::Tensor& ids) const {
    std::string s;
    auto a = ids.to(torch::kLong).contiguous();
    for (int64_t i = 0; i < a.numel(); ++i) s += encode_utf8(vocab[a.data_ptr<int64_t>()[i]]);
    return s;
  }
};

/// Reads `path` (file or directory) and splits it. Throws naming the file for an unreadable,
/// empty or non-UTF-8 one, and when the text is too short for `block_size`.
inline Corpus load_corpus(const std::string& path, int64_t block_size) {
  std::u32string text;
  for (const auto& file : text_files(path)) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error(file + ": cannot be read");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.empty()) throw std::runtime_error(file + ": empty text file");
    text += decode_utf8(bytes, file);
    if (text.back() != U'\n') text += U'\n';
  }
  // Fortunes are the runs between "%" lines; each keeps its closing "%\n".
  std::u32string train, val;
  int64_t fortune = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool line_start = i == 0 || text[i - 1] == U'\n';
    const bool separator =
        line_start && text[i] == U'%' && i + 1 < text.size() && text[i + 1] == U'\n';
    if (!separator && i + 1 != text.size()) continue;
    const size_t end = separator ? i + 2 : text.size();
    (fortune++ % 10 == 9 ? val : train).append(text, start, end - start);
    start = end;
    if (separator) ++i;
  }
  std::map<char32_t, int64_t> ids;
  for (char32_t c : text) ids.emplace(c, 0);
  Corpus corpus;
  for (auto& [c, id] : ids) {
    id = static_cast<int64_t>(corpus.vocab.size());
    corpus.vocab.push_back(c);
  }
  auto encode = [&](const std::u32string& s) {
    std::vector<int64_t> v(s.size());
    for (size_t i = 0; i < s.size(); ++i) v[i] = ids.at(s[i]);
    return torch::tensor(v, torch::kLong);
  };
  if (static_cast<int64_t>(val.size()) <= block_size + 1 ||
      static_cast<int64_t>(train.size()) <= block_size + 1)
    throw std::runtime_error(path + ": too little text (" + std::to_string(text.size()) +
                             " characters; the split needs more than 10 fortunes' worth of " +
                             std::to_string(block_size + 1) + " characters)");
  corpus.train = encode(train);
  corpus.val = encode(val);
  return corpus;
}

/// `batch` random windows of train: inputs [batch, block] and targets shifted by one. The
/// offsets come from the default generator (so a checkpoint's RNG state fixes the next batches).
inline std::pair<torch::Tensor, torch::Tensor> random_batch(const torch::Tensor& data,
                                                            int64_t batch, int64_t block) {
  auto offsets = torch::randint(data.size(0) - block - 1, {batch, 1}, torch::kLong);
  auto index = offsets + torch::arange(block + 1, torch::kLong);
  auto windows = data.index_select(0, index.view({-1})).view({batch, block + 1});
  return {windows.slice(1, 0, block), windows.slice(1, 1, block + 1)};
}

/// The fixed validation windows: `count` windows of block+1 evenly spaced over data.
inline torch::Tensor eval_windows(const torch::Tensor& data, int64_t count, int64_t block) {
  const int64_t last = data.size(0) - block - 1;
  auto starts = count == 1
                    ? torch::zeros({1}, torch::kLong)
                    : torch::floor_divide(torch::arange(count, torch::kLong) * last, count - 1);
  auto index = starts.view({-1, 1}) + torch::arange(block + 1, torch::kLong);
  return data.index_select(0, index.view({-1})).view({count, block + 1});
}

}  // namespace char_data
