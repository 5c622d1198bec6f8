// operator<< against libtorch 1.13: every expected string below was printed by libtorch itself
// (a probe program streaming the same tensors), not written by hand.
#include <gtest/gtest.h>

#include <limits>
#include <sstream>

#include "brasa/brasa.h"

using namespace brasa;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

std::vector<double> range_vals(int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

// Values are rounded to `dtype` (float literals keep libtorch's float rounding of the probe).
Tensor make(std::vector<double> values, IntArrayRef sizes, ScalarType dtype = kFloat) {
  Tensor t = empty(sizes, kDouble);
  for (size_t i = 0; i < values.size(); ++i) t.data_ptr<double>()[i] = values[i];
  return t.to(dtype);
}

std::string str(const Tensor& t) {
  std::ostringstream ss;
  ss << t;
  return ss.str();
}

struct PrintCase {
  const char* name;
  Tensor tensor;
  const char* expected;
};

}  // namespace

TEST(Print, MatchesLibtorch) {
  std::vector<PrintCase> cases = {
      {"f2x3", make(range_vals(6), {2, 3}),
       R"__( 0  1  2
 3  4  5
[ CPUFloatType{2,3} ])__"},
      {"f1d", make({1.5, -2.25, 3.0}, {3}),
       R"__( 1.5000
-2.2500
 3.0000
[ CPUFloatType{3} ])__"},
      {"f1d_int", make({1, 2, 3}, {3}),
       R"__( 1
 2
 3
[ CPUFloatType{3} ])__"},
      {"f_big", make({1234.5, 2, 3}, {3}),
       R"__( 1234.5000
    2.0000
    3.0000
[ CPUFloatType{3} ])__"},
      {"f_big2", make({123456.5, 2.5, 3}, {3}),
       R"__( 1.2346e+05
 2.5000e+00
 3.0000e+00
[ CPUFloatType{3} ])__"},
      {"f_small", make({0.001f, 0.002f, 0.0035f}, {3}),
       R"__(0.001 *
 1.0000
 2.0000
 3.5000
[ CPUFloatType{3} ])__"},
      {"f_mixed", make({1e-5f, 1, 1e5f}, {3}),
       R"__( 1.0000e-05
 1.0000e+00
 1.0000e+05
[ CPUFloatType{3} ])__"},
      {"f_huge", make({1e20f, 1}, {2}),
       R"__( 1.0000e+20
 1.0000e+00
[ CPUFloatType{2} ])__"},
      {"f_hugeint", make({1e10f, 1}, {2}),
       R"__( 1.0000e+10
 1.0000e+00
[ CPUFloatType{2} ])__"},
      {"f_big2d", make({1234.5, 2, 3, 4}, {2, 2}),
       R"__( 1234.5000     2.0000
    3.0000     4.0000
[ CPUFloatType{2,2} ])__"},
      {"f_neg", make({-1.5, -0.25}, {2}),
       R"__(-1.5000
-0.2500
[ CPUFloatType{2} ])__"},
      {"f_nan", make({kNaN, 1.5, kInf, -kInf}, {4}),
       R"__(    nan
 1.5000
    inf
   -inf
[ CPUFloatType{4} ])__"},
      {"f_allnan", make({kNaN, kNaN}, {2}),
       R"__(nan
nan
[ CPUFloatType{2} ])__"},
      {"f_zero", make({0, 0, 0}, {3}),
       R"__( 0
 0
 0
[ CPUFloatType{3} ])__"},
      {"f_1e200", make({1e200, 1e-200}, {2}, kDouble),
       R"__( 1.0000e+200
 1.0000e-200
[ CPUDoubleType{2} ])__"},
      {"i64", make(range_vals(5), {5}, kLong),
       R"__( 0
 1
 2
 3
 4
[ CPULongType{5} ])__"},
      {"i32neg", make({-3, 100, 7}, {3}, kInt),
       R"__(  -3
 100
   7
[ CPUIntType{3} ])__"},
      {"i_bigint", make({12345678901.0, 1}, {2}, kLong),
       R"__( 1.2346e+10
 1.0000e+00
[ CPULongType{2} ])__"},
      {"u8", make({1, 2, 255}, {3}, kByte),
       R"__(   1
   2
 255
[ CPUByteType{3} ])__"},
      {"bool", make({1, 0, 1}, {3}, kBool),
       R"__( 1
 0
 1
[ CPUBoolType{3} ])__"},
      {"bool2d", make({1, 0, 1, 0}, {2, 2}, kBool),
       R"__( 1  0
 1  0
[ CPUBoolType{2,2} ])__"},
      {"scalar_f", make({3.5}, {}),
       R"__(3.5
[ CPUFloatType{} ])__"},
      {"scalar_i", make({7}, {}, kLong),
       R"__(7
[ CPULongType{} ])__"},
      {"scalar_b", make({1}, {}, kBool),
       R"__(1
[ CPUBoolType{} ])__"},
      {"scalar_d", make({1.0 / 3.0}, {}, kDouble),
       R"__(0.333333
[ CPUDoubleType{} ])__"},
      {"scalar_big", make({1234567.0}, {}),
       R"__(1.23457e+06
[ CPUFloatType{} ])__"},
      {"empty1", empty({0}), R"__([ CPUFloatType{0} ])__"},
      {"empty2", empty({0, 3}), R"__([ CPUFloatType{0,3} ])__"},
      {"empty3", empty({2, 0, 3}), R"__([ CPUFloatType{2,0,3} ])__"},
      {"f3d", make(range_vals(12), {2, 2, 3}),
       R"__((1,.,.) = 
  0  1  2
  3  4  5

(2,.,.) = 
   6   7   8
   9  10  11
[ CPUFloatType{2,2,3} ])__"},
      {"f4d", make(range_vals(24), {2, 2, 2, 3}) / 7,
       R"__((1,1,.,.) = 
  0.0000  0.1429  0.2857
  0.4286  0.5714  0.7143

(2,1,.,.) = 
  1.7143  1.8571  2.0000
  2.1429  2.2857  2.4286

(1,2,.,.) = 
  0.8571  1.0000  1.1429
  1.2857  1.4286  1.5714

(2,2,.,.) = 
  2.5714  2.7143  2.8571
  3.0000  3.1429  3.2857
[ CPUFloatType{2,2,2,3} ])__"},
      {"f3d_scaled", make(range_vals(8), {2, 2, 2}) * 1000.5,
       R"__((1,.,.) = 
     0.0000  1000.5000
  2001.0000  3001.5000

(2,.,.) = 
  4002.0000  5002.5000
  6003.0000  7003.5000
[ CPUFloatType{2,2,2} ])__"},
      {"wide", make(range_vals(30), {2, 15}) / 3,
       R"__(Columns 1 to 10 0.0000  0.3333  0.6667  1.0000  1.3333  1.6667  2.0000  2.3333  2.6667  3.0000
 5.0000  5.3333  5.6667  6.0000  6.3333  6.6667  7.0000  7.3333  7.6667  8.0000

Columns 11 to 15 3.3333  3.6667  4.0000  4.3333  4.6667
 8.3333  8.6667  9.0000  9.3333  9.6667
[ CPUFloatType{2,15} ])__"},
      {"wide_int", make(range_vals(60), {2, 30}, kLong),
       R"__(Columns 1 to 20  0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18  19
 30  31  32  33  34  35  36  37  38  39  40  41  42  43  44  45  46  47  48  49

Columns 21 to 30 20  21  22  23  24  25  26  27  28  29
 50  51  52  53  54  55  56  57  58  59
[ CPULongType{2,30} ])__"},
      {"wide_scaled", make(range_vals(40), {2, 20}) * 1000.5,
       R"__(Columns 1 to 6     0.0000   1000.5000   2001.0000   3001.5000   4002.0000   5002.5000
 20010.0000  21010.5000  22011.0000  23011.5000  24012.0000  25012.5000

Columns 7 to 12  6003.0000   7003.5000   8004.0000   9004.5000  10005.0000  11005.5000
 26013.0000  27013.5000  28014.0000  29014.5000  30015.0000  31015.5000

Columns 13 to 18 12006.0000  13006.5000  14007.0000  15007.5000  16008.0000  17008.5000
 32016.0000  33016.5000  34017.0000  35017.5000  36018.0000  37018.5000

Columns 19 to 20 18009.0000  19009.5000
 38019.0000  39019.5000
[ CPUFloatType{2,20} ])__"},
      {"wide3d", make(range_vals(60), {2, 2, 15}) / 3,
       R"__((1,.,.) = 
 Columns 1 to 9  0.0000  0.3333  0.6667  1.0000  1.3333  1.6667  2.0000  2.3333  2.6667
  5.0000  5.3333  5.6667  6.0000  6.3333  6.6667  7.0000  7.3333  7.6667

Columns 10 to 15  3.0000  3.3333  3.6667  4.0000  4.3333  4.6667
  8.0000  8.3333  8.6667  9.0000  9.3333  9.6667

(2,.,.) = 
 Columns 1 to 8  10.0000  10.3333  10.6667  11.0000  11.3333  11.6667  12.0000  12.3333
  15.0000  15.3333  15.6667  16.0000  16.3333  16.6667  17.0000  17.3333

Columns 9 to 15  12.6667  13.0000  13.3333  13.6667  14.0000  14.3333  14.6667
  17.6667  18.0000  18.3333  18.6667  19.0000  19.3333  19.6667
[ CPUFloatType{2,2,15} ])__"},
      {"half", make({1.5, 2.25, -3.0}, {3}, kHalf),
       R"__( 1.5000
 2.2500
-3.0000
[ CPUHalfType{3} ])__"},
      {"bf16", make({1.5, 2.25, -3.0}, {3}, kBFloat16),
       R"__( 1.5000
 2.2500
-3.0000
[ CPUBFloat16Type{3} ])__"},
      {"double", make({1.5, 2.25, -3.0}, {3}, kDouble),
       R"__( 1.5000
 2.2500
-3.0000
[ CPUDoubleType{3} ])__"},
      {"double2d", make({0.1, 0.2, 0.3, 0.4}, {2, 2}, kDouble),
       R"__( 0.1000  0.2000
 0.3000  0.4000
[ CPUDoubleType{2,2} ])__"},
      {"scaled_small", make({0.0001f, 0.0002f}, {2}),
       R"__(0.0001 *
 1.0000
 2.0000
[ CPUFloatType{2} ])__"},
      {"col", make(range_vals(3), {3, 1}),
       R"__( 0
 1
 2
[ CPUFloatType{3,1} ])__"},
      {"i8", make({-128, 127}, {2}, kChar),
       R"__(-128
 127
[ CPUCharType{2} ])__"},
      {"i16", make({-5, 5}, {2}, kShort),
       R"__(-5
 5
[ CPUShortType{2} ])__"},
      {"noncontig", make(range_vals(6), {2, 3}).t(),
       R"__( 0  3
 1  4
 2  5
[ CPUFloatType{3,2} ])__"},
      {"f_mid", make({12345.5, 1.5}, {2}),
       R"__( 12345.5000
     1.5000
[ CPUFloatType{2} ])__"},
      {"f_mid2", make({99999.5, 10.5}, {2}),
       R"__( 99999.5000
    10.5000
[ CPUFloatType{2} ])__"},
      {"f_6digit", make({100000.5, 10.5}, {2}),
       R"__(1e+05 *
 1.0000
 0.0001
[ CPUFloatType{2} ])__"},
      {"neg_big", make({-12345.5, 1.5}, {2}),
       R"__(-12345.5000
     1.5000
[ CPUFloatType{2} ])__"},
      {"e4", make({1e-4f, 1.5, 2}, {3}),
       R"__( 1.0000e-04
 1.5000e+00
 2.0000e+00
[ CPUFloatType{3} ])__"},
      {"undef", Tensor(), R"__([ Tensor (undefined) ])__"},
      {"carry", make({0.5f, 1234567.f}, {2, 1, 1}),
       R"__((1,.,.) = 
  0.5000

(2,.,.) = 
 1.235e+06
[ CPUFloatType{2,1,1} ])__"},
      {"bigint1d", make({1234567, 1}, {2}, kLong),
       R"__(1.23457e+06
       1
[ CPULongType{2} ])__"},
      {"scaled2d", make({0.001f, 0.002f, 0.003f, 0.004f}, {2, 2}),
       R"__(0.001 *
 1.0000  2.0000
  3.0000  4.0000
[ CPUFloatType{2,2} ])__"},
      {"scaled3d", make({0.001f, 0.002f, 0.003f, 0.004f}, {2, 1, 2}),
       R"__((1,.,.) = 
 0.001 *
  1.0000  2.0000

(2,.,.) = 
 0.001 *
  3.0000  4.0000
[ CPUFloatType{2,1,2} ])__"},
      {"e100", make({1e100, 1}, {2}, kDouble),
       R"__(1.0000e+100
 1.0000e+00
[ CPUDoubleType{2} ])__"},
      {"one_elem_5d", ones({1, 1, 1, 1, 2}),
       R"__((1,1,1,.,.) = 
  1  1
[ CPUFloatType{1,1,1,1,2} ])__"},
      {"a", make({1e100, 1e-5}, {2}, kDouble),
       R"__( 1.0000e+100
  1.0000e-05
[ CPUDoubleType{2} ])__"},
      {"b", make({1e-100, 1}, {2}, kDouble),
       R"__(1.0000e-100
 1.0000e+00
[ CPUDoubleType{2} ])__"},
      {"c", make({1e-101, 1}, {2}, kDouble),
       R"__( 1.0000e-101
  1.0000e+00
[ CPUDoubleType{2} ])__"},
      {"d", make({1e-99, 1}, {2}, kDouble),
       R"__( 1.0000e-99
 1.0000e+00
[ CPUDoubleType{2} ])__"},
      {"e", make({1e99, 1e-3}, {2}, kDouble),
       R"__(  1.0000e+99
  1.0000e-03
[ CPUDoubleType{2} ])__"},
      {"f", make({-1e100, 1e-3}, {2}, kDouble),
       R"__(-1.0000e+100
  1.0000e-03
[ CPUDoubleType{2} ])__"},
      {"g", make({1.5, -1e100}, {2}, kDouble),
       R"__( 1.5000
-10000000000000000159028911097599180468360808563945281389781327557747838772170381060813469985856815104.0000
[ CPUDoubleType{2} ])__"},
      {"h", make({1e200, 0.5}, {2}, kDouble),
       R"__( 1.0000e+200
  5.0000e-01
[ CPUDoubleType{2} ])__"},
      {"i", make({-5.5, 100.25}, {2}, kDouble),
       R"__(  -5.5000
 100.2500
[ CPUDoubleType{2} ])__"},
      {"j", make({-100.5, 2.25}, {2}, kDouble),
       R"__(-100.5000
   2.2500
[ CPUDoubleType{2} ])__"},
  };
  for (const PrintCase& c : cases) EXPECT_EQ(str(c.tensor), c.expected) << "case " << c.name;
}

