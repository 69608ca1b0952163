#include "core/sweep/trials_log.h"

#include <sstream>

#include "core/errors.h"
#include "core/io/file_read.h"

namespace trainscope {

nlohmann::json toJson(const TrialLine& t) {
  nlohmann::json j = {{"trial", t.trial}, {"state", t.state}, {"values", t.values},
                      {"run", t.run},     {"attempt", t.attempt}, {"config", t.config}};
  if (t.objective) j["objective"] = *t.objective;
  if (!t.run_status.empty()) j["run_status"] = t.run_status;
  if (t.exit_code) j["exit_code"] = *t.exit_code;
  if (!t.error.empty()) j["error"] = t.error;
  if (!t.reason.empty()) j["reason"] = t.reason;
  if (t.pruned_epoch) j["pruned_epoch"] = *t.pruned_epoch;
  if (!t.resume_from.empty()) j["resume_from"] = t.resume_from;
  if (t.pid) j["pid"] = *t.pid;
  if (!t.slurm_job_id.empty()) j["slurm_job_id"] = t.slurm_job_id;
  if (t.seconds > 0) j["seconds"] = t.seconds;
  if (!t.time.empty()) j["time"] = t.time;
  return j;
}

TrialLine trialLineFromJson(const nlohmann::json& j) {
  TrialLine t;
  t.trial = j.at("trial").get<int64_t>();
  t.state = j.at("state").get<std::string>();
  t.values = j.at("values");
  t.run = j.at("run").get<std::string>();
  t.attempt = j.value("attempt", 1);
  t.config = j.value("config", t.trial);
  if (j.contains("objective") && j["objective"].is_number())
    t.objective = j["objective"].get<double>();
  t.run_status = j.value("run_status", "");
  if (j.contains("exit_code")) t.exit_code = j["exit_code"].get<int>();
  t.error = j.value("error", "");
  t.reason = j.value("reason", "");
  if (j.contains("pruned_epoch")) t.pruned_epoch = j["pruned_epoch"].get<int64_t>();
  t.resume_from = j.value("resume_from", "");
  if (j.contains("pid")) t.pid = j["pid"].get<int64_t>();
  t.slurm_job_id = j.value("slurm_job_id", "");
  t.seconds = j.value("seconds", 0.0);
  t.time = j.value("time", "");
  return t;
}

std::map<int64_t, TrialLine> readTrialsLog(const std::filesystem::path& file) {
  std::map<int64_t, TrialLine> trials;
  std::istringstream in(readRegularFile(file));
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    try {
      TrialLine t = trialLineFromJson(nlohmann::json::parse(line));
      const int64_t n = t.trial;
      trials[n] = std::move(t);
    } catch (const nlohmann::json::exception&) {
      // a torn line: the state before it stands
    }
  }
  return trials;
}

}  // namespace trainscope
