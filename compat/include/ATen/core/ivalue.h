#pragma once
// <ATen/core/ivalue.h>: c10::IValue (brasa::IValue) and c10::ivalue::Future, the future a c10d
// Work completes (brasa::distributed::Future; it lives in libbrasa_distributed). The TypePtr that
// then() takes is a name only: c10::TensorType::get(), c10::ListType::ofTensors(),
// c10::ListType::create(t), c10::NoneType::get(), c10::AnyType::get().

#include <memory>
#include <string>

#include "brasa/archive/ivalue.h"
#include "brasa/distributed/future.h"
#include "c10/brasa_namespaces.h"

namespace brasa::ivalue {
using Future = ::brasa::distributed::Future;
}  // namespace brasa::ivalue

namespace c10 {
using TypePtr = ::brasa::distributed::TypePtr;
namespace detail {
inline TypePtr named_type(std::string name) {
  return std::make_shared<const ::brasa::distributed::FutureValueType>(
      ::brasa::distributed::FutureValueType{std::move(name)});
}
}  // namespace detail
struct TensorType {
  static TypePtr get() { return detail::named_type("Tensor"); }
};
struct NoneType {
  static TypePtr get() { return detail::named_type("NoneType"); }
};
struct AnyType {
  static TypePtr get() { return detail::named_type("Any"); }
};
struct ListType {
  static TypePtr create(const TypePtr& element) {
    return detail::named_type("List[" + (element ? element->name : std::string("Any")) + "]");
  }
  static TypePtr ofTensors() { return create(TensorType::get()); }
};
}  // namespace c10