TEST(Print, RestoresStreamFormat) {
  std::ostringstream ss;
  ss << std::setprecision(3) << std::fixed;
  ss << make({1.5, 2}, {2}) << " " << 1.23456;
  EXPECT_EQ(ss.str(), " 1.5000\n 2.0000\n[ CPUFloatType{2} ] 1.235");
}

TEST(Print, ZeroDimUsesTheStreamPrecision) {
  std::ostringstream ss;
  ss << std::setprecision(2) << make({3.14159}, {});
  EXPECT_EQ(ss.str(), "3.1\n[ CPUFloatType{} ]");
}

TEST(Print, MetaTensorsPrintTypeAndShape) {
  // libtorch throws ("Cannot copy out of meta tensor"); brasa prints the footer only.
  EXPECT_EQ(str(empty({2, 3}, Device(kMeta))), "[ MetaFloatType{2,3} ]");
  EXPECT_EQ(str(empty({}, TensorOptions(kMeta).dtype(kLong))), "[ MetaLongType{} ]");
}

TEST(Print, PrintWritesTypeAndSizesToStderr) {
  ::testing::internal::CaptureStderr();
  make(range_vals(6), {2, 3}).print();
  Tensor().print();
  make({1.5}, {}).print();
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "[CPUFloatType [2, 3]]\n[UndefinedTensor]\n[CPUFloatType []]\n");
}
