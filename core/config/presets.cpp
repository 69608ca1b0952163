// Built-in presets: partial configs, each with a fixed seed.
#include <cstdlib>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"

namespace trainscope {

namespace {

/// Where the build writes the own-data presets' files (scripts/make-example-data); the
/// environment variable TRAINSCOPE_EXAMPLES_DIR overrides it (a moved build).
std::string examplesDir() {
  if (const char* env = std::getenv("TRAINSCOPE_EXAMPLES_DIR"); env && *env) return env;
#ifdef TRAINSCOPE_EXAMPLES_DIR
  return TRAINSCOPE_EXAMPLES_DIR;
#else
  return "/usr/share/trainscope/examples";
#endif
}

struct Preset {
  PresetInfo info;
  nlohmann::json patch;
};

const std::vector<Preset>& table() {
  using json = nlohmann::json;
  static const std::vector<Preset> presets = {
      {{"overfit-sine",
        "A few dozen noisy samples of a sine and a large MLP: validation loss turns upward "
        "within seconds (overfitting)."},
       json{{"name", "overfit-sine"},
            // 20 training points, fitted full-batch until the MLP threads the noise: validation
            // loss bottoms out near epoch 180 and ends ~10x higher while training loss falls.
            {"data",
             {{"source", "sine"},
              {"n_samples", 40},
              {"noise", 0.4},
              {"seed", 7},
              {"val_fraction", 0.5}}},
            {"model", {{"hidden", {256, 256}}, {"activation", "relu"}}},
            {"optimizer", {{"name", "adam"}, {"lr", 3e-3}}},
            // One thread: a model this small only loses time to OpenMP synchronisation.
            {"training", {{"epochs", 800}, {"batch_size", 32}, {"seed", 42}, {"num_threads", 1}}}}},
      {{"moons", "Two interleaving half circles (2-D, two classes) and a small MLP."},
       json{{"name", "moons"},
            {"data", {{"source", "moons"}, {"n_samples", 1000}, {"noise", 0.2}, {"seed", 7}}},
            {"model", {{"hidden", {32, 32}}, {"activation", "tanh"}}},
            {"optimizer", {{"name", "adam"}, {"lr", 1e-2}}},
            // One thread, as overfit-sine: 32x32 hidden units never gain from a second thread.
            {"training", {{"epochs", 30}, {"batch_size", 32}, {"seed", 42}, {"num_threads", 1}}}}},
      {{"overfit-moons",
        "Few noisy moons points and a big MLP: the decision boundary wraps around single noisy "
        "points while validation loss climbs. Watch the gap open and the model view; then "
        "set model.dropout 0.3, optimizer.weight_decay 1e-3 or more data.n_samples and restart."},
       json{{"name", "overfit-moons"},
            // 40 training points with heavy noise, one batch: validation loss bottoms out near
            // epoch 6 (0.33) and climbs past 1.4 by epoch 200, when every training point is
            // classified correctly (the boundary has wrapped around the noisy ones); validation
            // accuracy stays ~0.9.
            {"data",
             {{"source", "moons"},
              {"n_samples", 80},
              {"noise", 0.35},
              {"seed", 7},
              {"val_fraction", 0.5}}},
            {"model", {{"hidden", {256, 256}}, {"activation", "relu"}}},
            {"optimizer", {{"name", "adam"}, {"lr", 1e-3}}},
            {"training", {{"epochs", 500}, {"batch_size", 64}, {"seed", 42}, {"num_threads", 1}}}}},
      {{"circles", "Two concentric noisy circles (2-D, two classes) and a small MLP."},
       json{{"name", "circles"},
            {"data", {{"source", "circles"}, {"n_samples", 600}, {"noise", 0.1}, {"seed", 7}}},
            {"model", {{"hidden", {16, 16}}, {"activation", "tanh"}}},
            {"optimizer", {{"name", "adam"}, {"lr", 1e-2}}},
            {"training", {{"epochs", 40}, {"batch_size", 32}, {"seed", 42}, {"num_threads", 1}}}}},
      {{"spirals",
        "Two interleaved spirals (2-D, two classes): a harder boundary that needs a wider MLP "
        "and more epochs."},
       json{{"name", "spirals"},
            {"data", {{"source", "spirals"}, {"n_samples", 1000}, {"noise", 0.03}, {"seed", 7}}},
            {"model", {{"hidden", {64, 64}}, {"activation", "relu"}}},
            {"optimizer", {{"name", "adam"}, {"lr", 1e-2}}},
            {"training", {{"epochs", 150}, {"batch_size", 64}, {"seed", 42}, {"num_threads", 1}}}}},
      {{"fashion-mnist-mlp",
        "Fashion-MNIST (real 28x28 clothing images, 10 classes) with an MLP 784-256-128-10."},
       json{{"name", "fashion-mnist-mlp"},
            {"data", {{"source", "fashion-mnist"}, {"seed", 7}}},
            {"model", {{"hidden", {256, 128}}, {"activation", "relu"}}},
            {"optimizer", {{"name", "adam"}, {"lr", 1e-3}}},
            // num_threads stays "auto": 1 or 2 threads is faster depending on what else runs.
            {"training", {{"epochs", 10}, {"batch_size", 128}, {"seed", 42}}}}},
      {{"fashion-mnist-cnn",
        "Fashion-MNIST with a small CNN: two conv blocks (Conv2d 3x3 with 32 and 64 channels, "
        "BatchNorm2d, ReLU, MaxPool2d(2)) and a linear output, Adam with the learning rate "
        "x0.3 after epoch 1 (StepLR); above 0.90 validation accuracy in 2 epochs, where the "
        "MLP stays below."},
       json{{"name", "fashion-mnist-cnn"},
            {"data", {{"source", "fashion-mnist"}, {"seed", 7}}},
            {"model",
             {{"kind", "cnn"},
              {"activation", "relu"},
              {"cnn", {{"channels", {32, 64}}, {"kernel_size", 3}, {"padding", 1},
                       {"batch_norm", true}, {"pool", "max"}, {"pool_size", 2}}}}},
            {"optimizer", {{"name", "adam"}, {"lr", 1e-3}}},
            {"scheduler", {{"name", "StepLR"}, {"step_size", 1}, {"gamma", 0.3}}},
            {"training", {{"epochs", 2}, {"batch_size", 64}, {"seed", 42}}}}},
      {{"rnn-exploding",
        "Exploding gradients in a recurrent net: a plain tanh RNN (nn.RNN, 64 units) predicting "
        "the next value of a noisy sine from the last 100, SGD at lr 0.5. Without clipping the "
        "gradient norm climbs from about 1 to thousands within a few steps and the loss "
        "overflows; with training.clip.enabled=true (max_norm 1) the same run trains steadily. "
        "The reason the seeds clip the gradients of RNNs."},
       json{{"name", "rnn-exploding"},
            // Backpropagation through 100 steps of h = tanh(W_ih x + W_hh h): once an update
            // pushes W_hh's largest singular value above ~1, the gradient grows like its power
            // over the sequence, each unclipped SGD step makes W_hh larger still, and the norm
            // reaches inf within ~15 steps (torch 1.13 in Python: the same).
            {"data",
             {{"source", "sine-sequence"},
              {"n_samples", 2000},
              {"seq_len", 100},
              {"noise", 0.1},
              {"seed", 7},
              {"standardize", false}}},
            {"model",
             {{"kind", "rnn"},
              {"rnn", {{"cell", "rnn"}, {"nonlinearity", "tanh"}, {"hidden_size", 64}}}}},
            {"optimizer", {{"name", "sgd"}, {"lr", 0.5}}},
            {"training",
             {{"epochs", 8},
              {"batch_size", 32},
              {"seed", 42},
              {"num_threads", 1},
              {"clip", {{"enabled", false}, {"max_norm", 1.0}}}}}}},
      {{"exploding",
        "Exploding gradients: a sine regression with targets scaled x50 and SGD at lr 0.1. "
        "Without clipping the loss overflows within a few steps (watch the gradient norm climb "
        "and the non-finite marker); with training.clip.enabled=true (max_norm 1) it converges."},
       json{{"name", "exploding"},
            // Targets of variance ~1250: the first gradients are in the hundreds, so SGD at lr
            // 0.1 overshoots by orders of magnitude each step until the loss overflows (float32).
            // Clipped to norm 1, each update is at most 0.1 long and the fit converges.
            {"data",
             {{"source", "sine"},
              {"n_samples", 200},
              {"noise", 0.1},
              {"seed", 7},
              {"target_scale", 50.0}}},
            {"model", {{"hidden", {64, 64}}, {"activation", "relu"}}},
            {"optimizer", {{"name", "sgd"}, {"lr", 0.1}}},
            {"training",
             {{"epochs", 100},
              {"batch_size", 32},
              {"seed", 42},
              {"num_threads", 1},
              {"clip", {{"enabled", false}, {"max_norm", 1.0}}}}}}},
      {{"flowers-csv",
        "Your own table, the way it works: a CSV of 300 flowers (4 measurements, species as "
        "text) written by the build; 3 outputs named by the species, a stratified split and the "
        "confusion matrix in the Evaluation tab."},
       json{{"name", "flowers-csv"},
            {"data",
             {{"source", "csv"},
              {"csv", {{"path", examplesDir() + "/flowers.csv"}, {"target", "species"}}},
              {"stratify", true},
              {"seed", 7}}},
            {"model", {{"hidden", {16, 16}}, {"activation", "relu"}}},
            {"optimizer", {{"name", "adam"}, {"lr", 1e-2}}},
            {"training", {{"epochs", 40}, {"batch_size", 16}, {"seed", 42}, {"num_threads", 1}}}}},
      {{"housing-csv",
        "Regression on a table: house prices (in 100k) from area, rooms, age, distance and the "
        "district, a text column one-hot encoded; the Evaluation tab plots predicted against "
        "true prices."},
       json{{"name", "housing-csv"},
            {"data",
             {{"source", "csv"},
              {"csv",
               {{"path", examplesDir() + "/housing.csv"},
                {"target", "price_100k"},
                {"task", "regression"},
                {"categorical", "one_hot"}}},
              {"seed", 7}}},
            {"model", {{"hidden", {64, 64}}, {"activation", "relu"}}},
            {"optimizer", {{"name", "adam"}, {"lr", 3e-3}}},
            {"training", {{"epochs", 60}, {"batch_size", 32}, {"seed", 42}, {"num_threads", 1}}}}},
      {{"fashion-png",
        "A folder of images per class (torchvision's ImageFolder layout): 6,000 Fashion-MNIST "
        "images written as PNG files by the build, with a test folder beside them."},
       json{{"name", "fashion-png"},
            {"data",
             {{"source", "image-folder"},
              {"image_folder", {{"path", examplesDir() + "/fashion-png"}, {"channels", 1}}},
              {"seed", 7}}},
            {"model", {{"hidden", {128}}, {"activation", "relu"}}},
            {"optimizer", {{"name", "adam"}, {"lr", 1e-3}}},
            {"training", {{"epochs", 10}, {"batch_size", 64}, {"seed", 42}, {"num_threads", 1}}}}},
  };
  return presets;
}

}  // namespace

std::vector<PresetInfo> presets() {
  std::vector<PresetInfo> out;
  for (const auto& p : table()) out.push_back(p.info);
  return out;
}

std::string defaultPresetName() { return "overfit-sine"; }

nlohmann::json presetJson(const std::string& name) {
  std::string names;
  for (const auto& p : table()) {
    if (p.info.name == name) return p.patch;
    names += (names.empty() ? "" : ", ") + p.info.name;
  }
  throw Error(ErrorCode::Config, "preset",
              "unknown preset '" + name + "' (available: " + names + ")");
}

TrainConfig presetConfig(const std::string& name) {
  nlohmann::json j = defaultConfigJson();
  mergeConfigJson(j, presetJson(name));
  return configFromJson(j);
}

}  // namespace trainscope
