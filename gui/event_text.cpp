#include "gui/event_text.h"

#include <cmath>

namespace trainscope {

QString EventText::number(double value) {
  if (std::isnan(value)) return QStringLiteral("nan");
  if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  return QString::number(value, 'g', 4);
}

QString EventText::quantity(const std::string& what) {
  if (what == "loss") return tr("loss");
  if (what == "grad_norm") return tr("gradient norm");
  if (what == "val_loss") return tr("validation loss");
  if (what.empty()) return tr("value");
  return QString::fromStdString(what);
}

QString EventText::stopReason(StopReason reason) {
  switch (reason) {
    case StopReason::Completed:
      return tr("completed");
    case StopReason::Stopped:
      return tr("stopped by the user");
    case StopReason::NonFinite:
      return tr("stopped on a non-finite value");
    case StopReason::EarlyStop:
      return tr("early stopping");
    case StopReason::Interrupted:
      return tr("interrupted");
    case StopReason::Error:
      return tr("failed");
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
    text = tr("Paused after step %1 (epoch %2).").arg(step).arg(e.epoch);
  } else if (e.kind == EventKind::Resumed) {
    text = tr("Resumed at step %1.").arg(step);
  } else if (e.kind == EventKind::Stopped) {
    text = tr("Stopped at step %1.").arg(step);
  } else if (e.kind == EventKind::NonFinite) {
    s = Severity::Warning;
    text = tr("Non-finite %1 (%2) at step %3. Likely causes: the learning rate is too high, "
              "the inputs are not normalised, or gradient clipping is off.")
               .arg(quantity(e.what), e.value ? number(*e.value) : QStringLiteral("nan"))
               .arg(step);
  } else if (e.kind == EventKind::EarlyStop) {
    text = tr("Early stopping at epoch %1: the validation loss stopped improving.").arg(e.epoch);
  } else if (e.kind == EventKind::Overfitting) {
    s = Severity::Warning;
    text = tr("Overfitting from epoch %1: the validation loss rises while the training loss "
              "falls.")
               .arg(e.epoch);
  } else if (e.kind == EventKind::CheckpointSaved) {
    text = tr("Checkpoint saved at step %1.").arg(step);
  } else if (e.kind == EventKind::CheckpointLoaded) {
    text = tr("Checkpoint loaded (step %1).").arg(step);
  } else if (e.kind == EventKind::ConfigChanged) {
    text = tr("Setting changed at step %1: %2").arg(step).arg(QString::fromStdString(e.message));
  } else if (e.kind == EventKind::Error) {
    s = Severity::Error;
    text = tr("Error at step %1: %2").arg(step).arg(QString::fromStdString(e.message));
  } else {
    text = QString::fromStdString(e.message);
  }
  if (severity) *severity = s;
  return text;
}

QString EventText::forRunStarted(const RunInfo& info) {
  return tr("Run started: %1 epoch(s) of %2 batch(es) of up to %3 samples, seed %4, on %5 with "
            "%6 CPU thread(s).")
      .arg(info.epochs)
      .arg(info.batches_per_epoch)
      .arg(info.batch_size)
      .arg(info.seed)
      .arg(QString::fromStdString(info.device))
      .arg(info.num_threads);
}

QString EventText::forSummary(const RunSummary& summary, Severity* severity) {
  QString text = tr("Run finished (%1): %2 epoch(s), %3 step(s) in %4 s.")
                     .arg(stopReason(summary.stop_reason))
                     .arg(summary.epochs_completed)
                     .arg(summary.global_step)
                     .arg(QString::number(summary.wall_seconds, 'f', 1));
  if (summary.best_val_loss) {
    text += QLatin1Char(' ') + tr("Best validation loss %1 at epoch %2.")
                                   .arg(number(*summary.best_val_loss))
                                   .arg(summary.best_epoch);
  }
  if (summary.test_accuracy) {
    text += QLatin1Char(' ') +
            tr("Test accuracy: %1 %.").arg(QString::number(*summary.test_accuracy * 100, 'f', 2));
  } else if (summary.test_loss) {
    text += QLatin1Char(' ') + tr("Test loss: %1.").arg(number(*summary.test_loss));
  }
  if (summary.stop_reason == StopReason::Error && !summary.error.empty()) {
    text += QLatin1Char(' ') + tr("Error: %1").arg(QString::fromStdString(summary.error));
  }
  if (severity) {
    *severity = summary.stop_reason == StopReason::Error       ? Severity::Error
                : summary.stop_reason == StopReason::NonFinite ? Severity::Warning
                                                               : Severity::Success;
  }
  return text;
}

QString EventText::forFailure(const RunFailure& f) {
  const QString subject = QString::fromStdString(f.subject);
  const QString detail = QString::fromStdString(f.message);
  if (!f.typed) return tr("The run failed: %1").arg(detail);
  switch (f.code) {
    case ErrorCode::Config:
      return tr("Invalid setting \"%1\". Details: %2").arg(subject, detail);
    case ErrorCode::Data:
      return tr("The dataset could not be loaded from \"%1\". Details: %2").arg(subject, detail);
    case ErrorCode::Checkpoint:
      return tr("The checkpoint \"%1\" could not be used. Details: %2").arg(subject, detail);
    case ErrorCode::Io:
      return tr("Could not write \"%1\". Details: %2").arg(subject, detail);
    case ErrorCode::Internal:
      break;
  }
  return tr("The run failed: %1").arg(detail);
}

}  // namespace trainscope
