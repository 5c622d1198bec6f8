// The part of p-ranav/argparse's API that pytorch/examples' cpp/dcgan uses (`ArgumentParser`,
// `add_argument(name).help(...).default_value(...).scan<'i', T>()`, `parse_args`, `get<T>`,
// printing the parser). That library is not packaged in Debian; libtorch_examples puts this folder
// on dcgan's include path so dcgan.cpp builds unchanged. Written for the test: options of the form
// `--name value` only.
#pragma once

#include <any>
#include <cstdlib>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace argparse {

class Argument {
 public:
  explicit Argument(std::string name) : name_(std::move(name)) {}
  Argument& help(std::string text) {
    help_ = std::move(text);
    return *this;
  }
  template <typename T>
  Argument& default_value(T value) {
    value_ = std::move(value);
    return *this;
  }
  template <char Kind, typename T>
  Argument& scan() {
    static_assert(Kind == 'i', "argparse shim: only integer options");
    parse_ = [](const std::string& s) -> std::any { return static_cast<T>(std::stoll(s)); };
    return *this;
  }

 private:
  friend class ArgumentParser;
  friend std::ostream& operator<<(std::ostream& os, const class ArgumentParser& parser);
  std::string name_, help_;
  std::any value_;
  std::any (*parse_)(const std::string&) = [](const std::string& s) -> std::any { return s; };
};

class ArgumentParser {
 public:
  explicit ArgumentParser(std::string program) : program_(std::move(program)) {}
  Argument& add_argument(const std::string& name) {
    return arguments_.emplace(name, Argument(name)).first->second;
  }
  void parse_args(int argc, const char* const argv[]) {
    for (int i = 1; i < argc; ++i) {
      auto it = arguments_.find(argv[i]);
      if (it == arguments_.end())
        throw std::runtime_error(std::string("Unknown argument: ") + argv[i]);
      if (i + 1 == argc) throw std::runtime_error(std::string("Too few arguments for ") + argv[i]);
      it->second.value_ = it->second.parse_(argv[++i]);
    }
  }
  template <typename T>
  T get(const std::string& name) const {
    return std::any_cast<T>(arguments_.at(name).value_);
  }
  friend std::ostream& operator<<(std::ostream& os, const ArgumentParser& parser) {
    os << "Usage: " << parser.program_ << '\n';
    for (const auto& [name, argument] : parser.arguments_)
      os << "  " << name << "  " << argument.help_ << '\n';
    return os;
  }

 private:
  std::string program_;
  std::map<std::string, Argument> arguments_;
};

}  // namespace argparse
