#pragma once
// Note [Op declarations]
// Every dispatched op is declared exactly once, in the header of its family (ops/shape/shape_ops.h,
// ops/pool/pool_ops.h, ...):
//
//   BRASA_DECLARE_OP(flip_op, "flip", "flip(Tensor self, int[] dims) -> Tensor",
//                    Tensor(const Tensor&, IntArrayRef));
//
// declares the accessor `Op<Sig>& flip_op()` and a descriptor `flip_op_decl` holding the name,
// the schema, the C++ signature and the declaring file. Exactly one .cpp defines the op from the
// descriptor with BRASA_DEFINE_OP(flip_op); kernel and derivative files include the header. The
// declaration checks at compile time that the schema names the op (`flip(`, or `bernoulli_.float(`
// where the schema carries an aten overload name the brasa name lacks), that it has as many
// arguments as Sig has parameters, and as many results as Sig returns (0 for void, N for a
// std::tuple of N, else 1). Op names are spelled out in full at their declaration (no token
// pasting), so grep finds them.
//
// What the op is in aten's terms (the overloads a TORCH_LIBRARY_IMPL backend registers) is derived
// from the same declaration (Note [aten forms] in backends/extension/aten_rules.cpp); where aten's
// naming or arguments are irregular, BRASA_ATEN next to the declaration says so:
//
//   BRASA_ATEN(isnan_op, "no in_place");
//   BRASA_ATEN(addmm_op, "mm(mat1, mat2) if self=None alpha=1; addmm(Tensor self, mat1, mat2, "
//                        "beta, alpha) if self=tensor");
//   BRASA_ATEN(squeeze_dims_op, "none: aten 1.13 has only squeeze.dim (one dim)");

#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace brasa::detail {

/// Index of the bracket closing the one at `open` ('(' or '['), or npos.
constexpr size_t schema_closing_bracket(std::string_view s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '(' || s[i] == '[') ++depth;
    if (s[i] == ')' || s[i] == ']') --depth;
    if (depth == 0) return i;
  }
  return std::string_view::npos;
}

/// Number of comma-separated items in a list, counting commas outside nested brackets; an empty
/// (or all-blank) list has zero items.
constexpr int schema_list_size(std::string_view list) {
  int depth = 0, commas = 0;
  bool blank = true;
  for (char c : list) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) ++commas;
    if (c != ' ') blank = false;
  }
  return blank ? 0 : commas + 1;
}

/// Number of arguments of "name(args) -> returns", or -1 when malformed.
constexpr int schema_arg_count(std::string_view schema) {
  size_t open = schema.find('(');
  if (open == std::string_view::npos) return -1;
  size_t close = schema_closing_bracket(schema, open);
  if (close == std::string_view::npos) return -1;
  return schema_list_size(schema.substr(open + 1, close - open - 1));
}

/// `s` without leading and trailing blanks.
constexpr std::string_view schema_trim(std::string_view s) {
  size_t first = s.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

/// Number of results: 0 for `-> ()`, N for `-> (A, B, ...)`, 1 for a single type; -1 when
/// malformed.
constexpr int schema_return_count(std::string_view schema) {
  size_t open = schema.find('(');
  if (open == std::string_view::npos) return -1;
  size_t close = schema_closing_bracket(schema, open);
  if (close == std::string_view::npos) return -1;
  std::string_view rest = schema_trim(schema.substr(close + 1));
  if (rest.substr(0, 2) != "->") return -1;
  rest = schema_trim(rest.substr(2));
  if (rest.empty()) return -1;
  if (rest.front() != '(') return 1;
  if (schema_closing_bracket(rest, 0) != rest.size() - 1) return -1;
  return schema_list_size(rest.substr(1, rest.size() - 2));
}

/// True when the schema starts with `name(`, or with `name.overload(` for a name without one.
constexpr bool schema_names_op(std::string_view schema, std::string_view name) {
  if (name.empty() || schema.substr(0, name.size()) != name) return false;
  std::string_view rest = schema.substr(name.size());
  if (rest.empty()) return false;
  if (rest.front() == '(') return true;
  if (rest.front() != '.' || name.find('.') != std::string_view::npos) return false;
  size_t open = rest.find('(');
  if (open == std::string_view::npos || open == 1) return false;
  for (char c : rest.substr(1, open - 1))
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

/// The BRASA_ATEN statement of a declaration, "" when it has none.
template <typename Decl, typename = void>
inline constexpr bool has_aten_statement_v = false;
template <typename Decl>
inline constexpr bool has_aten_statement_v<
    Decl, std::void_t<decltype(brasa_aten_statement(static_cast<Decl*>(nullptr)))>> = true;
template <typename Decl>
constexpr const char* aten_statement_of() {
  if constexpr (has_aten_statement_v<Decl>)
    return brasa_aten_statement(static_cast<Decl*>(nullptr));
  else
    return "";
}

template <typename T>
struct result_count : std::integral_constant<int, 1> {};
template <>
struct result_count<void> : std::integral_constant<int, 0> {};
template <typename... T>
struct result_count<std::tuple<T...>> : std::integral_constant<int, sizeof...(T)> {};

/// Parameter and result counts of a function type R(Args...).
template <typename Sig>
struct signature_arity;
template <typename R, typename... Args>
struct signature_arity<R(Args...)> {
  static constexpr int args = sizeof...(Args);
  static constexpr int results = result_count<R>::value;
};

}  // namespace brasa::detail

/// In the family header, inside the op's namespace (Note [Op declarations]).
#define BRASA_DECLARE_OP(var, op_name, op_schema, ...)                                          \
  struct var##_decl {                                                                           \
    static constexpr char name[] = op_name;                                                     \
    static constexpr char schema[] = op_schema;                                                 \
    static constexpr char file[] = __FILE__;                                                    \
    using Sig = __VA_ARGS__;                                                                    \
  };                                                                                            \
  static_assert(::brasa::detail::schema_names_op(op_schema, op_name),                           \
                "BRASA_DECLARE_OP: the schema must start with the op's name and '('");          \
  static_assert(::brasa::detail::schema_arg_count(op_schema) ==                                 \
                    ::brasa::detail::signature_arity<__VA_ARGS__>::args,                        \
                "BRASA_DECLARE_OP: the schema and the C++ signature have different numbers of " \
                "arguments");                                                                   \
  static_assert(::brasa::detail::schema_return_count(op_schema) ==                              \
                    ::brasa::detail::signature_arity<__VA_ARGS__>::results,                     \
                "BRASA_DECLARE_OP: the schema and the C++ signature have different numbers of " \
                "results");                                                                     \
  ::brasa::Op<__VA_ARGS__>& var()

/// After BRASA_DECLARE_OP(var, ...), in the same namespace: how aten's overloads of the op differ
/// from what its schema gives (Note [aten forms]).
#define BRASA_ATEN(var, statement)                                              \
  constexpr const char* brasa_aten_statement(var##_decl*) { return statement; } \
  static_assert(sizeof(statement) > 1, "BRASA_ATEN: an empty statement")

/// In exactly one .cpp that includes the family header, in the same namespace.
#define BRASA_DEFINE_OP(var)                                                                       \
  ::brasa::Op<var##_decl::Sig>& var() {                                                            \
    static ::brasa::Op<var##_decl::Sig> op(var##_decl::name, var##_decl::schema, var##_decl::file, \
                                           ::brasa::detail::aten_statement_of<var##_decl>());      \
    return op;                                                                                     \
  }
