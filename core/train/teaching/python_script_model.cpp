// The model, optimizer, scheduler and gradient pieces of the export-python script
// (python_script_parts.h), mirroring core/model/, core/optim/ and core/train/step/.
#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/train/teaching/python_script_parts.h"

namespace trainscope::python_script {
namespace {

std::string activationClass(const std::string& a) {
  if (a == "relu") return "nn.ReLU()";
  if (a == "tanh") return "nn.Tanh()";
  if (a == "gelu") return "nn.GELU()";
  if (a == "sigmoid") return "nn.Sigmoid()";
  throw Error(ErrorCode::Config, "model.activation", "unknown model.activation '" + a + "'");
}

// ---- model (core/model/mlp.cpp, cnn.cpp, rnn.cpp): layers in TrainScope's order ----

void writeLinearStack(std::ostringstream& o, int64_t width, const std::vector<int64_t>& hidden,
                      const std::string& act, double dropout, int64_t outputs) {
  for (int64_t h : hidden) {
    o << "    nn.Linear(" << width << ", " << h << "),\n    " << activationClass(act) << ",\n";
    if (dropout > 0) o << "    nn.Dropout(" << py(dropout) << "),\n";
    width = h;
  }
  o << "    nn.Linear(" << width << ", " << outputs << "),\n";
}

}  // namespace

void writeModel(std::ostringstream& o, const ModelConfig& m, const DataConfig& d,
                const DataFacts& f) {
  const ModelKind* kind = findModelKind(m.kind);
  if (!kind || !kind->python_module)
    throw Error(ErrorCode::Config, "model.kind", "unknown model.kind " + m.kind);
  kind->python_module(o, m, d, f);
}

void writeMlpModule(std::ostringstream& o, const ModelConfig& m, const DataConfig& /*d*/,
                    const DataFacts& f) {
  o << "model = nn.Sequential(  # model.kind \"mlp\"\n";
  if (f.sequences || f.flatten) o << "    nn.Flatten(),\n";
  writeLinearStack(o, f.features, m.hidden, m.activation, m.dropout, f.outputs);
  o << ")\n";
}

void writeCnnModule(std::ostringstream& o, const ModelConfig& m, const DataConfig& d,
                    const DataFacts& f) {
  if (!f.images)
    throw Error(ErrorCode::Config, "model.kind",
                "model.kind cnn takes images, but data.source " + d.source +
                    " gives samples of another shape");
  const CnnConfig& c = m.cnn;
  o << "model = nn.Sequential(  # model.kind \"cnn\"\n"
       "    nn.Unflatten(1, (" << f.image_shape[0] << ", " << f.image_shape[1] << ", "
    << f.image_shape[2] << ")),  # [N, 784] -> [N, 1, 28, 28]\n";
  int64_t ch = f.image_shape[0], h = f.image_shape[1], w = f.image_shape[2];
  for (int64_t out : c.channels) {
    o << "    nn.Conv2d(" << ch << ", " << out << ", kernel_size=" << c.kernel_size
      << ", stride=" << c.stride << ", padding=" << c.padding << "),\n";
    h = (h + 2 * c.padding - c.kernel_size) / c.stride + 1;
    w = (w + 2 * c.padding - c.kernel_size) / c.stride + 1;
    if (c.batch_norm) o << "    nn.BatchNorm2d(" << out << "),\n";
    o << "    " << activationClass(m.activation) << ",\n";
    if (c.pool != "none") {
      o << "    nn." << (c.pool == "avg" ? "AvgPool2d" : "MaxPool2d") << "(" << c.pool_size
        << "),\n";
      h /= c.pool_size, w /= c.pool_size;
    }
    ch = out;
  }
  if (h < 1 || w < 1)
    throw Error(ErrorCode::Config, "model.cnn.channels",
                "model.cnn.channels: the conv blocks shrink 28x28 images below 1x1");
  o << "    nn.Flatten(),\n";
  if (m.dropout > 0) o << "    nn.Dropout(" << py(m.dropout) << "),\n";
  writeLinearStack(o, ch * h * w, c.hidden, m.activation, m.dropout, f.outputs);
  o << ")\n";
}

void writeRnnModule(std::ostringstream& o, const ModelConfig& m, const DataConfig& d,
                    const DataFacts& f) {
  if (!f.sequences)
    throw Error(ErrorCode::Config, "model.kind",
                "model.kind rnn takes sequences [T, F]; data.source " + d.source +
                    " does not give them (use sine-sequence)");
  const RnnConfig& r = m.rnn;
  const std::string cls = r.cell == "lstm" ? "LSTM" : r.cell == "gru" ? "GRU" : "RNN";
  const int64_t width = r.hidden_size * (r.bidirectional ? 2 : 1);
  o << "class RecurrentNet(nn.Module):\n"
       "    \"\"\"model.kind \"rnn\": nn." << cls << " over the sequence, its "
    << (r.output == "mean" ? "mean output over time" : "last step's output")
    << " into a linear head.\"\"\"\n\n"
       "    def __init__(self):\n"
       "        super().__init__()\n"
       "        self.rnn = nn." << cls << "(" << f.step_features << ", " << r.hidden_size << ", num_layers=" << r.num_layers;
  if (cls == "RNN") o << ", nonlinearity=" << pyStr(r.nonlinearity);
  o << ", batch_first=True";
  if (r.dropout > 0) o << ", dropout=" << py(r.dropout);
  if (r.bidirectional) o << ", bidirectional=True";
  o << ")\n";
  if (m.dropout > 0) o << "        self.drop = nn.Dropout(" << py(m.dropout) << ")\n";
  o << "        self.head = nn.Linear(" << width << ", " << f.outputs << ")\n\n"
       "    def forward(self, x):\n"
       "        out, _ = self.rnn(x)  # [N, T, " << width << "]\n"
       "        features = " << (r.output == "mean" ? "out.mean(1)" : "out[:, -1]") << "\n";
  if (m.dropout > 0) o << "        features = self.drop(features)\n";
  o << "        return self.head(features)\n\n\n"
       "model = RecurrentNet()\n";
}

void writeTorchScriptModule(std::ostringstream& o, const ModelConfig& m,
                            const DataConfig& /*d*/, const DataFacts& f) {
  o << "# model.kind \"torchscript\": your module as saved, its weights included. A TorchScript\n"
       "# file is a program, like a pickle: load only files you trust. The graph executor's\n"
       "# re-optimisation (per batch shape, after a few calls) is off: each step runs the\n"
       "# saved graph, whose losses equal TrainScope's bit for bit (re-optimised graphs differ\n"
       "# in the last bits)\n"
       "torch._C._set_graph_executor_optimize(False)\n"
       "model = torch.jit.load(" << pyStr(m.torchscript.path.value_or("")) << ", map_location=\"cpu\")"
       "  # model.torchscript.path\n";
  if (f.images)
    o << "model.eval()\n"
         "try:  # TrainScope tries [N, C, H, W] once on zeros; else the pixels stay flat\n"
         "    with torch.no_grad():\n"
         "        model(torch.zeros(1, " << f.image_shape.at(0) << ", " << f.image_shape.at(1) << ", "
      << f.image_shape.at(2) << "))\n"
         "    IMAGE_INPUT = True\n"
         "except Exception:\n"
         "    IMAGE_INPUT = False\n";
}

void writeOptimizer(std::ostringstream& o, const OptimizerConfig& c) {
  // The row's torch.optim class; the Adam family takes betas, SGD momentum.
  const OptimizerKind& kind = optimizerKind(c.name);
  o << "optimizer = torch.optim." << kind.torch_class << "(model.parameters(), lr=LR, ";
  if (kind.adaptive)
    o << "betas=(" << py(c.betas[0]) << ", " << py(c.betas[1]) << "), ";
  else
    o << "momentum=" << py(c.momentum) << ", ";
  o << "weight_decay=" << py(c.weight_decay) << ")\n";
}

/// The scheduler's construction; "" when there is none. Stepped after validation each epoch.
std::string schedulerCode(const SchedulerConfig& s) {
  const std::string sched = "torch.optim.lr_scheduler.";
  std::string main;
  if (s.name == "StepLR")
    main = sched + "StepLR(optimizer, step_size=" + std::to_string(s.step_size) +
           ", gamma=" + py(s.gamma) + ")";
  else if (s.name == "MultiStepLR")
    main = sched + "MultiStepLR(optimizer, milestones=" + pyInts(s.milestones) +
           ", gamma=" + py(s.gamma) + ")";
  else if (s.name == "ExponentialLR")
    main = sched + "ExponentialLR(optimizer, gamma=" + py(s.gamma) + ")";
  else if (s.name == "CosineAnnealingLR")
    main = sched + "CosineAnnealingLR(optimizer, T_max=" + std::to_string(s.T_max) +
           ", eta_min=" + py(s.eta_min) + ")";
  else if (s.name == "ReduceLROnPlateau")
    main = sched + "ReduceLROnPlateau(optimizer, mode=" + pyStr(s.mode) + ", factor=" +
           py(s.factor) + ", patience=" + std::to_string(s.patience) + ", threshold=" +
           py(s.threshold) + ", threshold_mode=" + pyStr(s.threshold_mode) + ", cooldown=" +
           std::to_string(s.cooldown) + ", min_lr=" + py(s.min_lr) + ")";
  else if (s.name != "none")
    throw Error(ErrorCode::Config, "scheduler.name", "unknown scheduler.name '" + s.name + "'");
  if (s.warmup_epochs <= 0) return main.empty() ? "" : "scheduler = " + main + "\n";
  if (s.name == "ReduceLROnPlateau")
    throw Error(ErrorCode::Config, "scheduler.warmup_epochs",
                "scheduler.warmup_epochs with ReduceLROnPlateau: torch 1.13's SequentialLR "
                "refuses ReduceLROnPlateau, so the script has no plain equivalent; set "
                "scheduler.warmup_epochs 0 to export it");
  const std::string warm = sched + "LinearLR(optimizer, start_factor=" + py(s.warmup_start_factor) +
                           ", end_factor=1.0, total_iters=" + std::to_string(s.warmup_epochs) + ")";
  if (main.empty()) return "scheduler = " + warm + "  # scheduler.warmup_epochs\n";
  return "warmup = " + warm + "  # scheduler.warmup_epochs\nscheduler = " + sched +
         "SequentialLR(optimizer, [warmup, " + main + "], milestones=[" +
         std::to_string(s.warmup_epochs) + "])\n";
}

/// total_grad_norm() and clip_gradients(norm): torch.nn.utils.clip_grad_norm_ in two halves,
/// the norm measured as core/train/step/flat_gradients.cpp does (all gradients as one vector,
/// one dot product), so that the script's numbers are TrainScope's to the bit.
void writeGradientHelpers(std::ostringstream& o, const ClipConfig& clip) {
  o << "params = [p for p in model.parameters() if p.requires_grad]\n\n\n"
       "def total_grad_norm():\n"
       "    \"\"\"The total norm of all gradients, what nn.utils.clip_grad_norm_ returns (here the\n"
       "    gradients as one vector, as TrainScope measures them: the same to the last bit).\"\"\"\n"
       "    g = torch.cat([p.grad.flatten() for p in params if p.grad is not None])\n";
  if (!clip.norm_type)
    o << "    return g.abs().max().item()  # training.clip.norm_type inf\n";
  else if (*clip.norm_type == 2)
    o << "    return math.sqrt(torch.dot(g, g).item())\n";
  else
    o << "    return g.norm(" << *clip.norm_type << ").item()  # training.clip.norm_type\n";
  o << "\n\n";
  if (!clip.enabled) return;
  o << "def clip_gradients(norm):\n"
       "    \"\"\"nn.utils.clip_grad_norm_(params, MAX_NORM) given the norm: every gradient times\n"
       "    MAX_NORM / (norm + 1e-6) when that is below 1 (computed in float32, as there).\"\"\"\n"
       "    coef = torch.tensor(MAX_NORM, dtype=torch.float32) / (torch.tensor(norm, dtype=torch.float32) + 1e-6)\n"
       "    if coef < 1:\n"
       "        for p in params:\n"
       "            if p.grad is not None:\n"
       "                p.grad.mul_(coef.item())\n\n\n";
}

}  // namespace trainscope::python_script
