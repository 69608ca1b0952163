#include "core/model/torchscript.h"

#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/csrc/jit/runtime/print_handler.h>
#include <torch/csrc/jit/serialization/import.h>
#include <torch/utils.h>
#include <torch/version.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>

#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/io/file_kind.h"
#include "core/io/file_read.h"
#include "core/io/pickle_reader.h"
#include "core/io/torch_zip.h"
#include "core/model/model.h"
#include "core/model/torchscript_archive.h"
#include "core/model/torchscript_capture.h"
#include "core/system/foreign_code.h"

namespace trainscope {
namespace {

namespace fs = std::filesystem;

const char* const kScriptHint =
    "in Python save the module as TorchScript: torch.jit.script(model).save(\"model.pt\")";

[[noreturn]] void badModelFile(const std::string& file, const std::string& problem) {
  throw Error(ErrorCode::Config, file, "TorchScript file " + file + ": " + problem);
}

std::string tensorDtypeName(const at::Tensor& t) {
  const std::string s = c10::toString(t.scalar_type());
  // "Float" -> "float32": the names torch prints.
  if (s == "Float") return "float32";
  if (s == "Double") return "float64";
  if (s == "Half") return "float16";
  if (s == "BFloat16") return "bfloat16";
  if (s == "Long") return "int64";
  if (s == "Int") return "int32";
  if (s == "Bool") return "bool";
  return s;
}

/// The first line of a libtorch message, without its C++ backtrace.
std::string firstLine(const c10::Error& e) {
  std::string m = e.what_without_backtrace();
  const auto nl = m.find('\n');
  return nl == std::string::npos ? m : m.substr(0, nl);
}

/// What went wrong in the TorchScript interpreter: the last line of its message ("RuntimeError:
/// mat1 and mat2 shapes cannot be multiplied (1x100 and 64x3)"), after the TorchScript traceback.
std::string interpreterError(const std::exception& e) {
  if (const auto* c = dynamic_cast<const c10::Error*>(&e)) return firstLine(*c);
  std::string m = e.what();
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  const auto nl = m.rfind('\n');
  return nl == std::string::npos ? m : m.substr(nl + 1);
}

/// Refuses what is not a TorchScript archive, saying what it is instead, and one that
/// TrainScope's own reader finds damaged (checkScriptArchive); returns what its code does.
ScriptArchiveFacts checkArchive(const std::string& file) {
  if (auto problem = notRegularFileProblem(file)) badModelFile(file, *problem);
  const std::optional<std::vector<char>> head = readFileHead(file, kSniffBytes);
  if (!head) badModelFile(file, "the file cannot be opened");
  if (head->empty()) badModelFile(file, "the file is empty");
  if (head->size() < 4 || std::memcmp(head->data(), "PK\x03\x04", 4) != 0)
    badModelFile(file, notZipProblem(*head, "not a TorchScript file") + "; " + kScriptHint);
  const std::optional<std::vector<char>> bytes = readFileCancellable(file);
  if (!bytes) badModelFile(file, "the file cannot be opened");
  try {
    const TorchZip zip(*bytes, /*compressed_ok=*/true);
    if (!zip.has("constants.pkl")) {
      if (zip.has("data.pkl"))
        badModelFile(file,
            "a torch.save file (a state_dict, a pickled nn.Module or a TrainScope checkpoint), "
            "not TorchScript: libtorch cannot rebuild a Python class from a pickle. " +
                std::string(kScriptHint) +
                " (or torch.jit.trace(model, example_input).save(...)); to start a built-in "
                "model from a state_dict use --init-weights");
      badModelFile(file, "a zip archive without TorchScript code (no constants.pkl); " +
                    std::string(kScriptHint));
    }
    return checkScriptArchive(*bytes);
  } catch (const ZipError& e) {
    badModelFile(file, std::string("the archive is damaged (") + e.what() + ")");
  } catch (const PickleError& e) {
    badModelFile(file, std::string("the archive is damaged: its tensors do not fit their records (") +
                           e.what() + ")");
  }
}

/// A model's print() goes to stderr (the log), never into stdout's --json output.
void printToLog(const std::string& text) { std::fputs(text.c_str(), stderr); }

torch::jit::Module loadModule(const std::string& file, bool allow_file_access,
                              ScriptArchiveFacts& facts) {
  facts = checkArchive(file);
  // Before torch::jit::load, which runs the module's __setstate__: refused, nothing run.
  if (!facts.file_operations.empty() && !allow_file_access) {
    std::string ops;
    for (const std::string& op : facts.file_operations) ops += (ops.empty() ? "" : "; ") + op;
    badModelFile(file, "its code reads or writes files (" + ops +
                           "): a TorchScript file is a program, like a pickle, and it was not "
                           "loaded; if you trust it, set model.torchscript.allow_file_access=true "
                           "(inspect-model: --allow-file-access)");
  }
  torch::jit::setPrintHandler(&printToLog);
  try {
    const std::string loading = "loading " + file + " (its __setstate__)";
    const ForeignCodeScope foreign(loading);
    return torch::jit::load(file, c10::Device(c10::kCPU));
  } catch (const c10::Error& e) {
    const std::string m = e.what_without_backtrace();
    if (m.find("maximum supported version") != std::string::npos ||
        m.find("kMaxSupportedFileFormatVersion") != std::string::npos)
      badModelFile(file, "it was saved by a newer PyTorch than this libtorch (" TORCH_VERSION
                ") reads; save it with torch " TORCH_VERSION
                " (Debian's python3-torch), or in your PyTorch with "
                "torch.jit.save(m, path, _use_new_zipfile_serialization=True) after "
                "torch.jit.script with the oldest operator set it allows (" +
                    firstLine(e) + ")");
    if (m.find("Unknown builtin op") != std::string::npos ||
        m.find("Unknown type name") != std::string::npos)
      badModelFile(file, "it uses an operator or type this libtorch does not have (an extension such as "
                "torchvision's, or a newer PyTorch's): " + firstLine(e) +
                "; script a model made of torch.nn layers only");
    badModelFile(file, "torch::jit::load cannot read it: " + firstLine(e));
  }
}

/// "forward(Tensor x) -> Tensor"; throws unless forward takes one tensor and returns one.
std::string checkForward(const std::string& file, const torch::jit::Module& m) {
  const auto method = m.find_method("forward");
  if (!method) badModelFile(file, "the module has no forward method; " + std::string(kScriptHint));
  const c10::FunctionSchema& schema = method->function().getSchema();
  std::string text = "forward(";
  int required = 0;
  bool first_tensor = false;
  const auto& args = schema.arguments();
  for (size_t i = 1; i < args.size(); ++i) {  // arguments()[0] is self
    text += (i > 1 ? ", " : "") + args[i].type()->annotation_str() + " " + args[i].name();
    if (!args[i].default_value()) {
      ++required;
      if (i == 1) first_tensor = args[i].type()->kind() == c10::TypeKind::TensorType;
    }
  }
  std::string returns;
  for (const auto& r : schema.returns()) returns += (returns.empty() ? "" : ", ") + r.type()->annotation_str();
  text += ") -> " + returns;
  if (required != 1 || !first_tensor)
    badModelFile(file, "its " + text + " does not take one tensor: TrainScope calls forward(x) with one "
              "batch x [N, ...]; in Python wrap the model in a module whose forward(self, x) "
              "passes the other arguments, and script that");
  if (schema.returns().size() != 1 ||
      schema.returns()[0].type()->kind() != c10::TypeKind::TensorType)
    badModelFile(file, "its " + text + " does not return one tensor: TrainScope needs the logits (or "
              "regression outputs) [N, outputs]; return only those from forward and script it "
              "again");
  return text;
}

/// Whether a line is a frame of the Python stack a trace records for each operation:
/// "/home/me/net.py(13): forward", "<stdin>(4): forward" (a path or name, "(line): ", a name).
bool isTraceFrame(const std::string& line) {
  const size_t open = line.rfind("): ");
  if (open == std::string::npos || open + 3 >= line.size()) return false;
  const size_t paren = line.rfind('(', open);
  if (paren == std::string::npos || paren == 0 || paren + 1 == open) return false;
  for (size_t i = paren + 1; i < open; ++i)
    if (!std::isdigit(static_cast<unsigned char>(line[i]))) return false;
  return true;
}

/// How the module was made, from the Python source ranges its graphs' nodes came from (the
/// debug information torch.jit.save writes): a script's are its Python source ("def
/// forward(self, x): ..." in net.py), a trace's the Python stack of each recorded operation
/// ("net.py(13): forward" per line). Returns true (traced), false (scripted), nullopt (no
/// debug information).
std::optional<bool> tracedFromSourceRanges(const torch::jit::Module& root) {
  int64_t traced = 0, scripted = 0;
  std::vector<torch::jit::Module> modules{root};
  for (const auto& s : root.named_modules())
    if (!s.name.empty()) modules.push_back(s.value);
  for (const torch::jit::Module& m : modules) {
    for (const torch::jit::Method& method : m.get_methods()) {
      const std::shared_ptr<torch::jit::Graph> graph = method.graph();
      for (const torch::jit::Node* node : graph->nodes()) {
        // The range in the Python source that made the node (the debug information), not the
        // one in the serialized code the graph was compiled from.
        const c10::optional<torch::jit::SourceRange> original =
            node->sourceRange().findSourceRangeThatGenerated();
        if (!original || !original->source()) continue;
        const std::string text = original->source()->text_str().str();
        if (isTraceFrame(text.substr(0, text.find('\n')))) {
          ++traced;  // a trace's source is the stack of the operation, one frame per line
          continue;
        }
        const auto& name = original->source()->filename();
        if (name && !name->empty() && name->rfind("code/", 0) != 0) ++scripted;
      }
    }
  }
  if (traced + scripted == 0) return std::nullopt;
  return traced > 0 && scripted == 0;
}

ScriptModuleInfo describeModule(const std::string& file, const torch::jit::Module& m) {
  ScriptModuleInfo info;
  info.file = file;
  info.type_name = m.type()->name() ? m.type()->name()->qualifiedName() : "";
  info.training = m.is_training();
  info.forward_schema = checkForward(file, m);
  auto facts = [](const std::string& name, const at::Tensor& t) {
    return ScriptTensorInfo{name, {t.sizes().begin(), t.sizes().end()}, tensorDtypeName(t),
                            t.requires_grad()};
  };
  for (const auto& p : m.named_parameters(/*recurse=*/true)) {
    info.parameters.push_back(facts(p.name, p.value));
    (p.value.requires_grad() ? info.trainable_parameters : info.frozen_parameters) +=
        p.value.numel();
  }
  for (const auto& b : m.named_buffers(/*recurse=*/true)) info.buffers.push_back(facts(b.name, b.value));
  bool all_mangled = info.type_name.find("___torch_mangle") != std::string::npos;
  bool dropout_or_norm = false;
  for (const auto& s : m.named_modules()) {
    if (s.name.empty()) continue;
    const std::string type = s.value.type()->name() ? s.value.type()->name()->qualifiedName() : "";
    info.submodules.emplace_back(s.name, type);
    all_mangled = all_mangled && type.find("___torch_mangle") != std::string::npos;
    dropout_or_norm = dropout_or_norm || type.find("Dropout") != std::string::npos ||
                      type.find("BatchNorm") != std::string::npos;
  }
  // The source ranges decide; without debug information, the types: a trace gives every
  // module a fresh (mangled) type, a script reuses the class's.
  info.traced = tracedFromSourceRanges(m).value_or(all_mangled);
  if (info.trainable_parameters == 0)
    badModelFile(file, "the module has no trainable parameters" +
                  std::string(info.frozen_parameters > 0
                                  ? " (all have requires_grad=False)"
                                  : " (a module saved after torch.jit.freeze holds its weights "
                                    "as constants)") +
                  "; in Python script the module before any torch.jit.freeze, with its "
                  "parameters requiring grad, and save that");
  if (info.traced) info.warning_codes.push_back("traced");
  if (info.traced)
    info.warnings.push_back(
        std::string("traced (torch.jit.trace): it replays the operations recorded for the example "
                    "input; Python if/for on the data were not recorded") +
        (dropout_or_norm ? ", and its dropout / batch norm keep the mode it was traced in "
                           "(train() and eval() do not change them); use torch.jit.script to "
                           "train it"
                         : ""));
  if (info.frozen_parameters > 0) info.warning_codes.push_back("frozen_parameters");
  if (info.frozen_parameters > 0)
    info.warnings.push_back(std::to_string(info.frozen_parameters) +
                            " parameter values have requires_grad=False: they stay as they are "
                            "(frozen), as in Python");
  return info;
}

/// What the archive's code does beyond computing, as warnings of the import report.
void addArchiveFacts(const ScriptArchiveFacts& facts, ScriptModuleInfo& info) {
  info.file_operations = facts.file_operations;
  if (!facts.file_operations.empty()) {
    std::string ops;
    for (const std::string& op : facts.file_operations) ops += (ops.empty() ? "" : "; ") + op;
    info.warning_codes.push_back("file_access");
    info.warnings.push_back("its code reads or writes files (" + ops +
                            "), allowed by model.torchscript.allow_file_access");
  }
  if (facts.prints) {
    info.warning_codes.push_back("prints");
    info.warnings.push_back("its code calls print(): the output goes to the log (stderr), never "
                            "into --json output");
  }
}

class TorchScriptModel final : public Model {
 public:
  /// `image`: [C, H, W] when the module takes image batches [N, C, H, W] while the data stores
  /// its images flat ([N, C*H*W]); forward then reshapes each batch. Empty: batches as stored.
  /// `cam_layer`: the submodule Grad-CAM reads (checked by the caller), empty for none.
  TorchScriptModel(torch::jit::Module module, ScriptModuleInfo info,
                   std::vector<int64_t> image = {}, std::string cam_layer = {})
      : m_(std::move(module)),
        info_(std::move(info)),
        image_(std::move(image)),
        cam_layer_(std::move(cam_layer)),
        forward_what_("the forward of " + info_.file) {}

