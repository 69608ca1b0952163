#pragma once
/// ONNX from an ExportPlan, written by TrainScope's own protocol-buffer writer (issue 50;
/// libtorch has no ONNX exporter: pytorch #17869, #33343): opset 13, IR version 7, one float32
/// input "input" [N, input_shape...] (N symbolic) and one output "output" [N, outputs]. Layers
/// as ONNX operators: Linear -> Gemm (transB 1), Conv2d -> Conv, BatchNorm2d ->
/// BatchNormalization, ReLU/Tanh/Sigmoid -> Relu/Tanh/Sigmoid, GELU -> its erf form (opset 13
/// has no Gelu: 0.5 x (1 + erf(x / sqrt 2))), MaxPool2d/AvgPool2d -> MaxPool/AveragePool,
/// Flatten -> Flatten (axis 1), Unflatten -> Reshape, Dropout left out (eval mode), the
/// preprocessing -> Sub and Div, softmax -> Softmax (axis 1). Torch types inside (the
/// tensors): core/export only.
#include <string>

namespace trainscope {

struct ExportPlan;

/// The marker an ONNX file TrainScope wrote carries in its first bytes (ModelProto
/// producer_name): how a later export recognises a file it may replace.
inline constexpr const char* kOnnxProducer = "TrainScope";

/// The ModelProto bytes of `plan`; `card_json` goes in as metadata_props "trainscope_card".
/// `version`: TrainScope's, as producer_version. Throws Error(Config, "model.kind") naming the
/// first layer ONNX export does not write (the rnn kind's LSTM/GRU/RNN): never a partial file.
std::string onnxModel(const ExportPlan& plan, bool softmax, const std::string& card_json,
                      const std::string& version);

}  // namespace trainscope
