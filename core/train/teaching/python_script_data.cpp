// The data section of the export-python script (python_script_parts.h): the built-in sources
// as core/data/sources.cpp, synthetic_2d.cpp and sequences.cpp generate or read them, then
// data.limit, the split and standardisation as core/data/dataset.cpp does.
#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/data/default_paths.h"
#include "core/errors.h"
#include "core/system/number_format.h"
#include "core/train/teaching/python_script_parts.h"

#include "core/data/augment/pipeline_text.h"

namespace trainscope::python_script {

/// A Python float literal for `v` (the shortest text that reads back as the same double).
std::string py(double v) {
  const std::string s = formatNumber(v);
  if (s == "inf") return "float(\"inf\")";
  if (s == "-inf") return "-float(\"inf\")";
  if (s == "nan") return "float(\"nan\")";
  return s;
}

std::string pyFloats(const std::vector<double>& v) {
  std::string s;
  for (double x : v) s += (s.empty() ? "" : ", ") + py(x);
  return "[" + s + "]";
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

DataFacts dataFacts(const DataConfig& d) {
  const DataSourceKind* kind = findDataSource(d.source);
  if (!kind || !kind->python_facts)
    throw Error(ErrorCode::Config, "data.source",
                "data.source \"" + d.source +
                    "\" is your own data: export-python reads the samples a run read, through "
                    "its split.json, so export a run of it (`trainscope-cli export-python RUN`) "
                    "rather than a preset or config file");
  return kind->python_facts(d);
}

DataFacts sineFacts(const DataConfig&) {
  DataFacts f;
  f.features = 1, f.outputs = 1;
  return f;
}

DataFacts planeTwoClassFacts(const DataConfig&) {
  DataFacts f;
  f.classification = true, f.features = 2, f.outputs = 2;
  return f;
}

DataFacts sineSequenceFacts(const DataConfig& d) {
  DataFacts f;
  f.sequences = true, f.features = d.seq_len, f.outputs = 1;
  return f;
}

DataFacts fashionMnistFacts(const DataConfig&) {
  DataFacts f;
  f.classification = true, f.images = true, f.features = 784, f.outputs = 10;
  f.image_shape = {1, 28, 28};
  f.test = true;
  return f;
}

// ---- data (core/data/sources.cpp, synthetic_2d.cpp, sequences.cpp, dataset.cpp) ----

void writeSineSamples(std::ostringstream& o, const DataConfig& d) {
  const std::string n = std::to_string(d.n_samples), noise = py(d.noise);
  o << "# data.source \"sine\": y = sin(x) + noise, x uniform in [-pi, pi]\n"
       "g = data_generator(0)\n"
       "x = torch.rand(" << n << ", 1, generator=g) * (2 * math.pi) - math.pi\n"
       "y = torch.sin(x) + torch.randn(" << n << ", 1, generator=g) * " << noise << "\n";
}

namespace {

/// The plane sources' generator and class sizes: `first` = n_samples // 2 samples of class 0,
/// `second` the rest of class 1 (the names the script goes on with).
void writeTwoClassSplit(std::ostringstream& o, const DataConfig& d, const char* first,
                        const char* second) {
  const std::string n = std::to_string(d.n_samples);
  o << "g = data_generator(0)\n"
    << first << " = " << n << " // 2\n"
    << second << " = " << n << " - " << first << "\n";
}

/// The plane sources' Gaussian noise (data.noise) on x and labels: `first` zeros, then
/// `second` ones.
void writeNoiseAndLabels(std::ostringstream& o, const DataConfig& d, const char* first,
                         const char* second) {
  o << "x = x + torch.randn(x.shape, generator=g) * " << py(d.noise) << "\n"
    << "y = torch.cat([torch.zeros(" << first << ", dtype=torch.long), torch.ones(" << second
    << ", dtype=torch.long)])\n";
}

}  // namespace

void writeMoonsSamples(std::ostringstream& o, const DataConfig& d) {
  o << "# data.source \"moons\": sklearn.datasets.make_moons' construction\n";
  writeTwoClassSplit(o, d, "n_out", "n_in");
  o << "t_out = torch.linspace(0, math.pi, n_out)\n"
       "t_in = torch.linspace(0, math.pi, n_in)\n"
       "outer = torch.stack([torch.cos(t_out), torch.sin(t_out)], 1)          # class 0\n"
       "inner = torch.stack([1 - torch.cos(t_in), 1 - torch.sin(t_in) - 0.5], 1)  # class 1\n"
       "x = torch.cat([outer, inner])\n";
  writeNoiseAndLabels(o, d, "n_out", "n_in");
}

void writeCirclesSamples(std::ostringstream& o, const DataConfig& d) {
  o << "# data.source \"circles\": sklearn.datasets.make_circles' construction (factor 0.5)\n"
       "def ring(n, radius):\n"
       "    t = torch.arange(n, dtype=torch.float32) * (2 * math.pi / n)\n"
       "    return torch.stack([torch.cos(t), torch.sin(t)], 1) * radius\n\n\n";
  writeTwoClassSplit(o, d, "n_out", "n_in");
  o << "x = torch.cat([ring(n_out, 1.0), ring(n_in, 0.5)])\n";
  writeNoiseAndLabels(o, d, "n_out", "n_in");
}

void writeSpiralsSamples(std::ostringstream& o, const DataConfig& d) {
  o << "# data.source \"spirals\": two interleaved spirals\n"
       "def arm(n, k):\n"
       "    t = torch.linspace(0.1, 1.0, n)\n"
       "    a = t * (3 * math.pi) + k * math.pi\n"
       "    return torch.stack([t * torch.cos(a), t * torch.sin(a)], 1)\n\n\n";
  writeTwoClassSplit(o, d, "n0", "n1");
  o << "x = torch.cat([arm(n0, 0), arm(n1, 1)])\n";
  writeNoiseAndLabels(o, d, "n0", "n1");
}

void writeSineSequenceSamples(std::ostringstream& o, const DataConfig& d) {
  const std::string n = std::to_string(d.n_samples), noise = py(d.noise);
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
}

void writeFashionMnistSamples(std::ostringstream& o, const DataConfig& d) {
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

void writeData(std::ostringstream& o, const DataConfig& d, const DataFacts& f) {
  o << "def data_generator(stream):\n"
       "    \"\"\"TrainScope's generators of data.seed: stream 0 generates the samples, 1 draws\n"
       "    data.limit, 2 splits. Never the global generator, which the weights draw from.\"\"\"\n"
       "    return torch.Generator().manual_seed(DATA_SEED * 1000003 + stream * 7919 + 1)\n\n\n";
  const DataSourceKind* kind = findDataSource(d.source);
  if (!kind || !kind->python_samples)
    throw Error(ErrorCode::Config, "data.source", "data.source \"" + d.source + "\" has no script");
  kind->python_samples(o, d);
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
}

void writeAugmentation(std::ostringstream& o, const DataConfig& d, const DataFacts& f) {
  const std::vector<int64_t>& shape = f.image_shape;
  o << "\n# data.augment, training images only: torchvision's transforms on each image as a float\n"
       "# tensor [C, H, W] in [0, 1] (ToTensor's output), then the standardisation (Normalize).\n"
       "# TrainScope draws each batch's transforms from a generator of its own, seeded from\n"
       "# (SEED, epoch, rank, batch): the global generator is seeded so here, and restored after\n"
       "# (dropout goes on drawing from it as in TrainScope).\n"
       "AUGMENT = T.Compose([\n";
  for (const std::string& t : augment::torchvisionTransforms(d.augment, shape.at(1), shape.at(2)))
    o << "    " << t << ",\n";
  o << "])\n"
       "IMAGE_SHAPE = (" << shape.at(0) << ", " << shape.at(1) << ", " << shape.at(2) << ")\n"
       "M64 = (1 << 64) - 1\n\n\n"
       "def splitmix64(x):\n"
       "    x = (x + 0x9E3779B97F4A7C15) & M64\n"
       "    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64\n"
       "    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64\n"
       "    return x ^ (x >> 31)\n\n\n"
       "def batch_seed(seed, epoch, rank, batch):\n"
       "    s = splitmix64(seed ^ 0xA5A5A5A5)\n"
       "    for v in (epoch, rank, batch):\n"
       "        s = splitmix64(s ^ v)\n"
       "    return (s ^ (s >> 32)) & 0xFFFFFFFF  # the generator keeps the seed's low 32 bits\n\n\n"
       "def augment(pixels, epoch, batch, seed=SEED):\n"
       "    \"\"\"Training batch `batch` (0-based) of `epoch` (1-based): uint8 pixels -> augmented,\n"
       "    standardised float32 inputs of the same shape.\"\"\"\n"
       "    state = torch.get_rng_state()\n"
       "    torch.manual_seed(batch_seed(seed, epoch, 0, batch))\n"
       "    images = pixels.float().div_(255).reshape(len(pixels), *IMAGE_SHAPE)\n"
       "    out = torch.stack([AUGMENT(image) for image in images])\n"
       "    torch.set_rng_state(state)\n"
       "    return out.sub_(PIXEL_MEAN / 255).div_(PIXEL_STD / 255).reshape(pixels.shape)\n";
}

void writeStandardize(std::ostringstream& o, const DataConfig& d, const DataFacts& f, bool torchscript) {
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
    if (torchscript)
      o << "\nIMAGE_INPUT = False  # set once the module is loaded: whether it takes [N, C, H, W]\n";
    const bool augment = d.augment.any();
    if (augment) writeAugmentation(o, d, f);
    o << "\n\ndef to_inputs(pixels" << (augment ? ", epoch=None, batch=None" : "") << "):\n"
         "    \"\"\"uint8 pixels -> the model's float32 input, (x - mean) / std per batch"
      << (augment ? "; training\n    batches (an epoch and batch given) augmented first" : "")
      << ".\"\"\"\n";
    const std::string plain = "pixels.float().sub_(PIXEL_MEAN).div_(PIXEL_STD)";
    if (augment)
      o << "    x = " << plain << " if epoch is None else augment(pixels, epoch, batch)\n";
    else
      o << "    x = " << plain << "\n";
    if (torchscript)
      o << "    return x.view(len(x), " << f.image_shape.at(0) << ", " << f.image_shape.at(1) << ", "
        << f.image_shape.at(2) << ") if IMAGE_INPUT else x\n\n\n";
    else
      o << "    return x\n\n\n";
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

}  // namespace trainscope::python_script
