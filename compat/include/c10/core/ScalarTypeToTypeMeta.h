#pragma once
// <c10/core/ScalarTypeToTypeMeta.h>: c10::scalarTypeToTypeMeta and typeMetaToScalarType live
// with caffe2::TypeMeta in c10/util/typeid.h.
#include "c10/util/typeid.h"
