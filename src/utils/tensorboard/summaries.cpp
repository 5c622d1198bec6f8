#include "utils/tensorboard/summaries.h"

#include "utils/tensorboard/proto_writer.h"

// Field numbers are those of TensorBoard's .proto files (tensorboard/compat/proto/summary.proto,
// tensor.proto, tensor_shape.proto; tensorboard/plugins/hparams/api.proto and plugin_data.proto;
// google/protobuf/struct.proto), named in the comments. Note [TensorBoard event files].

namespace brasa::tensorboard::detail {
namespace {

// Summary { repeated Value value = 1; }
std::string one_value(const ProtoWriter& value) { return ProtoWriter().message(1, value).str(); }

// SummaryMetadata { PluginData plugin_data = 1; }, PluginData { plugin_name = 1; content = 2; }
ProtoWriter plugin_metadata(const std::string& plugin, const std::string& content) {
  ProtoWriter data;
  data.bytes(1, plugin).bytes(2, content);
  return std::move(ProtoWriter().message(1, data));
}

}  // namespace

// Summary.Value { tag = 1; float simple_value = 2; HistogramProto histo = 5; TensorProto tensor =
// 8; SummaryMetadata metadata = 9; }
std::string scalar_summary(const std::string& tag, double value) {
  ProtoWriter v;
  v.bytes(1, tag).float32(2, static_cast<float>(value));
  return one_value(v);
}

// HistogramProto { double min = 1, max = 2, num = 3, sum = 4, sum_squares = 5;
//                  repeated double bucket_limit = 6 [packed], bucket = 7 [packed]; }
std::string histogram_summary(const std::string& tag, const Histogram& h) {
  ProtoWriter histo;
  histo.float64(1, h.min).float64(2, h.max).float64(3, h.num).float64(4, h.sum);
  histo.float64(5, h.sum_squares).packed_float64(6, h.limits).packed_float64(7, h.counts);
  ProtoWriter v;
  v.bytes(1, tag).message(5, histo);
  return one_value(v);
}

// The text plugin's data: a DT_STRING tensor of shape [1] under `<tag>/text_summary`, with
// metadata plugin "text" and TextPluginData { int32 version = 1; } = 0 (empty) as content.
// TensorProto { DataType dtype = 1 (DT_STRING = 7); TensorShapeProto tensor_shape = 2;
// repeated bytes string_val = 8; }, TensorShapeProto { repeated Dim dim = 2; },
// Dim { int64 size = 1; }
std::string text_summary(const std::string& tag, const std::string& text) {
  ProtoWriter dim, shape, tensor;
  dim.varint(1, 1);
  shape.message(2, dim);
  tensor.varint(1, 7).message(2, shape).bytes(8, text);
  ProtoWriter v;
  v.bytes(1, tag + "/text_summary").message(8, tensor).message(9, plugin_metadata("text", ""));
  return one_value(v);
}

// HParamsPluginData { int32 version = 1; Experiment experiment = 2;
//   SessionStartInfo session_start_info = 3; SessionEndInfo session_end_info = 4; }
// Experiment { repeated HParamInfo hparam_infos = 4; repeated MetricInfo metric_infos = 5; }
// HParamInfo { string name = 1; DataType type = 4 (STRING 1, BOOL 2, FLOAT64 3); }
// MetricInfo { MetricName name = 1; }, MetricName { string tag = 2; }
// SessionStartInfo { map<string, google.protobuf.Value> hparams = 1; } (entries: key = 1,
// value = 2), Value { double number_value = 2; string string_value = 3; bool bool_value = 4; }
// SessionEndInfo { Status status = 1 (STATUS_SUCCESS = 1); }
// Each is a Value with only metadata (plugin "hparams"), tagged as the plugin expects.
std::vector<std::string> hparams_summaries(const std::map<std::string, HParamValue>& hparams,
                                           const std::vector<std::string>& metric_tags) {
  ProtoWriter experiment, start;
  for (const auto& [name, value] : hparams) {
    ProtoWriter info, entry, proto_value;
    switch (value.kind()) {
      case HParamValue::Kind::Number:
        info.bytes(1, name).varint(4, 3);
        proto_value.float64(2, value.number());
        break;
      case HParamValue::Kind::String:
        info.bytes(1, name).varint(4, 1);
        proto_value.bytes(3, value.string());
        break;
      case HParamValue::Kind::Bool:
        info.bytes(1, name).varint(4, 2);
        proto_value.varint(4, value.boolean() ? 1 : 0);
        break;
    }
    experiment.message(4, info);
    entry.bytes(1, name).message(2, proto_value);
    start.message(1, entry);
  }
  for (const std::string& tag : metric_tags) {
    ProtoWriter metric_name, info;
    metric_name.bytes(2, tag);
    info.message(1, metric_name);
    experiment.message(5, info);
  }
  ProtoWriter end;
  end.varint(1, 1);
  std::vector<std::string> out;
  const std::pair<const char*, std::pair<int, const ProtoWriter*>> parts[] = {
      {"_hparams_/experiment", {2, &experiment}},
      {"_hparams_/session_start_info", {3, &start}},
      {"_hparams_/session_end_info", {4, &end}}};
  for (const auto& [tag, part] : parts) {
    ProtoWriter data;
    data.varint(1, 0).message(part.first, *part.second);
    ProtoWriter v;
    v.bytes(1, tag).message(9, plugin_metadata("hparams", data.str()));
    out.push_back(one_value(v));
  }
  return out;
}

}  // namespace brasa::tensorboard::detail
