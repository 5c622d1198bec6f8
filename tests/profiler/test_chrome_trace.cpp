// The Chrome trace: valid Trace Event Format (checked with a JSON schema by Python's jsonschema,
// Debian's python3-jsonschema), written atomically, and clear errors for paths it cannot write.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "ATen/record_function.h"
#include "brasa/brasa.h"
#include "brasa/profiler/profiler.h"
#include "torch/csrc/autograd/profiler.h"

namespace brasa::profiler {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("brasa_profiler_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <typename Fn>
std::string runtime_error_of(Fn fn) {
  try {
    fn();
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "";
}

// The Trace Event Format as chrome://tracing and Perfetto read it: an object with traceEvents;
// complete events ("X") need name, ph, ts, dur, pid, tid (numbers, ts and dur in µs, dur >= 0);
// metadata events ("M") name a process or thread. Our events also carry a category and args,
// whose "Input Dims" is a list (one entry per argument) of lists.
const char* kSchemaCheck = R"PY(
import json, sys, jsonschema
number = {"type": "number"}
schema = {
  "type": "object",
  "required": ["traceEvents"],
  "properties": {
    "displayTimeUnit": {"enum": ["ms", "ns"]},
    "traceEvents": {"type": "array", "items": {"oneOf": [
      {"type": "object",
       "required": ["ph", "name", "cat", "ts", "dur", "pid", "tid", "args"],
       "properties": {
         "ph": {"const": "X"}, "name": {"type": "string", "minLength": 1},
         "cat": {"enum": ["cpu_op", "autograd_node", "user_annotation"]},
         "ts": {"type": "number", "minimum": 0}, "dur": {"type": "number", "minimum": 0},
         "pid": {"type": "integer"}, "tid": {"type": "integer"},
         "args": {"type": "object", "properties": {"Input Dims": {
           "type": "array", "items": {"type": "array"}}}}},
       "additionalProperties": False},
      {"type": "object", "required": ["ph", "name", "pid", "tid", "args"],
       "properties": {"ph": {"const": "M"},
                      "name": {"enum": ["process_name", "thread_name"]},
                      "pid": {"type": "integer"}, "tid": {"type": "integer"},
                      "args": {"type": "object", "required": ["name"]}},
       "additionalProperties": False}]}}},
  "additionalProperties": False,
}
trace = json.load(open(sys.argv[1]))
jsonschema.validate(trace, schema)
xs = [e for e in trace["traceEvents"] if e["ph"] == "X"]
# Events of one thread nest properly (Perfetto draws overlapping ones wrongly).
by_tid = {}
for e in xs: by_tid.setdefault(e["tid"], []).append(e)
for tid, evs in by_tid.items():
  evs.sort(key=lambda e: (e["ts"], -e["dur"]))
  stack = []
  for e in evs:
    while stack and e["ts"] >= stack[-1]["ts"] + stack[-1]["dur"] - 1e-3: stack.pop()
    assert not stack or e["ts"] + e["dur"] <= stack[-1]["ts"] + stack[-1]["dur"] + 1e-3, (e, stack[-1])
    stack.append(e)
names = set(e["name"] for e in xs)
print("valid", len(xs), " ".join(sorted(names)))
)PY";

std::string validate(const fs::path& trace) {
  const fs::path script = trace.parent_path() / "check_trace.py";
  std::ofstream(script) << kSchemaCheck;
  FILE* pipe =
      popen(("/usr/bin/python3 " + script.string() + " " + trace.string() + " 2>&1").c_str(), "r");
  if (!pipe) return "FAILED: popen";
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof(buf), pipe)) out.append(buf, n);
  const int rc = pclose(pipe);
  return rc == 0 ? out : "FAILED rc=" + std::to_string(rc) + ": " + out;
}

TEST(ChromeTrace, ValidatesAgainstTheSchema) {
  const fs::path dir = scratch("schema");
  Tensor w = brasa::randn({3, 4}).requires_grad_(true);
  Tensor x = brasa::randn({2, 4});
  Profiler prof(ProfilerOptions().record_shapes(true));
  prof.start();
  {
    RecordScope step("step \"one\"\\");  // quotes and backslashes are escaped
    brasa::linear(x, w).tanh().sum().backward();
  }
  std::thread([&] { Tensor y = x * 2; }).join();
  prof.stop();
  prof.export_chrome_trace((dir / "trace.json").string());
  const std::string out = validate(dir / "trace.json");
  EXPECT_EQ(out.rfind("valid", 0), 0u) << out;
  for (const char* name : {"addmm", "tanh", "TanhBackward0", "mul", "step \"one\"\\"})
    EXPECT_NE(out.find(name), std::string::npos) << name << " in " << out;
  // Written atomically: nothing but the trace (and the checker) is left in the folder.
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) files += entry.is_regular_file();
  EXPECT_EQ(files, 2);
  fs::remove_all(dir);
}

