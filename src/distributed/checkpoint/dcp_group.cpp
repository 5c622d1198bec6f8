// Collectives for distributed checkpoints (dcp_group.h).

#include "distributed/checkpoint/dcp_group.h"

#include <cstring>

#include "brasa/archive/error.h"
#include "brasa/brasa.h"
#include "brasa/distributed/init.h"

namespace brasa::distributed::checkpoint::detail {

ProcessGroup* resolve_group(ProcessGroup* group) {
  if (group) return group;
  return is_initialized() ? default_process_group().get() : nullptr;
}

int group_rank(ProcessGroup* group) { return group ? group->getRank() : 0; }
int group_size(ProcessGroup* group) { return group ? group->getSize() : 1; }

void agree(ProcessGroup* group, std::exception_ptr error, const std::string& what,
           const std::string& dir) {
  std::vector<int> failed;
  if (group) {
    const int n = group->getSize();
    std::vector<Tensor> in{full({1}, error ? 1 : 0, kLong)};
    std::vector<std::vector<Tensor>> out(1);
    for (int r = 0; r < n; ++r) out[0].push_back(empty({1}, kLong));
    group->allgather(out, in)->wait();
    for (int r = 0; r < n; ++r) {
      if (out[0][static_cast<size_t>(r)].item<int64_t>() != 0) failed.push_back(r);
    }
  } else if (error) {
    failed.push_back(0);
  }
  if (error) std::rethrow_exception(error);
  if (failed.empty()) return;
  std::string ranks;
  for (int r : failed) ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
  BRASA_THROW(SerializationError, "distributed checkpoint ", what, " of ", dir,
              " failed on rank(s) ", ranks, " (their errors name the cause); nothing was changed");
}

std::vector<std::string> allgather_text(ProcessGroup* group, const std::string& text) {
  if (!group) return {text};
  const int n = group->getSize();
  std::vector<Tensor> len_in{full({1}, static_cast<int64_t>(text.size()), kLong)};
  std::vector<std::vector<Tensor>> len_out(1);
  for (int r = 0; r < n; ++r) len_out[0].push_back(empty({1}, kLong));
  group->allgather(len_out, len_in)->wait();
  int64_t longest = 1;
  for (const auto& t : len_out[0]) longest = std::max(longest, t.item<int64_t>());
  Tensor mine = zeros({longest}, kByte);
  std::memcpy(mine.data_ptr<uint8_t>(), text.data(), text.size());
  std::vector<Tensor> in{mine};
  std::vector<std::vector<Tensor>> out(1);
  for (int r = 0; r < n; ++r) out[0].push_back(empty({longest}, kByte));
  group->allgather(out, in)->wait();
  std::vector<std::string> texts;
  for (int r = 0; r < n; ++r) {
    const auto& t = out[0][static_cast<size_t>(r)];
    texts.emplace_back(reinterpret_cast<const char*>(t.data_ptr<uint8_t>()),
                       static_cast<size_t>(len_out[0][static_cast<size_t>(r)].item<int64_t>()));
  }
  return texts;
}

int64_t broadcast_value(ProcessGroup* group, int64_t value) {
  if (!group) return value;
  std::vector<Tensor> t{full({1}, value, kLong)};
  group->broadcast(t)->wait();
  return t[0].item<int64_t>();
}

}  // namespace brasa::distributed::checkpoint::detail
