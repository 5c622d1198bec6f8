// Every file of tests/serialize/malformed/pt (made by make_malformed_pt.py) is rejected by load_pt
// with a SerializationError naming the file and the problem; the fuzz seeds load.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "brasa/serialize/error.h"
#include "brasa/serialize/pt.h"
#include "support/source_tree.h"

namespace brasa::serialize {
namespace {

namespace fs = std::filesystem;

fs::path source_dir() { return testing::source_dir("tests/serialize/malformed/pt"); }

// File name -> a fragment its error message must contain.
const std::map<std::string, std::string>& expected_errors() {
  static const std::map<std::string, std::string> table{
      {"global_os_system", "unsupported global 'os.system'"},
      {"global_posix_system", "unsupported global 'posix.system'"},
      {"global_builtins_eval", "unsupported global 'builtins.eval'"},
      {"global_torch_load", "unsupported global 'torch.load'"},
      {"opcode_frame", "unsupported pickle opcode 0x95 at byte 2"},
      {"opcode_reduce_ex_inst", "unsupported pickle opcode 0x69"},
      {"storage_smaller_than_tensor", "does not fit its storage '0' of 6 elements"},
      {"offset_beyond_storage", "does not fit its storage"},
      {"record_size_mismatch",
       "has 20 bytes, but the pickle declares 6 elements of Float (24 bytes)"},
      {"missing_data_record", "storage record 'archive/data/0' is missing"},
      {"negative_size", "negative size or stride in dim 0"},
      {"negative_numel", "storage numel -6 is out of range"},
      {"storage_two_dtypes", "storage '0' is used with two dtypes or sizes"},
      {"unsupported_storage_type", "unsupported global 'torch.ComplexHalfStorage'"},
      {"persid_not_storage", "persistent id must be a tuple ('storage'"},
      {"setitem_on_list", "SETITEM on a GenericList"},
      {"setitems_on_tuple", "SETITEMS on a non-dict"},
      {"append_on_dict", "APPEND on a GenericDict"},
      {"reduce_on_string", "REDUCE on a value that is not an allowed callable"},
      {"build_on_list", "BUILD is only allowed on an OrderedDict"},
      {"newobj", "NEWOBJ is not supported"},
      {"binget_missing_memo", "memo index 5 was never stored"},
      {"long_binget_missing_memo", "memo index 4294967295 was never stored"},
      {"stack_underflow", "stack underflow at TUPLE2"},
      {"stop_on_empty_stack", "stack underflow at STOP"},
      {"appends_without_mark", "APPENDS without a MARK"},
      {"mark_hides_stack", "stack underflow at TUPLE2"},
      {"recursive_list", "APPEND on a container that is already nested"},
      {"deep_nesting", "values nested deeper than 200"},
      {"truncated_pickle", "truncated pickle"},
      {"no_stop", "truncated pickle: opcode"},
      {"huge_string_length", "truncated pickle: string needs 4294967295 bytes, 4 left"},
      {"long1_too_long", "LONG1 of 9 bytes does not fit in int64"},
      {"global_without_newline", "GLOBAL module is not a line of at most 255 bytes"},
      {"pytorch1_magic", "unsupported archive format from the preview release (PYTORCH1 magic)"},
      {"legacy_magic", "legacy (pre-1.6) torch.save format is not supported"},
      {"not_a_zip", "not a torch.save file"},
      {"no_subdirectory", "file in archive is not in a subdirectory: 'data.pkl'"},
      {"entry_outside_prefix", "record 'other/x' is not under the archive's folder 'archive/'"},
      {"missing_version", "record 'archive/version' is missing"},
      {"bad_version", "must be a file format version in [1, 10], got '99'"},
      {"bad_byteorder", "record 'byteorder' must be 'little' or 'big', got 'middle'"},
      {"missing_data_pkl", "record 'archive/data.pkl' is missing"},
  };
  return table;
}

TEST(PtMalformed, EveryFileIsRejectedWithItsMessage) {
  fs::path dir = source_dir() / "tests/serialize/malformed/pt";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  size_t seen = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().stem().string();
    auto it = expected_errors().find(name);
    ASSERT_NE(it, expected_errors().end()) << "no expectation for " << name;
    ++seen;
    try {
      load_pt(entry.path().string());
      ADD_FAILURE() << name << " loaded";
    } catch (const SerializationError& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find(it->second), std::string::npos) << name << ": " << msg;
      EXPECT_NE(msg.find(entry.path().filename().string()), std::string::npos)
          << name << ": " << msg;
    }
  }
  EXPECT_EQ(seen, expected_errors().size());
}

TEST(PtMalformed, FuzzSeedsLoad) {
  fs::path dir = source_dir() / "fuzz/corpus/pt";
  IValue sd = load_pt((dir / "state_dict.pt").string());
  EXPECT_EQ(sd.toGenericDict().at("w").toTensor().sizes(), IntArrayRef({2, 3}));
  IValue nested = load_pt((dir / "nested.pt").string());
  GenericDict d = nested.toGenericDict();
  EXPECT_EQ(d.at("t").toTensor().strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(d.at("t").toTensor().storage().get(), d.at("w").toTensor().storage().get());
  EXPECT_EQ(d.at("l").toListRef().at(5).toInt(), -7);
  EXPECT_EQ(d.at("tp").toTupleRef().elements().size(), 2u);
}

}  // namespace
}  // namespace brasa::serialize
