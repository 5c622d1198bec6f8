// The profiler recording real work: every dispatched op and autograd node, user ranges, shapes,
// threads, the Chrome trace (checked against a JSON schema) and unwritable trace paths.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "brasa/autograd/node.h"
#include "brasa/brasa.h"
#include "brasa/profiler/profiler.h"

namespace brasa::profiler {
namespace {

std::multiset<std::string> names_of(const std::vector<Event>& events, EventKind kind) {
  std::multiset<std::string> names;
  for (const Event& e : events)
    if (e.kind == kind) names.insert(e.name);
  return names;
}

const Event* find_event(const std::vector<Event>& events, const std::string& name) {
  for (const Event& e : events)
    if (e.name == name) return &e;
  return nullptr;
}

/// The message of the RuntimeError `fn` throws ("" when it throws none).
template <typename Fn>
std::string runtime_error_of(Fn fn) {
  try {
    fn();
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "";
}

bool nested_in(const Event& child, const Event& parent) {
  return child.thread_id == parent.thread_id && parent.start_ns <= child.start_ns &&
         child.end_ns <= parent.end_ns;
}

/// The names of the nodes of the graph below `root` (each node once), by walking its edges.
std::multiset<std::string> graph_nodes(const std::shared_ptr<autograd::Node>& root) {
  std::multiset<std::string> names;
  std::set<const autograd::Node*> seen;
  std::vector<const autograd::Node*> todo{root.get()};
  while (!todo.empty()) {
    const autograd::Node* n = todo.back();
    todo.pop_back();
    if (!n || !seen.insert(n).second) continue;
    names.insert(n->name());
    for (const autograd::Edge& e : n->next_edges()) todo.push_back(e.function.get());
  }
  return names;
}

/// The ops the dispatcher's log (BRASA_LOG_DISPATCH) names while `fn` runs.
template <typename Fn>
std::set<std::string> logged_ops(Fn fn) {
  ::testing::internal::CaptureStderr();
  brasa::detail::g_log_dispatch = true;
  fn();
  brasa::detail::g_log_dispatch = false;
  const std::string log = ::testing::internal::GetCapturedStderr();
  std::set<std::string> ops;
  const std::string tag = "[brasa dispatch] ";
  for (size_t at = log.find(tag); at != std::string::npos; at = log.find(tag, at + 1)) {
    const size_t from = at + tag.size();
    ops.insert(log.substr(from, log.find(" -> ", from) - from));
  }
  return ops;
}

TEST(Profiler, EveryOpAndBackwardNodeOfAnMlpStep) {
  Tensor w1 = brasa::randn({8, 4}).requires_grad_(true),
         b1 = brasa::zeros({8}).requires_grad_(true);
  Tensor w2 = brasa::randn({3, 8}).requires_grad_(true),
         b2 = brasa::zeros({3}).requires_grad_(true);
  Tensor x = brasa::randn({5, 4});
  Tensor target = brasa::tensor({0, 2, 1, 1, 0}, brasa::kLong);
  Profiler prof;
  std::multiset<std::string> graph;
  const std::set<std::string> dispatched = logged_ops([&] {
    prof.start();
    Tensor h = brasa::linear(x, w1, b1).relu();
    Tensor loss = nn::functional::cross_entropy(brasa::linear(h, w2, b2), target);
    graph = graph_nodes(loss.grad_fn());
    loss.backward();
    prof.stop();
  });
  const std::vector<Event>& events = prof.events();
  const std::multiset<std::string> ops = names_of(events, EventKind::Op);
  const std::multiset<std::string> nodes = names_of(events, EventKind::Backward);
  // Every op the dispatcher ran, forward and backward, is an event, and nothing else is.
  EXPECT_EQ(std::set<std::string>(ops.begin(), ops.end()), dispatched);
  EXPECT_EQ(ops.count("addmm"), 2u + 3u) << ::testing::PrintToString(ops);  // 2 fwd, 3 bwd
  EXPECT_EQ(ops.count("relu"), 1u);
  EXPECT_EQ(ops.count("threshold_backward"), 1u);
  // Every node of the graph ran once, as an event of its own.
  EXPECT_EQ(nodes, graph);
  EXPECT_EQ(nodes.count("AddmmBackward0"), 2u) << ::testing::PrintToString(nodes);
  EXPECT_EQ(nodes.count("ReluBackward0"), 1u) << ::testing::PrintToString(nodes);
  EXPECT_EQ(nodes.count("AccumulateGrad"), 4u) << ::testing::PrintToString(nodes);
  // A backward node's ops nest inside it: ReluBackward0 runs threshold_backward.
  const Event* relu_backward = find_event(events, "ReluBackward0");
  const Event* threshold = find_event(events, "threshold_backward");
  ASSERT_TRUE(relu_backward && threshold);
  EXPECT_TRUE(nested_in(*threshold, *relu_backward));
  // Self times add up: their sum is the time covered by the outermost events.
  const std::vector<int64_t> self = self_times_ns(events);
  int64_t self_total = 0, top_total = 0, covered_until = 0;
  for (size_t i = 0; i < events.size(); ++i) {  // events are by thread, then start
    EXPECT_GE(self[i], 0) << events[i].name;
    self_total += self[i];
    if (events[i].start_ns >= covered_until) {
      top_total += events[i].duration_ns();
      covered_until = events[i].end_ns;
    }
  }
  EXPECT_EQ(self_total, top_total);
  const std::string table = prof.table();
  EXPECT_NE(table.find("AddmmBackward0"), std::string::npos) << table;
  EXPECT_NE(table.find("Self CPU time total"), std::string::npos) << table;
}

TEST(Profiler, RecordsInputShapesWhenAsked) {
  Tensor a = brasa::ones({2, 3}), b = brasa::ones({3});
  Profiler with(ProfilerOptions().record_shapes(true));
  with.start();
  Tensor c = a.add(b, 2);
  Tensor d = brasa::cat({a, a}, 0);
  with.stop();
  const Event* add = find_event(with.events(), "add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->input_shapes.rfind("[[2, 3], [3], []", 0), 0u) << add->input_shapes;
  const Event* cat = find_event(with.events(), "cat");
  ASSERT_NE(cat, nullptr);
  EXPECT_EQ(cat->input_shapes, "[[[2, 3], [2, 3]], []]");
  EXPECT_NE(with.table(SortBy::SelfCpuTimeTotal, 100, true).find("[[2, 3], [3], []"),
            std::string::npos);

  Profiler without;
  without.start();
  c = a.add(b);
  without.stop();
  ASSERT_NE(find_event(without.events(), "add"), nullptr);
  EXPECT_EQ(find_event(without.events(), "add")->input_shapes, "");
}

TEST(Profiler, UserScopesNestOps) {
  Tensor a = brasa::ones({4});
  Profiler prof;
  prof.start();
  {
    RecordScope step("train_step");
    Tensor b = a * 2;
    {
      RecordScope inner("inner");
      b = b.exp();
    }
  }
  prof.stop();
  const std::vector<Event>& events = prof.events();
  const Event* step = find_event(events, "train_step");
  const Event* inner = find_event(events, "inner");
  const Event* exp = find_event(events, "exp");
  ASSERT_TRUE(step && inner && exp);
  EXPECT_EQ(step->kind, EventKind::User);
  EXPECT_TRUE(nested_in(*inner, *step));
  EXPECT_TRUE(nested_in(*exp, *inner));
  EXPECT_FALSE(nested_in(*find_event(events, "mul"), *inner));
}

TEST(Profiler, OffRecordsNothing) {
  Tensor a = brasa::ones({4});
  { RecordScope unseen("before_start"); }
  Tensor b = a + a;
  EXPECT_FALSE(detail::is_recording());
  Profiler prof;
  EXPECT_TRUE(prof.events().empty());
  prof.start();
  prof.stop();
  EXPECT_TRUE(prof.events().empty());
  b = a + a;  // after stop
  EXPECT_TRUE(prof.events().empty());
  // A scope opened before start and closed inside belongs to no recording.
  {
    RecordScope straddling("straddling");
    prof.start();
  }
  prof.stop();
  EXPECT_EQ(find_event(prof.events(), "straddling"), nullptr);
}

TEST(Profiler, OneRecordingAtATime) {
  Profiler first, second;
  first.start();
  EXPECT_NE(runtime_error_of([&] { second.start(); }).find("already recording"), std::string::npos);
  first.stop();
  second.start();  // fine once the first stopped
  second.stop();
}

TEST(Profiler, ThreadsRecordIntoTheirOwnBuffers) {
  constexpr int kOps = 200;
  Profiler prof;
  prof.start();
  auto work = [] {
    Tensor a = brasa::ones({3});
    RecordScope scope("worker");
    for (int i = 0; i < kOps; ++i) a = a.add(a);
  };
  std::thread t1(work), t2(work);
  t1.join();
  t2.join();
  prof.stop();
  std::map<uint64_t, int> adds_per_thread;
  std::map<uint64_t, int> workers_per_thread;
  for (const Event& e : prof.events()) {
    if (e.name == "add") ++adds_per_thread[e.thread_id];
    if (e.name == "worker") ++workers_per_thread[e.thread_id];
  }
  ASSERT_EQ(adds_per_thread.size(), 2u);
  for (auto [tid, n] : adds_per_thread) {
    EXPECT_EQ(n, kOps) << tid;
    EXPECT_EQ(workers_per_thread[tid], 1) << tid;
  }
  // Each thread's adds nest in its own worker range.
  for (const Event& e : prof.events()) {
    if (e.name != "add") continue;
    bool inside = false;
    for (const Event& w : prof.events())
      if (w.name == "worker" && nested_in(e, w)) inside = true;
    EXPECT_TRUE(inside);
  }
}

TEST(Profiler, StopWhileOtherThreadsStillRecord) {
  std::atomic<bool> done{false};
  std::thread busy([&] {
    Tensor a = brasa::ones({3});
    while (!done.load()) a = a.add(a).mul(0.5);
  });
  for (int round = 0; round < 20; ++round) {
    Profiler prof;
    prof.start();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    prof.stop();
    for (const Event& e : prof.events()) EXPECT_GE(e.start_ns, prof.start_ns());
  }
  done = true;
  busy.join();
}

}  // namespace
}  // namespace brasa::profiler
