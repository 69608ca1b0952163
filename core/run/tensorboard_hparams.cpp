#include "core/run/tensorboard_hparams.h"

#include "core/io/tfevents_writer.h"

namespace trainscope::hparams {
namespace {

/// google.protobuf.Value.
ProtoMessage value(const nlohmann::json& v) {
  ProtoMessage m;
  if (v.is_boolean()) return m.varint(4, v.get<bool>() ? 1 : 0);
  if (v.is_number()) return m.doubleField(2, v.get<double>());
  if (v.is_string()) return m.bytesField(3, v.get<std::string>());
  return m.bytesField(3, v.dump());
}

/// HParamsPluginData {version 0 (the default: not written), <field> message}.
std::string pluginData(int field, const ProtoMessage& message) {
  ProtoMessage data;
  data.message(field, message);
  return data.bytes;
}

}  // namespace

std::string epochTag(const std::string& column) {
  if (column == "train_loss") return "train/epoch_loss";
  if (column == "train_accuracy") return "train/accuracy";
  for (const char* c : {"val_loss", "val_accuracy", "val_r2", "val_mae", "val_rmse"})
    if (column == c) return "val/" + column.substr(4);
  return "";
}

std::string experimentContent(const std::vector<HParamSpec>& hparams,
                              const std::vector<std::string>& metric_tags, double time_created) {
  ProtoMessage experiment;
  experiment.doubleField(3, time_created);
  for (const HParamSpec& h : hparams) {
    ProtoMessage info;  // HParamInfo {name 1, type 4, domain_interval 5 | domain_discrete 6}
    info.bytesField(1, h.name);
    if (h.interval) {
      ProtoMessage interval;
      interval.doubleField(1, h.interval->first).doubleField(2, h.interval->second);
      info.varint(4, 3).message(5, interval);  // DATA_TYPE_FLOAT64
    } else {
      bool numbers = true, bools = true;
      for (const auto& v : h.values) {
        numbers = numbers && v.is_number();
        bools = bools && v.is_boolean();
      }
      ProtoMessage list;  // ListValue {values 1}
      for (const auto& v : h.values) list.message(1, value(v));
      info.varint(4, numbers ? 3 : bools ? 2 : 1).message(6, list);
    }
    experiment.message(4, info);
  }
  for (const std::string& tag : metric_tags) {
    ProtoMessage name;  // MetricName {group 1, tag 2}
    name.bytesField(2, tag);
    ProtoMessage info;  // MetricInfo {name 1}
    info.message(1, name);
    experiment.message(5, info);
  }
  return pluginData(2, experiment);
}

std::string sessionStartContent(const nlohmann::json& hparams, const std::string& group,
                                double start_time) {
  ProtoMessage start;  // SessionStartInfo {hparams 1 (map), group_name 4, start_time_secs 5}
  for (const auto& [key, v] : hparams.items()) {
    ProtoMessage entry;  // map entry {key 1, value 2}
    entry.bytesField(1, key).message(2, value(v));
    start.message(1, entry);
  }
  if (!group.empty()) start.bytesField(4, group);
  start.doubleField(5, start_time);
  return pluginData(3, start);
}

std::string sessionEndContent(Status status, double end_time) {
  ProtoMessage end;  // SessionEndInfo {status 1, end_time_secs 2}
  end.varint(1, static_cast<uint64_t>(status)).doubleField(2, end_time);
  return pluginData(4, end);
}

}  // namespace trainscope::hparams
