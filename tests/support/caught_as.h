#pragma once
// caught_as<Catch>(thrown): the address of the most derived object a `catch (const Catch&)` handler
// gets for a thrown exception, or null if that handler does not catch it. Tests of the error
// hierarchy use it to show that every handler gets the same object.
#include <exception>

namespace brasa::testing {

template <typename Catch>
const void* caught_as(const std::exception_ptr& thrown) {
  try {
    std::rethrow_exception(thrown);
  } catch (const Catch& e) {
    return dynamic_cast<const void*>(&e);
  } catch (...) {
  }
  return nullptr;
}

}  // namespace brasa::testing
