#include "gui/sweeps/sweep_trials_model.h"

#include <QBrush>

#include "core/system/number_format.h"
#include "gui/plots/palette.h"
#include "gui/tr.h"

namespace trainscope {
namespace {

/// The fixed columns around the varied values.
enum Fixed { kTrial = 0, kState = 1 };

QString stateText(const TrialLine& t) {
  const std::string& s = t.state;
  QString text = s == "queued"      ? Tr::tr("queued")
                 : s == "running"   ? Tr::tr("running")
                 : s == "completed" ? Tr::tr("completed")
                 : s == "pruned"    ? Tr::tr("pruned")
                 : s == "failed"    ? Tr::tr("failed")
                 : s == "crashed"   ? Tr::tr("crashed")
                                    : QString::fromStdString(s);
  if (s == "completed" && !t.run_status.empty() && t.run_status != "completed")
    text += QStringLiteral(" (%1)").arg(QString::fromStdString(t.run_status));
  if (t.attempt > 1) text += Tr::tr(" (retry)");
  return text;
}

QString valueText(const nlohmann::json& v) {
  if (v.is_number_float()) return QString::fromStdString(formatHuman(v.get<double>()));
  if (v.is_string()) return QString::fromStdString(v.get<std::string>());
  return QString::fromStdString(v.dump());
}

}  // namespace

void SweepTrialsModel::setView(const SweepView* view) {
  beginResetModel();
  view_ = view;
  endResetModel();
}

int SweepTrialsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !view_ ? 0 : static_cast<int>(view_->trials.size());
}

int SweepTrialsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() || !view_ ? 0 : static_cast<int>(view_->axes.size()) + 5;
}

const TrialLine& SweepTrialsModel::trial(int row) const { return view_->trials.at(row); }

QVariant SweepTrialsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || !view_) return {};
  const int axes = static_cast<int>(view_->axes.size());
  if (section == kTrial) return Tr::tr("trial");
  if (section == kState) return Tr::tr("state");
  if (section < 2 + axes) return QString::fromStdString(view_->axes[section - 2].key);
  if (section == 2 + axes) return QString::fromStdString(view_->metric);
  if (section == 3 + axes) return Tr::tr("seconds");
  return Tr::tr("run folder");
}

QVariant SweepTrialsModel::data(const QModelIndex& index, int role) const {
  if (!view_ || !index.isValid()) return {};
  const TrialLine& t = view_->trials.at(index.row());
  const int axes = static_cast<int>(view_->axes.size());
  const int c = index.column();
  if (role == Qt::ForegroundRole && c == kState) {
    if (t.state == "failed" || t.state == "crashed") return QBrush(palette::kErrorText);
    if (t.state == "running") return QBrush(palette::kRunningText);
    if (t.state == "pruned") return QBrush(palette::kMutedText);
    return {};
  }
  if (role == Qt::ToolTipRole) {
    if (!t.error.empty()) return QString::fromStdString(t.error);
    if (!t.reason.empty()) return QString::fromStdString(t.reason);
    return {};
  }
  const bool sort = role == Qt::UserRole;
  if (role != Qt::DisplayRole && !sort) return {};
  if (c == kTrial) return sort ? QVariant(static_cast<double>(t.trial)) : QVariant(static_cast<qlonglong>(t.trial));
  if (c == kState) return stateText(t);
  if (c < 2 + axes) {
    const SweepAxis& axis = view_->axes[c - 2];
    if (!t.values.contains(axis.key)) return {};
    if (sort) {
      const auto v = axisValue(axis, t.values[axis.key]);
      return v ? QVariant(*v) : QVariant();
    }
    return valueText(t.values[axis.key]);
  }
  if (c == 2 + axes) {
    if (!t.objective) return sort ? QVariant(qInf()) : QVariant(QStringLiteral("-"));
    return sort ? QVariant(*t.objective)
                : QVariant(QString::fromStdString(formatHuman(*t.objective)));
  }
  if (c == 3 + axes) {
    if (t.seconds <= 0) return sort ? QVariant(0.0) : QVariant(QString());
    return sort ? QVariant(t.seconds) : QVariant(QString::fromStdString(formatHuman(t.seconds)));
  }
  return QString::fromStdString(t.run);
}

void SweepTrialsFilter::setPassing(std::vector<char> passing) {
  passing_ = std::move(passing);
  invalidateFilter();
}

bool SweepTrialsFilter::filterAcceptsRow(int row, const QModelIndex&) const {
  return passing_.empty() || (row >= 0 && static_cast<size_t>(row) < passing_.size() && passing_[row]);
}

}  // namespace trainscope
