#pragma once
// Command-line parsing shared by the Fashion-MNIST examples, with CLI11: strict number checks and
// one way to answer --help (stdout, exit 0) and a bad command line (stderr, exit 2).

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

namespace cli {

/// A decimal integer of type T, at least `min`; give it to Option::transform (check() would keep
/// the text). It rewrites the text canonically because CLI11 2.1 reads "010" as octal and "0x10"
/// as hex; and CLI11's own PositiveNumber reports a failure as a range up to DBL_MAX.
template <class T>
CLI::Validator integer(T min = std::numeric_limits<T>::min()) {
  auto check = [min](std::string& text) -> std::string {
    T value{};
    const char* end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error == std::errc::result_out_of_range) return "'" + text + "' is out of range";
    if (error != std::errc() || stop != end) return "expected an integer, got '" + text + "'";
    if (value < min) return "expected an integer >= " + std::to_string(min) + ", got " + text;
    text = std::to_string(value);
    return "";
  };
  return CLI::Validator(check, min == 1 ? "POSITIVE" : "");
}

/// A finite number > 0.
inline CLI::Validator positive_number() {
  auto check = [](std::string& text) -> std::string {
    double value = 0;
    const char* end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || stop != end || !std::isfinite(value) || value <= 0)
      return "expected a positive number, got '" + text + "'";
    return "";
  };
  return CLI::Validator(check, "POSITIVE");
}

/// Parses the command line into the options bound to `app`. Returns the exit code when the program
/// should stop: 0 after printing the help, 2 after printing what is wrong.
inline std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::fprintf(stderr, "%s: %s\nRun with --help for the options.\n", app.get_name().c_str(),
                 e.what());
    return 2;
  }
  return std::nullopt;
}

}  // namespace cli