TEST(ChromeTrace, UnwritablePathsNameThePathAndTheReason) {
  const fs::path dir = scratch("bad");
  const std::string missing = (dir / "no_such_folder" / "trace.json").string();
  Profiler prof;
  prof.start();
  prof.stop();
  std::string msg = runtime_error_of([&] { prof.export_chrome_trace(missing); });
  EXPECT_NE(msg.find(missing), std::string::npos) << msg;
  EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;

  msg = runtime_error_of([&] { prof.export_chrome_trace(dir.string()); });
  EXPECT_NE(msg.find(dir.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("Is a directory"), std::string::npos) << msg;

  std::ofstream(dir / "file") << "x";
  const std::string under_file = (dir / "file" / "trace.json").string();
  msg = runtime_error_of([&] { prof.export_chrome_trace(under_file); });
  EXPECT_NE(msg.find(under_file), std::string::npos) << msg;
  EXPECT_NE(msg.find("Not a directory"), std::string::npos) << msg;

  EXPECT_NE(runtime_error_of([&] { prof.export_chrome_trace(""); }).find("empty"),
            std::string::npos);

  // An existing trace survives a failed write untouched.
  std::ofstream(dir / "old.json") << "old";
  EXPECT_NO_THROW(prof.export_chrome_trace((dir / "old.json").string()));
  EXPECT_NE(slurp(dir / "old.json"), "old");
  fs::remove_all(dir);
}

TEST(ChromeTrace, RecordProfileWritesATraceFileOrStream) {
  const fs::path dir = scratch("record_profile");
  const fs::path path = dir / "scope.trace";
  Tensor a = brasa::ones({2, 2});
  {
    torch::autograd::profiler::RecordProfile guard(path.string());
    EXPECT_TRUE(torch::autograd::profiler::profilerEnabled());
    Tensor b = a.matmul(a);
  }
  EXPECT_FALSE(torch::autograd::profiler::profilerEnabled());
  const std::string out = validate(path);
  EXPECT_EQ(out.rfind("valid", 0), 0u) << out;
  EXPECT_NE(out.find("addmm"), std::string::npos) << out;  // matmul of 2-d tensors

  std::ostringstream stream;
  {
    torch::autograd::profiler::RecordProfile guard(stream);
    Tensor b = a.exp();
  }
  EXPECT_NE(stream.str().find("\"name\": \"exp\""), std::string::npos) << stream.str();
  EXPECT_NE(stream.str().find("\"Input Dims\": [[2, 2], []]"), std::string::npos) << stream.str();

  // A trace path that cannot be written fails at construction, before any profiling.
  const std::string bad = (dir / "missing" / "x.trace").string();
  std::string msg = runtime_error_of([&] { torch::autograd::profiler::RecordProfile g(bad); });
  EXPECT_NE(msg.find(bad), std::string::npos) << msg;
  EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
  EXPECT_FALSE(torch::autograd::profiler::profilerEnabled());
  fs::remove_all(dir);
}

int evaluated = 0;
int count_evaluation() { return ++evaluated; }

TEST(ChromeTrace, LibtorchRecordScopes) {
  evaluated = 0;  // --gtest_repeat runs this again in the same process
  Tensor t = brasa::ones({2, 5});
  Profiler prof(ProfilerOptions().record_shapes(true));
  prof.start();
  {
    RECORD_USER_SCOPE("phase");
    RECORD_FUNCTION("my_op", std::vector<c10::IValue>({t, count_evaluation()}));
    at::RecordFunction guard(at::RecordScope::BACKWARD_FUNCTION);
    EXPECT_TRUE(guard.isActive());
    guard.before("my_backward");
    guard.end();
  }
  prof.stop();
  EXPECT_EQ(evaluated, 1);  // inputs are evaluated while recording
  std::map<std::string, Event> by_name;
  for (const Event& e : prof.events()) by_name[e.name] = e;
  ASSERT_TRUE(by_name.count("phase") && by_name.count("my_op") && by_name.count("my_backward"));
  EXPECT_EQ(by_name["phase"].kind, EventKind::User);
  EXPECT_EQ(by_name["my_op"].kind, EventKind::Op);
  EXPECT_EQ(by_name["my_op"].input_shapes, "[[2, 5], []]");
  EXPECT_EQ(by_name["my_backward"].kind, EventKind::Backward);
}

}  // namespace
}  // namespace brasa::profiler
