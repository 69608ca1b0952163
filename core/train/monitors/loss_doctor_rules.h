#pragma once
/// Helpers the loss doctor's rules share (core/train/monitors/loss_doctor.cpp: the reading;
/// loss_doctor_trends.cpp: the overfitting and plateau rules). Internal to the doctor.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/system/number_format.h"
#include "core/train/monitors/loss_doctor.h"
#include "core/system/noise.h"

namespace trainscope::doctor_rules {


inline Finding check(const char* code, const char* text) { return {code, {}, "", text}; }


using DoctorEpochs = std::vector<LossDoctor::Epoch>;

/// Mean of the finite values of field `f` over epochs [from, to); NaN when none.
template <class F>
double meanOf(const DoctorEpochs& epochs, size_t from, size_t to, F f) {
  double sum = 0;
  int count = 0;
  for (size_t i = from; i < to && i < epochs.size(); ++i) {
    const std::optional<double> v = f(epochs[i]);
    if (v && std::isfinite(*v)) {
      sum += *v;
      ++count;
    }
  }
  return count > 0 ? sum / count : std::nan("");
}

inline std::optional<double> trainLoss(const LossDoctor::Epoch& e) { return e.train_loss; }
inline std::optional<double> valLoss(const LossDoctor::Epoch& e) { return e.val_loss; }
inline std::optional<double> valAccuracy(const LossDoctor::Epoch& e) {
  return std::isnan(e.val_accuracy) ? std::nullopt : std::optional<double>(e.val_accuracy);
}

/// The epoch-to-epoch noise (standard deviation) of field `f` over epochs [from, to)
/// (noiseFromChanges of its neighbouring changes); NaN with fewer than 3 changes.
template <class F>
double noiseOf(const DoctorEpochs& epochs, size_t from, size_t to, F f) {
  std::vector<double> changes;
  for (size_t i = from + 1; i < to && i < epochs.size(); ++i) {
    const std::optional<double> x = f(epochs[i]), y = f(epochs[i - 1]);
    if (x && y && std::isfinite(*x) && std::isfinite(*y)) changes.push_back(*x - *y);
  }
  return noiseFromChanges(std::move(changes));
}

/// "9.1% better" or "9.1% worse" (never "-9.1% better").
inline std::string signedChange(double percent_better) {
  return formatHuman(std::abs(percent_better)) + (percent_better >= 0 ? "% better" : "% worse");
}

}  // namespace trainscope::doctor_rules
