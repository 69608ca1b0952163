#pragma once
/// Starting a sweep from the dashboard (File > New sweep..., a lesson's "sweep" action): the
/// sweep file and its base config are written beside the sweep folder in the runs folder, and
/// `trainscope-cli sweep FILE --out DIR` runs it as a process of its own (the one writer of the
/// folder; it goes on when the dashboard closes, and `sweep --resume DIR` continues it).
#include <QString>
#include <nlohmann/json.hpp>

namespace trainscope {

/// The trainscope-cli named by $TRAINSCOPE_CLI, else the one beside this program (installed:
/// the same bin folder; the build tree: ../cli), else on PATH; empty when there is none.
QString findTrainscopeCli();

/// A sweep to start: the sweep file's fields except "base" (name, parameters, method, ...),
/// and the config every trial starts from.
struct SweepLaunch {
  nlohmann::json sweep;   ///< {"name": ..., "parameters": {...}, "method": ..., ...}
  nlohmann::json config;  ///< the base config (configToJson of the current settings)
};

/// Checks `launch` as `trainscope-cli sweep` would (parseSweep: an error names the key), writes
/// ROOT/NAME.sweep.json and ROOT/NAME.config.json (NAME made unique among ROOT's entries), and
/// starts `trainscope-cli sweep ROOT/NAME.sweep.json --out ROOT/NAME`, its output in
/// ROOT/NAME.sweep.log. Returns the sweep folder; empty with `error` (the key and the problem,
/// or why the CLI could not start) when nothing was started.
QString startSweepProcess(const SweepLaunch& launch, const QString& root, QString* error);

}  // namespace trainscope
