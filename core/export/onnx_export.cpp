// ONNX ModelProto written by hand (onnx/onnx.proto, proto2 field numbers below).
#include "core/export/onnx_export.h"

#include <ATen/ATen.h>

#include <cmath>

#include "core/errors.h"
#include "core/export/export_plan.h"
#include "core/io/tfevents_writer.h"

namespace trainscope {

namespace {

// onnx.proto: TensorProto.DataType and AttributeProto.AttributeType values.
constexpr uint64_t kFloat = 1, kInt64 = 7;
constexpr uint64_t kAttrFloat = 1, kAttrInt = 2, kAttrInts = 7;

/// One attribute: AttributeProto { name = 1; f = 2; i = 3; ints = 8; type = 20; }.
struct Attr {
  std::string name;
  uint64_t type;
  double f = 0;
  int64_t i = 0;
  std::vector<int64_t> ints;

  static Attr integer(std::string n, int64_t v) { return {std::move(n), kAttrInt, 0, v, {}}; }
  static Attr real(std::string n, double v) { return {std::move(n), kAttrFloat, v, 0, {}}; }
  static Attr list(std::string n, std::vector<int64_t> v) { return {std::move(n), kAttrInts, 0, 0, std::move(v)}; }

  ProtoMessage proto() const {
    ProtoMessage a;
    a.bytesField(1, name);
    if (type == kAttrFloat) a.floatField(2, static_cast<float>(f));
    if (type == kAttrInt) a.varint(3, static_cast<uint64_t>(i));
    for (int64_t v : ints) a.varint(8, static_cast<uint64_t>(v));
    a.varint(20, type);
    return a;
  }
};

/// ValueInfoProto { name = 1; type = 2 } of a float32 tensor; dimension -1 is the symbolic "N".
ProtoMessage valueInfo(const std::string& name, const std::vector<int64_t>& dims) {
  ProtoMessage shape;  // TensorShapeProto { repeated Dimension dim = 1 }
  for (int64_t d : dims) {
    ProtoMessage dim;  // Dimension { dim_value = 1; dim_param = 2 }
    if (d < 0)
      dim.bytesField(2, "N");
    else
      dim.varint(1, static_cast<uint64_t>(d));
    shape.message(1, dim);
  }
  ProtoMessage tensor;  // TypeProto.Tensor { elem_type = 1; shape = 2 }
  tensor.varint(1, kFloat).message(2, shape);
  ProtoMessage type;  // TypeProto { tensor_type = 1 }
  type.message(1, tensor);
  ProtoMessage v;
  v.bytesField(1, name).message(2, type);
  return v;
}

/// The graph under construction: GraphProto { node = 1; name = 2; initializer = 5; input = 11;
/// output = 12 }.
class Graph {
 public:
  /// An initializer: TensorProto { dims = 1; data_type = 2; name = 8; raw_data = 9 }
  /// (little-endian, as x86 and ARM store it).
  std::string constant(const std::string& name, const at::Tensor& t) {
    const at::Tensor c = t.detach().cpu().contiguous();
    ProtoMessage p;
    for (int64_t d : c.sizes()) p.varint(1, static_cast<uint64_t>(d));
    p.varint(2, c.scalar_type() == at::kLong ? kInt64 : kFloat);
    p.bytesField(8, name);
    const at::Tensor typed = c.scalar_type() == at::kLong ? c : c.to(at::kFloat);
    p.bytesField(9, std::string(static_cast<const char*>(typed.data_ptr()),
                                static_cast<std::size_t>(typed.numel()) * typed.element_size()));
    initializers_.push_back(std::move(p));
    return name;
  }

  /// A node: NodeProto { input = 1; output = 2; name = 3; op_type = 4; attribute = 5 }.
  /// Returns its output's name.
  std::string node(const std::string& op, const std::vector<std::string>& inputs,
                   const std::vector<Attr>& attrs = {}, std::string output = {}) {
    const std::string name = op + "_" + std::to_string(nodes_.size());
    if (output.empty()) output = name;
    ProtoMessage n;
    for (const std::string& i : inputs) n.bytesField(1, i);
    n.bytesField(2, output).bytesField(3, name).bytesField(4, op);
    for (const Attr& a : attrs) n.message(5, a.proto());
    nodes_.push_back(std::move(n));
    return output;
  }

  ProtoMessage proto(const ProtoMessage& input, const ProtoMessage& output) const {
    ProtoMessage g;
    for (const ProtoMessage& n : nodes_) g.message(1, n);
    g.bytesField(2, "trainscope");
    for (const ProtoMessage& i : initializers_) g.message(5, i);
    g.message(11, input).message(12, output);
    return g;
  }

