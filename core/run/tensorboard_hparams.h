#pragma once
/// TensorBoard's HParams dashboard records (tensorboard/plugins/hparams/plugin_data.proto and
/// api.proto), written as the plugin's Python writer writes them (hparams/summary.py): summaries
/// tagged "_hparams_/experiment", "_hparams_/session_start_info" and
/// "_hparams_/session_end_info" of plugin "hparams", each holding an HParamsPluginData (version
/// 0). A sweep writes the experiment into its folder's event file; each trial's run writes its
/// session start (its hparams, grouped by configuration) and end (its status). Torch-free.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace trainscope::hparams {

inline constexpr const char* kPlugin = "hparams";
inline constexpr const char* kExperimentTag = "_hparams_/experiment";
inline constexpr const char* kSessionStartTag = "_hparams_/session_start_info";
inline constexpr const char* kSessionEndTag = "_hparams_/session_end_info";

/// The event-file tag of a metrics.csv column the run writer writes each epoch ("val_loss" ->
/// "val/loss", "train_loss" -> "train/epoch_loss"); "" for any other.
std::string epochTag(const std::string& column);

/// api.proto's Status.
enum class Status { Unknown = 0, Success = 1, Failure = 2, Running = 3 };

/// One hyperparameter of an experiment: an interval, or its discrete values.
struct HParamSpec {
  std::string name;
  std::optional<std::pair<double, double>> interval;
  std::vector<nlohmann::json> values;
};

/// HParamsPluginData {experiment {time_created_secs, hparam_infos, metric_infos}}; the metrics
/// by their event-file tags ("val/loss").
std::string experimentContent(const std::vector<HParamSpec>& hparams,
                              const std::vector<std::string>& metric_tags, double time_created);
/// HParamsPluginData {session_start_info {hparams, group_name, start_time_secs}}: numbers as
/// number_value, booleans as bool_value, strings as string_value, lists as their JSON text.
std::string sessionStartContent(const nlohmann::json& hparams, const std::string& group,
                                double start_time);
/// HParamsPluginData {session_end_info {status, end_time_secs}}.
std::string sessionEndContent(Status status, double end_time);

}  // namespace trainscope::hparams
