#include "brasa/dispatch/schema.h"

#include "brasa/core/error.h"

namespace brasa {
namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Splits at commas outside parentheses.
std::vector<std::string> split_top_level(const std::string& s) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (s[i] == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!trim(s.substr(start)).empty()) parts.push_back(trim(s.substr(start)));
  return parts;
}

}  // namespace

SchemaInfo SchemaInfo::parse(const std::string& schema) {
  SchemaInfo info;
  size_t open = schema.find('(');
  size_t arrow = schema.rfind("->");
  BRASA_INTERNAL_ASSERT(open != std::string::npos && arrow != std::string::npos && arrow > open,
                        "malformed schema '", schema, "'");
  size_t close = schema.rfind(')', arrow);
  BRASA_INTERNAL_ASSERT(close != std::string::npos && close > open, "malformed schema '", schema,
                        "'");
  info.name = trim(schema.substr(0, open));
  for (const std::string& arg : split_top_level(schema.substr(open + 1, close - open - 1))) {
    size_t space = arg.rfind(' ');
    BRASA_INTERNAL_ASSERT(space != std::string::npos, "malformed argument '", arg, "' in schema '",
                          schema, "'");
    SchemaArgument a;
    a.type = trim(arg.substr(0, space));
    a.name = trim(arg.substr(space + 1));
    a.is_tensor = a.type.rfind("Tensor", 0) == 0;
    a.is_list = a.is_tensor && a.type.find("[]") != std::string::npos;
    a.written = a.type.find('!') != std::string::npos || (a.is_tensor && a.name == "out");
    info.arguments.push_back(std::move(a));
  }
  std::string ret = trim(schema.substr(arrow + 2));
  if (!ret.empty() && ret.front() == '(' && ret.back() == ')') ret = ret.substr(1, ret.size() - 2);
  for (const std::string& r : split_top_level(ret)) {
    std::string type = r.substr(0, r.find(' ', r.find(')') == std::string::npos ? 0 : r.find(')')));
    info.returns.push_back(trim(type));
    if (type.find("(a!)") != std::string::npos || type.find("(b!)") != std::string::npos)
      info.returns_written = true;
    else if (type.find('(') != std::string::npos)
      info.returns_view = true;
  }
  return info;
}

int SchemaInfo::index_of(const std::string& name) const {
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace brasa
