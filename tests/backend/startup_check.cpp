// backend_startup_check <libbrasa_npu.so>: what only a fresh process shows, in order: a bad
// BRASA_BACKENDS path is reported at the first lookup of an unknown device name; the rename rules
// (built-in and malformed names refused; no rename after the first PrivateUse1 device); and a
// backend whose rename comes too late fails to load with the reason. Prints "N passed, N failed".
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "brasa/backend.h"
#include "brasa/brasa.h"

namespace {
int passed = 0, failed = 0;

// Expects `f` to throw a brasa error whose message contains every one of `parts`.
void expect_error(const char* what, const std::function<void()>& f,
                  std::initializer_list<const char*> parts) {
  try {
    f();
  } catch (const brasa::Error& e) {
    std::string m = e.what();
    for (const char* p : parts) {
      if (m.find(p) == std::string::npos) {
        std::printf("FAIL %s: message lacks '%s': %s\n", what, p, m.c_str());
        ++failed;
        return;
      }
    }
    std::printf("ok   %s: %s\n", what, m.c_str());
    ++passed;
    return;
  }
  std::printf("FAIL %s: no error\n", what);
  ++failed;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <backend library>\n", argv[0]);
    return 2;
  }
  ::setenv("BRASA_BACKENDS", "/nonexistent/libnpu.so", 1);
  expect_error("bad BRASA_BACKENDS", [] { brasa::Device("npu"); },
               {"BRASA_BACKENDS", "/nonexistent/libnpu.so", "No such file"});
  ::unsetenv("BRASA_BACKENDS");
  expect_error("built-in name", [] { brasa::rename_privateuse1_backend("cuda"); }, {"built-in"});
  expect_error("malformed name", [] { brasa::rename_privateuse1_backend("My NPU"); },
               {"not a valid"});
  brasa::Device d("privateuseone");  // first use
  expect_error("rename after first use", [] { brasa::rename_privateuse1_backend("npu"); },
               {"after the first"});
  expect_error("backend renaming too late", [&] { brasa::backend::load_backend(argv[1]); },
               {argv[1], "registrations failed", "rename"});
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
