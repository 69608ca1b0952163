// `trainscope-cli verify-repro`: train K steps twice from the same config and seed (or the same
// checkpoint) and compare losses and final weights (core/train/probes/repro.h).
#include <string.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "cli/signal_watcher.h"
#include "core/config/config_json.h"
#include "core/system/number_format.h"
#include "core/system/cancel.h"
#include "core/train/probes/repro.h"

namespace trainscope::cli {

void CompareSource::addOptions(CLI::App* sub, bool with_checkpoint, int64_t default_steps) {
  steps = default_steps;
  sub->add_option("--preset", preset, "Built-in preset to start from (see `presets`)");
  nonEmptyPath(sub->add_option("--config", config_file, "JSON config file (may be partial)"));
  if (with_checkpoint)
    nonEmptyPath(
        sub->add_option("--checkpoint", checkpoint,
                        "Start both runs from this checkpoint (its config is used; no --set)"));
  sub->add_option("--set", sets, "KEY=VALUE override, repeatable")
      ->allow_extra_args(false)
      ->type_name("KEY=VALUE");
  sub->add_option("--steps", steps,
                  "Optimizer steps per run (default " + std::to_string(default_steps) + ")")
      ->check(CLI::Range(int64_t{1}, int64_t{100'000'000}));
}

namespace {

/// The request of a CompareSource; throws Error(Config) for conflicting options.
CompareRequest requestFrom(const CompareSource& s, bool amp) {
  CompareRequest req;
  req.steps = s.steps;
  req.rounds = s.rounds;
  if (!s.checkpoint.empty()) {
    if (!s.preset.empty() || !s.config_file.empty() || !s.sets.empty())
      throw Error(ErrorCode::Config, "--checkpoint",
                  "--checkpoint takes its config from the checkpoint: --preset, --config and "
                  "--set cannot accompany it");
    req.checkpoint = s.checkpoint;
  } else {
    req.config = resolveConfig(s.preset, s.config_file, s.sets);
  }
  req.progress = [steps = s.steps, runs = amp ? 2 * s.rounds : 2, amp](int run, int64_t step) {
    if (step == 1)
      std::fprintf(stderr, "run %d of %d%s: %lld steps...\n", run + 1, runs,
                   !amp ? "" : compareAmpRunIsAmp(run) ? " (AMP)" : " (float32)", (long long)steps);
  };
  return req;
}

/// Runs `compare` (verifyRepro or compareAmp) on `req` with Ctrl-C / SIGTERM handled as in
/// `train`: the first signal ends the runs at their next step (and a load in progress at its
/// next chunk). Returns nullopt after an interrupt, having said so on stderr (exit 130).
template <class Report, class Compare>
std::optional<Report> runInterruptible(const char* command, CompareRequest req, Compare&& compare) {
  SignalWatcher::blockSignals();
  std::atomic<bool> cancel{false};
  SignalWatcher watcher([&](int sig) {
    requestCancel();
    cancel = true;
    std::fprintf(stderr, "\n%s received: stopping %s after the current step\n", strsignal(sig),
                 command);
    std::fflush(stderr);
  });
  req.cancel = &cancel;
  std::optional<Report> report;
  try {
    report = compare(req);
  } catch (const Error&) {
    if (!watcher.interrupted()) throw;  // bad input: exit 2 in runCli
  }
  watcher.stop();
  if (!watcher.interrupted()) return report;
  std::fprintf(stderr, "%s: %s interrupted: no result\n", kProgram, command);
  return std::nullopt;
}

nlohmann::json numbers(const std::vector<double>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (double x : v) a.push_back(std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr));
  return a;
}

}  // namespace

VerifyReproCommand::VerifyReproCommand(CLI::App& app)
    : sub_(app.add_subcommand("verify-repro",
                              "Train K steps twice from the same config and seed (or checkpoint) "
                              "and check that losses and weights are bitwise identical. Exit 0 "
                              "identical, 4 different, 2 bad input")) {
  source_.addOptions(sub_, /*with_checkpoint=*/true, 100);
  sub_->add_flag("--json", json_, "Print the report as JSON on stdout");
}

bool VerifyReproCommand::parsed() const { return sub_->parsed(); }

int VerifyReproCommand::run() const {
  const auto report = runInterruptible<ReproReport>(
      "verify-repro", requestFrom(source_, false),
      [](const CompareRequest& q) { return verifyRepro(q); });  // Error -> exit 2 in runCli
  if (!report) return kExitInterrupted;
  const ReproReport& r = *report;
  if (json_) {
    nlohmann::json j = {{"verdict", r.verdict},
                        {"identical", r.identical},
                        {"steps_requested", r.steps_requested},
                        {"steps_compared", r.steps_compared},
                        {"max_loss_diff", r.max_loss_diff},
                        {"max_weight_diff", r.max_weight_diff},
                        {"seeded", r.seeded},
                        {"seeds", {r.seed_a, r.seed_b}},
                        {"threads", r.threads},
                        {"amp", r.amp},
                        {"deterministic", r.deterministic},
                        {"device", r.device},
                        {"cause_codes", r.cause_codes},
                        {"causes", r.causes},
                        {"losses_a", numbers(r.losses_a)},
                        {"losses_b", numbers(r.losses_b)}};
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("steps compared  %lld of %lld\n", (long long)r.steps_compared,
                (long long)r.steps_requested);
    std::printf("seeds           %lld and %lld%s\n", (long long)r.seed_a, (long long)r.seed_b,
                r.seeded ? "" : " (unseeded: each run drew its own)");
    std::printf("device          %s, %d thread%s, AMP %s, deterministic %s\n", r.device.c_str(),
                r.threads, r.threads == 1 ? "" : "s", r.amp ? "on" : "off",
                r.deterministic ? "on" : "off");
    std::printf("max |dloss|     %s\n", formatNumber(r.max_loss_diff).c_str());
    std::printf("max |dweight|   %s\n", formatNumber(r.max_weight_diff).c_str());
    std::printf("verdict         %s\n", r.verdict.c_str());
    if (!r.causes.empty()) {
      std::printf("likely causes:\n");
      for (const auto& c : r.causes) std::printf("  - %s\n", c.c_str());
    }
  }
  std::fflush(stdout);
  return r.identical ? kExitOk : kExitDiffers;
}

