#pragma once
// run_c10d_ranks: each rank a thread with its own c10d::ProcessGroupGloo over one c10d::HashStore
// (loopback); an exception escaping a rank fails the test with its message.

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <vector>

template <typename F>
void run_c10d_ranks(int n, F fn, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  c10::intrusive_ptr<c10d::Store> store = c10::make_intrusive<c10d::HashStore>();
  store->setTimeout(timeout);
  std::vector<std::string> errors(static_cast<size_t>(n));
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      try {
        auto options = c10d::ProcessGroupGloo::Options::create(timeout);
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
        auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, r, n, options);
        fn(*pg, r);
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(r)] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int r = 0; r < n; ++r) EXPECT_EQ(errors[static_cast<size_t>(r)], "") << "rank " << r;
}
