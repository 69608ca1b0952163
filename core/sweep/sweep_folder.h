#pragma once
/// The sweep folder's pieces the orchestrator (orchestrator.h) uses: trial folder names, a
/// finished trial's objective and error, the checks before a sweep starts, and TensorBoard's
/// HParams experiment. Include only from core/sweep. Torch-free.
#include <filesystem>
#include <optional>
#include <string>

#include "core/run/run_table.h"
#include "core/sweep/sweep_file.h"

namespace trainscope {

/// The CPU cores this process may run on (its affinity).
int affinityCores();
/// A value as a folder name's part: numbers with 4 significant digits, lists joined by "-",
/// a file by its name.
std::string shortValue(const nlohmann::json& v);
/// "NNN-key=value,key=value": the last part of each key (the whole key where two end alike),
/// characters a shell and a file manager take as they are, at most 80 characters.
std::string trialFolderName(int64_t trial, const TrialValues& values);
/// `base`, or `base-2`, `base-3`, ... : the first name not taken in `dir`.
std::string freeName(const std::filesystem::path& dir, const std::string& base);
/// The run-table column `metric` of a finished trial's run, when it is a finite number.
std::optional<double> objectiveOf(const RunRow& row, const std::string& metric);
/// The last line of `log` that says "error" (what a failed trial printed), trimmed.
std::string lastError(const std::filesystem::path& log);
/// The files a trial's config names (the keys "path" and "*_path" that apply to its data source
/// and model kind) exist; throws Error(Config, key) naming the missing one.
void checkTrialFiles(const nlohmann::json& config, const TrialValues& values);
/// TensorBoard's HParams experiment (the varied keys and their domains, the objective's tag)
/// in the sweep folder's own event file, when the base config writes TensorBoard files.
void writeExperiment(const SweepSpec& spec, const std::filesystem::path& dir);
/// True when `dir` does not exist or is an empty folder.
bool emptyOrMissing(const std::filesystem::path& dir);

}  // namespace trainscope
