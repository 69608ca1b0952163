#pragma once
/// The Sweeps window's table: one row per trial of a SweepView (trial, state, the varied
/// values, the objective, seconds, run folder); numbers sort as numbers. SweepTrialsFilter
/// keeps the rows the parallel coordinates' brushes let through.
#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <vector>

#include "core/sweep/sweep_view.h"

namespace trainscope {

class SweepTrialsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  using QAbstractTableModel::QAbstractTableModel;
  /// Shows `view`'s trials (the model keeps a pointer: `view` outlives it or the next call).
  void setView(const SweepView* view);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  /// The trial of row `row`.
  const TrialLine& trial(int row) const;

 private:
  const SweepView* view_ = nullptr;
};

/// Rows whose flag is set pass (all pass until setPassing is called).
class SweepTrialsFilter : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  /// One flag per source row; an empty vector lets every row through.
  void setPassing(std::vector<char> passing);

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

 private:
  std::vector<char> passing_;
};

}  // namespace trainscope
