#pragma once
// FileStore: a Store in one shared file, for processes on one machine. Writers append records
// under an exclusive flock; readers re-read what was appended since their last look; get/wait
// poll every few ms up to the timeout. c10d::FileStore.

#include <memory>

#include "brasa/distributed/store.h"

namespace brasa::distributed {

namespace detail {
class FileLog;
}

class BRASA_API FileStore : public Store {
 public:
  /// Opens (creating) the file at `path`. When numWorkers > 0, the last of the numWorkers
  /// instances to be destroyed removes the file (counted in the key "cleanup/"), like c10d.
  /// Throws DistributedError naming the path when it cannot be opened.
  FileStore(const std::string& path, int numWorkers);
  ~FileStore() override;

  using Store::set;
  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  /// Polls until `key` exists or getTimeout() passes (DistributedTimeoutError naming the key).
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expected,
                                  const std::vector<uint8_t>& desired) override;
  bool check(const std::vector<std::string>& keys) override;
  bool deleteKey(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) override;
  int64_t getNumKeys() override;

  const std::string& getPath() const noexcept { return path_; }

 private:
  std::string path_;
  int num_workers_;
  std::unique_ptr<detail::FileLog> log_;
};

}  // namespace brasa::distributed
