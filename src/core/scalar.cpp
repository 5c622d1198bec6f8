#include "brasa/core/scalar.h"

namespace brasa {

Scalar Scalar::operator-() const {
  BRASA_CHECK_TYPE(kind_ != Kind::Bool, "Scalar: negation of a bool is not supported");
  return kind_ == Kind::Double ? Scalar(-v_.d) : Scalar(-v_.i);
}

bool Scalar::equal(const Scalar& o) const {
  if (kind_ == Kind::Double || o.kind_ == Kind::Double) return toDouble() == o.toDouble();
  return v_.i == o.v_.i;
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return os << (s.toBool() ? "true" : "false");
    case Scalar::Kind::Int: return os << s.toLong();
    case Scalar::Kind::Double: return os << s.toDouble();
  }
  return os;
}

}  // namespace brasa
