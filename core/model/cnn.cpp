#include "core/model/cnn.h"

#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>  // Flatten, Unflatten
#include <torch/nn/modules/pooling.h>

#include <string>

#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/model/sequential_model.h"

namespace trainscope {
namespace {

std::string dimsText(const std::vector<int64_t>& s) {
  std::string out;
  for (int64_t d : s) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out;
}

/// The network's plan, worked out from the config and the data's shapes alone.
struct Plan {
  std::vector<int64_t> image;    ///< [C, H, W] the first conv sees
  std::vector<int64_t> unflatten;  ///< sizes for nn.Unflatten(1, ...); empty: none
  /// Per block: the conv output [c, h, w] and the block's output (after pooling).
  std::vector<std::vector<int64_t>> conv_out, block_out;
  int64_t flat = 0;  ///< features after the flatten
};

Plan plan(const ModelConfig& config, const std::vector<int64_t>& input_shape,
          const std::vector<int64_t>& image_shape) {
  const CnnConfig& c = config.cnn;
  Plan p;
  int64_t flat_inputs = 1;
  for (int64_t d : input_shape) flat_inputs *= d;
  if (input_shape.size() == 3) {
    p.image = input_shape;
  } else if (input_shape.size() == 1 && image_shape.size() == 3 &&
             image_shape[0] * image_shape[1] * image_shape[2] == flat_inputs) {
    p.image = image_shape;
    p.unflatten = image_shape;
  } else if (input_shape.size() == 2) {  // [H, W] samples: one channel
    p.image = {1, input_shape[0], input_shape[1]};
    p.unflatten = {1, input_shape[0]};
  } else {
    throw Error(ErrorCode::Config, "model.kind",
                "model.kind \"cnn\" takes images ([C, H, W] samples), but this data's samples "
                "are [" + dimsText(input_shape) +
                    "] (a table or sequences, not images): use model.kind \"mlp\"");
  }
  if (c.channels.empty())
    throw Error(ErrorCode::Config, "model.cnn.channels",
                "model.cnn.channels is empty: give at least one conv block's out_channels, e.g. "
                "[32, 64]");
  std::vector<int64_t> shape = p.image;
  for (std::size_t b = 0; b < c.channels.size(); ++b) {
    const auto conv = [&](int64_t n) { return (n + 2 * c.padding - c.kernel_size) / c.stride + 1; };
    std::vector<int64_t> out{c.channels[b], conv(shape[1]), conv(shape[2])};
    const bool conv_empty = shape[1] + 2 * c.padding < c.kernel_size ||
                            shape[2] + 2 * c.padding < c.kernel_size;
    p.conv_out.push_back(out);
    if (!conv_empty && c.pool != "none") out = {out[0], out[1] / c.pool_size, out[2] / c.pool_size};
    if (conv_empty || out[1] < 1 || out[2] < 1)
      throw Error(ErrorCode::Config, "model.cnn.channels",
                  "model.cnn: the images are " + dimsText(p.image) +
                      " (C x H x W), and conv block " + std::to_string(b + 1) + " of " +
                      std::to_string(c.channels.size()) + " gets " + dimsText(shape) +
                      ", which its Conv2d (kernel_size " + std::to_string(c.kernel_size) +
                      ", stride " + std::to_string(c.stride) + ", padding " +
                      std::to_string(c.padding) + ")" +
                      (c.pool != "none" ? " and pooling (pool_size " + std::to_string(c.pool_size) + ")"
                                        : std::string()) +
                      " shrink to nothing: use fewer model.cnn.channels entries, a smaller "
                      "pool_size or stride, or larger images");
    p.block_out.push_back(out);
    shape = out;
  }
  p.flat = shape[0] * shape[1] * shape[2];
  return p;
}

}  // namespace

std::shared_ptr<Model> buildCnn(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& image_shape, int64_t outputs) {
  const CnnConfig& c = config.cnn;
  const Plan p = plan(config, input_shape, image_shape);
  torch::nn::Sequential seq;
  if (!p.unflatten.empty()) seq->push_back(torch::nn::Unflatten(1, p.unflatten));
  int64_t in = p.image[0];
  for (int64_t out : c.channels) {
    seq->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, c.kernel_size)
                                         .stride(c.stride)
                                         .padding(c.padding)));
    if (c.batch_norm) seq->push_back(torch::nn::BatchNorm2d(out));
    pushActivation(seq, config.activation);
    if (c.pool == "max") seq->push_back(torch::nn::MaxPool2d(c.pool_size));
    if (c.pool == "avg") seq->push_back(torch::nn::AvgPool2d(c.pool_size));
    in = out;
  }
  seq->push_back(torch::nn::Flatten());
  if (config.dropout > 0) seq->push_back(torch::nn::Dropout(config.dropout));
  pushLinearLayers(seq, p.flat, c.hidden, config.activation, config.dropout, outputs);
  return std::make_shared<SequentialModel>("cnn", seq);
}

ModelFootprint cnnKindFootprint(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& image_shape, int64_t outputs) {
  const CnnConfig& c = config.cnn;
  const Plan p = plan(config, input_shape, image_shape);
  ModelFootprint f;
  int64_t in = p.image[0];
  f.activation_floats_per_sample = p.image[0] * p.image[1] * p.image[2];
  for (std::size_t b = 0; b < c.channels.size(); ++b) {
    const std::vector<int64_t>& co = p.conv_out[b];
    const std::vector<int64_t>& bo = p.block_out[b];
    const int64_t maps = co[0] * co[1] * co[2];
    f.parameters += in * co[0] * c.kernel_size * c.kernel_size + co[0];
    if (c.batch_norm) f.parameters += 2 * co[0];
    // conv (and batch norm) output and the activation's, each with its gradient
    f.activation_floats_per_sample += (c.batch_norm ? 6 : 4) * maps;
    if (c.pool != "none") f.activation_floats_per_sample += 2 * bo[0] * bo[1] * bo[2];
    in = co[0];
  }
  std::vector<int64_t> widths{p.flat};
  widths.insert(widths.end(), c.hidden.begin(), c.hidden.end());
  widths.push_back(outputs);
  const ModelFootprint head = mlpFootprint(widths);
  f.parameters += head.parameters;
  f.activation_floats_per_sample += head.activation_floats_per_sample - p.flat;
  return f;
}

}  // namespace trainscope
