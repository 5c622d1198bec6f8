// Chrome trace JSON (the Trace Event Format that chrome://tracing and Perfetto open) and its
// atomic write.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

#include "brasa/archive/file_io.h"
#include "brasa/core/error.h"
#include "brasa/profiler/profiler.h"

namespace brasa::profiler {
namespace {

void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

void append_us(std::string& out, int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", double(ns) / 1e3);
  out += buf;
}

const char* category(EventKind kind) {
  switch (kind) {
    case EventKind::User: return "user_annotation";
    case EventKind::Backward: return "autograd_node";
    default: return "cpu_op";
  }
}

}  // namespace

std::string chrome_trace_json(const std::vector<Event>& events, int64_t origin_ns) {
  const std::string pid = std::to_string(::getpid());
  std::string out = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  out += "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " + pid +
         ", \"tid\": 0, \"args\": {\"name\": \"brasa\"}}";
  std::set<uint64_t> threads;
  for (const Event& e : events) threads.insert(e.thread_id);
  for (uint64_t tid : threads) {
    out += ",\n{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": " + pid +
           ", \"tid\": " + std::to_string(tid) + ", \"args\": {\"name\": \"thread " +
           std::to_string(tid) + "\"}}";
  }
  for (const Event& e : events) {
    out += ",\n{\"ph\": \"X\", \"cat\": \"";
    out += category(e.kind);
    out += "\", \"name\": ";
    append_json_string(out, e.name);
    out += ", \"pid\": " + pid + ", \"tid\": " + std::to_string(e.thread_id) + ", \"ts\": ";
    append_us(out, e.start_ns - origin_ns);
    out += ", \"dur\": ";
    append_us(out, e.duration_ns());
    out += ", \"args\": {";
    if (!e.input_shapes.empty()) out += "\"Input Dims\": " + e.input_shapes;
    out += "}}";
  }
  out += "\n]}\n";
  return out;
}

void check_trace_path(const std::string& path) {
  BRASA_CHECK_TYPED(RuntimeError, !path.empty(), "profiler: cannot write trace: the path is empty");
  struct stat st;
  BRASA_CHECK_TYPED(RuntimeError, ::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode),
                    "profiler: cannot write trace '", path, "': ", std::strerror(EISDIR));
  const size_t slash = path.find_last_of('/');
  const std::string folder =
      slash == std::string::npos ? std::string(".") : path.substr(0, std::max<size_t>(slash, 1));
  int err = 0;
  if (::stat(folder.c_str(), &st) != 0)
    err = errno;
  else if (!S_ISDIR(st.st_mode))
    err = ENOTDIR;
  else if (::access(folder.c_str(), W_OK | X_OK) != 0)
    err = errno;
  if (err != 0) {
    BRASA_THROW(RuntimeError, "profiler: cannot write trace '", path, "': folder '", folder,
                "': ", std::strerror(err));
  }
}

void write_trace_file(const std::string& path, const std::string& text) {
  check_trace_path(path);
  try {
    serialize::write_file_atomic(path, text.data(), text.size());
  } catch (const Error& e) {
    BRASA_THROW(RuntimeError, "profiler: cannot write trace '", path, "': ", e.what());
  }
}

}  // namespace brasa::profiler
