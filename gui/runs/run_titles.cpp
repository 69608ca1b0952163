// The Runs window's column, status and anomaly titles in the interface language (runs_window.h).
#include "gui/runs/runs_window.h"

#include <QRegularExpression>
#include <QStringList>

#include "gui/event_text.h"
#include "gui/tr.h"

namespace trainscope {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

QString runColumnTitle(const std::string& key) {
  static const struct {
    const char* key;
    const char* title;
  } titles[] = {
      {"name", QT_TRANSLATE_NOOP("TrainScope", "Name")},
      {"started", QT_TRANSLATE_NOOP("TrainScope", "Started")},
      {"status", QT_TRANSLATE_NOOP("TrainScope", "Status")},
      {"data", QT_TRANSLATE_NOOP("TrainScope", "Data")},
      {"model", QT_TRANSLATE_NOOP("TrainScope", "Model")},
      {"params", QT_TRANSLATE_NOOP("TrainScope", "Parameters")},
      {"optimizer", QT_TRANSLATE_NOOP("TrainScope", "Optimizer")},
      {"lr", QT_TRANSLATE_NOOP("TrainScope", "Learning rate")},
      {"batch_size", QT_TRANSLATE_NOOP("TrainScope", "Batch size")},
      {"seed", QT_TRANSLATE_NOOP("TrainScope", "Seed")},
      {"epochs", QT_TRANSLATE_NOOP("TrainScope", "Epochs")},
      {"epochs_done", QT_TRANSLATE_NOOP("TrainScope", "Epochs done")},
      {"best_val_loss", QT_TRANSLATE_NOOP("TrainScope", "Best val loss")},
      {"best_epoch", QT_TRANSLATE_NOOP("TrainScope", "Best epoch")},
      {"final_val_loss", QT_TRANSLATE_NOOP("TrainScope", "Final val loss")},
      {"final_train_loss", QT_TRANSLATE_NOOP("TrainScope", "Final train loss")},
      {"best_val_accuracy", QT_TRANSLATE_NOOP("TrainScope", "Best val accuracy")},
      {"final_val_accuracy", QT_TRANSLATE_NOOP("TrainScope", "Final val accuracy")},
      {"best_val_r2", QT_TRANSLATE_NOOP("TrainScope", "Best val R²")},
      {"final_val_r2", QT_TRANSLATE_NOOP("TrainScope", "Final val R²")},
      {"final_val_mae", QT_TRANSLATE_NOOP("TrainScope", "Final val MAE")},
      {"final_val_rmse", QT_TRANSLATE_NOOP("TrainScope", "Final val RMSE")},
      {"test_loss", QT_TRANSLATE_NOOP("TrainScope", "Test loss")},
      {"test_accuracy", QT_TRANSLATE_NOOP("TrainScope", "Test accuracy")},
      {"anomalies", QT_TRANSLATE_NOOP("TrainScope", "Anomalies")},
      {"mistakes", QT_TRANSLATE_NOOP("TrainScope", "Mistakes (teaching)")},
      {"amp", QT_TRANSLATE_NOOP("TrainScope", "AMP")},
      {"threads", QT_TRANSLATE_NOOP("TrainScope", "Threads")},
      {"world_size", QT_TRANSLATE_NOOP("TrainScope", "Ranks")},
      {"duration_s", QT_TRANSLATE_NOOP("TrainScope", "Duration (s)")},
      {"trainscope_version", QT_TRANSLATE_NOOP("TrainScope", "TrainScope version")},
      {"torch_version", QT_TRANSLATE_NOOP("TrainScope", "libtorch version")},
      {"notes", QT_TRANSLATE_NOOP("TrainScope", "Notes")},
      {"tags", QT_TRANSLATE_NOOP("TrainScope", "Tags")},
      {"sweep", QT_TRANSLATE_NOOP("TrainScope", "Sweep")},
      {"reason", QT_TRANSLATE_NOOP("TrainScope", "Reason")},
      {"dir", QT_TRANSLATE_NOOP("TrainScope", "Folder")},
  };
  for (const auto& t : titles)
    if (key == t.key) return Tr::tr(t.title);
  return q(key);
}

QString runStatusTitle(const std::string& status) {
  if (status == "running") return Tr::tr("running");
  if (status == "completed") return Tr::tr("completed");
  if (status == "stopped") return Tr::tr("stopped");
  if (status == "interrupted") return Tr::tr("interrupted");
  if (status == "diverged") return Tr::tr("diverged");
  if (status == "failed") return Tr::tr("failed");
  if (status == "crashed") return Tr::tr("crashed");
  if (status == "pruned") return Tr::tr("pruned");
  if (status == "incomplete") return Tr::tr("incomplete");
  if (status == "not a run") return Tr::tr("not a run");
  return q(status);
}

QString runAnomaliesTitle(const std::string& anomalies) {
  static const QRegularExpression counted(QStringLiteral("^(.*?) ?[x@](\\d+)$"));
  static const QRegularExpression skipped(QStringLiteral("^(\\d+) steps? skipped$"));
  QStringList out;
  for (const QString& part : q(anomalies).split(QStringLiteral(", "), Qt::SkipEmptyParts)) {
    if (const auto m = skipped.match(part); m.hasMatch()) {
      out << Tr::tr("%1 step(s) skipped").arg(m.captured(1));
      continue;
    }
    if (part.startsWith(QLatin1String("diagnosis "))) {
      out << EventText::diagnosisKind(part.mid(10).toStdString());
      continue;
    }
    const auto m = counted.match(part);
    const QString what = m.hasMatch() ? m.captured(1) : part;
    const QString n = m.hasMatch() ? m.captured(2) : QString();
    if (what == QLatin1String("non-finite")) out << Tr::tr("non-finite x%1").arg(n);
    else if (what == QLatin1String("diverged")) out << Tr::tr("diverged at epoch %1").arg(n);
    else if (what == QLatin1String("rolled back")) out << Tr::tr("rolled back x%1").arg(n);
    else if (what == QLatin1String("overfitting")) out << Tr::tr("overfitting from epoch %1").arg(n);
    else if (what == QLatin1String("early stop")) out << Tr::tr("early stop at epoch %1").arg(n);
    else if (what == QLatin1String("slowdown")) out << Tr::tr("slowdown x%1").arg(n);
    else if (part == QLatin1String("clip warning")) out << Tr::tr("clip warning");
    else if (part == QLatin1String("memory warning")) out << Tr::tr("memory warning");
    else out << part;  // a kind this build does not know: as written
  }
  return out.join(Tr::tr(", "));
}

}  // namespace trainscope
