#include "core/run/csv_columns.h"

#include "core/system/number_format.h"

namespace trainscope {

const std::vector<CsvColumn<EpochRecord>>& metricsCsvColumns() {
  using R = EpochRecord;
  //  name, member, required column, required cell, added in (file revision)
  static const std::vector<CsvColumn<R>> columns = {
      {"epoch", &R::epoch, true, true, 1},
      {"step", &R::step, true, true, 1},
      {"train_loss", &R::train_loss, true, true, 1},
      {"val_loss", &R::val_loss, true, true, 1},
      {"val_accuracy", &R::val_accuracy, false, false, 1},
      {"lr", &R::lr, false, false, 1},
      {"epoch_seconds", &R::epoch_seconds, false, false, 1},
      {"samples_per_second", &R::samples_per_second, false, false, 1},
      {"train_accuracy", &R::train_accuracy, false, false, 2},
      {"val_r2", &R::val_r2, false, false, 3},
      {"val_mae", &R::val_mae, false, false, 3},
      {"val_rmse", &R::val_rmse, false, false, 3},
  };
  return columns;
}

const std::vector<CsvColumn<StepRecord>>& stepsCsvColumns() {
  using R = StepRecord;
  static const std::vector<CsvColumn<R>> columns = {
      {"step", &R::step, true, true, 1},
      {"epoch", &R::epoch, true, true, 1},
      {"batch", &R::batch, true, true, 1},
      {"loss", &R::loss, true, true, 1},
      {"grad_norm", &R::grad_norm, true, true, 1},
      {"grad_norm_clipped", &R::grad_norm_clipped, false, true, 1, &R::grad_norm},
      {"lr", &R::lr, false, true, 1},
      {"loss_scale", &R::loss_scale, false, false, 1},
      {"data_wait", &R::data_wait, false, false, 2},
  };
  return columns;
}

const std::vector<LayerCsvColumn>& layersCsvColumns() {
  static const std::vector<LayerCsvColumn> columns = {
      {".grad_norm", &LayerStatsRecord::grad_norm, 1},
      {".update_ratio", &LayerStatsRecord::update_ratio, 1},
  };
  return columns;
}

std::string csvCell(int64_t value) { return std::to_string(value); }
std::string csvCell(double value) { return formatNumber(value); }
std::string csvCell(const std::optional<double>& value) {
  return value ? formatNumber(*value) : "";
}

}  // namespace trainscope
