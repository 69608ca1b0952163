// "Show me the PyTorch code": a config written as a plain torch 1.13 script (python_script.h).
// Each piece below mirrors one place of the engine, named beside it, in the same operations and
// order, so that the script's float results are TrainScope's.
#include "core/train/teaching/python_script.h"

#include <sstream>

#include "core/data/default_paths.h"
#include "core/errors.h"
#include "core/io/number_format.h"
#include "core/train/teaching/mistakes.h"

namespace trainscope {
namespace {

/// A Python float literal for `v` (the shortest text that reads back as the same double).
std::string py(double v) {
  const std::string s = formatNumber(v);
  if (s == "inf") return "float(\"inf\")";
  if (s == "-inf") return "-float(\"inf\")";
  if (s == "nan") return "float(\"nan\")";
  return s;
}

std::string pyInts(const std::vector<int64_t>& v) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return "[" + s + "]";
}

/// A Python string literal (config values are plain names; quotes and backslashes escaped).
std::string pyStr(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string activationClass(const std::string& a) {
  if (a == "relu") return "nn.ReLU()";
  if (a == "tanh") return "nn.Tanh()";
  if (a == "gelu") return "nn.GELU()";
  if (a == "sigmoid") return "nn.Sigmoid()";
  throw Error(ErrorCode::Config, "model.activation", "unknown model.activation '" + a + "'");
}

struct DataFacts {
  bool classification = false;
  bool images = false;     ///< uint8 pixels [N, 784], converted per batch
  bool sequences = false;  ///< [N, T, 1]
  int64_t features = 0;    ///< one sample's values (flattened)
  int64_t outputs = 0;
  std::vector<int64_t> image_shape;  ///< [C, H, W] of images
};

DataFacts dataFacts(const DataConfig& d) {
  DataFacts f;
  if (d.source == "sine") {
    f.features = 1, f.outputs = 1;
  } else if (d.source == "moons" || d.source == "circles" || d.source == "spirals") {
    f.classification = true, f.features = 2, f.outputs = 2;
  } else if (d.source == "sine-sequence") {
    f.sequences = true, f.features = d.seq_len, f.outputs = 1;
  } else if (d.source == "fashion-mnist") {
    f.classification = true, f.images = true, f.features = 784, f.outputs = 10;
    f.image_shape = {1, 28, 28};
  } else {
    throw Error(ErrorCode::Config, "data.source",
                "export-python writes the data code of the generated sources (sine, moons, "
                "circles, spirals, sine-sequence) and of fashion-mnist; data.source \"" +
                    d.source +
                    "\" is read by TrainScope's own reader, which the script cannot reproduce "
                    "sample for sample yet: load the same samples with split.json's indices "
                    "(see README, \"Your own data\")");
  }
  return f;
}

// ---- data (core/data/sources.cpp, synthetic_2d.cpp, sequences.cpp, dataset.cpp) ----

void writeData(std::ostringstream& o, const DataConfig& d, const DataFacts& f) {
  o << "def data_generator(stream):\n"
       "    \"\"\"TrainScope's generators of data.seed: stream 0 generates the samples, 1 draws\n"
       "    data.limit, 2 splits. Never the global generator, which the weights draw from.\"\"\"\n"
       "    return torch.Generator().manual_seed(DATA_SEED * 1000003 + stream * 7919 + 1)\n\n\n";
  const std::string n = std::to_string(d.n_samples), noise = py(d.noise);
  if (d.source == "sine") {
    o << "# data.source \"sine\": y = sin(x) + noise, x uniform in [-pi, pi]\n"
         "g = data_generator(0)\n"
         "x = torch.rand(" << n << ", 1, generator=g) * (2 * math.pi) - math.pi\n"
         "y = torch.sin(x) + torch.randn(" << n << ", 1, generator=g) * " << noise << "\n";
  } else if (d.source == "moons") {
    o << "# data.source \"moons\": sklearn.datasets.make_moons' construction\n"
         "g = data_generator(0)\n"
         "n_out = " << n << " // 2\n"
         "n_in = " << n << " - n_out\n"
         "t_out = torch.linspace(0, math.pi, n_out)\n"
         "t_in = torch.linspace(0, math.pi, n_in)\n"
         "outer = torch.stack([torch.cos(t_out), torch.sin(t_out)], 1)          # class 0\n"
         "inner = torch.stack([1 - torch.cos(t_in), 1 - torch.sin(t_in) - 0.5], 1)  # class 1\n"
         "x = torch.cat([outer, inner])\n"
         "x = x + torch.randn(x.shape, generator=g) * " << noise << "\n"
         "y = torch.cat([torch.zeros(n_out, dtype=torch.long), torch.ones(n_in, dtype=torch.long)])\n";
  } else if (d.source == "circles") {
    o << "# data.source \"circles\": sklearn.datasets.make_circles' construction (factor 0.5)\n"
         "def ring(n, radius):\n"
         "    t = torch.arange(n, dtype=torch.float32) * (2 * math.pi / n)\n"
         "    return torch.stack([torch.cos(t), torch.sin(t)], 1) * radius\n\n\n"
         "g = data_generator(0)\n"
         "n_out = " << n << " // 2\n"
         "n_in = " << n << " - n_out\n"
         "x = torch.cat([ring(n_out, 1.0), ring(n_in, 0.5)])\n"
         "x = x + torch.randn(x.shape, generator=g) * " << noise << "\n"
         "y = torch.cat([torch.zeros(n_out, dtype=torch.long), torch.ones(n_in, dtype=torch.long)])\n";
  } else if (d.source == "spirals") {
    o << "# data.source \"spirals\": two interleaved spirals\n"
         "def arm(n, k):\n"
         "    t = torch.linspace(0.1, 1.0, n)\n"
         "    a = t * (3 * math.pi) + k * math.pi\n"
         "    return torch.stack([t * torch.cos(a), t * torch.sin(a)], 1)\n\n\n"
         "g = data_generator(0)\n"
         "n0 = " << n << " // 2\n"
         "n1 = " << n << " - n0\n"
         "x = torch.cat([arm(n0, 0), arm(n1, 1)])\n"
         "x = x + torch.randn(x.shape, generator=g) * " << noise << "\n"
         "y = torch.cat([torch.zeros(n0, dtype=torch.long), torch.ones(n1, dtype=torch.long)])\n";
  } else if (d.source == "sine-sequence") {
    o << "# data.source \"sine-sequence\": noisy sines of random phase and frequency; x holds\n"
         "# " << d.seq_len << " steps [N, T, 1], y the next value [N, 1]\n"
         "g = data_generator(0)\n"
         "phase = torch.rand(" << n << ", 1, generator=g) * (2 * math.pi)\n"
         "frequency = torch.rand(" << n << ", 1, generator=g) * 0.2 + 0.1\n"
         "t = torch.arange(" << d.seq_len + 1 << ", dtype=torch.float32).unsqueeze(0)\n"
         "s = torch.sin(phase + frequency * t) + torch.randn(" << n << ", " << d.seq_len + 1
      << ", generator=g) * " << noise << "\n"
         "x = s[:, :" << d.seq_len << "].unsqueeze(2).contiguous()\n"
         "y = s[:, " << d.seq_len << ":].contiguous()\n";
  } else {  // fashion-mnist
    const std::string dir = d.path ? *d.path : kFashionMnistDir;
    o << "# data.source \"fashion-mnist\": the IDX files (uint8 pixels, kept as bytes and\n"
         "# converted per batch, as TrainScope does)\n"
         "def read_idx(path):\n"
         "    with gzip.open(path) as f:\n"
         "        data = f.read()\n"
         "    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], \"big\") for i in range(data[3])]\n"
         "    return torch.from_numpy(np.frombuffer(data, np.uint8, offset=4 + 4 * len(dims)).reshape(dims).copy())\n\n\n"
         "DATA_DIR = " << pyStr(dir) << "  # data.path\n"
         "x = read_idx(os.path.join(DATA_DIR, \"train-images-idx3-ubyte.gz\")).reshape(-1, 784)\n"
         "y = read_idx(os.path.join(DATA_DIR, \"train-labels-idx1-ubyte.gz\")).long()\n"
         "x_test = read_idx(os.path.join(DATA_DIR, \"t10k-images-idx3-ubyte.gz\")).reshape(-1, 784)\n"
         "y_test = read_idx(os.path.join(DATA_DIR, \"t10k-labels-idx1-ubyte.gz\")).long()\n";
  }
  if (!f.classification && d.target_scale != 1.0)
    o << "y = y * " << py(d.target_scale) << "  # data.target_scale\n";
  if (d.limit)
    o << "\n# data.limit: " << *d.limit << " samples drawn before the split\n"
         "if " << *d.limit << " < len(x):\n"
         "    keep = torch.randperm(len(x), generator=data_generator(1))[:" << *d.limit << "]\n"
         "    x, y = x[keep], y[keep]\n";
  if (d.stratify && f.classification) {
    o << "\n# data.stratify: each class keeps data.val_fraction of its samples for validation\n"
         "g = data_generator(2)\n"
         "train_idx, val_idx = [], []\n"
         "for c in sorted(set(y.tolist())):\n"
         "    members = (y == c).nonzero().flatten()\n"
         "    perm = torch.randperm(len(members), generator=g)\n"
         "    n_val = min(max(int(len(members) * " << py(d.val_fraction)
      << " + 0.5), 1), len(members) - 1) if len(members) >= 2 else 0\n"
         "    val_idx += members[perm[:n_val]].tolist()\n"
         "    train_idx += members[perm[n_val:]].tolist()\n"
         "train_idx = torch.tensor(train_idx, dtype=torch.long)\n"
         "val_idx = torch.tensor(val_idx, dtype=torch.long)\n"
         "train_idx = train_idx[torch.randperm(len(train_idx), generator=g)]\n"
         "val_idx = val_idx[torch.randperm(len(val_idx), generator=g)]\n";
  } else {
    o << "\n# the split: data.val_fraction " << py(d.val_fraction)
      << " of the samples validate, drawn by one seeded permutation\n"
         "perm = torch.randperm(len(x), generator=data_generator(2))\n"
         "n_val = min(max(int(len(x) * " << py(d.val_fraction) << " + 0.5), 1), len(x) - 1)\n"
         "train_idx, val_idx = perm[n_val:], perm[:n_val]\n";
  }
  o << "x_train, y_train = x[train_idx], y[train_idx]\n"
       "x_val, y_val = x[val_idx], y[val_idx]\n";
  if (f.images) {
    if (d.standardize)
      o << "\n# data.standardize: one mean and std over all training pixels (0..255), exact\n"
           "counts = torch.bincount(x_train.flatten(), minlength=256).tolist()\n"
           "PIXEL_MEAN = sum(c * v for v, c in enumerate(counts)) / x_train.numel()\n"
           "squares = 0.0\n"
           "for v, c in enumerate(counts):\n"
           "    squares += c * (v - PIXEL_MEAN) * (v - PIXEL_MEAN)\n"
           "PIXEL_STD = math.sqrt(squares / x_train.numel())\n"
           "if PIXEL_STD / 255 < 1e-8:\n"
           "    PIXEL_STD = 255.0\n";
    else
      o << "\nPIXEL_MEAN, PIXEL_STD = 0.0, 255.0  # data.standardize false: x / 255\n";
    o << "\n\ndef to_inputs(pixels):\n"
         "    \"\"\"uint8 pixels -> the model's float32 input, (x - mean) / std per batch.\"\"\"\n"
         "    return pixels.float().sub_(PIXEL_MEAN).div_(PIXEL_STD)\n\n\n";
  } else {
    if (d.standardize)
      o << "\n# data.standardize: z-scores per feature, population std (as sklearn's "
           "StandardScaler),\n# from the training split only\n"
           "flat = x_train.reshape(len(x_train), -1)\n"
           "mean = flat.mean(0, keepdim=True)\n"
           "std = flat.std(0, unbiased=False, keepdim=True)\n"
           "std = torch.where(std < 1e-8, torch.ones_like(std), std)\n"
           "x_train = ((flat - mean) / std).reshape(x_train.shape)\n"
           "x_val = ((x_val.reshape(len(x_val), -1) - mean) / std).reshape(x_val.shape)\n";
  }
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

void writeModel(std::ostringstream& o, const ModelConfig& m, const DataConfig& d,
                const DataFacts& f) {
  if (m.kind == "mlp") {
    o << "model = nn.Sequential(  # model.kind \"mlp\"\n";
    if (f.sequences) o << "    nn.Flatten(),\n";
    writeLinearStack(o, f.features, m.hidden, m.activation, m.dropout, f.outputs);
    o << ")\n";
  } else if (m.kind == "cnn") {
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
  } else if (m.kind == "rnn") {
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
         "        self.rnn = nn." << cls << "(1, " << r.hidden_size << ", num_layers=" << r.num_layers;
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
  } else {
    throw Error(ErrorCode::Config, "model.kind",
                "model.kind " + m.kind +
                    ": the module is your own Python; load it with torch.jit.load(\"" +
                    m.torchscript.path.value_or("model.pt") +
                    "\") and train it with the loop export-python writes for the other kinds");
  }
}

void writeOptimizer(std::ostringstream& o, const OptimizerConfig& c) {
  if (c.name == "sgd") {
    o << "optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=" << py(c.momentum)
      << ", weight_decay=" << py(c.weight_decay) << ")\n";
  } else if (c.name == "adam" || c.name == "adamw") {
    o << "optimizer = torch.optim." << (c.name == "adam" ? "Adam" : "AdamW")
      << "(model.parameters(), lr=LR, betas=(" << py(c.betas[0]) << ", " << py(c.betas[1])
      << "), weight_decay=" << py(c.weight_decay) << ")\n";
  } else {
    throw Error(ErrorCode::Config, "optimizer.name", "unknown optimizer.name '" + c.name + "'");
  }
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

}  // namespace

std::string pythonScript(const TrainConfig& c, const PythonScriptSource& source) {
  const DataFacts f = dataFacts(c.data);
  const Mistakes mistakes = parseMistakes(c.teaching.mistakes);
  const TrainingConfig& t = c.training;
  const std::string loss_fn = f.classification ? "F.cross_entropy" : "F.mse_loss";
  const bool clip = t.clip.enabled;
  const std::string non_finite = t.non_finite.value_or("stop");
  const int64_t accum = t.grad_accum_steps;
  std::ostringstream o;

  o << kPythonScriptMarker << " (trainscope-cli export-python): " << c.name
    << " as plain PyTorch.\n"
       "\"\"\"" << c.name << ", written as a plain PyTorch 1.13 script.\n\n"
       "From " << source.description << ". Trains the way TrainScope trains it: the data, the\n"
       "split and the model are built in TrainScope's order, so with the same seed the weights\n"
       "start equal and, on the CPU, every step's loss equals TrainScope's steps.csv (to 1e-6).\n\n"
       "    python3 SCRIPT.py --out DIR    also writes DIR/steps.csv (step, loss), DIR/metrics.csv\n"
       "                                   and DIR/checkpoints/last.pt (and best.pt)\n"
       "\"\"\"\n"
       "import argparse\n"
       "import csv\n";
  if (f.images) o << "import gzip\n";
  o << "import math\n"
       "import os\n";
  if (!t.seed) o << "import random\n";
  o << "\n";
  if (f.images) o << "import numpy as np\n";
  o << "import torch\n"
       "import torch.nn.functional as F\n"
       "from torch import nn\n\n"
       "# The settings, under TrainScope's config keys\n";
  if (t.seed)
    o << "SEED = " << *t.seed << "  # training.seed: initial weights, dropout, shuffling\n";
  else
    o << "SEED = random.SystemRandom().randrange(2**31)  # training.seed null: drawn\n";
  o << "DATA_SEED = " << c.data.seed << "  # data.seed: samples, data.limit, the split\n"
       "EPOCHS = " << t.epochs << "  # training.epochs\n"
       "BATCH_SIZE = " << t.batch_size << "  # training.batch_size\n";
  if (accum > 1) o << "GRAD_ACCUM_STEPS = " << accum << "  # training.grad_accum_steps\n";
  o << "LR = " << py(c.optimizer.lr);
  if (mistakes.lr_factor != 1.0)
    o << " * " << py(mistakes.lr_factor) << "  # optimizer.lr  <- MISTAKE teaching.mistakes "
      << (mistakes.lr_factor > 1 ? "lr_x1000" : "lr_x1e-6") << ": a slipped exponent\n";
  else
    o << "  # optimizer.lr\n";
  if (clip)
    o << "MAX_NORM = " << py(t.clip.max_norm) << "  # training.clip.max_norm\n";
  o << "NUM_THREADS = " << t.num_threads.value_or(1) << "  # training.num_threads\n"
       "DEVICE = torch.device(";
  if (t.device == "auto")
    o << "\"cuda\" if torch.cuda.is_available() else \"cpu\")  # training.device auto\n";
  else
    o << pyStr(t.device) << ")  # training.device\n";
  if (t.amp)
    o << "# training.amp: autocast in bfloat16 on the CPU; float16 with a GradScaler on CUDA\n"
         "AMP_DTYPE = torch.float16 if DEVICE.type == \"cuda\" else torch.bfloat16\n";
  o << "\nparser = argparse.ArgumentParser(description=__doc__.splitlines()[0])\n"
       "parser.add_argument(\"--out\", help=\"a folder for steps.csv, metrics.csv and checkpoints/\")\n"
       "parser.add_argument(\"--epochs\", type=int, default=EPOCHS)\n"
       "args = parser.parse_args()\n\n"
       "# The data is prepared on one thread, as TrainScope prepares it: the order of a float\n"
       "# sum depends on the thread count.\n"
       "torch.set_num_threads(1)\n\n";
  writeData(o, c.data, f);
  if (mistakes.shuffled_labels)
    o << "\n# MISTAKE teaching.mistakes shuffled_labels: the training labels shuffled against their\n"
         "# inputs (validation keeps its own): nothing learned carries over\n"
         "y_train = y_train[torch.randperm(len(y_train), generator=torch.Generator().manual_seed(SEED ^ 0x1ABE15))]\n";
  o << "print(f\"data: {len(x_train)} train / {len(x_val)} val samples\")\n\n"
       "# The model: torch.manual_seed first, then the layers in order, so the initial weights\n"
       "# are TrainScope's\n"
       "torch.manual_seed(SEED)\n";
  writeModel(o, c.model, c.data, f);
  o << "model = model.to(DEVICE)\n";
  writeOptimizer(o, c.optimizer);
  const std::string scheduler = schedulerCode(c.scheduler);
  o << scheduler;
  const bool plateau = c.scheduler.name == "ReduceLROnPlateau";
  if (t.amp) o << "scaler = torch.cuda.amp.GradScaler(enabled=DEVICE.type == \"cuda\")\n";
  writeGradientHelpers(o, t.clip);
  o << "torch.set_num_threads(NUM_THREADS)\n"
       "# The batches' order: its own generator of the training seed (dropout draws from the\n"
       "# global one)\n"
       "shuffle = torch.Generator().manual_seed(SEED ^ 0x5DEECE66D)\n\n"
       "steps_csv = metrics_csv = None\n"
       "if args.out:\n"
       "    os.makedirs(os.path.join(args.out, \"checkpoints\"), exist_ok=True)\n"
       "    steps_csv = csv.writer(open(os.path.join(args.out, \"steps.csv\"), \"w\", newline=\"\", buffering=1))\n"
       "    steps_csv.writerow([\"step\", \"loss\"])\n"
       "    metrics_csv = csv.writer(open(os.path.join(args.out, \"metrics.csv\"), \"w\", newline=\"\", buffering=1))\n"
       "    metrics_csv.writerow([\"epoch\", \"step\", \"train_loss\", \"val_loss\""
    << (f.classification ? ", \"val_accuracy\"" : "") << "])\n\n\n";

  // Validation (core/train/step/step.cpp evaluateSums): chunks of max(batch, 1024), summed.
  o << "def evaluate(x, y):\n"
       "    \"\"\"Mean loss" << (f.classification ? " and accuracy" : "")
    << " over a split, in eval mode without gradients.\"\"\"\n";
  if (mistakes.eval_in_train_mode)
    o << "    model.train()  # MISTAKE teaching.mistakes eval_in_train_mode: model.eval() forgotten\n";
  else
    o << "    model.eval()\n";
  std::string ind = "    ";
  if (mistakes.val_with_grad) {
    o << "    # MISTAKE teaching.mistakes val_with_grad: no torch.no_grad(), every chunk's graph\n"
         "    # is built and kept until the end (more memory and time, the same numbers)\n"
         "    kept = []\n";
  } else {
    o << "    with torch.no_grad():\n";
    ind = "        ";
  }
  o << ind << "total, correct = 0.0, 0\n"
    << ind << "chunk = max(BATCH_SIZE, 1024)\n"
    << ind << "for start in range(0, len(x), chunk):\n"
    << ind << "    xb = " << (f.images ? "to_inputs(x[start:start + chunk])" : "x[start:start + chunk]")
    << ".to(DEVICE)\n"
    << ind << "    yb = y[start:start + chunk].to(DEVICE)\n"
    << ind << "    out = model(xb)\n";
  if (mistakes.val_with_grad) o << ind << "    kept.append(out)\n";
  if (f.classification)
    o << ind << "    total += F.cross_entropy(out, yb, reduction=\"sum\").item()\n"
      << ind << "    correct += (out.argmax(1) == yb).sum().item()\n"
      << ind << "return total / len(x), correct / len(x)\n\n\n";
  else
    o << ind << "    # per sample, the mean over its targets\n"
      << ind << "    total += F.mse_loss(out, yb, reduction=\"sum\").item() / (out.numel() / len(xb))\n"
      << ind << "return total / len(x), None\n\n\n";

  // The training loop (core/train/loop/trainer_loop.cpp, core/train/step/step.cpp).
  const std::string forward =
      t.amp ? "with torch.autocast(DEVICE.type, dtype=AMP_DTYPE):\n{I}    out = model(xb)\n"
              "{I}loss = " + loss_fn + "(out.float(), yb)\n"
            : "loss = " + loss_fn + "(model(xb), yb)\n";
  auto indent = [](std::string text, const std::string& in) {
    for (std::size_t p = text.find("{I}"); p != std::string::npos; p = text.find("{I}"))
      text.replace(p, 3, in);
    return in + text;
  };
  const std::string backward = t.amp ? "scaler.scale(loss).backward()" : "loss.backward()";
  const std::string update = t.amp ? "scaler.step(optimizer)\n{I}scaler.update()\n"
                                   : "optimizer.step()\n";
  const std::string unscale = t.amp ? "scaler.unscale_(optimizer)  # real gradients before measuring\n" : "";
  const std::string clip_call = clip ? "clip_gradients(grad_norm)  # training.clip\n" : "";

  o << "step = 0\n"
       "stopped = False\n"
       "best_val = float(\"inf\")\n";
  if (t.early_stopping.enabled) o << "bad_epochs = 0  # training.early_stopping\n";
  if (mistakes.step_before_backward)
    o << "for p in model.parameters():  # the first step() meets zero gradients, as in TrainScope\n"
         "    p.grad = torch.zeros_like(p)\n";
  o << "for epoch in range(1, args.epochs + 1):\n"
       "    model.train()\n"
       "    order = torch.randperm(len(x_train), generator=shuffle)\n"
       "    loss_sum = 0.0\n";
  std::string in = "        ";
  if (accum > 1) {
    o << "    batches = [order[i:i + BATCH_SIZE] for i in range(0, len(order), BATCH_SIZE)]\n"
         "    for first in range(0, len(batches), GRAD_ACCUM_STEPS):\n"
         "        group = batches[first:first + GRAD_ACCUM_STEPS]  # training.grad_accum_steps\n";
  } else {
    o << "    for start in range(0, len(order), BATCH_SIZE):\n"
         "        batch = order[start:start + BATCH_SIZE]\n";
  }
  const std::string zero =
      mistakes.no_zero_grad
          ? "# optimizer.zero_grad()  <- MISTAKE teaching.mistakes no_zero_grad: forgotten, so every\n" +
                in + "# backward() adds to the gradients of all the steps before\n"
          : "optimizer.zero_grad()\n";
  const std::string x_of = f.images ? "to_inputs(x_train[batch])" : "x_train[batch]";
  auto writeMicroBatches = [&]() {
    if (accum == 1) {
      o << in << "xb, yb = " << x_of << ".to(DEVICE), y_train[batch].to(DEVICE)\n"
        << indent(forward, in) << in << backward << "\n"
        << in << "loss_value = loss.item()\n"
        << in << "loss_sum += loss_value * len(batch)\n";
      return;
    }
    o << in << "losses = []\n"
      << in << "for batch in group:\n"
      << in << "    xb, yb = " << x_of << ".to(DEVICE), y_train[batch].to(DEVICE)\n"
      << indent(forward, in + "    ");
    o << in << "    losses.append(loss.item())\n"
      << in << "    loss_sum += loss.item() * len(batch)\n";
    o << in << "    if len(group) > 1:\n" << in << "        loss = loss / len(group)\n";
    o << in << "    " << backward << "\n"
      << in << "loss_value = sum(losses) / len(losses) if len(losses) > 1 else losses[0]\n";
  };
  if (mistakes.step_before_backward) {
    o << in << "# MISTAKE teaching.mistakes step_before_backward: optimizer.step() before backward():\n"
      << in << "# each update uses the previous batch's gradients, one step late\n"
      << in << "grad_norm = total_grad_norm()\n"
      << in << "finite = math.isfinite(grad_norm)\n"
      << in << "if finite:\n";
    if (clip) o << in << "    " << clip_call;
    o << indent(update, in + "    ") << in << zero;
    writeMicroBatches();
  } else {
    o << in << zero;
    writeMicroBatches();
    if (!unscale.empty()) o << in << unscale;
    o << in << "grad_norm = total_grad_norm()  # what clip_grad_norm_ returns\n"
      << in << "finite = math.isfinite(loss_value) and math.isfinite(grad_norm)\n"
      << in << "if finite:  # a non-finite loss or norm would poison the weights: no update\n";
    if (clip) o << in << "    " << clip_call;
    o << indent(update, in + "    ");
  }
  o << in << "step += 1\n"
    << in << "if steps_csv:\n"
    << in << "    steps_csv.writerow([step, loss_value])\n";
  {
    if (non_finite == "skip")
      o << in << "if not finite:\n"
        << in << "    print(f\"step {step}: non-finite loss or gradient, update skipped "
                 "(training.non_finite skip)\")\n";
    else
      o << in << "if not finite:\n"
        << in << "    stopped = True  # training.non_finite " << non_finite << ": the run stops\n"
        << in << "    break\n";
  }
  o << "    if stopped:  # no validation of a broken epoch\n"
       "        print(f\"stopped: a non-finite value at step {step}\")\n"
       "        break\n"
       "    train_loss = loss_sum / len(x_train)\n"
       "    val_loss, val_accuracy = evaluate(x_val, y_val)\n"
       "    lr = optimizer.param_groups[0][\"lr\"]\n"
       "    print(f\"epoch {epoch}/{args.epochs}  step {step}  train_loss {train_loss:.4f}  \"\n"
       "          f\"val_loss {val_loss:.4f}"
    << (f.classification ? "  val_accuracy {val_accuracy:.4f}" : "") << "  lr {lr:.4g}\")\n"
       "    if metrics_csv:\n"
       "        metrics_csv.writerow([epoch, step, train_loss, val_loss"
    << (f.classification ? ", val_accuracy" : "") << "])\n"
       "    improved = val_loss < best_val\n"
       "    if args.out:  # checkpoints, as torch.save writes them\n"
       "        state = {\"epoch\": epoch, \"global_step\": step, \"model_state_dict\": model.state_dict(),\n"
       "                 \"optimizer_state_dict\": optimizer.state_dict()}\n"
       "        torch.save(state, os.path.join(args.out, \"checkpoints\", \"last.pt\"))\n"
       "        if improved:\n"
       "            torch.save(state, os.path.join(args.out, \"checkpoints\", \"best.pt\"))\n";
  if (t.early_stopping.enabled) {
    o << "    # training.early_stopping: patience " << t.early_stopping.patience << ", min_delta "
      << py(t.early_stopping.min_delta) << "\n"
         "    if math.isfinite(val_loss) and val_loss + " << py(t.early_stopping.min_delta)
      << " < best_val:\n"
         "        bad_epochs = 0\n"
         "    else:\n"
         "        bad_epochs += 1\n";
  }
  o << "    best_val = min(best_val, val_loss)\n";
  if (!scheduler.empty())
    o << "    scheduler.step(" << (plateau ? "val_loss" : "") << ")  # once per epoch, after validation\n";
  if (t.early_stopping.enabled)
    o << "    if bad_epochs >= " << t.early_stopping.patience << ":\n"
         "        print(f\"early stop after epoch {epoch}\")\n"
         "        break\n";
  if (f.images)
    o << "\ntest_loss, test_accuracy = evaluate(x_test, y_test)\n"
         "print(f\"test_loss {test_loss:.4f}  test_accuracy {test_accuracy:.4f}\")\n";
  return o.str();
}

}  // namespace trainscope
