// The model card: JSON first, the Markdown drawn from it.
#include "core/export/model_card.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

#include "core/train/probes/shapes.h"


namespace trainscope {

namespace {

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

int64_t product(const std::vector<int64_t>& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

/// One sentence on what the export expects as input and what it computes itself.
std::string preprocessingText(const ModelCardFacts& f) {
  const Preprocessing& p = f.data.preprocessing;
  const bool images = f.data.image_shape.size() == 3;
  std::string what;
  if (images) {
    const auto& i = f.data.image_shape;
    what = "each image's " + std::to_string(i[0]) + "x" + std::to_string(i[1]) + "x" +
           std::to_string(i[2]) + " pixels (channel, row, column order" +
           (i[0] == 3 ? ", RGB" : "") + ")" +
           (f.data.input_shape.size() == 1 ? " flattened to " + std::to_string(product(i)) + " values" : "");
  } else if (!f.data.feature_names.empty()) {
    what = "the " + std::to_string(f.data.feature_names.size()) + " features in the order of feature_names";
  } else {
    what = "one sample of shape " + shapeText(f.data.input_shape);
  }
  std::string scaling;
  if (p.standardize == "per_feature")
    scaling = "each value standardised as (x / " + num(p.pixel_scale) +
              " - mean[i]) / std[i] with the training split's mean and standard deviation of that input";
  else if (p.standardize != "none")
    scaling = "(x / " + num(p.pixel_scale) + " - " + num(p.mean.empty() ? 0 : p.mean[0]) + ") / " +
              num(p.std.empty() ? 1 : p.std[0]) + " (one mean and standard deviation of the training images)";
  else if (p.pixel_scale != 1)
    scaling = "x / " + num(p.pixel_scale);
  std::string text;
  if (f.preprocessing_included)
    text = "Input: float32 [N, " + shapeText(f.data.input_shape).substr(1) + ", " + what + ", as stored" +
           (images ? " (pixel values 0-255)" : "") + ". The export applies the run's preprocessing itself" +
           (scaling.empty() ? " (none: the values go in as they are)" : ": " + scaling) + ".";
  else
    text = "Input (--raw-input): float32 [N, " + shapeText(f.data.input_shape).substr(1) + ", " + what +
           ", already preprocessed" + (scaling.empty() ? " (the run used none)" : ": compute " + scaling + " yourself") + ".";
  if (!p.resize.empty() && images)
    text += " The run resized its images to " + std::to_string(f.data.image_shape[1]) + "x" +
            std::to_string(f.data.image_shape[2]) + " (" + p.resize +
            ", torchvision's Resize with antialiasing) before anything else: resize yours the same way.";
  if (f.data.task == "regression" && p.target_scale != 1)
    text += " Outputs are targets multiplied by " + num(p.target_scale) + ": divide by it for the original units.";
  return text;
}

}  // namespace

std::pair<std::filesystem::path, std::filesystem::path> modelCardPaths(const std::filesystem::path& file) {
  std::filesystem::path base = file;
  base.replace_extension();
  return {base.string() + ".model-card.json", base.string() + ".model-card.md"};
}

std::vector<std::string> pythonLoadLines(const ModelCardFacts& f) {
  const bool images = f.data.image_shape.size() == 3;
  const Preprocessing& p = f.data.preprocessing;
  std::string shape = "1";
  for (int64_t d : f.data.input_shape) shape += ", " + std::to_string(d);
  const bool resize = images && !p.resize.empty();
  std::vector<std::string> body;
  if (images) {
    const auto& i = f.data.image_shape;
    if (i[0] == 1)
      body.push_back("img = cv2.imread(\"image.png\", cv2.IMREAD_GRAYSCALE)  # your image, 0-255");
    else
      body.push_back("img = cv2.cvtColor(cv2.imread(\"image.png\"), cv2.COLOR_BGR2RGB)  # your image, RGB, 0-255");
    if (resize) {  // the run's own resize: torchvision's Resize on the uint8 tensor
      body.push_back(std::string("t = torch.from_numpy(img)") + (i[0] == 1 ? "[None]" : ".permute(2, 0, 1)") +
                     ".float()[None]");
      body.push_back("t = torch.nn.functional.interpolate(t, size=(" + std::to_string(i[1]) + ", " +
                     std::to_string(i[2]) + "), mode=\"" + (p.resize == "nearest" ? "nearest" : p.resize) + "\"" +
                     (p.resize == "nearest" ? "" : ", align_corners=False, antialias=True") +
                     ").round().clamp(0, 255)  # the run's resize");
      body.push_back("x = t.numpy().astype(np.float32).reshape(" + shape + ")");
    } else {
      body.push_back(std::string("x = img") + (i[0] == 1 ? "" : ".transpose(2, 0, 1)") +
                     ".astype(np.float32).reshape(" + shape + ")  # " + std::to_string(i[1]) + "x" +
                     std::to_string(i[2]) + " pixels, as the training images");
    }
  } else {
    body.push_back("x = np.zeros((" + shape + "), np.float32)  # your samples" +
                   (f.data.feature_names.empty() ? std::string() : ", columns in the order of card[\"feature_names\"]"));
  }
  if (!f.preprocessing_included && p.standardize != "none")
    body.push_back("pre = card[\"preprocessing\"]  # --raw-input: the run's preprocessing is yours to apply");
  if (!f.preprocessing_included && p.standardize != "none")
    body.push_back("x = ((x.reshape(len(x), -1) / pre[\"pixel_scale\"] - np.array(pre[\"mean\"], np.float32)) / "
                   "np.array(pre[\"std\"], np.float32)).astype(np.float32).reshape(x.shape)");
  else if (!f.preprocessing_included && p.pixel_scale != 1)
    body.push_back("x = x / np.float32(card[\"preprocessing\"][\"pixel_scale\"])  # --raw-input");
  const std::string what = f.softmax ? " probabilities" : f.data.task == "classification" ? " logits" : "";
  const std::string card = "card = json.load(open(\"" + modelCardPaths(f.file_name).first.string() + "\"))";
  std::vector<std::string> out;
  if (f.format == "torchscript") {
    out = {std::string("import json, numpy as np, torch") + (images ? ", cv2" : ""), card,
           "model = torch.jit.load(\"" + f.file_name + "\")"};
    out.insert(out.end(), body.begin(), body.end());
    out.push_back("with torch.no_grad():");
    out.push_back("    out = model(torch.from_numpy(x)).numpy()  # [N, " + std::to_string(f.data.outputs) + "]" + what);
  } else {
    out = {std::string("import json, numpy as np, cv2") + (resize ? ", torch" : ""), card,
           "net = cv2.dnn.readNetFromONNX(\"" + f.file_name + "\")"};
    out.insert(out.end(), body.begin(), body.end());
    out.push_back("net.setInput(x)");
    out.push_back("out = net.forward()  # [N, " + std::to_string(f.data.outputs) + "]" + what);
  }
  out.push_back(f.data.task == "classification" ? "print(card[\"class_names\"][int(out.argmax(1)[0])])"
                                                 : "print(out)");
  return out;
}

nlohmann::ordered_json modelCardJson(const ModelCardFacts& f) {
  using J = nlohmann::ordered_json;
  const Preprocessing& p = f.data.preprocessing;
  J j;
  j["trainscope_model_card"] = 1;
  j["format"] = f.format;
  j["file"] = f.file_name;
  j["task"] = f.data.task;
  j["class_names"] = f.data.class_names;
  j["input_shape"] = J::array({"N"});
  for (int64_t d : f.data.input_shape) j["input_shape"].push_back(d);
  j["input_dtype"] = "float32";
  j["image_shape"] = f.data.image_shape;
  j["feature_names"] = f.data.feature_names;
  j["outputs"] = f.data.outputs;
  j["output"] = f.softmax ? "probabilities (softmax over dim 1)"
                : f.data.task == "classification" ? "logits (softmax over dim 1 gives probabilities)"
                                                  : "regression targets";
  J pre;
  pre["included"] = f.preprocessing_included;
  pre["pixel_scale"] = p.pixel_scale;
  pre["standardize"] = p.standardize;
  pre["mean"] = p.mean;
  pre["std"] = p.std;
  pre["formula"] = p.standardize == "none" ? "x / pixel_scale" : "(x / pixel_scale - mean) / std";
  pre["resize"] = p.resize;
  pre["target_scale"] = p.target_scale;
  pre["text"] = preprocessingText(f);
  j["preprocessing"] = pre;
  J metrics = J::object();
  for (const auto& [k, v] : f.metrics) metrics[k] = v;
  j["metrics"] = metrics;
  J data;
  data["source"] = f.data.source;
  J files = J::array();
  // A file's SHA-256, an image folder's listing fingerprint ("listing:..."), as the run recorded.
  for (const DataFile& d : f.data.files) files.push_back({{"key", d.key}, {"path", d.path}, {"fingerprint", d.sha256}});
  data["files"] = files;
  data["n_train"] = f.data.n_train;
  data["n_val"] = f.data.n_val;
  data["n_test"] = f.data.n_test;
  data["val_fraction"] = f.val_fraction;
  data["seed"] = f.data_seed;
  j["data"] = data;
  j["model"] = {{"kind", f.model_kind}, {"description", f.model_description}};
  j["checkpoint"] = {{"file", f.checkpoint}, {"which", f.which}, {"epoch", f.epoch}, {"step", f.step},
                     {"run", f.run_dir}};
  J changed = J::array();
  for (const auto& c : f.changed_settings) changed.push_back({{"key", c[0]}, {"value", c[1]}, {"base", c[2]}});
  j["settings_changed"] = {{"compared_with", f.settings_base}, {"keys", changed}};
  j["caveats"] = f.caveats;
  j["versions"] = {{"trainscope", f.trainscope_version}, {"libtorch", f.torch_version}};
  j["python"] = pythonLoadLines(f);
  return j;
}

std::string modelCardMarkdown(const nlohmann::ordered_json& j) {
  std::ostringstream md;
  md << "# Model card: " << j["file"].get<std::string>() << "\n\n";
  md << "Exported by TrainScope " << j["versions"]["trainscope"].get<std::string>() << " (libtorch "
     << j["versions"]["libtorch"].get<std::string>() << ") as " << j["format"].get<std::string>()
     << (j["format"] == "onnx" ? " (opset 13)" : "") << " from the run " << j["checkpoint"]["run"].get<std::string>()
     << ", checkpoint " << j["checkpoint"]["which"].get<std::string>() << " (epoch "
     << j["checkpoint"]["epoch"].get<int64_t>() << ", step " << j["checkpoint"]["step"].get<int64_t>() << ").\n\n";
  md << "## Task\n\n" << j["task"].get<std::string>() << ", " << j["outputs"].get<int64_t>() << " outputs: "
     << j["output"].get<std::string>() << ".\n";
  if (!j["class_names"].empty()) {
    md << "\nClasses in output order:\n\n";
    int i = 0;
    for (const auto& c : j["class_names"]) md << i++ << ". " << c.get<std::string>() << "\n";
  }
  md << "\n## Input\n\n";
  std::string shape;
  for (const auto& d : j["input_shape"]) shape += (shape.empty() ? "" : ", ") + (d.is_string() ? d.get<std::string>() : std::to_string(d.get<int64_t>()));
  md << "`" << j["input_dtype"].get<std::string>() << " [" << shape << "]`\n\n";
  md << j["preprocessing"]["text"].get<std::string>() << "\n\n";
  md << "- pixel_scale: " << j["preprocessing"]["pixel_scale"].dump() << "\n";
  md << "- standardize: " << j["preprocessing"]["standardize"].get<std::string>() << "\n";
  if (!j["preprocessing"]["mean"].empty()) {
    const auto& m = j["preprocessing"]["mean"];
    md << "- mean, std: " << (m.size() <= 8 ? m.dump() + ", " + j["preprocessing"]["std"].dump()
                                           : std::to_string(m.size()) + " values each (in the JSON card)")
       << "\n";
  }
  if (!j["feature_names"].empty()) {
    md << "- features: ";
    std::string names;
    for (const auto& n : j["feature_names"]) names += (names.empty() ? "" : ", ") + n.get<std::string>();
    md << names << "\n";
  }
  md << "\n## Metrics of these weights\n\n";
  if (j["metrics"].empty()) md << "None recorded for this epoch.\n";
  for (const auto& [k, v] : j["metrics"].items()) md << "- " << k << ": " << v.dump() << "\n";
  md << "\n## Data\n\n";
  md << "Source " << j["data"]["source"].get<std::string>() << "; " << j["data"]["n_train"].get<int64_t>()
     << " training, " << j["data"]["n_val"].get<int64_t>() << " validation, " << j["data"]["n_test"].get<int64_t>()
     << " test samples (validation share " << j["data"]["val_fraction"].dump() << ", split seed "
     << j["data"]["seed"].dump() << ").\n";
  for (const auto& f : j["data"]["files"]) md << "- " << f["key"].get<std::string>() << ": " << f["path"].get<std::string>() << "\n";
  md << "\n## Model\n\n" << j["model"]["kind"].get<std::string>() << ": " << j["model"]["description"].get<std::string>() << "\n";
  md << "\n## Settings that differ from " << j["settings_changed"]["compared_with"].get<std::string>() << "\n\n";
  if (j["settings_changed"]["keys"].empty()) md << "None.\n";
  for (const auto& c : j["settings_changed"]["keys"])
    md << "- `" << c["key"].get<std::string>() << "`: " << c["value"].get<std::string>() << " ("
       << (j["settings_changed"]["compared_with"].get<std::string>().rfind("preset", 0) == 0 ? "preset's: " : "default: ")
       << c["base"].get<std::string>() << ")\n";
  if (!j["caveats"].empty()) {
    md << "\n## Caveats\n\n";
    for (const auto& c : j["caveats"]) md << "- " << c.get<std::string>() << "\n";
  }
  md << "\n## Load and run it in Python\n\n```python\n";
  for (const auto& l : j["python"]) md << l.get<std::string>() << "\n";
  md << "```\n";
  return md.str();
}

}  // namespace trainscope