AmpCompareCommand::AmpCompareCommand(CLI::App& app)
    : sub_(app.add_subcommand("amp-compare",
                              "Train N steps with AMP off and on from the same seed and compare "
                              "loss curves and samples/s")) {
  source_.addOptions(sub_, /*with_checkpoint=*/false, 200);
  source_.rounds = 3;
  sub_->add_option("--rounds", source_.rounds,
                   "Timing rounds, each a float32 and an AMP run, alternating which goes first "
                   "(default 3); the speed-up is their median, shown with its spread")
      ->check(CLI::Range(1, CompareRequest::kMaxRounds));
  sub_->add_flag("--json", json_, "Print the report (with both loss curves) as JSON on stdout");
}

bool AmpCompareCommand::parsed() const { return sub_->parsed(); }

int AmpCompareCommand::run() const {
  const auto report = runInterruptible<AmpCompareReport>(
      "amp-compare", requestFrom(source_, true), [](const CompareRequest& q) { return compareAmp(q); });
  if (!report) return kExitInterrupted;
  const AmpCompareReport& r = *report;
  if (json_) {
    nlohmann::json j = {{"steps", r.steps},
                        {"device", r.device},
                        {"amp_kind", r.amp_kind},
                        {"threads", r.threads},
                        {"seed", r.seed},
                        {"max_loss_diff", r.max_loss_diff},
                        {"mean_loss_diff", r.mean_loss_diff},
                        {"timed_steps", r.timed_steps},
                        {"samples_per_second_fp32", r.samples_per_second_fp32},
                        {"samples_per_second_amp", r.samples_per_second_amp},
                        {"speedup", r.speedup},
                        {"speedups", numbers(r.speedups)},
                        {"rounds", r.rounds},
                        {"speedup_low", r.speedup_spread.low},
                        {"speedup_high", r.speedup_spread.high},
                        {"speedup_spread", r.speedup_spread.spread},
                        {"busy", r.speedup_spread.busy},
                        {"explanation", r.explanation},
                        {"loss_fp32", numbers(r.loss_fp32)},
                        {"loss_amp", numbers(r.loss_amp)}};
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("steps           %lld (seed %lld, %s, %d thread%s)\n", (long long)r.steps,
              (long long)r.seed, r.device.c_str(), r.threads, r.threads == 1 ? "" : "s");
  std::printf("AMP             %s\n", r.amp_kind.c_str());
  std::printf("%8s  %12s  %12s\n", "step", "loss fp32", "loss AMP");
  const size_t n = std::min(r.loss_fp32.size(), r.loss_amp.size());
  const size_t stride = std::max<size_t>(1, n / 10);
  for (size_t i = 0; i < n; i += stride)
    std::printf("%8zu  %12s  %12s\n", i + 1, formatSignificant(r.loss_fp32[i], 6).c_str(),
                formatSignificant(r.loss_amp[i], 6).c_str());
  if (n > 0 && (n - 1) % stride != 0)
    std::printf("%8zu  %12s  %12s\n", n, formatSignificant(r.loss_fp32[n - 1], 6).c_str(),
                formatSignificant(r.loss_amp[n - 1], 6).c_str());
  std::printf("|loss diff|     max %s, mean %s\n", formatNumber(r.max_loss_diff).c_str(),
              formatNumber(r.mean_loss_diff).c_str());
  if (r.timed_steps > 0) {
    const RateSpread& sp = r.speedup_spread;
    std::printf("samples/s       fp32 %.0f, AMP %.0f (medians of %d round%s, %lld timed steps "
                "each)\n",
                r.samples_per_second_fp32, r.samples_per_second_amp, r.rounds,
                r.rounds == 1 ? "" : "s", (long long)r.timed_steps);
    if (sp.busy)
      std::printf("speed-up        %.2fx to %.2fx over %d rounds (spread %.0f%%: machine busy, no "
                  "single figure)\n",
                  sp.low, sp.high, sp.rounds, 100 * sp.spread);
    else if (sp.rounds > 1)
      std::printf("speed-up        %.2fx (median; rounds %.2fx to %.2fx, spread %.0f%%)\n",
                  r.speedup, sp.low, sp.high, 100 * sp.spread);
    else
      std::printf("speed-up        %.2fx (1 round: no spread measured)\n", r.speedup);
  } else {
    std::printf("samples/s       too small to time\n");
  }
  std::printf("\n%s\n", r.explanation.c_str());
  return kExitOk;
}

}  // namespace trainscope::cli
