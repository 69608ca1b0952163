// TrainState <-> checkpoint dict. Layouts mirror PyTorch 1.13 (checked with Python torch 1.13's
// Module.state_dict() and torch.optim.{SGD,Adam,AdamW}.state_dict()): Adam's 'step' is a float32
// scalar tensor, hyperparameters are Python floats/bools, betas a tuple, 'params' indices.
#include "core/train/train_state_io.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>

#include <cmath>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/io/checkpoint.h"
#include "core/io/checkpoint_file.h"
#include "core/system/clock.h"
#include "core/system/device_info.h"
#include "core/model/state_dict.h"
#include "core/train/train_state_extras.h"

namespace trainscope {
namespace {

using c10::IValue;
using c10::impl::GenericDict;
using c10::impl::GenericList;
using Path = std::filesystem::path;

[[noreturn]] void bad(const Path& file, const std::string& problem) {
  throw Error(ErrorCode::Checkpoint, file.string(),
              "cannot load checkpoint " + file.string() + ": " + problem);
}

std::string paramKey(const at::Tensor& p) { return c10::guts::to_string(p.unsafeGetTensorImpl()); }

IValue optionalNumber(const std::optional<double>& v) { return v ? IValue(*v) : IValue(); }

GenericDict captureOptimizer(const TrainState& s, const std::string& name) {
  std::map<std::string, int64_t> index;
  for (size_t i = 0; i < s.params.size(); ++i) index[paramKey(s.params[i])] = i;
  auto& opt = *s.optimizer;
  GenericDict state(c10::IntType::get(), c10::AnyType::get());
  for (size_t i = 0; i < s.params.size(); ++i) {
    auto it = opt.state().find(paramKey(s.params[i]));
    if (it == opt.state().end()) continue;
    GenericDict st = makeStringDict();
    if (name == "sgd") {
      auto& ps = static_cast<torch::optim::SGDParamState&>(*it->second);
      st.insert("momentum_buffer", ps.momentum_buffer().detach().clone());
    } else {
      auto& ps = static_cast<torch::optim::AdamParamState&>(*it->second);  // AdamW's has the
      // same members; both are read through their own type below.
      if (name == "adamw") {
        auto& w = static_cast<torch::optim::AdamWParamState&>(*it->second);
        st.insert("step", at::scalar_tensor(static_cast<double>(w.step()), at::kFloat));
        st.insert("exp_avg", w.exp_avg().detach().clone());
        st.insert("exp_avg_sq", w.exp_avg_sq().detach().clone());
        if (w.max_exp_avg_sq().defined())
          st.insert("max_exp_avg_sq", w.max_exp_avg_sq().detach().clone());
      } else {
        st.insert("step", at::scalar_tensor(static_cast<double>(ps.step()), at::kFloat));
        st.insert("exp_avg", ps.exp_avg().detach().clone());
        st.insert("exp_avg_sq", ps.exp_avg_sq().detach().clone());
        if (ps.max_exp_avg_sq().defined())
          st.insert("max_exp_avg_sq", ps.max_exp_avg_sq().detach().clone());
      }
    }
    state.insert(static_cast<int64_t>(i), st);
  }
  GenericList groups(c10::AnyType::get());
  for (const auto& g : opt.param_groups()) {
    GenericDict d = makeStringDict();
    if (name == "sgd") {
      const auto& o = static_cast<const torch::optim::SGDOptions&>(g.options());
      d.insert("lr", o.lr());
      d.insert("momentum", o.momentum());
      d.insert("dampening", o.dampening());
      d.insert("weight_decay", o.weight_decay());
      d.insert("nesterov", o.nesterov());
      d.insert("maximize", false);
      d.insert("foreach", IValue());
      d.insert("differentiable", false);
    } else {
      double lr, eps, wd;
      std::tuple<double, double> betas;
      bool amsgrad;
      if (name == "adamw") {
        const auto& o = static_cast<const torch::optim::AdamWOptions&>(g.options());
        lr = o.lr(), eps = o.eps(), wd = o.weight_decay(), betas = o.betas(), amsgrad = o.amsgrad();
      } else {
        const auto& o = static_cast<const torch::optim::AdamOptions&>(g.options());
        lr = o.lr(), eps = o.eps(), wd = o.weight_decay(), betas = o.betas(), amsgrad = o.amsgrad();
      }
      d.insert("lr", lr);
      d.insert("betas", c10::ivalue::Tuple::create({std::get<0>(betas), std::get<1>(betas)}));
      d.insert("eps", eps);
      d.insert("weight_decay", wd);
      d.insert("amsgrad", amsgrad);
      d.insert("maximize", false);
      d.insert("foreach", IValue());
      d.insert("capturable", false);
      if (name == "adam") d.insert("differentiable", false), d.insert("fused", false);
    }
    GenericList idx(c10::IntType::get());
    for (const auto& p : g.params()) idx.push_back(index.at(paramKey(p)));
    d.insert("params", idx);
    groups.push_back(d);
  }
  GenericDict out = makeStringDict();
  out.insert("state", state);
  out.insert("param_groups", groups);
  return out;
}

// ---- reading helpers: every accessor checks the type and names the key ----

struct Reader {
  const Path& file;
  const IValue& at(const GenericDict& d, const std::string& key, const std::string& where) const {
    return requireKey(d, key, file, where);
  }
  GenericDict dict(const GenericDict& d, const std::string& key, const std::string& where) const {
    const IValue& v = at(d, key, where);
    if (!v.isGenericDict()) bad(file, "'" + where + key + "' is not a dict");
    return v.toGenericDict();
  }
  int64_t integer(const GenericDict& d, const std::string& key, const std::string& where) const {
    const IValue& v = at(d, key, where);
    if (!v.isInt()) bad(file, "'" + where + key + "' is not an integer");
    return v.toInt();
  }
  double number(const GenericDict& d, const std::string& key, const std::string& where) const {
    const IValue& v = at(d, key, where);
    if (v.isDouble()) return v.toDouble();
    if (v.isInt()) return static_cast<double>(v.toInt());
    bad(file, "'" + where + key + "' is not a number");
  }
  bool boolean(const GenericDict& d, const std::string& key, const std::string& where) const {
    const IValue& v = at(d, key, where);
    if (!v.isBool()) bad(file, "'" + where + key + "' is not true/false");
    return v.toBool();
  }
  at::Tensor tensor(const GenericDict& d, const std::string& key, const std::string& where) const {
    const IValue& v = at(d, key, where);
    if (!v.isTensor()) bad(file, "'" + where + key + "' is not a tensor");
    return v.toTensor();
  }
};

/// Hyperparameters of one param group, read before anything is applied.
struct GroupOptions {
  double lr = 0, momentum = 0, dampening = 0, weight_decay = 0, eps = 0, beta1 = 0, beta2 = 0;
  bool nesterov = false, amsgrad = false;
};

}  // namespace

GenericList historyList(const std::vector<EpochRecord>& history, size_t n) {
  GenericList list(c10::AnyType::get());
  for (size_t i = 0; i < n && i < history.size(); ++i) {
    const EpochRecord& r = history[i];
    GenericDict h = makeStringDict();
    h.insert("epoch", r.epoch);
    h.insert("step", r.step);
    h.insert("train_loss", r.train_loss);
    h.insert("val_loss", r.val_loss);
    h.insert("val_accuracy", optionalNumber(r.val_accuracy));
    h.insert("lr", r.lr);
    h.insert("epoch_seconds", r.epoch_seconds);
    h.insert("samples_per_second", r.samples_per_second);
    h.insert("train_accuracy", optionalNumber(r.train_accuracy));
    list.push_back(h);
  }
  return list;
}

GenericDict captureState(const TrainState& s, const CheckpointContext& ctx, bool with_history) {
  GenericDict d = makeStringDict();
  d.insert("format", std::string(kCheckpointFormat));
  d.insert("format_version", kCheckpointFormatVersion);
  GenericDict model = makeStringDict();
  for (const auto& [name, t] : s.model->state_dict()) model.insert(name, t.detach().clone());
  d.insert("model_state_dict", model);
  d.insert("optimizer_state_dict", captureOptimizer(s, ctx.optimizer_name));
  if (s.scaler) d.insert("scaler_state_dict", s.scaler->stateDict());  // where present (§5)
  d.insert("epoch", s.epochs_completed);
  d.insert("global_step", s.global_step);
  d.insert("batch_in_epoch", s.batch_in_epoch);
  d.insert("best_loss", optionalNumber(s.best_val_loss));
  d.insert("best_epoch", s.best_epoch);
  GenericDict meter = makeStringDict();
  meter.insert("sum", s.epoch_loss.sum());
  meter.insert("count", s.epoch_loss.count());
  d.insert("train_loss_meter", meter);
  d.insert("config", ctx.config_json);
  d.insert("seed", s.seed);
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
  d.insert("source_run_dir", ctx.source_run_dir);
  if (with_history) d.insert("history", historyList(s.history, s.history.size()));
  captureExtras(s, d);
  d.insert("torch_version", libtorchVersion());
  d.insert("trainscope_version", std::string(trainscopeVersion()));
  d.insert("saved_at", isoTimeNow());
  return d;
}

void saveCheckpoint(const TrainState& state, const CheckpointContext& context, const Path& file) {
  writeCheckpointDict(file, captureState(state, context));
}

void restoreState(TrainState& s, const GenericDict& d, const std::string& optimizer_name,
                  const Path& file) {
  Reader r{file};
  // ---- model: names, shapes and dtypes must match exactly ----
  GenericDict model = r.dict(d, "model_state_dict", "");
  std::vector<std::pair<std::string, at::Tensor>> entries;
  std::vector<std::string> not_tensors;
  for (const auto& e : model) {
    if (!e.key().isString()) bad(file, "'model_state_dict' has a key that is not a string");
    if (e.value().isTensor()) {
      entries.emplace_back(e.key().toStringRef(), e.value().toTensor());
    } else {
      not_tensors.push_back(e.key().toStringRef() + " is not a tensor");
    }
  }
  StateMatch match = matchState(*s.model, entries, /*same_dtype=*/true);
  match.problems.insert(match.problems.end(), not_tensors.begin(), not_tensors.end());
  if (!match.problems.empty()) {
    std::string list;
    for (const auto& p : match.problems) list += "\n  " + p;
    bad(file, "the model does not match the checkpoint (a different architecture?):" + list);
  }

  // ---- optimizer ----
  {
    const IValue& cfg = r.at(d, "config", "");
    std::string name;
    try {
      name = nlohmann::json::parse(cfg.isString() ? cfg.toStringRef() : std::string("{}"))
                 .at("optimizer")
                 .at("name")
                 .get<std::string>();
    } catch (const std::exception&) {
      bad(file, "'config' is not a valid TrainScope config");
    }
    if (name != optimizer_name)
      bad(file,
          "the checkpoint's optimizer is '" + name + "', this run's is '" + optimizer_name + "'");
  }
  GenericDict opt = r.dict(d, "optimizer_state_dict", "");
  const IValue& groups_v = r.at(opt, "param_groups", "optimizer_state_dict.");
  if (!groups_v.isList()) bad(file, "'optimizer_state_dict.param_groups' is not a list");
  auto& groups = s.optimizer->param_groups();
  if (groups_v.toListRef().size() != groups.size())
    bad(file, "the optimizer has " + std::to_string(groups.size()) +
                  " parameter groups, the file " + std::to_string(groups_v.toListRef().size()));
  std::vector<GroupOptions> options;
  const std::string gw = "optimizer_state_dict.param_groups.";
  for (size_t g = 0; g < groups.size(); ++g) {
    const IValue& gv = groups_v.toListRef()[g];
    if (!gv.isGenericDict()) bad(file, "a parameter group is not a dict");
    GenericDict gd = gv.toGenericDict();
    const IValue& params = r.at(gd, "params", gw);
    if (!params.isList() || params.toListRef().size() != groups[g].params().size())
      bad(file, "parameter group " + std::to_string(g) + " has another number of parameters");
    GroupOptions o;
    o.lr = r.number(gd, "lr", gw);
    o.weight_decay = r.number(gd, "weight_decay", gw);
    if (optimizer_name == "sgd") {
      o.momentum = r.number(gd, "momentum", gw);
      o.dampening = r.number(gd, "dampening", gw);
      o.nesterov = r.boolean(gd, "nesterov", gw);
    } else {
      o.eps = r.number(gd, "eps", gw);
      o.amsgrad = r.boolean(gd, "amsgrad", gw);
      const IValue& b = r.at(gd, "betas", gw);
      if (!b.isTuple() || b.toTupleRef().elements().size() != 2)
        bad(file, "'" + gw + "betas' is not a pair");
      auto num = [&](const IValue& v) {
        if (v.isDouble()) return v.toDouble();
        if (v.isInt()) return static_cast<double>(v.toInt());
        bad(file, "'" + gw + "betas' is not a pair of numbers");
      };
      o.beta1 = num(b.toTupleRef().elements()[0]);
      o.beta2 = num(b.toTupleRef().elements()[1]);
    }
    options.push_back(o);
  }
  GenericDict ostate = r.dict(opt, "state", "optimizer_state_dict.");
  ska::flat_hash_map<std::string, std::unique_ptr<torch::optim::OptimizerParamState>> new_state;
  for (const auto& e : ostate) {
    if (!e.key().isInt()) bad(file, "'optimizer_state_dict.state' has a key that is not an index");
    const int64_t i = e.key().toInt();
    if (i < 0 || i >= static_cast<int64_t>(s.params.size()))
      bad(file, "optimizer state for parameter " + std::to_string(i) + ", the model has " +
                    std::to_string(s.params.size()));
    if (!e.value().isGenericDict())
      bad(file, "optimizer state " + std::to_string(i) + " not a dict");
    GenericDict st = e.value().toGenericDict();
    const std::string where = "optimizer_state_dict.state." + std::to_string(i) + ".";
    const at::Tensor& p = s.params[i];
    auto buffer = [&](const char* key) {
      at::Tensor t = r.tensor(st, key, where);
      if (!t.sizes().equals(p.sizes()) || t.scalar_type() != p.scalar_type())
        bad(file, "'" + where + key + "' is " + shapeText(t) + " " + dtypeName(t.scalar_type()) +
                      ", the parameter " + shapeText(p) + " " + dtypeName(p.scalar_type()));
      return t.clone().to(p.device());
    };
    if (optimizer_name == "sgd") {
      auto ps = std::make_unique<torch::optim::SGDParamState>();
      ps->momentum_buffer(buffer("momentum_buffer"));
      new_state[paramKey(p)] = std::move(ps);
    } else {
      const IValue& sv = r.at(st, "step", where);
      if (sv.isTensor() && sv.toTensor().numel() != 1)
        bad(file, "'" + where + "step' is a tensor of " + shapeText(sv.toTensor()) +
                      ", expected one number (the parameter's update count)");
      double step = sv.isTensor() ? sv.toTensor().item<double>()
                                  : (sv.isInt() ? static_cast<double>(sv.toInt()) : -1);
      if (!(step >= 0) || std::floor(step) != step ||
          step > static_cast<double>(kMaxCheckpointStep))
        bad(file, "'" + where + "step' is invalid (a whole number 0..2^53 expected)");
      auto fill = [&](auto ps) {
        ps->step(static_cast<int64_t>(step));
        ps->exp_avg(buffer("exp_avg"));
        ps->exp_avg_sq(buffer("exp_avg_sq"));
        if (st.contains("max_exp_avg_sq")) ps->max_exp_avg_sq(buffer("max_exp_avg_sq"));
        new_state[paramKey(p)] = std::move(ps);
      };
      if (optimizer_name == "adamw") {
        fill(std::make_unique<torch::optim::AdamWParamState>());
      } else {
        fill(std::make_unique<torch::optim::AdamParamState>());
      }
    }
  }

  // ---- counters, meters, RNG states, history ----
  const int64_t epoch = r.integer(d, "epoch", "");
  const int64_t global_step = r.integer(d, "global_step", "");
  const int64_t batch_in_epoch = r.integer(d, "batch_in_epoch", "");
  const int64_t best_epoch = r.integer(d, "best_epoch", "");
  const IValue& best_v = r.at(d, "best_loss", "");
  std::optional<double> best;
  if (!best_v.isNone()) best = r.number(d, "best_loss", "");
  checkCheckpointCounters(file, epoch, global_step, batch_in_epoch, best_epoch);
  GenericDict meter = r.dict(d, "train_loss_meter", "");
  const double meter_sum = r.number(meter, "sum", "train_loss_meter.");
  const int64_t meter_count = r.integer(meter, "count", "train_loss_meter.");
  GenericDict rng = r.dict(d, "rng_state", "");
  at::Tensor cpu_state = r.tensor(rng, "torch_cpu", "rng_state.");
  at::Tensor shuffle_state = r.tensor(rng, "shuffle", "rng_state.");
  for (const at::Tensor* t : {&cpu_state, &shuffle_state}) {
    try {  // a throwaway generator checks size and dtype before the real ones change
      at::Generator probe = at::make_generator<at::CPUGeneratorImpl>();
      probe.set_state(*t);
    } catch (const c10::Error& e) {
      bad(file, "invalid RNG state (" + std::string(e.what_without_backtrace()) + ")");
    }
  }
  std::optional<GradScaler> scaler;  // checked now, applied below; ignored by a run without one
  if (s.scaler && d.contains("scaler_state_dict")) {
    scaler.emplace(s.scaler->options());
    scaler->loadStateDict(r.dict(d, "scaler_state_dict", ""), file);
  }
  // history: parsed by the torch-free reader, which checks every field.
  std::vector<EpochRecord> history = readHistory(d, file);

  // Scheduler, monitors, accuracy meter: restored now, each undone if a later one fails.
  restoreExtras(s, d, file);

  // ---- apply: nothing below fails on a well-formed file ----
  applyState(match);
  for (size_t g = 0; g < groups.size(); ++g) {
    const GroupOptions& o = options[g];
    if (optimizer_name == "sgd") {
      auto& so = static_cast<torch::optim::SGDOptions&>(groups[g].options());
      so.lr(o.lr).momentum(o.momentum).dampening(o.dampening).weight_decay(o.weight_decay);
      so.nesterov(o.nesterov);
    } else if (optimizer_name == "adamw") {
      auto& ao = static_cast<torch::optim::AdamWOptions&>(groups[g].options());
      ao.lr(o.lr).betas({o.beta1, o.beta2}).eps(o.eps).weight_decay(o.weight_decay);
      ao.amsgrad(o.amsgrad);
    } else {
      auto& ao = static_cast<torch::optim::AdamOptions&>(groups[g].options());
      ao.lr(o.lr).betas({o.beta1, o.beta2}).eps(o.eps).weight_decay(o.weight_decay);
      ao.amsgrad(o.amsgrad);
    }
  }
  s.optimizer->state() = std::move(new_state);
  {
    at::Generator gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(cpu_state);
  }
  s.shuffle_gen.set_state(shuffle_state);
  if (scaler) *s.scaler = *scaler;
  s.epoch_start_shuffle_state = shuffle_state.clone();
  s.epochs_completed = epoch;
  s.global_step = global_step;
  s.batch_in_epoch = batch_in_epoch;
  s.best_val_loss = best;
  s.best_epoch = best_epoch;
  s.epoch_loss = AverageMeter::restored(meter_sum, meter_count);
  s.history = std::move(history);
  s.last_epoch.reset();
  if (!s.history.empty()) s.last_epoch = s.history.back();
}

void loadCheckpoint(TrainState& state, const std::string& optimizer_name, const Path& file) {
  restoreState(state, readCheckpointDict(file), optimizer_name, file);
}

std::string resumeState(TrainState& s, const std::string& optimizer_name, const Path& file,
                        int64_t batches_per_epoch, int64_t total_epochs) {
  GenericDict d = readCheckpointDict(file);
  const IValue& source = requireKey(d, "source_run_dir", file);
  if (!source.isString()) bad(file, "'source_run_dir' is not a string");
  // Checked on the file's values first, so a mismatch leaves `s` untouched.
  Reader r{file};
  const int64_t batch = r.integer(d, "batch_in_epoch", ""), epoch = r.integer(d, "epoch", "");
  checkCheckpointCounters(file, epoch, r.integer(d, "global_step", ""), batch,
                          r.integer(d, "best_epoch", ""));
  if (batch >= batches_per_epoch)
    bad(file, "batch_in_epoch " + std::to_string(batch) + " does not fit this data (" +
                  std::to_string(batches_per_epoch) + " batches per epoch)");
  if (epoch >= total_epochs)
    throw Error(ErrorCode::Config, "training.epochs",
                "training.epochs is " + std::to_string(total_epochs) + " but " + file.string() +
                    " has already completed " + std::to_string(epoch) +
                    " epochs; ask for more epochs (--epochs N sets the new total)");
  restoreState(s, d, optimizer_name, file);
  return source.toStringRef();
}

}  // namespace trainscope
