#include "gui/preset_text.h"

#include "core/config/train_config.h"
#include "gui/tr.h"

namespace trainscope {

QString PresetText::description(const PresetInfo& p) {
  // Each text equals core's English description (tst_dashboard_details checks it), so
  // lupdate sees every sentence and the Chinese catalogue translates it.
  const std::string& n = p.name;
  if (n == "overfit-sine")
    return Tr::tr(
        "A few dozen noisy samples of a sine and a large MLP: validation loss turns upward "
        "within seconds (overfitting).");
  if (n == "moons")
    return Tr::tr("Two interleaving half circles (2-D, two classes) and a small MLP.");
  if (n == "overfit-moons")
    return Tr::tr(
        "Few noisy moons points and a big MLP: the decision boundary wraps around single noisy "
        "points while validation loss climbs. Watch the gap open and the model view; then "
        "set model.dropout 0.3, optimizer.weight_decay 1e-3 or more data.n_samples and restart.");
  if (n == "circles")
    return Tr::tr("Two concentric noisy circles (2-D, two classes) and a small MLP.");
  if (n == "spirals")
    return Tr::tr(
        "Two interleaved spirals (2-D, two classes): a harder boundary that needs a wider MLP "
        "and more epochs.");
  if (n == "fashion-mnist-mlp")
    return Tr::tr(
        "Fashion-MNIST (real 28x28 clothing images, 10 classes) with an MLP 784-256-128-10.");
  if (n == "fashion-mnist-cnn")
    return Tr::tr(
        "Fashion-MNIST with a small CNN: two conv blocks (Conv2d 3x3 with 32 and 64 channels, "
        "BatchNorm2d, ReLU, MaxPool2d(2)) and a linear output, Adam with the learning rate "
        "x0.3 after epoch 1 (StepLR); above 0.90 validation accuracy in 2 epochs, where the "
        "MLP stays below.");
  if (n == "rnn-exploding")
    return Tr::tr(
        "Exploding gradients in a recurrent net: a plain tanh RNN (nn.RNN, 64 units) predicting "
        "the next value of a noisy sine from the last 100, SGD at lr 0.5. Without clipping the "
        "gradient norm climbs from about 1 to thousands within a few steps and the loss "
        "overflows; with training.clip.enabled=true (max_norm 1) the same run trains steadily. "
        "The reason the seeds clip the gradients of RNNs.");
  if (n == "exploding")
    return Tr::tr(
        "Exploding gradients: a sine regression with targets scaled x50 and SGD at lr 0.1. "
        "Without clipping the loss overflows within a few steps (watch the gradient norm climb "
        "and the non-finite marker); with training.clip.enabled=true (max_norm 1) it converges.");
  if (n == "flowers-csv")
    return Tr::tr(
        "Your own table, the way it works: a CSV of 300 flowers (4 measurements, species as "
        "text) written by the build; 3 outputs named by the species, a stratified split and the "
        "confusion matrix in the Evaluation tab.");
  if (n == "housing-csv")
    return Tr::tr(
        "Regression on a table: house prices (in 100k) from area, rooms, age, distance and the "
        "district, a text column one-hot encoded; the Evaluation tab plots predicted against "
        "true prices.");
  if (n == "fashion-png")
    return Tr::tr(
        "A folder of images per class (torchvision's ImageFolder layout): 6,000 Fashion-MNIST "
        "images written as PNG files by the build, with a test folder beside them.");
  return QString::fromStdString(p.description);
}

}  // namespace trainscope
