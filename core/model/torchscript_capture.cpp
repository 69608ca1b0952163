// A named submodule's output from a rewritten copy of a TorchScript module's forward graph.
#include "core/model/torchscript_capture.h"

#include <torch/csrc/jit/ir/ir.h>

#include <optional>
#include <vector>

#include "core/errors.h"

namespace trainscope {

namespace {

using torch::jit::Node;
using torch::jit::Value;

const char* const kCamKey = "model.torchscript.grad_cam_layer";

/// The dotted path of the submodule `v` holds, following prim::GetAttr from the graph's
/// `self`; "" for self itself, nullopt when `v` is not reached that way.
std::optional<std::string> submodulePath(Value* v, const Value* self) {
  std::vector<std::string> parts;
  while (v != self) {
    const Node* n = v->node();
    if (n->kind() != c10::prim::GetAttr) return std::nullopt;
    parts.push_back(n->s(c10::attr::name));
    v = n->input(0);
  }
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += (out.empty() ? "" : ".") + *it;
  return out;
}

/// The short class name of a module: "Conv2d" for __torch__.torch.nn.modules.conv.Conv2d and
/// its mangled copies (___torch_mangle_3.Conv2d).
std::string moduleClass(const torch::jit::Module& m) {
  return m.type()->name() ? m.type()->name()->name() : std::string();
}

}  // namespace

std::string lastConv2dName(const torch::jit::Module& m) {
  std::string last;
  for (const auto& s : m.named_modules()) {
    const std::string qualified = s.value.type()->name() ? s.value.type()->name()->qualifiedName() : "";
    if (moduleClass(s.value) == "Conv2d" && qualified.find("torch.nn.modules.conv") != std::string::npos)
      last = s.name;
  }
  return last;
}

SubmoduleCapture::SubmoduleCapture(const torch::jit::Module& m, const std::string& layer) {
  bool exists = false;
  std::string names;
  for (const auto& s : m.named_modules()) {
    if (s.name.empty()) continue;
    exists = exists || s.name == layer;
    if (names.size() < 300) names += (names.empty() ? "" : ", ") + s.name;
  }
  if (!exists)
    throw Error(ErrorCode::Config, kCamKey,
                std::string(kCamKey) + " \"" + layer + "\": the TorchScript module has no submodule of that name" +
                    (names.empty() ? " (it has no submodules)" : "; its submodules: " + names));
  const torch::jit::GraphFunction& forward =
      torch::jit::toGraphFunction(m.get_method("forward").function());
  std::shared_ptr<torch::jit::Graph> graph = forward.graph()->copy();
  const Value* self = graph->inputs()[0];
  Value* captured = nullptr;
  // Inline the calls that may lead to `layer` (its parents' forwards, self's own methods)
  // until its call stands in the top block. TorchScript has no recursion: this ends.
  for (;;) {
    Node* expand = nullptr;
    for (Node* n : graph->nodes()) {
      if (n->kind() != c10::prim::CallMethod) continue;
      const std::optional<std::string> path = submodulePath(n->input(0), self);
      if (!path) continue;
      if (*path == layer) {
        if (n->s(c10::attr::name) == "forward") captured = n->output();  // the last call
      } else if (!expand && (path->empty() || layer.rfind(*path + ".", 0) == 0)) {
        expand = n;
      }
    }
    if (captured || !expand) break;
    const auto type = expand->input(0)->type()->expect<c10::ClassType>();
    torch::jit::GraphFunction& callee =
        torch::jit::toGraphFunction(type->getMethod(expand->s(c10::attr::name)));
    torch::jit::inlineCallTo(expand, &callee, callee.graph().get());
  }
  if (!captured)
    throw Error(ErrorCode::Config, kCamKey,
                std::string(kCamKey) + " \"" + layer + "\": forward does not call that submodule outside an if or a loop, so its output is not one tensor of the "
                    "forward pass; name a submodule forward always calls once");
  if (!captured->type()->cast<c10::TensorType>())
    throw Error(ErrorCode::Config, kCamKey,
                std::string(kCamKey) + " \"" + layer + "\": that submodule returns " + captured->type()->str() +
                    ", not the tensor of feature maps Grad-CAM needs");
  Node* ret = graph->return_node();
  graph->setInsertPoint(ret);
  Node* tuple = graph->insertNode(graph->createTuple({ret->input(0), captured}));
  ret->replaceInput(0, tuple->output());
  function_ = std::make_shared<torch::jit::GraphFunction>(
      c10::QualifiedName("trainscope.grad_cam_forward"), graph, nullptr);
}

std::pair<at::Tensor, at::Tensor> SubmoduleCapture::run(const torch::jit::Module& m,
                                                        const at::Tensor& input) const {
  torch::jit::Stack stack{m._ivalue(), input};
  function_->run(stack);
  const auto tuple = stack.back().toTuple();
  return {tuple->elements()[1].toTensor(), tuple->elements()[0].toTensor()};
}

}  // namespace trainscope
