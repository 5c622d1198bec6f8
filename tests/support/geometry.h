#pragma once
// Shared by the view and indexing tests: checks a tensor's sizes, strides and storage offset.
#include <gtest/gtest.h>

#include "brasa/brasa.h"

inline void expect_geometry(const brasa::Tensor& t, brasa::IntArrayRef sizes,
                            brasa::IntArrayRef strides, int64_t offset) {
  EXPECT_EQ(t.sizes(), sizes);
  EXPECT_EQ(t.strides(), strides);
  EXPECT_EQ(t.storage_offset(), offset);
}
