#pragma once
// The collectives of a distributed checkpoint's save and load: the group (or none, one process),
// the all-ranks agreement on success, and the exchange of the ranks' chunk lists.

#include <exception>
#include <string>
#include <vector>

#include "brasa/distributed/process_group.h"

namespace brasa::distributed::checkpoint::detail {

/// `group`, else the default group when initialized, else null (this process alone).
ProcessGroup* resolve_group(ProcessGroup* group);
int group_rank(ProcessGroup* group);
int group_size(ProcessGroup* group);

/// Every rank passes its error (null: success); returns normally only when all succeeded. Otherwise
/// a failed rank rethrows its own error and the others throw SerializationError naming `what`,
/// `dir` and the failed ranks.
void agree(ProcessGroup* group, std::exception_ptr error, const std::string& what,
           const std::string& dir);
/// Every rank's `text`, by rank.
std::vector<std::string> allgather_text(ProcessGroup* group, const std::string& text);
/// Root 0's value on every rank.
int64_t broadcast_value(ProcessGroup* group, int64_t value);

}  // namespace brasa::distributed::checkpoint::detail
