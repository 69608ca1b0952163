// TorchScript modules written from C++ for Python's torch.jit.load.
#include "core/export/torchscript_export.h"

#include <ATen/ATen.h>
#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/serialization/import.h>
#include <torch/utils.h>

#include <sstream>

#include "core/errors.h"
#include "core/export/export_plan.h"
#include "core/train/probes/shapes.h"

namespace trainscope {

namespace {

std::string number(double v) {
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s.precision(17);
  s << v;
  std::string t = s.str();
  if (t.find_first_of(".e") == std::string::npos) t += ".0";
  return t;
}

/// A module of one layer with tensors: its own class, its tensors under their torch.nn names.
torch::jit::Module leafModule(const std::shared_ptr<torch::jit::CompilationUnit>& cu,
                              const ExportLayer& l, const std::string& forward) {
  torch::jit::Module m(c10::QualifiedName("__torch__.trainscope.export." + l.type), cu,
                       /*shouldMangle=*/true);
  for (const auto& [name, t] : l.tensors) {
    const bool buffer = name.rfind("running_", 0) == 0 || name == "num_batches_tracked";
    m.register_parameter(name, t.clone(), buffer);  // buffers: is_buffer true
  }
  m.define(forward);
  return m;
}

/// The recurrent layer's forward: aten::lstm / gru / rnn_tanh / rnn_relu on its flat weights
/// in torch.nn's order (per layer, per direction: w_ih, w_hh, b_ih, b_hh), zero initial
/// states, batch_first, then output[:, -1] or output.mean(1).
std::string recurrentForward(const ExportLayer& l) {
  std::string params;
  for (int64_t k = 0; k < l.num_layers; ++k)
    for (int d = 0; d < (l.bidirectional ? 2 : 1); ++d) {
      const std::string s = std::to_string(k) + (d ? "_reverse" : "");
      for (const char* w : {"weight_ih_l", "weight_hh_l", "bias_ih_l", "bias_hh_l"})
        params += std::string(params.empty() ? "" : ", ") + "self." + w + s;
    }
  const std::string states = std::to_string(l.num_layers * (l.bidirectional ? 2 : 1));
  const std::string h0 = "    h0 = torch.zeros([" + states + ", x.size(0), " + std::to_string(l.hidden_size) +
                         "], dtype=x.dtype, device=x.device)\n";
  const std::string args = "[" + params + "], True, " + std::to_string(l.num_layers) + ", 0.0, False, " +
                           (l.bidirectional ? "True" : "False") + ", True)\n";
  std::string body = "def forward(self, x):\n" + h0;
  if (l.type == "LSTM")
    body += "    out, hn, cn = torch.lstm(x, [h0, h0], " + args;
  else if (l.type == "GRU")
    body += "    out, hn = torch.gru(x, h0, " + args;
  else
    body += std::string("    out, hn = torch.rnn_") + (l.nonlinearity == "relu" ? "relu" : "tanh") +
            "(x, h0, " + args;
  body += l.reduce == "mean" ? "    return out.mean(1)\n" : "    return out.select(1, -1)\n";
  return body;
}

/// Registers the plan's preprocessing (input_offset, input_scale buffers) on `top` and returns
/// the first lines of its forward.
std::string forwardStart(torch::jit::Module& top, const ExportPlan& plan) {
  std::string code = "def forward(self, x):\n";
  if (plan.input_offset.defined()) {
    top.register_buffer("input_offset", plan.input_offset.clone());
    top.register_buffer("input_scale", plan.input_scale.clone());
    code += "    x = (x - self.input_offset) / self.input_scale\n";
  }
  return code;
}

/// Ends forward (softmax over dim 1 or the logits), defines it on `top` and returns the archive
/// of `top` in eval mode with the card as its extra file.
std::string finishModule(torch::jit::Module& top, std::string code, bool softmax, const std::string& card_json) {
  code += softmax ? "    return torch.softmax(x, 1)\n" : "    return x\n";
  top.define(code);
  top.eval();
  std::ostringstream bytes;
  top.save(bytes, {{kExportExtraFile, card_json}});
  return bytes.str();
}

}  // namespace

std::string torchScriptArchive(const ExportPlan& plan, bool softmax, const std::string& card_json) {
  auto cu = std::make_shared<torch::jit::CompilationUnit>();
  torch::jit::Module top(c10::QualifiedName("__torch__.trainscope.export.Model"), cu, true);
  std::string code = forwardStart(top, plan);
  for (const ExportLayer& l : plan.layers) {
    const std::string call = "    x = getattr(self, \"" + l.name + "\").forward(x)\n";
    if (l.type == "Linear") {
      top.register_module(l.name, leafModule(cu, l, "def forward(self, x):\n    return torch.linear(x, self.weight, self.bias)\n"));
      code += call;
    } else if (l.type == "Conv2d") {
      top.register_module(
          l.name, leafModule(cu, l,
                             "def forward(self, x):\n    return torch.conv2d(x, self.weight, self.bias, " +
                                 shapeText(l.stride) + ", " + shapeText(l.padding) + ", [1, 1], 1)\n"));
      code += call;
    } else if (l.type == "BatchNorm2d") {
      top.register_module(
          l.name, leafModule(cu, l,
                             "def forward(self, x):\n    return torch.batch_norm(x, self.weight, self.bias, "
                             "self.running_mean, self.running_var, False, 0.1, " + number(l.eps) +
                                 ", False)\n"));
      code += call;
    } else if (l.type == "LSTM" || l.type == "GRU" || l.type == "RNN") {
      top.register_module(l.name, leafModule(cu, l, recurrentForward(l)));
      code += call;
    } else if (l.type == "ReLU") {
      code += "    x = torch.relu(x)\n";
    } else if (l.type == "Tanh") {
      code += "    x = torch.tanh(x)\n";
    } else if (l.type == "Sigmoid") {
      code += "    x = torch.sigmoid(x)\n";
    } else if (l.type == "GELU") {
      code += "    x = torch.gelu(x)\n";
    } else if (l.type == "MaxPool2d") {
      code += "    x = torch.max_pool2d(x, " + shapeText(l.kernel) + ", " + shapeText(l.stride) + ", " +
              shapeText(l.padding) + ", [1, 1], False)\n";
    } else if (l.type == "AvgPool2d") {
      code += "    x = torch.avg_pool2d(x, " + shapeText(l.kernel) + ", " + shapeText(l.stride) + ", " +
              shapeText(l.padding) + ", False, True, None)\n";
    } else if (l.type == "Flatten") {
      code += "    x = torch.flatten(x, 1)\n";
    } else if (l.type == "Unflatten") {
      std::vector<int64_t> shape{-1};
      shape.insert(shape.end(), l.sizes.begin(), l.sizes.end());
      code += "    x = x.reshape(" + shapeText(shape) + ")\n";
    } else if (l.type == "Dropout") {
      // eval mode: the identity
    } else {
      throw Error(ErrorCode::Config, "model.kind",
                  "layer " + l.name + " (" + l.type + ") is not written as TorchScript");
    }
  }
  return finishModule(top, code, softmax, card_json);
}

std::string wrapTorchScript(const std::filesystem::path& module_file, const ExportPlan& plan,
                            const std::vector<int64_t>& image_shape, bool softmax,
                            const std::string& card_json) {
  torch::jit::Module theirs;
  try {
    theirs = torch::jit::load(module_file.string(), c10::Device(c10::kCPU));
  } catch (const c10::Error& e) {
    throw Error(ErrorCode::Config, module_file.string(),
                "cannot read the TorchScript module " + module_file.string() + ": " +
                    std::string(e.what_without_backtrace()).substr(0, 300));
  }
  theirs.eval();
  torch::jit::Module top(c10::QualifiedName("__torch__.trainscope.export.Wrapped"),
                         std::make_shared<torch::jit::CompilationUnit>(), true);
  top.register_module("model", theirs);
  std::string code = forwardStart(top, plan);
  if (plan.input_shape.size() == 1 && image_shape.size() == 3 &&
      image_shape[0] * image_shape[1] * image_shape[2] == plan.input_shape[0]) {
    bool images = false;
    try {
      torch::NoGradGuard no_grad;
      (void)theirs.forward({at::zeros({1, image_shape[0], image_shape[1], image_shape[2]})});
      images = true;
    } catch (const std::exception&) {  // c10::Error, JITException: it takes flat rows
    }
    if (images) code += "    x = x.reshape([-1, " + std::to_string(image_shape[0]) + ", " +
                        std::to_string(image_shape[1]) + ", " + std::to_string(image_shape[2]) + "])\n";
  }
  code += "    x = self.model.forward(x)\n";
  return finishModule(top, code, softmax, card_json);
}

}  // namespace trainscope
