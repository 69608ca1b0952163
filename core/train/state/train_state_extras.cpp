#include "core/train/state/train_state_extras.h"

#include <torch/nn/module.h>

#include <cmath>
#include <optional>

#include "core/errors.h"
#include "core/io/checkpoint_file.h"
#include "core/train/monitors/loss_doctor.h"
#include "core/train/state/state_parts.h"

namespace trainscope {

namespace {

using c10::IValue;
using c10::impl::GenericDict;
using c10::impl::GenericList;

[[noreturn]] void badExtras(const std::filesystem::path& file, const std::string& problem) {
  throw Error(ErrorCode::Checkpoint, file.string(),
              "cannot load checkpoint " + file.string() + ": " + problem);
}

}  // namespace

GenericDict toGenericDict(const ValueDict& v) {
  GenericDict d = makeStringDict();
  for (const auto& [k, x] : v.numbers) d.insert(k, x);
  for (const auto& [k, xs] : v.lists) {
    GenericList l(c10::FloatType::get());
    for (double x : xs) l.push_back(x);
    d.insert(k, l);
  }
  for (const auto& [k, s] : v.strings) d.insert(k, s);
  return d;
}

ValueDict toValueDict(const IValue& v, const std::string& key, const std::filesystem::path& file) {
  if (!v.isGenericDict()) badExtras(file, "'" + key + "' is not a dict");
  ValueDict out;
  auto number = [&](const IValue& x, const std::string& name) {
    if (x.isDouble()) return x.toDouble();
    if (x.isInt()) return static_cast<double>(x.toInt());
    badExtras(file, "'" + key + "." + name + "' is not a number");
  };
  for (const auto& e : v.toGenericDict()) {
    if (!e.key().isString()) badExtras(file, "'" + key + "' has a key that is not a string");
    const std::string& name = e.key().toStringRef();
    const IValue& x = e.value();
    if (x.isString()) {
      out.strings[name] = x.toStringRef();
    } else if (x.isList()) {
      std::vector<double> xs;
      for (const IValue& y : x.toListRef()) xs.push_back(number(y, name));
      out.lists[name] = std::move(xs);
    } else {
      out.numbers[name] = number(x, name);
    }
  }
  return out;
}

// ---- scheduler, early stopping, overfitting: each keeps its own ValueDict state ----

namespace {

std::optional<IValue> find(const GenericDict& d, const char* key) {
  auto it = d.find(key);
  if (it == d.end()) return std::nullopt;
  return it->value();
}

/// Loads `v` into `part` to see that it fits, then puts back what was there (loadStateDict
/// throws std::out_of_range for a missing key); the commit loads it for good.
template <class Part>
void tryLoad(Part& part, const ValueDict& v, const std::filesystem::path& file) {
  const ValueDict before = part.stateDict();
  try {
    part.loadStateDict(v);
  } catch (const std::out_of_range& e) {
    part.loadStateDict(before);
    badExtras(file, std::string("scheduler or monitor state: ") + e.what());
  }
  part.loadStateDict(before);
}

}  // namespace

void saveScheduler(const TrainState& s, const PartSave&, GenericDict& d) {
  if (s.scheduler) d.insert("scheduler_state_dict", toGenericDict(s.scheduler->stateDict()));
}

StateCommit loadScheduler(TrainState& s, const GenericDict& d, const PartLoad& l) {
  auto v = find(d, "scheduler_state_dict");
  if (!v || !s.scheduler) return [](TrainState&) {};  // absent from older files: stays fresh
  ValueDict sched = toValueDict(*v, "scheduler_state_dict", l.reader.file);
  tryLoad(*s.scheduler, sched, l.reader.file);
  return [sched](TrainState& t) { t.scheduler->loadStateDict(sched); };
}

void saveEarlyStopping(const TrainState& s, const PartSave&, GenericDict& d) {
  if (!s.early_stopping) return;
  GenericDict es = toGenericDict(s.early_stopping->stateDict());
  if (!s.best_weights.empty()) {
    GenericList w(c10::TensorType::get());
    for (const auto& t : s.best_weights) w.push_back(t.clone());
    es.insert("best_weights", w);
  }
  d.insert("early_stopping_state_dict", es);
}

StateCommit loadEarlyStopping(TrainState& s, const GenericDict& d, const PartLoad& l) {
  const std::filesystem::path& file = l.reader.file;
  auto v = find(d, "early_stopping_state_dict");
  std::vector<at::Tensor> best;
  if (v && s.early_stopping) {
    GenericDict raw = v->isGenericDict() ? v->toGenericDict() : makeStringDict();
    GenericDict plain = makeStringDict();
    for (const auto& e : raw) {
      if (e.key().isString() && e.key().toStringRef() == "best_weights") {
        if (!e.value().isList())
          badExtras(file, "'early_stopping_state_dict.best_weights' is not a list");
        for (const IValue& t : e.value().toListRef()) {
          if (!t.isTensor())
            badExtras(file, "'early_stopping_state_dict.best_weights' holds a non-tensor");
          best.push_back(t.toTensor());
        }
      } else {
        plain.insert(e.key(), e.value());
      }
    }
    if (!v->isGenericDict()) badExtras(file, "'early_stopping_state_dict' is not a dict");
    const ValueDict es = toValueDict(IValue(plain), "early_stopping_state_dict", file);
    const auto model = stateTensors(*s.model);
    if (!best.empty()) {
      bool ok = best.size() == model.size();
      for (size_t i = 0; ok && i < best.size(); ++i)
        ok = best[i].sizes().equals(model[i].sizes()) &&
             best[i].scalar_type() == model[i].scalar_type();
      if (!ok) badExtras(file, "'early_stopping_state_dict.best_weights' does not match the model");
    }
    tryLoad(*s.early_stopping, es, file);
    return [es, best](TrainState& t) {
      t.early_stopping->loadStateDict(es);
      t.best_weights.clear();
      for (const auto& w : best) t.best_weights.push_back(w.clone().to(t.params.front().device()));
    };
  }
  return [](TrainState& t) { t.best_weights.clear(); };
}

void saveOverfitting(const TrainState& s, const PartSave&, GenericDict& d) {
  if (s.overfitting) d.insert("overfitting_state_dict", toGenericDict(s.overfitting->stateDict()));
}

StateCommit loadOverfitting(TrainState& s, const GenericDict& d, const PartLoad& l) {
  auto v = find(d, "overfitting_state_dict");
  if (!v || !s.overfitting) return [](TrainState&) {};
  ValueDict of = toValueDict(*v, "overfitting_state_dict", l.reader.file);
  tryLoad(*s.overfitting, of, l.reader.file);
  return [of](TrainState& t) { t.overfitting->loadStateDict(of); };
}

// ---- the loss doctor's initial losses and the training-accuracy meter ----

void saveLossDoctor(const TrainState& s, const PartSave& save, GenericDict& d) {
  ValueDict doctor;
  doctor.lists["initial_losses"] = s.initial_losses;
  if (const DoctorGrads* g = save.context.doctor_grads) {
    doctor.lists["first_grads"] = g->first;
    doctor.lists["grad_samples"] = std::vector<double>(g->samples.begin(), g->samples.end());
    doctor.numbers["grad_stride"] = static_cast<double>(g->stride);
    doctor.numbers["grad_seen"] = static_cast<double>(g->seen);
  }
  d.insert("loss_doctor_state_dict", toGenericDict(doctor));
}

namespace {

/// The gradient norms of `doctor` (all four keys, or none: older checkpoints and snapshots);
/// throws Error(Checkpoint) naming the key when one is missing or out of range.
std::optional<DoctorGrads> doctorGrads(const ValueDict& doctor, const std::filesystem::path& file) {
  const bool any = doctor.lists.count("first_grads") || doctor.lists.count("grad_samples") ||
                   doctor.numbers.count("grad_stride") || doctor.numbers.count("grad_seen");
  if (!any) return std::nullopt;
  const auto list = [&](const char* key, size_t most) {
    auto it = doctor.lists.find(key);
    if (it == doctor.lists.end() || it->second.size() > most)
      badExtras(file, std::string("'loss_doctor_state_dict.") + key +
                          "' is missing, not a list or too long");
    for (double v : it->second)
      if (!std::isfinite(v) || v < 0)
        badExtras(file, std::string("'loss_doctor_state_dict.") + key + "' holds a value that is "
                                                                         "not a finite norm");
    return it->second;
  };
  const auto count = [&](const char* key) {
    auto it = doctor.numbers.find(key);
    if (it == doctor.numbers.end() || !(it->second >= 0 && it->second <= 9e15) ||
        it->second != std::floor(it->second))
      badExtras(file, std::string("'loss_doctor_state_dict.") + key +
                          "' is missing or not a count");
    return static_cast<int64_t>(it->second);
  };
  DoctorGrads g;
  g.first = list("first_grads", LossDoctor::kInitialSteps);
  const std::vector<double> samples = list("grad_samples", LossDoctor::kGradSamples);
  g.samples.assign(samples.begin(), samples.end());
  g.stride = count("grad_stride");
  g.seen = count("grad_seen");
  if (g.stride < 1 || (g.stride & (g.stride - 1)) != 0)
    badExtras(file, "'loss_doctor_state_dict.grad_stride' is not a power of two");
  return g;
}

}  // namespace

StateCommit loadLossDoctor(TrainState&, const GenericDict& d, const PartLoad& l) {
  std::vector<double> initial_losses;  // absent from files before issue 19: none
  std::optional<DoctorGrads> grads;    // absent before issue 44 and from snapshots
  if (auto v = find(d, "loss_doctor_state_dict")) {
    const ValueDict doctor = toValueDict(*v, "loss_doctor_state_dict", l.reader.file);
    auto it = doctor.lists.find("initial_losses");
    if (it == doctor.lists.end())
      badExtras(l.reader.file, "'loss_doctor_state_dict.initial_losses' is missing or not a list");
    initial_losses = it->second;
    grads = doctorGrads(doctor, l.reader.file);
  }
  return [initial_losses, grads](TrainState& t) {
    t.initial_losses = initial_losses;
    t.doctor_grads = grads;
  };
}

void saveAccuracyMeter(const TrainState& s, const PartSave&, GenericDict& d) {
  GenericDict acc = makeStringDict();
  acc.insert("correct", s.epoch_correct);
  d.insert("train_accuracy_meter", acc);
}

StateCommit loadAccuracyMeter(TrainState&, const GenericDict& d, const PartLoad& l) {
  int64_t correct = 0;
  if (auto v = find(d, "train_accuracy_meter")) {
    if (!v->isGenericDict()) badExtras(l.reader.file, "'train_accuracy_meter' is not a dict");
    const IValue& c =
        requireKey(v->toGenericDict(), "correct", l.reader.file, "train_accuracy_meter.");
    if (!c.isInt() || c.toInt() < 0)
      badExtras(l.reader.file, "'train_accuracy_meter.correct' is invalid");
    correct = c.toInt();
  }
  return [correct](TrainState& t) { t.epoch_correct = correct; };
}

}  // namespace trainscope
