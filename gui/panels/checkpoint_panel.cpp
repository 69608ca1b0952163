#include "gui/panels/checkpoint_panel.h"

#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/train/state/checkpoint.h"
#include "core/io/python_weights.h"
#include "gui/event_text.h"
#include "gui/tr.h"
#include "gui/views/evaluation_dialog.h"
#include "gui/widgets/config_key_range.h"

namespace trainscope {

namespace {

/// Save...: pauses a running run and waits (at most 5 s, processing events) until the engine
/// reports that it waits, so that lastStep() is the step a save now holds. True when it paused
/// the run (to be resumed when the dialog closes); false for any other state (left as it is).
bool holdRun(RunCommands* controller) {
  using S = RunState;
  if (controller->state() != S::Running) return false;
  QEventLoop loop;  // until the engine reports that it waits: lastStep() is then its step
  QTimer::singleShot(5000, &loop, &QEventLoop::quit);
  QObject::connect(controller->store(), &RunStore::eventOccurred, &loop, [&loop](const Event& e) {
    if (e.kind == EventKind::Paused) loop.quit();
  });
  QObject::connect(controller, &RunCommands::stateChanged, &loop, [&loop](S s) {
    if (s != S::Paused) loop.quit();  // the run ended meanwhile
  });
  controller->pause();
  if (controller->state() == S::Paused) loop.exec();
  return true;
}

}  // namespace

CheckpointPanel::CheckpointPanel(RunCommands* controller, std::function<QString()> runsRoot,
                                 QWidget* parent)
    : QGroupBox(parent), controller_(controller), runs_root_(std::move(runsRoot)) {
  setObjectName(QStringLiteral("checkpointPanel"));
  save_ = new QPushButton(style()->standardIcon(QStyle::SP_DialogSaveButton), QString(), this);
  save_->setObjectName(QStringLiteral("saveCheckpointButton"));
  load_ = new QPushButton(style()->standardIcon(QStyle::SP_DialogOpenButton), QString(), this);
  load_->setObjectName(QStringLiteral("loadCheckpointButton"));
  auto* column = new QVBoxLayout(this);
  auto* row = new QHBoxLayout;
  evaluate_ = new QPushButton(this);
  evaluate_->setObjectName(QStringLiteral("evaluateCheckpointButton"));
  row->addWidget(save_);
  row->addWidget(load_);
  row->addWidget(evaluate_);
  column->addLayout(row);
  auto* weights_row = new QHBoxLayout;
  weights_ = new QLabel(this);
  weights_->setObjectName(QStringLiteral("initWeightsLabel"));
  weights_->setWordWrap(true);
  weights_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  clear_weights_ = new QPushButton(this);
  clear_weights_->setObjectName(QStringLiteral("clearInitWeightsButton"));
  connect(clear_weights_, &QPushButton::clicked, this, [this] { importWeights(QString()); });
  weights_row->addWidget(weights_, 1);
  weights_row->addWidget(clear_weights_);
  column->addLayout(weights_row);
  connect(save_, &QPushButton::clicked, this, &CheckpointPanel::saveDialog);
  connect(load_, &QPushButton::clicked, this, &CheckpointPanel::loadDialog);
  connect(evaluate_, &QPushButton::clicked, this, &CheckpointPanel::evaluateDialog);
  retranslate();
  setState(controller_->state());
}

void CheckpointPanel::retranslate() {
  setTitle(Tr::tr("Checkpoint"));
  save_->setText(Tr::tr("Save..."));
  save_->setToolTip(
      Tr::tr("Save the whole training state (model, optimizer, random generators, curves) at "
             "the current step: a running run waits while you choose the file, then continues."));
  load_->setText(Tr::tr("Load..."));
  load_->setToolTip(
      Tr::tr("Continue a saved run from its checkpoint, paused at the step it was saved at."));
  evaluate_->setText(Tr::tr("Evaluate..."));
  evaluate_->setToolTip(Tr::tr("Evaluate a saved checkpoint without training: loss, accuracy, "
                               "confusion matrix, precision and recall per class."));
  clear_weights_->setText(Tr::tr("Clear"));
  clear_weights_->setToolTip(Tr::tr("Start the next runs from fresh random weights again."));
  showWeights();
}

void CheckpointPanel::showWeights() {
  const QString file = controller_->initWeights();
  weights_->setText(
      Tr::tr("Next runs start from the weights in %1").arg(QFileInfo(file).fileName()));
  weights_->setToolTip(file);
  weights_->setVisible(!file.isEmpty());
  clear_weights_->setVisible(!file.isEmpty());
}

bool CheckpointPanel::importWeights(const QString& file, QString* error) {
  if (!file.isEmpty()) {
    try {
      inspectWeightsFile(file.toStdString());
    } catch (const std::exception& e) {
      if (error) *error = QString::fromStdString(e.what());
      return false;
    }
  }
  controller_->setInitWeights(file);
  showWeights();
  return true;
}

void CheckpointPanel::importWeightsDialog() {
  const QString file = QFileDialog::getOpenFileName(
      this, Tr::tr("Import weights"), controller_->checkpointFolder(runs_root_()),
      Tr::tr("PyTorch files (*.pt *.pth);;All files (*)"));
  if (file.isEmpty()) return;
  WeightsFileInfo info;
  try {
    info = inspectWeightsFile(file.toStdString());
  } catch (const std::exception& e) {
    QMessageBox::warning(this, Tr::tr("Weights not imported"), QString::fromStdString(e.what()));
    return;
  }
  QStringList tensors;
  for (const CheckpointTensor& t : info.tensors) {
    QStringList dims;
    for (int64_t d : t.shape) dims << QString::number(d);
    tensors << QStringLiteral("%1 [%2]").arg(QString::fromStdString(t.name),
                                             dims.join(QStringLiteral(", ")));
  }
  if (tensors.size() > 12) tensors = tensors.mid(0, 12) << QStringLiteral("…");
  const auto answer = QMessageBox::question(
      this, Tr::tr("Import weights?"),
      Tr::tr("%1 holds %n tensor(s):", nullptr, static_cast<int>(info.tensors.size()))
              .arg(QFileInfo(file).fileName()) +
          QStringLiteral("\n") + tensors.join(QLatin1Char('\n')) + QStringLiteral("\n\n") +
          Tr::tr("The next runs start from these weights instead of random ones. Names and "
                 "shapes must match the model of the settings (as PyTorch's load_state_dict "
                 "with strict=True); a mismatch is reported when the run starts."),
      QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes);
  if (answer == QMessageBox::Yes) importWeights(file);
}

void CheckpointPanel::setState(RunState state) {
  using S = RunState;
  const bool ended_with_file =
      state == S::Finished &&
      QFileInfo::exists(
          QDir(controller_->store()->runDirectory()).filePath(QStringLiteral("checkpoints/last.pt")));
  save_->setEnabled(state == S::Running || state == S::Paused || ended_with_file);
  load_->setEnabled(state == S::Idle || state == S::Paused || state == S::Finished);
}

bool CheckpointPanel::saveTo(const QString& file, QString* error) {
  return controller_->saveCheckpoint(file, error);
}

QString CheckpointPanel::describe(const CheckpointInfo& info) {
  QStringList lines;
  lines << Tr::tr("Epochs completed: %1 (step %2)").arg(info.epoch).arg(info.global_step);
  if (info.batch_in_epoch > 0)
    lines << Tr::tr(
                 "Saved in the middle of epoch %1, after batch %2: training continues with "
                 "the next batch.")
                 .arg(info.epoch + 1)
                 .arg(info.batch_in_epoch);
  lines << (info.best_loss ? Tr::tr("Best validation loss: %1 (epoch %2)")
                                 .arg(EventText::number(*info.best_loss))
                                 .arg(info.best_epoch)
                           : Tr::tr("Best validation loss: none yet"));
  lines << Tr::tr("Settings: %1").arg(QString::fromStdString(info.config_summary));
  QString saved = QString::fromStdString(info.saved_at);
  const QDateTime at = QDateTime::fromString(saved, Qt::ISODate);
  if (at.isValid()) saved = QLocale().toString(at, QLocale::ShortFormat);
  lines << Tr::tr("Saved: %1").arg(saved);
  return lines.join(QLatin1Char('\n'));
}

qint64 CheckpointPanel::defaultTotalEpochs(const CheckpointInfo& info, const TrainConfig& config) {
  const qint64 planned = config.training.epochs;
  return info.epoch < planned ? planned : info.epoch + planned;
}

bool CheckpointPanel::load(const QString& file, bool ask, QString* error, qint64 totalEpochs) {
  CheckpointInfo info;
  TrainConfig config;
  try {
    info = inspectCheckpoint(file.toStdString());
    config = checkpointConfig(info);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  if (totalEpochs <= 0) totalEpochs = defaultTotalEpochs(info, config);
  if (ask) {
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("loadCheckpointDialog"));
    dialog.setWindowTitle(Tr::tr("Load checkpoint?"));
    dialog.setMinimumWidth(440);
    auto* layout = new QVBoxLayout(&dialog);
    auto* text = new QLabel(describe(info), &dialog);
    text->setWordWrap(true);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(text);
    auto* form = new QFormLayout;
    auto* epochs = new QSpinBox(&dialog);
    epochs->setObjectName(QStringLiteral("resumeEpochsSpinBox"));
    setKeyRange(epochs, "training.epochs");  // from at least the file's completed epochs
    epochs->setMinimum(static_cast<int>(std::max<qint64>(epochs->minimum(), info.epoch)));
    epochs->setValue(static_cast<int>(totalEpochs));
    form->addRow(Tr::tr("Train until epoch:"), epochs);
    layout->addLayout(form);
    auto* note = new QLabel(controller_->state() == RunState::Paused
                                ? Tr::tr("The paused run ends here (its files are kept). The "
                                         "checkpoint continues in a new run folder, paused at "
                                         "step %1.")
                                      .arg(info.global_step)
                                : Tr::tr("The checkpoint continues in a new run folder, paused "
                                         "at step %1.")
                                      .arg(info.global_step),
                            &dialog);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(Tr::tr("Load"));
    buttons->button(QDialogButtonBox::Cancel)->setText(Tr::tr("Cancel"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted) {
      if (error) error->clear();  // declined: nothing to report
      return false;
    }
    totalEpochs = epochs->value();
  }
  QString why;
  if (!controller_->resumeFrom(file, runs_root_(), &why, totalEpochs)) {
    if (error) *error = why;
    return false;
  }
  config.training.epochs = totalEpochs;
  emit loaded(file, config);
  return true;
}

void CheckpointPanel::saveDialog() {
  // The run is held while the dialog is open, so the file holds the step its name proposes
  // (it would run on meanwhile and the file would hold a later step); it continues afterwards.
  const bool resume_after = holdRun(controller_);
  const QString folder = controller_->checkpointFolder(runs_root_());
  QDir().mkpath(folder);
  const auto& last = controller_->store()->lastStep();
  const QString proposal =
      QDir(folder).filePath(QStringLiteral("step-%1.pt").arg(last ? last->step : 0));
  const QString file = QFileDialog::getSaveFileName(this, Tr::tr("Save checkpoint"), proposal,
                                                    Tr::tr("Checkpoints (*.pt)"));
  QString error;
  const bool failed = !file.isEmpty() && !saveTo(file, &error);
  // Queued after the save: the engine writes the file at the held step, then runs on.
  if (resume_after) controller_->resume();
  if (failed)
    QMessageBox::warning(this, Tr::tr("Checkpoint not saved"),
                         Tr::tr("The checkpoint could not be saved: %1").arg(error));
}

void CheckpointPanel::loadDialog() {
  const QString file = QFileDialog::getOpenFileName(this, Tr::tr("Load checkpoint"),
                                                    controller_->checkpointFolder(runs_root_()),
                                                    Tr::tr("Checkpoints (*.pt);;All files (*)"));
  if (file.isEmpty()) return;
  QString error;
  if (!load(file, /*ask=*/true, &error) && !error.isEmpty())
    QMessageBox::warning(this, Tr::tr("Checkpoint not loaded"),
                         Tr::tr("%1\n\nThe current run is unchanged.").arg(error));
}

EvaluationDialog* CheckpointPanel::evaluate(const QString& file) {
  auto* dialog = new EvaluationDialog(file, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
  return dialog;
}

void CheckpointPanel::evaluateDialog() {
  const QString run = controller_->store()->runDirectory();
  const QString start = run.isEmpty() ? runs_root_() : QDir(run).filePath(QStringLiteral("checkpoints"));
  const QString file = QFileDialog::getOpenFileName(this, Tr::tr("Evaluate checkpoint"), start,
                                                    Tr::tr("Checkpoints (*.pt)"));
  if (!file.isEmpty()) evaluate(file);
}

}  // namespace trainscope
