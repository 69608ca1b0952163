// `trainscope-cli export RUN --format onnx|torchscript`: a run's model for other runtimes
// (core/export/export_model.h).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "core/export/export_model.h"

namespace trainscope::cli {

ExportCommand::ExportCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "export",
          "Export a run's checkpoint as ONNX (opset 13; mlp and cnn models) or TorchScript (every "
          "model kind), with a model card beside it (FILE.model-card.md and .json); nothing in the "
          "run folder changes")) {
  nonEmptyPath(sub_->add_option("run", run_, "A run folder")->required());
  sub_->add_option("--format", format_, "onnx or torchscript")->required();
  sub_->add_option("--checkpoint", checkpoint_,
                   "best (checkpoints/best.pt, the lowest validation loss; the default) or last");
  nonEmptyPath(sub_->add_option("-o,--output", output_,
                                "The file to write (default: RUN-NAME-best.onnx or .pt in the "
                                "working directory); a file TrainScope did not write is never "
                                "replaced"));
  sub_->add_flag("--raw-input", raw_input_,
                 "Leave the run's preprocessing out: the export takes standardised inputs, not "
                 "the values as stored (pixels 0-255)");
  sub_->add_flag("--softmax", softmax_, "Append softmax over dim 1: outputs are class probabilities");
}

bool ExportCommand::parsed() const { return sub_->parsed(); }

int ExportCommand::run() const {
  ExportRequest request;
  request.run = run_;
  request.format = format_;
  request.checkpoint = checkpoint_;
  request.output = output_;
  request.raw_input = raw_input_;
  request.softmax = softmax_;
  const ExportResult r = exportModel(request);  // Error: exit 2 (or 1 for a failed write)
  std::printf("wrote %s\n  from %s (epoch %lld, step %lld)\n  model card %s\n  and %s\n",
              r.file.c_str(), r.checkpoint.c_str(), static_cast<long long>(r.epoch),
              static_cast<long long>(r.step), r.card_markdown.c_str(), r.card_json.c_str());
  for (const std::string& n : r.notes) std::fprintf(stderr, "%s: warning: %s\n", kProgram, n.c_str());
  if (r.self_check)
    std::printf("  read back with torch::jit::load: largest difference from the run's model %.3g\n",
                *r.self_check);
  return kExitOk;
}

}  // namespace trainscope::cli