  /// What describeModule found when the file was loaded (torchScriptInfo()).
  const ScriptModuleInfo& info() const { return info_; }

  std::string kind() const override { return "torchscript"; }
  /// Runs the module's forward with the graph executor's optimisations off (this thread only):
  /// on the CPU, without a fuser, they only wrap the graph in differentiable subgraphs, and
  /// training fashion-mnist-cnn's scripted nn.Sequential ran at 0.88-0.91x the native model with
  /// them, 1.09x without (bench_engine --torchscript). The same operators run either way.
  at::Tensor forward(const at::Tensor& input) override {
    const ForeignCodeScope foreign(forward_what_);  // an interrupt ends it
    torch::jit::GraphOptimizerEnabledGuard plain(false);
    if (!image_.empty() && input.dim() == 2)
      return m_.forward({input.view({input.size(0), image_[0], image_[1], image_[2]})}).toTensor();
    return m_.forward({input}).toTensor();
  }
  std::string camLayer() const override { return cam_layer_; }
  /// The rewritten forward of core/model/torchscript_capture.h (built on first use); the
  /// input made a leaf that requires grad, so that A is in autograd's graph even when every
  /// parameter before the layer is frozen.
  std::pair<at::Tensor, at::Tensor> camForward(const at::Tensor& input) override {
    if (cam_layer_.empty()) return Model::camForward(input);
    if (!capture_) capture_ = std::make_shared<SubmoduleCapture>(m_, cam_layer_);
    const ForeignCodeScope foreign(forward_what_);
    torch::jit::GraphOptimizerEnabledGuard plain(false);
    at::Tensor x = input.detach().requires_grad_(true);
    if (!image_.empty() && x.dim() == 2) x = x.view({x.size(0), image_[0], image_[1], image_[2]});
    return capture_->run(m_, x);
  }
  std::vector<at::Tensor> parameters() const override {
    std::vector<at::Tensor> out;
    for (const auto& p : m_.parameters(/*recurse=*/true)) out.push_back(p);
    return out;
  }
  NamedTensors named_parameters() const override {
    NamedTensors out;
    for (const auto& p : m_.named_parameters(/*recurse=*/true)) out.emplace_back(p.name, p.value);
    return out;
  }
  std::vector<at::Tensor> buffers() const override {
    std::vector<at::Tensor> out;
    for (const auto& b : m_.buffers(/*recurse=*/true)) out.push_back(b);
    return out;
  }
  /// Python's Module.state_dict(): per module in pre-order its own parameters, then buffers.
  NamedTensors state_dict() const override {
    NamedTensors out;
    for (const auto& s : m_.named_modules()) {
      const std::string prefix = s.name.empty() ? "" : s.name + ".";
      for (const auto& p : s.value.named_parameters(/*recurse=*/false))
        if (p.value.defined()) out.emplace_back(prefix + p.name, p.value);
      for (const auto& b : s.value.named_buffers(/*recurse=*/false))
        if (b.value.defined()) out.emplace_back(prefix + b.name, b.value);
    }
    return out;
  }
  void train(bool on) override { m_.train(on); }
  bool is_training() const override { return m_.is_training(); }
  std::shared_ptr<Model> clone(std::optional<c10::Device> device) const override {
    // deepcopy clones every tensor; without gradients recorded, so that the copies are leaves
    // (as nn::Module::clone makes them), then with the originals' requires_grad.
    torch::jit::Module copy;
    {
      torch::NoGradGuard no_grad;
      copy = m_.deepcopy();
    }
    const auto from = m_.parameters(/*recurse=*/true);
    auto to_it = copy.parameters(/*recurse=*/true).begin();
    for (const at::Tensor& p : from) {
      (*to_it).requires_grad_(p.requires_grad());
      ++to_it;
    }
    if (device) copy.to(*device);
    return std::make_shared<TorchScriptModel>(std::move(copy), info_, image_, cam_layer_);
  }
  void to(c10::Device device) override { m_.to(device); }

