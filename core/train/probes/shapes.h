#pragma once
/// "Shape first" (the debugging checklist's first step): one batch of the configured data
/// through the configured model before anything trains, with every layer's output shape and
/// parameter count (`trainscope-cli train --dry-run`). Torch-free.
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"

namespace trainscope {

class Model;
struct TensorPair;
struct DataSummary;

/// A tensor as the checklist describes it: shape, dtype, device and value range.
struct TensorFacts {
  std::vector<int64_t> shape;
  std::string dtype;   ///< "float32", "int64" (torch's names without "torch.")
  std::string device;  ///< "cpu", "cuda:0"
  double min = 0, max = 0;
};

/// One layer of the model, with the output of one batch (batch dimension included).
struct LayerShape {
  std::string name;         ///< state_dict prefix ("0", "1", ...)
  std::string description;  ///< "Conv2d(1->32, 3x3)", "ReLU"
  std::vector<int64_t> output_shape;
  int64_t trainable_parameters = 0, frozen_parameters = 0;
  bool shape_known = true;  ///< LayerInfo::shape_known: false leaves output_shape empty
};

/// What shapeReport found.
struct ShapeReport {
  std::string model_kind;
  int64_t n_train = 0, n_val = 0, n_test = 0;
  std::string task;  ///< classification | regression
  int64_t outputs = 0;  ///< what the data needs: classes, or regression targets per sample
  std::vector<int64_t> image_shape;  ///< [C, H, W] for image data, else empty
  TensorFacts x, y;  ///< the first training batch as the model gets it (x after preprocessing)
  std::vector<LayerShape> layers;
  TensorFacts output;  ///< the model's output for that batch
  int64_t trainable_parameters = 0;
  /// data.augment as the run applies it (torchvision code; the batch above is augmented as
  /// the first training batch is), training.class_weights as computed, data.sampler.
  std::vector<std::string> augmentation;
  std::vector<double> class_weights;
  std::string sampler = "random";
};

/// Loads `config`'s data (as a run would: same split and preprocessing), builds the model
/// (seeded from training.seed, or 0), and runs the first training batch of
/// training.batch_size samples (augmented as data.augment says) through it layer by layer in
/// eval mode without gradients, on the CPU. Checks what a run checks before its first step:
/// the augmentation against the images, the class weights and sampler against the labels, a
/// last batch of one (checkLastBatch). Throws Error(Config, key) naming the key and both shapes when the model does not fit
/// the data (a model.kind that needs images given a table, a conv stack that shrinks the images
/// to nothing, an output that is not [batch, outputs]), and whatever loading the data throws.
ShapeReport shapeReport(const TrainConfig& config);

/// The trainer's shape check before the first step: the first min(batch_size, N) training
/// samples through `model` in eval mode without gradients (the model's mode is restored; no
/// random number is drawn), on the data's device. Throws the Error(Config, "model.kind") of
/// shapeReport naming both shapes when the output is not [batch, summary.outputs], and
/// Error(Config, "model.kind") with the model's own message when the forward itself fails (a
/// TorchScript module written for other inputs), so a mismatch is a clear error before training
/// instead of a failure in the loss at step 1.
void checkModelFitsData(Model& model, const TensorPair& train, const DataSummary& summary,
                        const std::string& kind, int64_t batch_size);

/// training.drop_last's check before the first step. When `drop_last` leaves no batch at all
/// (fewer training samples per rank than batch_size): Error(Config, "training.drop_last").
/// When each epoch's last batch holds a single sample (per rank of `world_size`, without
/// drop_last): a copy of `model` in training mode is given one training sample; a model that
/// cannot train on it (BatchNorm: "Expected more than 1 value per channel when training") is
/// refused with Error(Config, "training.drop_last") naming batch_size, the sample count and
/// drop_last, in one line. The model itself is not touched.
void checkLastBatch(const Model& model, const TensorPair& train, int64_t batch_size,
                    bool drop_last, int64_t world_size);

/// The line of a libtorch or TorchScript error that says what went wrong: without the C++
/// backtrace, and after a TorchScript traceback its last line ("RuntimeError: ...").
std::string errorLine(const std::exception& e);

/// "[64, 1, 28, 28]".
std::string shapeText(const std::vector<int64_t>& shape);

}  // namespace trainscope
