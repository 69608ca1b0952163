#include "gui/event_text.h"

#include <QCoreApplication>
#include <QLocale>

#include <QStringList>
#include <cmath>

#include "gui/finding_text.h"
#include "gui/tr.h"

namespace trainscope {

QString EventText::number(double value) {
  if (std::isnan(value)) return QStringLiteral("nan");
  if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  return QString::number(value, 'g', 4);
}

QString EventText::quantity(const std::string& what) {
  if (what == "loss") return Tr::tr("loss");
  if (what == "grad_norm") return Tr::tr("gradient norm");
  if (what == "val_loss") return Tr::tr("validation loss");
  if (what.empty()) return Tr::tr("value");
  return QString::fromStdString(what);
}

QString EventText::mistake(const std::string& name) {
  if (name == "no_zero_grad") return Tr::tr("Forget optimizer.zero_grad()");
  if (name == "step_before_backward") return Tr::tr("Call optimizer.step() before backward()");
  if (name == "eval_in_train_mode") return Tr::tr("Validate without model.eval()");
  if (name == "val_with_grad") return Tr::tr("Validate without torch.no_grad()");
  if (name == "shuffled_labels") return Tr::tr("Shuffle the labels against the inputs");
  if (name == "lr_x1000") return Tr::tr("Learning rate x1000");
  if (name == "lr_x1e-6") return Tr::tr("Learning rate x1e-6");
  if (name == "augment_validation") return Tr::tr("Augment the validation images too");
  return QString::fromStdString(name);
}

QString EventText::mistakesBanner(const std::vector<std::string>& names) {
  if (names.empty()) return {};
  QStringList titles;
  for (const std::string& n : names) titles << mistake(n);
  return Tr::tr("TEACHING – mistakes on purpose: %1").arg(titles.join(Tr::tr(", ")));
}

QString EventText::diagnosisKind(const std::string& kind) {
  if (kind == "accumulating")
    return Tr::tr("the gradients accumulate step after step (zero_grad missing?)");
  if (kind == "diverging") return Tr::tr("the loss is diverging: the updates are too large");
  if (kind == "no_signal") return Tr::tr("the data carries no signal (labels misaligned?)");
  if (kind == "flat") return Tr::tr("the loss is flat from the start");
  if (kind == "plateau") return Tr::tr("the loss fell, then stalled at a plateau");
  if (kind == "overfitting") return Tr::tr("overfitting");
  if (kind == "healthy") return Tr::tr("training looks healthy");
  return Tr::tr("too early to tell");
}

QString EventText::stopReason(StopReason reason) {
  switch (reason) {
    case StopReason::Completed:
      return Tr::tr("completed");
    case StopReason::Stopped:
      return Tr::tr("stopped by the user");
    case StopReason::NonFinite:
      return Tr::tr("stopped on a non-finite value");
    case StopReason::EarlyStop:
      return Tr::tr("early stopping");
    case StopReason::Interrupted:
      return Tr::tr("interrupted");
    case StopReason::Error:
      return Tr::tr("failed");
    case StopReason::Diverged:
      return Tr::tr("stopped: the training diverged");
    case StopReason::Pruned:
      return Tr::tr("pruned by its sweep");
  }
  return QString();
}

QString EventText::forEvent(const Event& e, Severity* severity) {
  Severity s = Severity::Info;
  QString text;
  const qlonglong step = e.step;
  if (e.kind == EventKind::RunStarted || e.kind == EventKind::Finished) {
    text.clear();
  } else if (e.kind == EventKind::Paused) {
    text = Tr::tr("Paused after step %1 (epoch %2).").arg(step).arg(e.epoch);
  } else if (e.kind == EventKind::Resumed) {
    text = Tr::tr("Resumed at step %1.").arg(step);
  } else if (e.kind == EventKind::Stopped && e.message.rfind("pruned", 0) == 0) {
    // a sweep's pruner stopped the trial (StopReason::Pruned); its rule and numbers are in the
    // sweep's trials.jsonl and the run's events.jsonl
    text = Tr::tr("Pruned by its sweep at step %1: its objective so far was worse than the "
                  "other trials' (the rule and its numbers are in events.jsonl).")
               .arg(step);
  } else if (e.kind == EventKind::Stopped) {
    text = Tr::tr("Stopped at step %1.").arg(step);
  } else if (e.kind == EventKind::NonFinite) {
    s = Severity::Warning;
    // The likely causes come from the run's actual settings (core's Findings, worded here).
    const QString what = quantity(e.what);
    const QString value = e.value ? number(*e.value) : QStringLiteral("nan");
    text = Tr::tr("Non-finite %1 (%2) at step %3.").arg(what, value).arg(step);
    if (e.evidence && !e.evidence->causes.empty()) {
      QStringList causes;
      for (const Finding& c : e.evidence->causes) causes << FindingText::text(c);
      text = FindingText::joinSentences(
          {text, Tr::tr("Likely causes: %1").arg(FindingText::joinSentences(causes))});
    }
  } else if (e.kind == EventKind::Diverged) {
    s = Severity::Warning;
    text = e.what == "val_accuracy"
               ? Tr::tr(
                     "The run diverged at epoch %1: validation accuracy (%2) has stayed at "
                     "chance level for 3 epochs. Lower the learning rate.")
                     .arg(e.epoch)
                     .arg(e.value ? number(*e.value) : QStringLiteral("?"))
           : e.evidence && e.evidence->clip_enabled
               ? Tr::tr(
                     "The run diverged at epoch %1: the training loss (%2) is over 10,000 "
                     "times the first epoch's although clipping is on (max norm %3). Lower the "
                     "learning rate or max_norm.")
                     .arg(e.epoch)
                     .arg(e.value ? number(*e.value) : QStringLiteral("?"))
                     .arg(number(e.evidence->max_norm))
               : Tr::tr(
                     "The run diverged at epoch %1: the training loss (%2) is over 10,000 "
                     "times the first epoch's. Lower the learning rate or turn on gradient "
                     "clipping.")
                     .arg(e.epoch)
                     .arg(e.value ? number(*e.value) : QStringLiteral("?"));
  } else if (e.kind == EventKind::ClipWarning) {
    s = Severity::Warning;
    text = e.what == "clip_never_fires"
               ? Tr::tr(
                     "Gradient clipping never fires: for 200 steps every gradient norm stayed "
                     "under a tenth of max_norm (largest %1). Lower max_norm to act on spikes.")
                     .arg(e.value ? number(*e.value) : QStringLiteral("?"))
               : Tr::tr(
                     "Gradient clipping fired on %1 % of the last 100 steps, so it acts as a "
                     "fixed step size. Try a lower learning rate or a larger max_norm.")
                     .arg(e.value ? QString::number(*e.value * 100, 'f', 0) : QStringLiteral("?"));
  } else if (e.kind == EventKind::Diagnosis) {
    text = Tr::tr("Diagnosis at epoch %1: %2").arg(e.epoch).arg(diagnosisKind(e.what));
  } else if (e.kind == EventKind::RolledBack) {
    if (e.what == "failed") {
      s = Severity::Warning;
      text = Tr::tr("No snapshot to roll back to: nothing was restored.");
    } else {
      text = Tr::tr("Rolled back to the snapshot at step %1.")
                 .arg(e.value ? static_cast<qlonglong>(*e.value) : 0);
    }
  } else if (e.kind == EventKind::EarlyStop) {
    // e.what is "best_" + training.monitor (issue 43): the metric that stopped improving.
    const QString metric = e.what == "best_val_accuracy" ? Tr::tr("the validation accuracy")
                           : e.what == "best_val_r2"     ? Tr::tr("the validation R²")
                           : e.what == "best_val_mae"    ? Tr::tr("the validation MAE")
                           : e.what == "best_val_rmse"   ? Tr::tr("the validation RMSE")
                                                         : Tr::tr("the validation loss");
    text = Tr::tr("Early stopping at epoch %1: %2 stopped improving.").arg(e.epoch).arg(metric);
  } else if (e.kind == EventKind::Overfitting) {
    s = Severity::Warning;
    // The event's value is the onset (the best validation epoch); it is seen `patience` later.
    const qlonglong onset = e.value ? static_cast<qlonglong>(*e.value) : e.epoch;
    text = Tr::tr(
               "Overfitting since epoch %1 (seen at epoch %2): the validation loss has risen "
               "since then while the training loss falls.")
               .arg(onset)
               .arg(e.epoch);
  } else if (e.kind == EventKind::CheckpointSaved) {
    text = e.file.empty() ? Tr::tr("Checkpoint saved at step %1.").arg(step)
                          : Tr::tr("Checkpoint saved at step %1: %2")
                                .arg(step)
                                .arg(QString::fromStdString(e.file));
  } else if (e.kind == EventKind::CheckpointLoaded && e.what == "source_run_missing") {
    s = Severity::Warning;
    text = Tr::tr(
               "The run folder of checkpoint %1 was not found: the per-step curves before step "
               "%2 are missing (the per-epoch curves come from the checkpoint).")
               .arg(QString::fromStdString(e.file))
               .arg(step);
  } else if (e.kind == EventKind::CheckpointLoaded) {
    text = Tr::tr("Continuing from checkpoint %2 at step %1 (epoch %3 completed).")
               .arg(step)
               .arg(QString::fromStdString(e.file))
               .arg(e.epoch);
  } else if (e.kind == EventKind::WeightsImported) {
    text = Tr::tr("Initial weights imported from %1 (%n tensor(s)).", nullptr,
                  e.value ? static_cast<int>(*e.value) : 0)
               .arg(QString::fromStdString(e.file));
  } else if (e.kind == EventKind::ConfigChanged && e.what == "training.amp" && e.value) {
    text = *e.value != 0 ? Tr::tr("AMP switched on after step %1: mixed precision from step %2.")
                               .arg(step)
                               .arg(e.step + 1)
                         : Tr::tr("AMP switched off after step %1: float32 from step %2.")
                               .arg(step)
                               .arg(e.step + 1);
  } else if (e.kind == EventKind::ConfigChanged) {
    text =
        Tr::tr("Setting changed at step %1: %2").arg(step).arg(QString::fromStdString(e.message));
  } else if (e.kind == EventKind::CheckpointFailed) {
    s = Severity::Warning;
    text = Tr::tr("Checkpoint not saved at step %1; the run goes on. Details: %2")
               .arg(step)
               .arg(QString::fromStdString(e.message));
  } else if (e.kind == EventKind::ValidationCost && e.values.size() == 4) {
    // teaching.mistakes val_with_grad: what forgetting torch.no_grad() costs, measured both ways.
    s = Severity::Warning;
    const auto mb = [](double bytes) {
      return std::isfinite(bytes) ? QString::number(std::max(bytes, 0.0) / 1e6, 'f', 1) : QStringLiteral("?");
    };
    const auto sec = [](double v) { return QString::number(v, 'g', 3); };
    text = std::isfinite(e.values[1])
               ? Tr::tr("Validation without torch.no_grad(): %1 s and %2 MB more memory while "
                        "every batch's graph is kept; the same pass under torch.no_grad(): %3 s "
                        "and %4 MB. Same numbers, more time and memory.")
                     .arg(sec(e.values[0]), mb(e.values[2]), sec(e.values[1]), mb(e.values[3]))
               : Tr::tr("Validation without torch.no_grad(): %1 s and %2 MB more memory while "
                        "every batch's graph is kept.")
                     .arg(sec(e.values[0]), mb(e.values[2]));
  } else if (e.kind == EventKind::AugmentedValidation && e.values.size() == 4) {
    // teaching.mistakes augment_validation: the augmented validation against a clean one.
    s = Severity::Warning;
    const auto num = [](double v) { return QString::number(v, 'g', 4); };
    const auto pct = [](double v) { return QString::number(100.0 * v, 'f', 1); };
    text = std::isfinite(e.values[2]) && std::isfinite(e.values[3])
               ? Tr::tr("Validation went through the training augmentation: validation loss %1 "
                        "against %2 on the clean images, accuracy %3% against %4%. Each epoch "
                        "draws other crops and flips, so this validation loss is noisy and too "
                        "high. Validate with the deterministic transforms only.")
                     .arg(num(e.values[0]), num(e.values[1]), pct(e.values[2]), pct(e.values[3]))
               : Tr::tr("Validation went through the training augmentation: validation loss %1 "
                        "against %2 on the clean images. Each epoch draws other crops and flips, "
                        "so this validation loss is noisy and too high. Validate with the "
                        "deterministic transforms only.")
                     .arg(num(e.values[0]), num(e.values[1]));
  } else if (e.kind == EventKind::Slowdown) {
    s = Severity::Warning;
    text = Tr::tr(
               "Epoch %1 trained at %2 samples/s, under a third of the rate measured at the "
               "start: another program is probably using the cores. A smaller "
               "training.num_threads may be faster next time.")
               .arg(e.epoch)
               .arg(e.value ? QString::number(*e.value, 'f', 0) : QStringLiteral("?"));
  } else if (e.kind == EventKind::MemoryWarning && e.what == "cuda_oom") {
    s = Severity::Error;
    text = Tr::tr("Out of GPU memory at step %1; the run is paused. %2")
               .arg(step)
               .arg(QString::fromStdString(e.message));
  } else if (e.kind == EventKind::MemoryWarning) {
    s = Severity::Warning;
    text = Tr::tr(
               "This run needs about %1 MB of memory, more than is available: it may swap or be "
               "killed. Lower the batch size (with gradient accumulation to keep the effective "
               "batch) or use a smaller model.")
               .arg(e.value ? *e.value / 1e6 : 0.0, 0, 'f', 0);
  } else if (e.kind == EventKind::DataWarning && e.what == "csv_header") {
    text = e.value.value_or(1) != 0
               ? Tr::tr("Data: line 1 of %1 was read as the header (the column names); if it is "
                        "a data row, set data.csv.header=no.")
                     .arg(QString::fromStdString(e.file))
               : Tr::tr("Data: %1 has no header: line 1 was read as data (the columns are named "
                        "\"column 1\", \"column 2\" ...); if line 1 names the columns, set "
                        "data.csv.header=yes.")
                     .arg(QString::fromStdString(e.file));
  } else if (e.kind == EventKind::DataWarning && e.what == "note") {
    s = e.message.find("skipped") != std::string::npos ? Severity::Warning : Severity::Info;
    const std::string note = e.message.rfind("data: ", 0) == 0 ? e.message.substr(6) : e.message;
    text = Tr::tr("Data: %1").arg(QString::fromStdString(note));
  } else if (e.kind == EventKind::DataWarning && e.what == "data_bound") {
    s = Severity::Warning;
    text = Tr::tr("Epoch %1 waited for its batches %2 % of its training time: the data loader, "
                  "not the model, sets the pace. Use more workers (data.workers) or cache the "
                  "data.")
               .arg(e.epoch)
               .arg(QLocale().toString(100.0 * e.value.value_or(0), 'f', 0));
  } else if (e.kind == EventKind::DataWarning && e.what == "data_changed") {
    s = Severity::Warning;
    text = Tr::tr("Data: %1 changed since the source run read it (allowed with "
                  "--allow-changed-data): the splits and metrics may differ from that run's.")
               .arg(QString::fromStdString(e.file));
  } else if (e.kind == EventKind::DataWarning) {
    s = Severity::Warning;
    text = Tr::tr("Data: %1")
               .arg(dataWarning(e.what, e.file, e.value ? static_cast<qint64>(*e.value) : 0,
                                e.values.empty() ? 0.0 : e.values[0]));
  } else if (e.kind == EventKind::ModelWarning && e.what == "traced") {
    s = Severity::Warning;
    text = Tr::tr(
        "The model was saved by torch.jit.trace: it replays the operations recorded for one "
        "example input, so Python if/for on the data were not recorded, and dropout or batch "
        "norm keep the mode it was traced in. Save it with torch.jit.script to train it as "
        "written.");
  } else if (e.kind == EventKind::ModelWarning && e.what == "frozen_parameters") {
    s = Severity::Warning;
    text = Tr::tr("%n parameter value(s) of the model have requires_grad=False: they stay as "
                  "they are (frozen), as in Python.", "", e.value ? static_cast<int>(*e.value) : 0);
  } else if (e.kind == EventKind::ModelWarning && e.what == "file_access") {
    s = Severity::Warning;
    text = Tr::tr("The model's code reads or writes files: a TorchScript file is a program. It "
                  "was loaded because model.torchscript.allow_file_access is on (%1).")
               .arg(QString::fromStdString(e.message));
  } else if (e.kind == EventKind::ModelWarning && e.what == "prints") {
    s = Severity::Info;
    text = Tr::tr("The model's code calls print(): what it prints goes to the log (stderr), "
                  "never into the CLI's --json output.");
  } else if (e.kind == EventKind::Error) {
    s = Severity::Error;
    text = Tr::tr("Error at step %1: %2").arg(step).arg(QString::fromStdString(e.message));
  } else {
    text = QString::fromStdString(e.message);
  }
  if (severity) *severity = s;
  return text;
}

QString EventText::dataWarning(const std::string& kind, const std::string& raw_name,
                               qint64 count, double ratio) {
  const QString name = QCoreApplication::translate("TrainScope", raw_name.c_str());
  const int n = static_cast<int>(count);
  if (kind == "few_samples" && n == 0)
    return Tr::tr("Class \"%1\" has no training sample: the model cannot learn it.").arg(name);
  if (kind == "few_samples")
    return Tr::tr("Class \"%1\" has only %n training sample(s): the model can hardly learn it.", "", n)
        .arg(name);
  if (kind == "no_val_samples")
    return Tr::tr("Class \"%1\" has no validation sample: its errors go unmeasured.").arg(name);
  if (kind == "imbalance")
    return Tr::tr("The classes are imbalanced %1:1 (largest / smallest training class): accuracy "
                  "favours the largest.")
        .arg(ratio, 0, 'g', 3);
  if (kind == "duplicates")
    return Tr::tr("%n training sample(s) repeat an earlier one (same inputs and target).", "", n);
  if (kind == "leakage")
    return Tr::tr("%n validation sample(s) also occur in the training split: validation loss is "
                  "then too optimistic.", "", n);
  if (kind == "constant_features")
    return Tr::tr("%n feature(s) constant in the training split (%1): they carry nothing.", "", n)
        .arg(QString::fromStdString(raw_name));
  return QString::fromStdString(kind);
}

QString EventText::forRunStarted(const RunInfo& info) {
  return Tr::tr(
             "Run started: %1 epoch(s) of %2 batch(es) of up to %3 samples, seed %4, on %5 with "
             "%6 CPU thread(s).")
      .arg(info.epochs)
      .arg(info.batches_per_epoch)
      .arg(info.batch_size)
      .arg(info.seed)
      .arg(QString::fromStdString(info.device))
      .arg(info.num_threads);
}

QString EventText::foldKey(const Event& e) {
  // Live changes each keep their line: folded, AMP on then off showed only "off" (issue 43
  // item 22); they come from clicks, never in floods.
  if (e.kind == EventKind::RunStarted || e.kind == EventKind::Finished ||
      e.kind == EventKind::Error || e.kind == EventKind::ConfigChanged)
    return {};
  // Non-finite steps fold into one line whether the loss or the gradient norm went bad: a run
  // that explodes alternates the two at every step (32,000 lines, each laid out again).
  if (e.kind == EventKind::NonFinite) return QStringLiteral("non_finite");
  return QString::fromStdString(toString(e.kind) + "/" + e.what);
}

QString EventText::forUnfinished(const RunSummary& summary) {
  return Tr::tr("The run ended without finishing (killed or crashed: no summary.json): %1 "
                "epoch(s) and %2 step(s) recorded.")
      .arg(summary.epochs_completed)
      .arg(summary.global_step);
}

QString EventText::forSummary(const RunSummary& summary, qint64 skippedSteps, Severity* severity) {
  // Wall-clock time, pauses included (the progress row shows the training time).
  QString text = Tr::tr(
                     "Run finished (%1): %2 epoch(s), %3 step(s) in %4 s (wall clock, pauses "
                     "included).")
                     .arg(stopReason(summary.stop_reason))
                     .arg(summary.epochs_completed)
                     .arg(summary.global_step)
                     .arg(QString::number(summary.wall_seconds, 'f', 1));
  if (skippedSteps > 0) {
    text +=
        QLatin1Char(' ') + Tr::tr("%n optimizer update(s) skipped because of non-finite values.",
                                  nullptr, static_cast<int>(skippedSteps));
  }
  if (summary.best_val_loss) {
    // The epoch best.pt holds (by training.monitor) and its validation loss.
    text += QLatin1Char(' ') + Tr::tr("Best epoch %2 (validation loss %1).")
                                   .arg(number(*summary.best_val_loss))
                                   .arg(summary.best_epoch);
  }
  if (summary.test_accuracy) {
    text +=
        QLatin1Char(' ') +
        Tr::tr("Test accuracy: %1 %.").arg(QString::number(*summary.test_accuracy * 100, 'f', 2));
  } else if (summary.test_loss) {
    text += QLatin1Char(' ') + Tr::tr("Test loss: %1.").arg(number(*summary.test_loss));
  }
  // Which weights the test metrics are of.
  if (summary.test_loss && summary.test_weights == "best")
    text += QLatin1Char(' ') + Tr::tr("(Test: the best checkpoint's weights, epoch %1.)")
                                   .arg(summary.test_epoch);
  else if (summary.test_loss && summary.test_weights == "last")
    text += QLatin1Char(' ') + Tr::tr("(Test: the last weights.)");
  if (summary.stop_reason == StopReason::Error && !summary.error.empty()) {
    text += QLatin1Char(' ') + Tr::tr("Error: %1").arg(QString::fromStdString(summary.error));
  }
  if (severity) {
    *severity = summary.stop_reason == StopReason::Error ? Severity::Error
                : summary.stop_reason == StopReason::NonFinite ||
                        summary.stop_reason == StopReason::Interrupted || skippedSteps > 0
                    ? Severity::Warning
                    : Severity::Success;
  }
  return text;
}

QString EventText::forFailure(const RunFailure& f) {
  const QString subject = QString::fromStdString(f.subject);
  const QString detail = QString::fromStdString(f.message);
  if (!f.typed) return Tr::tr("The run failed: %1").arg(detail);
  switch (f.code) {
    case ErrorCode::Config:
      return Tr::tr("Invalid setting \"%1\". Details: %2").arg(subject, detail);
    case ErrorCode::Data:
      return Tr::tr("The dataset could not be loaded from \"%1\". Details: %2")
          .arg(subject, detail);
    case ErrorCode::Checkpoint:
      return Tr::tr("The checkpoint \"%1\" could not be used. Details: %2").arg(subject, detail);
    case ErrorCode::Io:
      return Tr::tr("Could not write \"%1\". Details: %2").arg(subject, detail);
    case ErrorCode::Internal:
      break;
  }
  return Tr::tr("The run failed: %1").arg(detail);
}

}  // namespace trainscope