  ModelSummary summary() const override {
    ModelSummary s;
    std::string children;
    for (const auto& c : m_.named_children())
      children += (children.empty() ? "" : " ") + c.name;
    s.description = "TorchScript " + shortType(m_) + (children.empty() ? "" : " (" + children + ")");
    s.parameter_count = countParameters(*this, /*trainable=*/true);
    return s;
  }

  /// Per top-level submodule its parameters; output shapes where the module is an
  /// nn.Sequential (each child feeds the next), else only the whole module's output (the last
  /// row): a scripted forward may use its children in any order.
  std::vector<LayerInfo> layers(const std::vector<int64_t>& input_shape) const override {
    torch::jit::Module m = m_;  // the same module (a handle); forward is not const
    std::vector<int64_t> batch{1};
    const std::vector<int64_t>& sample = image_.empty() ? input_shape : image_;
    batch.insert(batch.end(), sample.begin(), sample.end());
    const std::vector<at::Tensor> params = parameters();
    at::Tensor x = at::zeros(batch, params.empty() ? at::TensorOptions(at::kFloat)
                                                   : params[0].options().requires_grad(false));
    const bool was_training = m.is_training();
    torch::NoGradGuard no_grad;
    m.eval();
    const bool chain = shortType(m) == "Sequential";
    std::vector<LayerInfo> out;
    std::string current;  // the child being run
    const ForeignCodeScope foreign(forward_what_);
    try {
      at::Tensor y = x;
      for (const auto& c : m.named_children()) {
        LayerInfo info;
        info.name = current = c.name;
        info.description = shortType(c.value);
        for (const auto& p : c.value.parameters(/*recurse=*/true))
          (p.requires_grad() ? info.trainable_parameters : info.frozen_parameters) += p.numel();
        if (chain) {
          torch::jit::Module child = c.value;  // a handle; forward is not const
          y = child.forward({y}).toTensor();
          info.output_shape.assign(y.sizes().begin() + 1, y.sizes().end());
        } else {
          info.shape_known = false;
        }
        out.push_back(std::move(info));
      }
      if (!chain) {
        y = m.forward({x}).toTensor();
        LayerInfo whole;
        whole.description = "forward (the whole module)";
        // Parameters of the top module itself (not in a child).
        for (const auto& p : m.parameters(/*recurse=*/false))
          (p.requires_grad() ? whole.trainable_parameters : whole.frozen_parameters) += p.numel();
        whole.output_shape.assign(y.sizes().begin() + 1, y.sizes().end());
        out.push_back(std::move(whole));
      }
    } catch (const std::exception& e) {  // c10::Error, torch::jit::JITException
      m.train(was_training);
      std::string shape;
      for (int64_t d : input_shape) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
      throw Error(ErrorCode::Config, "model.kind",
                  "the TorchScript model does not take inputs of shape [" + shape + "]" +
                      (chain ? " at layer " + current : "") + ": " +
                      interpreterError(e));
    }
    m.train(was_training);
    return out;
  }