 private:
  std::vector<ProtoMessage> nodes_, initializers_;
};

std::vector<int64_t> pads(const std::vector<int64_t>& p) { return {p[0], p[1], p[0], p[1]}; }

}  // namespace

std::string onnxModel(const ExportPlan& plan, bool softmax, const std::string& card_json,
                      const std::string& version) {
  for (const ExportLayer& l : plan.layers)
    if (l.type == "LSTM" || l.type == "GRU" || l.type == "RNN")
      throw Error(ErrorCode::Config, "model.kind",
                  "layer " + l.name + " (" + l.type + ") is not written as ONNX by this build; "
                  "export the rnn kind with --format torchscript");
  Graph g;
  std::string x = "input";
  if (plan.input_offset.defined()) {
    x = g.node("Sub", {x, g.constant("input_offset", plan.input_offset)});
    x = g.node("Div", {x, g.constant("input_scale", plan.input_scale)});
  }
  for (const ExportLayer& l : plan.layers) {
    const std::string p = l.name + ".";
    if (l.type == "Linear") {
      x = g.node("Gemm", {x, g.constant(p + "weight", l.tensor("weight")), g.constant(p + "bias", l.tensor("bias"))},
                 {Attr::integer("transB", 1)});
    } else if (l.type == "Conv2d") {
      std::vector<std::string> in{x, g.constant(p + "weight", l.tensor("weight"))};
      if (l.tensor("bias").defined()) in.push_back(g.constant(p + "bias", l.tensor("bias")));
      x = g.node("Conv", in,
                 {Attr::list("kernel_shape", l.kernel), Attr::list("strides", l.stride),
                  Attr::list("pads", pads(l.padding)), Attr::list("dilations", {1, 1}),
                  Attr::integer("group", 1)});
    } else if (l.type == "BatchNorm2d") {
      x = g.node("BatchNormalization",
                 {x, g.constant(p + "weight", l.tensor("weight")), g.constant(p + "bias", l.tensor("bias")),
                  g.constant(p + "running_mean", l.tensor("running_mean")),
                  g.constant(p + "running_var", l.tensor("running_var"))},
                 {Attr::real("epsilon", l.eps)});
    } else if (l.type == "ReLU") {
      x = g.node("Relu", {x});
    } else if (l.type == "Tanh") {
      x = g.node("Tanh", {x});
    } else if (l.type == "Sigmoid") {
      x = g.node("Sigmoid", {x});
    } else if (l.type == "GELU") {  // 0.5 x (1 + erf(x / sqrt(2))): torch.nn.GELU's "none" form
      const std::string c = l.name + ".gelu_";
      const std::string e = g.node("Erf", {g.node("Div", {x, g.constant(c + "sqrt2", at::full({1}, std::sqrt(2.0), at::kFloat))})});
      const std::string one = g.node("Add", {e, g.constant(c + "one", at::ones({1}, at::kFloat))});
      x = g.node("Mul", {g.node("Mul", {x, one}), g.constant(c + "half", at::full({1}, 0.5, at::kFloat))});
    } else if (l.type == "MaxPool2d" || l.type == "AvgPool2d") {
      std::vector<Attr> a{Attr::list("kernel_shape", l.kernel), Attr::list("strides", l.stride),
                          Attr::list("pads", pads(l.padding))};
      if (l.type == "AvgPool2d") a.push_back(Attr::integer("count_include_pad", 1));  // torch's default
      x = g.node(l.type == "MaxPool2d" ? "MaxPool" : "AveragePool", {x}, a);
    } else if (l.type == "Flatten") {
      x = g.node("Flatten", {x}, {Attr::integer("axis", 1)});
    } else if (l.type == "Unflatten") {
      std::vector<int64_t> shape{-1};
      shape.insert(shape.end(), l.sizes.begin(), l.sizes.end());
      x = g.node("Reshape", {x, g.constant(p + "shape", at::tensor(shape, at::kLong))});
    } else if (l.type == "Dropout") {
      // eval mode: the identity
    } else {
      throw Error(ErrorCode::Config, "model.kind",
                  "layer " + l.name + " (" + l.type + ") is not written as ONNX");
    }
  }
  if (softmax) x = g.node("Softmax", {x}, {Attr::integer("axis", 1)});
  g.node("Identity", {x}, {}, "output");
  std::vector<int64_t> in{-1};
  in.insert(in.end(), plan.input_shape.begin(), plan.input_shape.end());
  ProtoMessage opset;  // OperatorSetIdProto { domain = 1; version = 2 }
  opset.bytesField(1, "").varint(2, 13);
  ProtoMessage meta;  // StringStringEntryProto { key = 1; value = 2 }
  meta.bytesField(1, "trainscope_card").bytesField(2, card_json);
  // ModelProto { ir_version = 1; producer_name = 2; producer_version = 3; graph = 7;
  // opset_import = 8; metadata_props = 14 }: the producer first, so that the first bytes
  // name TrainScope.
  ProtoMessage model;
  model.varint(1, 7).bytesField(2, kOnnxProducer).bytesField(3, version);
  model.message(7, g.proto(valueInfo("input", in), valueInfo("output", {-1, plan.outputs})));
  model.message(8, opset).message(14, meta);
  return model.bytes;
}

}  // namespace trainscope
