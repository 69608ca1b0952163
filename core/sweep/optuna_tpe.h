#pragma once
/// The `tpe` method: Optuna's TPESampler through Optuna's own command line (`optuna ask` and
/// `optuna tell`, Debian's python3-optuna) against a storage file in the sweep folder that the
/// sweep alone writes (sqlite:///DIR/optuna.db). Torch-free.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "core/sweep/sweep_file.h"

namespace trainscope {

/// The `optuna` program on PATH, or nullopt when Debian's python3-optuna is not installed.
std::optional<std::filesystem::path> findOptuna();

class OptunaTpe {
 public:
  /// The study `spec.name` in `dir`/optuna.db (created by the first ask), the sampler seeded
  /// with spec.seed, the direction spec's goal. Throws Error(Config, "method") when Optuna is
  /// not installed.
  OptunaTpe(const SweepSpec& spec, std::filesystem::path dir);
  /// `optuna ask` with the sweep's space (choices as a categorical over their indices, mapped
  /// back; uniform / log_uniform as FloatDistribution, int_uniform as IntDistribution): the
  /// new trial's number and values. Each `optuna ask` is a new process with a new sampler, so
  /// the sampler is seeded with spec.seed + `next` (the number the trial will get): the same
  /// seed for every ask would draw the same startup trial each time. Throws Error(Io,
  /// "optuna") with Optuna's message on failure.
  std::pair<int64_t, TrialValues> ask(int64_t next);
  /// `optuna tell --skip-if-finished`: `value` for a completed trial (or a pruned one, state
  /// pruned), none for a failed one (state fail). Throws Error(Io, "optuna").
  void tell(int64_t number, const std::string& state, std::optional<double> value);

 private:
  std::string run(const std::vector<std::string>& args);
  const SweepSpec& spec_;
  std::filesystem::path dir_;
  std::filesystem::path optuna_;
};

}  // namespace trainscope