  bool saveTorchScript(const std::filesystem::path& path) const override {
    torch::jit::Module m = m_;
    const bool was_training = m.is_training();
    m.eval();
    std::ostringstream bytes;
    try {
      m.save(bytes);
    } catch (const c10::Error& e) {
      m.train(was_training);
      throw Error(ErrorCode::Io, path.string(), "cannot save TorchScript " + path.string() + ": " + firstLine(e));
    }
    m.train(was_training);
    writeFileAtomic(path, bytes.str());
    return true;
  }

 private:
  /// "Sequential", "Net": the class name without its module path and mangling.
  static std::string shortType(const torch::jit::Module& m) {
    if (!m.type()->name()) return "Module";
    return m.type()->name()->name();
  }

  torch::jit::Module m_;
  ScriptModuleInfo info_;
  std::vector<int64_t> image_;
  std::string cam_layer_;
  std::shared_ptr<SubmoduleCapture> capture_;  ///< made on the first camForward
  std::string forward_what_;  ///< the ForeignCodeScope's description, made once
};

/// Grad-CAM's layer for `m`: model.torchscript.grad_cam_layer, checked (a submodule forward
/// calls at its top level), else the last nn.Conv2d where forward's graph reaches it that
/// way, else none (empty).
std::string camLayerOf(const torch::jit::Module& m, const ModelConfig& config) {
  if (config.torchscript.grad_cam_layer) {
    (void)SubmoduleCapture(m, *config.torchscript.grad_cam_layer);  // throws naming the key
    return *config.torchscript.grad_cam_layer;
  }
  const std::string conv = lastConv2dName(m);
  if (conv.empty()) return conv;
  try {
    (void)SubmoduleCapture(m, conv);
  } catch (const Error&) {
    return {};  // called in a loop or a branch: no Grad-CAM unless a layer is named
  }
  return conv;
}

/// Whether `m` takes image batches [N, C, H, W] (`image` = [C, H, W]) rather than the flat rows
/// [N, C*H*W] the data stores: one sample of zeros tried each way, in eval mode without
/// gradients (nothing in the module changes). A module that takes both (x.view(-1, 1, 28, 28))
/// gets images; one that takes neither is left to the shape check, which names both shapes.
bool takesImages(torch::jit::Module m, const std::vector<int64_t>& image) {
  const bool was_training = m.is_training();
  torch::NoGradGuard no_grad;
  torch::jit::GraphOptimizerEnabledGuard plain(false);
  m.eval();
  bool images = false;
  try {
    static const std::string trial = "a batch of zeros through the model";
    const ForeignCodeScope foreign(trial);
    (void)m.forward({at::zeros({1, image[0], image[1], image[2]})});
    images = true;
  } catch (const std::exception&) {  // c10::Error, torch::jit::JITException
  }
  m.train(was_training);
  return images;
}

}  // namespace

ScriptModuleInfo inspectTorchScript(const std::string& path, bool allow_file_access) {
  const std::string file = path.empty() ? path : fs::absolute(path).lexically_normal().string();
  ScriptArchiveFacts facts;
  const torch::jit::Module m = loadModule(file, allow_file_access, facts);
  ScriptModuleInfo info = describeModule(file, m);
  addArchiveFacts(facts, info);
  return info;
}

std::shared_ptr<Model> buildTorchScript(const ModelConfig& config,
                                        const std::vector<int64_t>& input_shape,
                                        const std::vector<int64_t>& image_shape,
                                        int64_t /*outputs*/) {
  if (!config.torchscript.path || config.torchscript.path->empty())
    throw Error(ErrorCode::Config, "model.torchscript.path",
                "model.kind is \"torchscript\": set model.torchscript.path to the file of "
                "torch.jit.script(model).save(\"model.pt\")");
  const std::string file = fs::absolute(*config.torchscript.path).lexically_normal().string();
  ScriptArchiveFacts facts;
  torch::jit::Module m = loadModule(file, config.torchscript.allow_file_access, facts);
  ScriptModuleInfo info = describeModule(file, m);  // the checks: one tensor in and out, ...
  addArchiveFacts(facts, info);
  // Image data is stored flat; a module written for images (nn.Conv2d first) gets [N, C, H, W]
  // as in Python, one that flattens for itself or expects flat rows gets those.
  const bool flat_images = input_shape.size() == 1 && image_shape.size() == 3 &&
                           image_shape[0] * image_shape[1] * image_shape[2] == input_shape[0];
  std::string cam = camLayerOf(m, config);
  if (flat_images && takesImages(m, image_shape))
    return std::make_shared<TorchScriptModel>(std::move(m), std::move(info), image_shape,
                                              std::move(cam));
  return std::make_shared<TorchScriptModel>(std::move(m), std::move(info), std::vector<int64_t>{},
                                            std::move(cam));
}

const ScriptModuleInfo* torchScriptInfo(const Model& model) {
  const auto* script = dynamic_cast<const TorchScriptModel*>(&model);
  return script ? &script->info() : nullptr;
}

ModelFootprint torchScriptKindFootprint(const ModelConfig& config,
                                        const std::vector<int64_t>& input_shape,
                                        const std::vector<int64_t>& image_shape, int64_t outputs) {
  const std::shared_ptr<Model> model = buildTorchScript(config, input_shape, image_shape, outputs);
  ModelFootprint f;
  for (const at::Tensor& p : model->parameters()) f.parameters += p.numel();
  int64_t inputs = 1;
  for (int64_t d : input_shape) inputs *= d;
  // Unknown without running it: as many floats as an MLP's input and output layers keep.
  f.activation_floats_per_sample = 4 * (inputs + outputs);
  return f;
}

}  // namespace trainscope
