// The checkpoint's parts (state_parts.h): model, optimizer, scaler, progress, rng, history and
// the keys only written. Layouts mirror PyTorch 1.13 (Module.state_dict(), torch.optim's
// state_dict(): state per parameter index, param_groups with 'params' indices).
#include "core/train/state/state_parts.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/empty.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/config/kinds.h"
#include "core/errors.h"
#include "core/train/state/checkpoint.h"
#include "core/io/checkpoint_file.h"
#include "core/train/state/train_state_io.h"
#include "core/io/json_parse.h"
#include "core/model/state_dict.h"
#include "core/optim/optimizer_family.h"
#include "core/run/epoch_thinning.h"
#include "core/system/clock.h"
#include "core/system/device_info.h"

namespace trainscope {
namespace {

using c10::IValue;
using c10::impl::GenericDict;
using c10::impl::GenericList;

IValue optionalNumber(const std::optional<double>& v) { return v ? IValue(*v) : IValue(); }

std::string paramKey(const at::Tensor& p) { return c10::guts::to_string(p.unsafeGetTensorImpl()); }

StateCommit nothing() {
  return [](TrainState&) {};
}

// ---- format and versions (written only: readCheckpointDict checks the format) ----

void saveFormat(const TrainState&, const PartSave&, GenericDict& d) {
  d.insert("format", std::string(kCheckpointFormat));
  d.insert("format_version", kCheckpointFormatVersion);
}

void saveVersions(const TrainState&, const PartSave&, GenericDict& d) {
  d.insert("torch_version", libtorchVersion());
  d.insert("trainscope_version", std::string(trainscopeVersion()));
  d.insert("saved_at", isoTimeNow());
}

// ---- model: names, shapes and dtypes must match exactly ----

void saveModel(const TrainState& s, const PartSave&, GenericDict& d) {
  GenericDict model = makeStringDict();
  for (const auto& [name, t] : s.model->state_dict()) model.insert(name, t.detach().clone());
  d.insert("model_state_dict", model);
}

StateCommit loadModel(TrainState& s, const GenericDict& d, const PartLoad& l) {
  const CheckpointReader& r = l.reader;
  GenericDict model = r.dict(d, "model_state_dict", "");
  std::vector<std::pair<std::string, at::Tensor>> entries;
  std::vector<std::string> not_tensors;
  for (const auto& e : model) {
    if (!e.key().isString()) r.bad("'model_state_dict' has a key that is not a string");
    if (e.value().isTensor()) {
      entries.emplace_back(e.key().toStringRef(), e.value().toTensor());
    } else {
      not_tensors.push_back(e.key().toStringRef() + " is not a tensor");
    }
  }
  auto match = std::make_shared<StateMatch>(matchState(*s.model, entries, /*same_dtype=*/true));
  match->problems.insert(match->problems.end(), not_tensors.begin(), not_tensors.end());
  if (!match->problems.empty()) {
    std::string list;
    for (const auto& p : match->problems) list += "\n  " + p;
    r.bad("the model does not match the checkpoint (a different architecture?):" + list);
  }
  return [match](TrainState&) { applyState(*match); };
}

// ---- optimizer: torch.optim's layout, written and read by the optimizer's family ----

void saveOptimizer(const TrainState& s, const PartSave& save, GenericDict& d) {
  const OptimizerFamily& family = *optimizerKind(save.context.optimizer_name).family;
  std::map<std::string, int64_t> index;
  for (size_t i = 0; i < s.params.size(); ++i) index[paramKey(s.params[i])] = i;
  const torch::optim::Optimizer& opt = *s.optimizer;
  GenericDict state(c10::IntType::get(), c10::AnyType::get());
  for (size_t i = 0; i < s.params.size(); ++i) {
    auto it = opt.state().find(paramKey(s.params[i]));
    if (it == opt.state().end()) continue;
    state.insert(static_cast<int64_t>(i), family.save_param_state(*it->second));
  }
  GenericList groups(c10::AnyType::get());
  for (const auto& g : opt.param_groups()) {
    GenericDict group = makeStringDict();
    family.save_group(g.options(), group);
    GenericList idx(c10::IntType::get());
    for (const auto& p : g.params()) idx.push_back(index.at(paramKey(p)));
    group.insert("params", idx);
    groups.push_back(group);
  }
  GenericDict out = makeStringDict();
  out.insert("state", state);
  out.insert("param_groups", groups);
  d.insert("optimizer_state_dict", out);
}

StateCommit loadOptimizer(TrainState& s, const GenericDict& d, const PartLoad& l) {
  const CheckpointReader& r = l.reader;
  {
    const IValue& cfg = r.at(d, "config", "");
    std::string name;
    try {
      name = parseJson(cfg.isString() ? cfg.toStringRef() : std::string("{}"))
                 .at("optimizer")
                 .at("name")
                 .get<std::string>();
    } catch (const std::exception&) {
      r.bad("'config' is not a valid TrainScope config");
    }
    if (name != l.optimizer_name)
      r.bad("the checkpoint's optimizer is '" + name + "', this run's is '" + l.optimizer_name +
            "'");
  }
  const OptimizerFamily& family = *optimizerKind(l.optimizer_name).family;
  GenericDict opt = r.dict(d, "optimizer_state_dict", "");
  const IValue& groups_v = r.at(opt, "param_groups", "optimizer_state_dict.");
  if (!groups_v.isList()) r.bad("'optimizer_state_dict.param_groups' is not a list");
  const auto& groups = s.optimizer->param_groups();
  if (groups_v.toListRef().size() != groups.size())
    r.bad("the optimizer has " + std::to_string(groups.size()) + " parameter groups, the file " +
          std::to_string(groups_v.toListRef().size()));
  auto options = std::make_shared<std::vector<std::unique_ptr<torch::optim::OptimizerOptions>>>();
  const std::string gw = "optimizer_state_dict.param_groups.";
  for (size_t g = 0; g < groups.size(); ++g) {
    const IValue& gv = groups_v.toListRef()[g];
    if (!gv.isGenericDict()) r.bad("a parameter group is not a dict");
    GenericDict gd = gv.toGenericDict();
    const IValue& params = r.at(gd, "params", gw);
    if (!params.isList() || params.toListRef().size() != groups[g].params().size())
      r.bad("parameter group " + std::to_string(g) + " has another number of parameters");
    options->push_back(family.load_group(r, gd, groups[g].options(), gw));
  }
  GenericDict ostate = r.dict(opt, "state", "optimizer_state_dict.");
  using StateMap =
      ska::flat_hash_map<std::string, std::unique_ptr<torch::optim::OptimizerParamState>>;
  auto new_state = std::make_shared<StateMap>();
  for (const auto& e : ostate) {
    if (!e.key().isInt()) r.bad("'optimizer_state_dict.state' has a key that is not an index");
    const int64_t i = e.key().toInt();
    if (i < 0 || i >= static_cast<int64_t>(s.params.size()))
      r.bad("optimizer state for parameter " + std::to_string(i) + ", the model has " +
            std::to_string(s.params.size()));
    if (!e.value().isGenericDict()) r.bad("optimizer state " + std::to_string(i) + " not a dict");
    const std::string where = "optimizer_state_dict.state." + std::to_string(i) + ".";
    const at::Tensor& p = s.params[i];
    (*new_state)[paramKey(p)] = family.load_param_state(r, e.value().toGenericDict(), p, where);
  }
  return [options, new_state](TrainState& t) {
    auto& groups = t.optimizer->param_groups();
    for (size_t g = 0; g < groups.size(); ++g) groups[g].set_options(std::move((*options)[g]));
    t.optimizer->state() = std::move(*new_state);
  };
}

// ---- GradScaler (where present, ARCHITECTURE §5; ignored by a run without one) ----

void saveScaler(const TrainState& s, const PartSave&, GenericDict& d) {
  if (s.scaler) d.insert("scaler_state_dict", s.scaler->stateDict());
}

StateCommit loadScaler(TrainState& s, const GenericDict& d, const PartLoad& l) {
  if (!s.scaler || !d.contains("scaler_state_dict")) return nothing();
  auto scaler = std::make_shared<GradScaler>(s.scaler->options());
  scaler->loadStateDict(l.reader.dict(d, "scaler_state_dict", ""), l.reader.file);
  return [scaler](TrainState& t) { *t.scaler = *scaler; };
}

// ---- progress: counters, best loss, the current epoch's loss meter ----

void saveProgress(const TrainState& s, const PartSave&, GenericDict& d) {
  d.insert("epoch", s.epochs_completed);
  d.insert("global_step", s.global_step);
  d.insert("batch_in_epoch", s.batch_in_epoch);
  d.insert("best_loss", optionalNumber(s.best_monitored));  // of `monitor`
  d.insert("monitor", s.monitor);
  d.insert("best_epoch", s.best_epoch);
  GenericDict meter = makeStringDict();
  meter.insert("sum", s.epoch_loss.sum());
  meter.insert("count", s.epoch_loss.count());
  d.insert("train_loss_meter", meter);
}

StateCommit loadProgress(TrainState&, const GenericDict& d, const PartLoad& l) {
  const CheckpointReader& r = l.reader;
  const int64_t epoch = r.integer(d, "epoch", "");
  const int64_t global_step = r.integer(d, "global_step", "");
  const int64_t batch_in_epoch = r.integer(d, "batch_in_epoch", "");
  const int64_t best_epoch = r.integer(d, "best_epoch", "");
  std::optional<double> best;
  if (!r.at(d, "best_loss", "").isNone()) best = r.number(d, "best_loss", "");
  checkCheckpointCounters(r.file, epoch, global_step, batch_in_epoch, best_epoch);
  GenericDict meter = r.dict(d, "train_loss_meter", "");
  const double sum = r.number(meter, "sum", "train_loss_meter.");
  const int64_t count = r.integer(meter, "count", "train_loss_meter.");
  return [=](TrainState& t) {
    t.epochs_completed = epoch;
    t.global_step = global_step;
    t.batch_in_epoch = batch_in_epoch;
    t.best_monitored = best;
    t.best_epoch = best_epoch;
    t.epoch_loss = AverageMeter::restored(sum, count);
  };
}

// ---- config and seed (written only: the optimizer part checks the config's optimizer) ----

void saveConfig(const TrainState& s, const PartSave& save, GenericDict& d) {
  d.insert("config", save.context.config_json);
  d.insert("seed", s.seed);
}

// ---- the data's shape, task and preprocessing (written only: the data is loaded from the
// config; recorded so the model can be evaluated outside TrainScope with the same inputs) ----

c10::List<std::string> stringList(const std::vector<std::string>& v) {
  c10::List<std::string> list;
  for (const std::string& s : v) list.push_back(s);
  return list;
}

void saveData(const TrainState&, const PartSave& save, GenericDict& d) {
  const DataSummary& s = save.context.data;
  const Preprocessing& p = s.preprocessing;
  GenericDict pre = makeStringDict();
  pre.insert("pixel_scale", p.pixel_scale);
  pre.insert("standardize", p.standardize);
  pre.insert("mean", c10::List<double>(p.mean));
  pre.insert("std", c10::List<double>(p.std));
  pre.insert("target_scale", p.target_scale);
  GenericDict data = makeStringDict();
  data.insert("source", s.source);
  data.insert("task", s.task);
  data.insert("input_shape", c10::List<int64_t>(s.input_shape));
  data.insert("image_shape", c10::List<int64_t>(s.image_shape));
  data.insert("x_dtype", s.x_dtype);
  data.insert("outputs", s.outputs);
  data.insert("class_names", stringList(s.class_names));
  data.insert("feature_names", stringList(s.feature_names));
  data.insert("preprocessing", pre);
  // The data files the run read: a list of dicts, as run.json's data.files.
  c10::impl::GenericList files(c10::AnyType::get());
  for (const DataFile& f : s.files) {
    GenericDict entry = makeStringDict();
    entry.insert("key", f.key);
    entry.insert("path", f.path);
    entry.insert("size", f.size);
    entry.insert("mtime_ns", f.mtime_ns);
    entry.insert("sha256", f.sha256);
    files.push_back(entry);
  }
  data.insert("files", files);
  d.insert("data", data);
}

// ---- RNG states: torch's CPU generator now, the shuffle generator at the epoch start ----

void saveRng(const TrainState& s, const PartSave&, GenericDict& d) {
  GenericDict rng = makeStringDict();
  {
    at::Generator gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    rng.insert("torch_cpu", gen.get_state());
  }
  rng.insert("shuffle", s.epoch_start_shuffle_state.clone());
  // The data split and limit are drawn from data.seed (in `config`); CUDA generator states
  // would go here once TrainScope trains on CUDA with dropout.
  rng.insert("cuda", GenericList(c10::AnyType::get()));
  d.insert("rng_state", rng);
}

StateCommit loadRng(TrainState&, const GenericDict& d, const PartLoad& l) {
  const CheckpointReader& r = l.reader;
  GenericDict rng = r.dict(d, "rng_state", "");
  at::Tensor cpu_state = r.tensor(rng, "torch_cpu", "rng_state.");
  at::Tensor shuffle_state = r.tensor(rng, "shuffle", "rng_state.");
  for (const at::Tensor* t : {&cpu_state, &shuffle_state}) {
    try {  // a throwaway generator checks size and dtype before the real ones change
      at::Generator probe = at::make_generator<at::CPUGeneratorImpl>();
      probe.set_state(*t);
    } catch (const c10::Error& e) {
      r.bad("invalid RNG state (" + std::string(e.what_without_backtrace()) + ")");
    }
  }
  return [cpu_state, shuffle_state](TrainState& t) {
    {
      at::Generator gen = at::detail::getDefaultCPUGenerator();
      std::lock_guard<std::mutex> lock(gen.mutex());
      gen.set_state(cpu_state);
    }
    t.shuffle_gen.set_state(shuffle_state);
    t.epoch_start_shuffle_state = shuffle_state.clone();
  };
}

// ---- the run that wrote the checkpoint (written only: resumeState reads it) ----

void saveSourceRun(const TrainState&, const PartSave& save, GenericDict& d) {
  d.insert("source_run_dir", save.context.source_run_dir);
}

// ---- history: every completed epoch's record ----

void saveHistory(const TrainState& s, const PartSave& save, GenericDict& d) {
  if (!save.with_history) return;
  const std::vector<EpochRecord> h = historyWithBest(s.history, s.best_record);
  d.insert("history", historyColumns(h, h.size()));
}

StateCommit loadHistory(TrainState&, const GenericDict& d, const PartLoad& l) {
  // Parsed by the torch-free reader, which checks every field.
  auto history = std::make_shared<std::vector<EpochRecord>>(readHistory(d, l.reader.file));
  return [history](TrainState& t) {
    // best_epoch's record apart (the progress part committed best_epoch), then the history as
    // the thinning rule keeps it: a checkpoint holds the best epoch too, and one an older
    // TrainScope wrote holds every epoch.
    t.best_record.reset();
    const auto best = std::lower_bound(
        history->begin(), history->end(), t.best_epoch,
        [](const EpochRecord& r, int64_t epoch) { return r.epoch < epoch; });
    if (best != history->end() && best->epoch == t.best_epoch) t.best_record = *best;
    thinToRule(*history, [](const EpochRecord& r) { return r.epoch; });
    t.history = std::move(*history);
    t.last_epoch.reset();
    if (!t.history.empty()) t.last_epoch = t.history.back();
  };
}

}  // namespace

std::vector<EpochRecord> historyWithBest(const std::vector<EpochRecord>& history,
                                         const std::optional<EpochRecord>& best, int64_t last) {
  const auto epochBelow = [](const EpochRecord& r, int64_t epoch) { return r.epoch < epoch; };
  auto end = std::lower_bound(history.begin(), history.end(), last, epochBelow);
  if (end != history.end() && end->epoch == last) ++end;
  std::vector<EpochRecord> out(history.begin(), end);
  if (best && best->epoch <= last) {
    const auto at = std::lower_bound(out.begin(), out.end(), best->epoch, epochBelow);
    if (at == out.end() || at->epoch != best->epoch) out.insert(at, *best);
  }
  return out;
}

GenericDict historyColumns(const std::vector<EpochRecord>& history, size_t n) {
  n = std::min(n, history.size());
  const auto count = static_cast<int64_t>(n);
  auto column = [&](auto get, c10::ScalarType dtype) {
    at::Tensor t = at::empty({count}, at::TensorOptions().dtype(dtype));
    if (dtype == at::kLong) {
      int64_t* p = t.data_ptr<int64_t>();
      for (size_t i = 0; i < n; ++i) p[i] = static_cast<int64_t>(get(history[i]));
    } else {
      double* p = t.data_ptr<double>();
      for (size_t i = 0; i < n; ++i) p[i] = static_cast<double>(get(history[i]));
    }
    return t;
  };
  GenericDict h = makeStringDict();
  h.insert("epoch", column([](const EpochRecord& r) { return r.epoch; }, at::kLong));
  h.insert("step", column([](const EpochRecord& r) { return r.step; }, at::kLong));
  h.insert("train_loss", column([](const EpochRecord& r) { return r.train_loss; }, at::kDouble));
  h.insert("val_loss", column([](const EpochRecord& r) { return r.val_loss; }, at::kDouble));
  h.insert("lr", column([](const EpochRecord& r) { return r.lr; }, at::kDouble));
  h.insert("epoch_seconds", column([](const EpochRecord& r) { return r.epoch_seconds; }, at::kDouble));
  h.insert("samples_per_second",
           column([](const EpochRecord& r) { return r.samples_per_second; }, at::kDouble));
  // Values an epoch may lack (accuracy of a regression run): NaN there, and "present" says
  // which epochs have one (a NaN may also be a value).
  GenericDict present = makeStringDict();
  for (const auto& [name, field] : historyOptionalFields()) {
    h.insert(name, column([field = field](const EpochRecord& r) {
               return (r.*field).value_or(std::numeric_limits<double>::quiet_NaN());
             }, at::kDouble));
    at::Tensor mask = at::empty({count}, at::TensorOptions().dtype(at::kBool));
    bool* m = mask.data_ptr<bool>();
    for (size_t i = 0; i < n; ++i) m[i] = (history[i].*field).has_value();
    present.insert(name, mask);
  }
  h.insert("present", present);
  return h;
}

const std::vector<StatePart>& stateParts() {
  static const std::vector<StatePart> parts = {
      {"format", &saveFormat, nullptr},
      {"model", &saveModel, &loadModel},
      {"optimizer", &saveOptimizer, &loadOptimizer},
      {"scaler", &saveScaler, &loadScaler},
      {"progress", &saveProgress, &loadProgress},
      {"config", &saveConfig, nullptr},
      {"data", &saveData, nullptr},
      {"rng", &saveRng, &loadRng},
      {"source_run", &saveSourceRun, nullptr},
      {"history", &saveHistory, &loadHistory},
      {"scheduler", &saveScheduler, &loadScheduler},
      {"early_stopping", &saveEarlyStopping, &loadEarlyStopping},
      {"overfitting", &saveOverfitting, &loadOverfitting},
      {"loss_doctor", &saveLossDoctor, &loadLossDoctor},
      {"accuracy_meter", &saveAccuracyMeter, &loadAccuracyMeter},
      {"versions", &saveVersions, nullptr},
  };
  return parts;
}

}  // namespace trainscope
