#pragma once
// Note [TCPStore wire protocol]
// One TCP connection per TCPStore instance; strictly request/reply. A message is a frame:
// u32 field count, then per field u64 byte length + bytes (little endian). Request field 0 is the
// operation letter, reply field 0 the status. Blocking operations carry the client's timeout in ms
// (decimal; 0 = forever): the server parks the connection's thread until the keys exist or the
// timeout passes, then answers, so a timeout is decided in one place (the server's clock).
//   S key value          -> O
//   G key timeout        -> O value | T key
//   A key delta          -> O sum
//   C key expected desired -> O value-after
//   K key...             -> O "1"|"0"          (check)
//   D key                -> O "1"|"0"          (deleteKey)
//   W timeout key...     -> O | T missing-key...
//   N                    -> O count
//   H key                -> O                  (watch: this connection now receives U frames)
//   L key                -> O count            (lease: add 1 to key now, 1 less when this
//                                               connection closes; Note [Liveness leases])
// Errors: E message; the server is shutting down: X.
// A connection that sent H is a watch connection: besides the replies to its requests, it gets
// one unsolicited frame per change of a watched key, in the order the table changed:
//   U key old? old new? new    (old?/new? are "1" or "0": whether the value existed)

namespace brasa::distributed::detail::wire {

constexpr char kSet = 'S';
constexpr char kGet = 'G';
constexpr char kAdd = 'A';
constexpr char kCompareSet = 'C';
constexpr char kCheck = 'K';
constexpr char kDelete = 'D';
constexpr char kWait = 'W';
constexpr char kNumKeys = 'N';
constexpr char kWatch = 'H';
constexpr char kUpdate = 'U';
constexpr char kLease = 'L';

constexpr char kOk = 'O';
constexpr char kTimedOut = 'T';
constexpr char kError = 'E';
constexpr char kStopping = 'X';

}  // namespace brasa::distributed::detail::wire
