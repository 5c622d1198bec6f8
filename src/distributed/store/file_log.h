#pragma once
// FileLog: the key-value log file behind FileStore. Records are appended, never rewritten:
//   'S' u32 key_len u64 value_len key value     (set)
//   'D' u32 key_len u64 0         key           (delete)
// (little endian). Every operation opens the file, takes flock (shared to read, exclusive to
// write), replays the records appended since this process last looked, then acts. Opening per
// operation means a file removed and recreated by other processes is picked up.

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace brasa::distributed::detail {

class FileLog {
 public:
  using Map = std::unordered_map<std::string, std::string>;
  /// An edit decided under the exclusive lock: the record to append (empty: none).
  struct Edit {
    char kind = 0;  // 'S', 'D' or 0
    std::string key;
    std::string value;
  };

  explicit FileLog(std::string path);

  /// Runs `fn` on the up-to-date map under a shared lock.
  void read(const std::function<void(const Map&)>& fn);
  /// Runs `fn` under an exclusive lock and appends the record it returns.
  void write(const std::function<Edit(const Map&)>& fn);

 private:
  int open_locked(bool exclusive);
  void refresh(int fd);

  std::string path_;
  std::mutex mutex_;  // flock does not exclude threads sharing this object
  Map map_;
  uint64_t offset_ = 0;
  uint64_t inode_ = 0;
};

}  // namespace brasa::distributed::detail
