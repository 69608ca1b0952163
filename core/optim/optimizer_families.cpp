// The optimizer families of core/optim/optimizer_family.h: torch::optim's SGD, Adam and AdamW,
// with PyTorch 1.13's state_dict layout for each.
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>

#include <cmath>

#include "core/config/train_config.h"
#include "core/io/checkpoint_file.h"
#include "core/model/state_dict.h"
#include "core/optim/optimizer_family.h"

namespace trainscope {
namespace {

using c10::IValue;
using c10::impl::GenericDict;

// ---- SGD ----

std::unique_ptr<torch::optim::Optimizer> makeSgd(const OptimizerConfig& c,
                                                 const std::vector<at::Tensor>& params) {
  return std::make_unique<torch::optim::SGD>(
      params, torch::optim::SGDOptions(c.lr).momentum(c.momentum).weight_decay(c.weight_decay));
}

GenericDict saveSgdState(const torch::optim::OptimizerParamState& state) {
  const auto& ps = static_cast<const torch::optim::SGDParamState&>(state);
  GenericDict st = makeStringDict();
  st.insert("momentum_buffer", ps.momentum_buffer().detach().clone());
  return st;
}

void saveSgdGroup(const torch::optim::OptimizerOptions& options, GenericDict& d) {
  const auto& o = static_cast<const torch::optim::SGDOptions&>(options);
  d.insert("lr", o.lr());
  d.insert("momentum", o.momentum());
  d.insert("dampening", o.dampening());
  d.insert("weight_decay", o.weight_decay());
  d.insert("nesterov", o.nesterov());
  d.insert("maximize", false);
  d.insert("foreach", IValue());
  d.insert("differentiable", false);
}

std::unique_ptr<torch::optim::OptimizerParamState> loadSgdState(const CheckpointReader& r,
                                                                const GenericDict& st,
                                                                const at::Tensor& p,
                                                                const std::string& where) {
  auto ps = std::make_unique<torch::optim::SGDParamState>();
  ps->momentum_buffer(r.tensorLike(st, "momentum_buffer", where, p));
  return ps;
}

std::unique_ptr<torch::optim::OptimizerOptions> loadSgdGroup(
    const CheckpointReader& r, const GenericDict& gd, const torch::optim::OptimizerOptions& current,
    const std::string& gw) {
  auto o = std::make_unique<torch::optim::SGDOptions>(
      static_cast<const torch::optim::SGDOptions&>(current));
  o->lr(r.number(gd, "lr", gw));
  o->weight_decay(r.number(gd, "weight_decay", gw));
  o->momentum(r.number(gd, "momentum", gw));
  o->dampening(r.number(gd, "dampening", gw));
  o->nesterov(r.boolean(gd, "nesterov", gw));
  return o;
}

// ---- Adam and AdamW: the same state and hyperparameters ----

template <class Optim, class Options>
std::unique_ptr<torch::optim::Optimizer> makeAdam(const OptimizerConfig& c,
                                                  const std::vector<at::Tensor>& params) {
  return std::make_unique<Optim>(
      params, Options(c.lr).betas({c.betas[0], c.betas[1]}).weight_decay(c.weight_decay));
}

template <class State>
GenericDict saveAdamState(const torch::optim::OptimizerParamState& state) {
  const auto& ps = static_cast<const State&>(state);
  GenericDict st = makeStringDict();
  st.insert("step", at::scalar_tensor(static_cast<double>(ps.step()), at::kFloat));
  st.insert("exp_avg", ps.exp_avg().detach().clone());
  st.insert("exp_avg_sq", ps.exp_avg_sq().detach().clone());
  if (ps.max_exp_avg_sq().defined())
    st.insert("max_exp_avg_sq", ps.max_exp_avg_sq().detach().clone());
  return st;
}

/// `adam_keys`: torch.optim.Adam's groups also carry "differentiable" and "fused" (AdamW's do
/// not, in 1.13).
template <class Options, bool adam_keys>
void saveAdamGroup(const torch::optim::OptimizerOptions& options, GenericDict& d) {
  const auto& o = static_cast<const Options&>(options);
  d.insert("lr", o.lr());
  d.insert("betas", c10::ivalue::Tuple::create({std::get<0>(o.betas()), std::get<1>(o.betas())}));
  d.insert("eps", o.eps());
  d.insert("weight_decay", o.weight_decay());
  d.insert("amsgrad", o.amsgrad());
  d.insert("maximize", false);
  d.insert("foreach", IValue());
  d.insert("capturable", false);
  if (adam_keys) d.insert("differentiable", false), d.insert("fused", false);
}

template <class State>
std::unique_ptr<torch::optim::OptimizerParamState> loadAdamState(const CheckpointReader& r,
                                                                 const GenericDict& st,
                                                                 const at::Tensor& p,
                                                                 const std::string& where) {
  const IValue& sv = r.at(st, "step", where);
  if (sv.isTensor() && sv.toTensor().numel() != 1)
    r.bad("'" + where + "step' is a tensor of " + shapeText(sv.toTensor()) +
          ", expected one number (the parameter's update count)");
  const double step = sv.isTensor() ? sv.toTensor().item<double>()
                                    : (sv.isInt() ? static_cast<double>(sv.toInt()) : -1);
  if (!(step >= 0) || std::floor(step) != step || step > static_cast<double>(kMaxCheckpointStep))
    r.bad("'" + where + "step' is invalid (a whole number 0..2^53 expected)");
  auto ps = std::make_unique<State>();
  ps->step(static_cast<int64_t>(step));
  ps->exp_avg(r.tensorLike(st, "exp_avg", where, p));
  ps->exp_avg_sq(r.tensorLike(st, "exp_avg_sq", where, p));
  if (st.contains("max_exp_avg_sq"))
    ps->max_exp_avg_sq(r.tensorLike(st, "max_exp_avg_sq", where, p));
  return ps;
}

template <class Options>
std::unique_ptr<torch::optim::OptimizerOptions> loadAdamGroup(
    const CheckpointReader& r, const GenericDict& gd, const torch::optim::OptimizerOptions& current,
    const std::string& gw) {
  auto o = std::make_unique<Options>(static_cast<const Options&>(current));
  o->lr(r.number(gd, "lr", gw));
  o->weight_decay(r.number(gd, "weight_decay", gw));
  o->eps(r.number(gd, "eps", gw));
  o->amsgrad(r.boolean(gd, "amsgrad", gw));
  const IValue& b = r.at(gd, "betas", gw);
  if (!b.isTuple() || b.toTupleRef().elements().size() != 2)
    r.bad("'" + gw + "betas' is not a pair");
  auto num = [&](const IValue& v) {
    if (v.isDouble()) return v.toDouble();
    if (v.isInt()) return static_cast<double>(v.toInt());
    r.bad("'" + gw + "betas' is not a pair of numbers");
  };
  o->betas({num(b.toTupleRef().elements()[0]), num(b.toTupleRef().elements()[1])});
  return o;
}

}  // namespace

const OptimizerFamily kSgdFamily = {&makeSgd, &saveSgdState, &saveSgdGroup, &loadSgdState,
                                    &loadSgdGroup};

const OptimizerFamily kAdamFamily = {
    &makeAdam<torch::optim::Adam, torch::optim::AdamOptions>,
    &saveAdamState<torch::optim::AdamParamState>, &saveAdamGroup<torch::optim::AdamOptions, true>,
    &loadAdamState<torch::optim::AdamParamState>, &loadAdamGroup<torch::optim::AdamOptions>};

const OptimizerFamily kAdamWFamily = {&makeAdam<torch::optim::AdamW, torch::optim::AdamWOptions>,
                                      &saveAdamState<torch::optim::AdamWParamState>,
                                      &saveAdamGroup<torch::optim::AdamWOptions, false>,
                                      &loadAdamState<torch::optim::AdamWParamState>,
                                      &loadAdamGroup<torch::optim::AdamWOptions>};

}  // namespace trainscope
