#include "core/train/train_state_extras.h"

#include <torch/nn/module.h>

#include "core/errors.h"
#include "core/io/checkpoint_file.h"

namespace trainscope {

namespace {

using c10::IValue;
using c10::impl::GenericDict;
using c10::impl::GenericList;

[[noreturn]] void bad(const std::filesystem::path& file, const std::string& problem) {
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
  if (!v.isGenericDict()) bad(file, "'" + key + "' is not a dict");
  ValueDict out;
  auto number = [&](const IValue& x, const std::string& name) {
    if (x.isDouble()) return x.toDouble();
    if (x.isInt()) return static_cast<double>(x.toInt());
    bad(file, "'" + key + "." + name + "' is not a number");
  };
  for (const auto& e : v.toGenericDict()) {
    if (!e.key().isString()) bad(file, "'" + key + "' has a key that is not a string");
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

void captureExtras(const TrainState& s, GenericDict& d) {
  if (s.scheduler) d.insert("scheduler_state_dict", toGenericDict(s.scheduler->stateDict()));
  if (s.early_stopping) {
    GenericDict es = toGenericDict(s.early_stopping->stateDict());
    if (!s.best_weights.empty()) {
      GenericList w(c10::TensorType::get());
      for (const auto& t : s.best_weights) w.push_back(t.clone());
      es.insert("best_weights", w);
    }
    d.insert("early_stopping_state_dict", es);
  }
  if (s.overfitting) d.insert("overfitting_state_dict", toGenericDict(s.overfitting->stateDict()));
  ValueDict doctor;
  doctor.lists["initial_losses"] = s.initial_losses;
  d.insert("loss_doctor_state_dict", toGenericDict(doctor));
  GenericDict acc = makeStringDict();
  acc.insert("correct", s.epoch_correct);
  d.insert("train_accuracy_meter", acc);
}

void restoreExtras(TrainState& s, const GenericDict& d, const std::filesystem::path& file) {
  // Parsed first: values and the best weights' shapes.
  auto find = [&](const char* key) -> std::optional<IValue> {
    auto it = d.find(key);
    if (it == d.end()) return std::nullopt;
    return it->value();
  };
  std::optional<ValueDict> sched, es, of;
  std::vector<at::Tensor> best;
  int64_t correct = 0;
  std::optional<std::vector<double>> initial_losses;  // absent from files before issue 19
  if (auto v = find("scheduler_state_dict"); v && s.scheduler)
    sched = toValueDict(*v, "scheduler_state_dict", file);
  if (auto v = find("early_stopping_state_dict"); v && s.early_stopping) {
    GenericDict raw = v->isGenericDict() ? v->toGenericDict() : makeStringDict();
    GenericDict plain = makeStringDict();
    for (const auto& e : raw) {
      if (e.key().isString() && e.key().toStringRef() == "best_weights") {
        if (!e.value().isList())
          bad(file, "'early_stopping_state_dict.best_weights' is not a list");
        for (const IValue& t : e.value().toListRef()) {
          if (!t.isTensor())
            bad(file, "'early_stopping_state_dict.best_weights' holds a non-tensor");
          best.push_back(t.toTensor());
        }
      } else {
        plain.insert(e.key(), e.value());
      }
    }
    if (!v->isGenericDict()) bad(file, "'early_stopping_state_dict' is not a dict");
    es = toValueDict(IValue(plain), "early_stopping_state_dict", file);
    const auto model = stateTensors(*s.model);
    if (!best.empty()) {
      bool ok = best.size() == model.size();
      for (size_t i = 0; ok && i < best.size(); ++i)
        ok = best[i].sizes().equals(model[i].sizes()) &&
             best[i].scalar_type() == model[i].scalar_type();
      if (!ok) bad(file, "'early_stopping_state_dict.best_weights' does not match the model");
    }
  }
  if (auto v = find("overfitting_state_dict"); v && s.overfitting)
    of = toValueDict(*v, "overfitting_state_dict", file);
  if (auto v = find("loss_doctor_state_dict")) {
    const ValueDict doctor = toValueDict(*v, "loss_doctor_state_dict", file);
    auto it = doctor.lists.find("initial_losses");
    if (it == doctor.lists.end())
      bad(file, "'loss_doctor_state_dict.initial_losses' is missing or not a list");
    initial_losses = it->second;
  }
  if (auto v = find("train_accuracy_meter")) {
    if (!v->isGenericDict()) bad(file, "'train_accuracy_meter' is not a dict");
    const IValue& c = requireKey(v->toGenericDict(), "correct", file, "train_accuracy_meter.");
    if (!c.isInt() || c.toInt() < 0) bad(file, "'train_accuracy_meter.correct' is invalid");
    correct = c.toInt();
  }

  // Loaded with rollback: a bad dict leaves the state as it was.
  std::optional<ValueDict> sched_before, es_before, of_before;
  try {
    if (sched) {
      sched_before = s.scheduler->stateDict();
      s.scheduler->loadStateDict(*sched);
    }
    if (es) {
      es_before = s.early_stopping->stateDict();
      s.early_stopping->loadStateDict(*es);
    }
    if (of) {
      of_before = s.overfitting->stateDict();
      s.overfitting->loadStateDict(*of);
    }
  } catch (const std::out_of_range& e) {
    if (sched_before) s.scheduler->loadStateDict(*sched_before);
    if (es_before) s.early_stopping->loadStateDict(*es_before);
    if (of_before) s.overfitting->loadStateDict(*of_before);
    bad(file, std::string("scheduler or monitor state: ") + e.what());
  }
  s.best_weights.clear();
  for (const auto& t : best) s.best_weights.push_back(t.clone().to(s.params.front().device()));
  s.epoch_correct = correct;
  s.initial_losses = initial_losses.value_or(std::vector<double>{});
}

}  // namespace trainscope
