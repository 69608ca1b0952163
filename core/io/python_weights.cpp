// Reading weights saved by Python's torch.save (zip format of torch/serialization.py: an
// archive "<name>/data.pkl" + "<name>/data/<key>" storages + "<name>/version") with libtorch's
// zip reader and TrainScope's own unpickler (pickle_reader.h), because libtorch 1.13's
// torch::pickle_load reads collections.OrderedDict as None.
#include <ATen/ATen.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/errors.h"
#include "core/io/checkpoint_file.h"
#include "core/io/file_kind.h"
#include "core/io/file_read.h"
#include "core/io/pickle_reader.h"
#include "core/io/python_weights_file.h"
#include "core/io/torch_zip.h"

namespace trainscope {
namespace {

using Path = std::filesystem::path;

[[noreturn]] void badWeights(const Path& file, const std::string& problem) {
  throw Error(ErrorCode::Checkpoint, file.string(),
              "cannot read weights from " + file.string() + ": " + problem);
}

std::string shortError(const c10::Error& e) {
  std::string s = e.what_without_backtrace();
  if (auto nl = s.find('\n'); nl != std::string::npos) s = s.substr(0, nl);
  return s;
}

bool startsWith(const std::vector<char>& bytes, const char* prefix, size_t n) {
  return bytes.size() >= n && std::memcmp(bytes.data(), prefix, n) == 0;
}

std::string describeValue(const c10::IValue& v) {
  if (std::string type = pickledObjectType(v); !type.empty()) return "a " + type + " object";
  if (v.isTensor()) return "a tensor";
  if (v.isGenericDict()) return "a dict";
  if (v.isList()) return "a list";
  if (v.isTuple()) return "a tuple";
  if (v.isString()) return "a string";
  if (v.isInt() || v.isDouble()) return "a number";
  if (v.isBool()) return "a bool";
  if (v.isNone()) return "None";
  return "a " + v.tagKind();
}

std::string keyText(const c10::IValue& k) {
  if (k.isString()) return "'" + k.toStringRef() + "'";
  if (k.isInt()) return std::to_string(k.toInt());
  return describeValue(k);
}

std::string keyList(const c10::impl::GenericDict& d) {
  std::string s;
  size_t n = 0;
  for (const auto& e : d) {
    if (++n > 12) return s + ", ...";
    s += (s.empty() ? "" : ", ") + keyText(e.key());
  }
  return s.empty() ? "none" : s;
}

const char* kSaveHint = "; in Python save the state_dict: torch.save(model.state_dict(), path)";

}  // namespace

std::string toString(WeightsForm form) {
  switch (form) {
    case WeightsForm::StateDict:
      return "state_dict";
    case WeightsForm::ModelStateDict:
      return "model_state_dict";
    case WeightsForm::TrainScopeCheckpoint:
      return "trainscope_checkpoint";
  }
  return "";
}

std::string notZipProblem(const std::vector<char>& bytes, const std::string& not_what) {
  // Python's legacy format: a pickle (PROTO 2) of torch.serialization's magic number.
  if (!bytes.empty() && static_cast<uint8_t>(bytes[0]) == 0x80)
    return "it is in PyTorch's legacy (non-zip) format, written by torch < 1.6 or with "
           "_use_new_zipfile_serialization=False; re-save it in Python with torch >= 1.6: "
           "torch.save(torch.load(old_path), new_path) (the default "
           "_use_new_zipfile_serialization=True writes the zip format TrainScope reads)";
  // The first bytes as text ('a,b,c\n1,2'), or in hex when they are mostly not text.
  const size_t n = std::min<size_t>(bytes.size(), 24);
  size_t printable = 0;
  std::string text, hex;
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    char buf[8];
    std::snprintf(buf, sizeof buf, "%s%02x", i ? " " : "", c);
    hex += buf;
    if (c == '\n' || c == '\t' || c == '\r') {
      ++printable;
      text += c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r";
    } else if (c >= 0x20 && c < 0x7f) {
      ++printable;
      text += static_cast<char>(c);
    } else {
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      text += buf;
    }
  }
  const std::string more = bytes.size() > n ? "..." : "";
  const std::string start = printable * 4 >= n * 3
                                ? "'" + text + more + "'"
                                : "the bytes " + hex + (more.empty() ? "" : " ...");
  return not_what +
         " (it is not a zip archive, which torch.save and TrainScope write; it starts "
         "with " +
         start + ")";
}

c10::IValue readTorchSaveFile(const Path& file, const std::string& failure,
                              const std::string& not_zip) {
  auto badFile = [&](const std::string& problem) {
    throw Error(ErrorCode::Checkpoint, file.string(), failure + file.string() + ": " + problem);
  };
  if (auto problem = notRegularFileProblem(file)) badFile(*problem);
  // The format from the first bytes: a file that is not a zip archive is never read whole.
  std::optional<std::vector<char>> head = readFileHead(file, kSniffBytes);
  if (!head) badFile("the file cannot be opened");
  if (head->empty()) badFile("the file is empty");
  if (!startsWith(*head, "PK\x03\x04", 4)) badFile(notZipProblem(*head, not_zip));
  std::optional<std::vector<char>> read = readFileCancellable(file);  // Cancelled on Ctrl-C
  if (!read) badFile("the file cannot be opened");
  const std::vector<char> bytes = std::move(*read);
  try {
    const TorchZip zip(bytes);
    if (!zip.has("data.pkl")) badFile("a zip archive without data.pkl: not a torch.save file");
    if (zip.has("constants.pkl"))
      badFile("a TorchScript archive (torch.jit.save), not a torch.save file: train it with "
          "model.kind torchscript (trainscope-cli inspect-model describes it), or in Python save "
          "the state_dict: torch.save(model.state_dict(), path)");
    if (zip.has("byteorder")) {
      const std::vector<char> order = zip.read("byteorder");
      if (std::string(order.begin(), order.end()) == "big")
        badFile("its tensors are big-endian; re-save it on a little-endian machine");
    }
    const std::vector<char> pkl = zip.read("data.pkl");
    return unpickle(pkl.data(), pkl.size(), zipStorageLoader(zip, "data/"));
  } catch (const Error&) {
    throw;
  } catch (const ZipError& e) {
    badFile(e.what());
  } catch (const PickleError& e) {
    badFile(std::string("its data is corrupt or not a torch.save file (") + e.what() + ")");
  } catch (const c10::Error& e) {
    badFile("the file is truncated or corrupt (" + shortError(e) + ")");
  } catch (const std::bad_alloc&) {
    badFile("the file is corrupt (a record claims more memory than there is)");
  } catch (const std::exception& e) {
    badFile(std::string("the file is truncated or corrupt (") + e.what() + ")");
  }
  return {};
}

WeightsFile readWeightsFile(const Path& file) {
  const c10::IValue root = readTorchSaveFile(file);
  WeightsFile out;
  out.info.file = file;
  if (!root.isGenericDict())
    badWeights(file, "it holds " + describeValue(root) + ", not a state_dict" + kSaveHint);
  c10::impl::GenericDict dict = root.toGenericDict();
  c10::impl::GenericDict state = dict;
  auto msd = dict.find("model_state_dict");
  if (msd != dict.end()) {
    for (const auto& e : dict)
      out.info.keys.push_back(e.key().isString() ? e.key().toStringRef() : keyText(e.key()));
    if (!msd->value().isGenericDict())
      badWeights(file, "its 'model_state_dict' holds " + describeValue(msd->value()) + ", not a state_dict");
    state = msd->value().toGenericDict();
    auto format = dict.find("format");
    out.info.form = format != dict.end() && format->value().isString() &&
                            format->value().toStringRef() == kCheckpointFormat
                        ? WeightsForm::TrainScopeCheckpoint
                        : WeightsForm::ModelStateDict;
  } else {
    out.info.form = WeightsForm::StateDict;
    bool all_tensors = !dict.empty();
    for (const auto& e : dict) all_tensors = all_tensors && e.value().isTensor();
    if (!all_tensors)
      badWeights(file,
          "it holds a dict that is neither a state_dict (names -> tensors) nor has a "
          "'model_state_dict' key (its keys: " +
              keyList(dict) + ")" + kSaveHint);
  }
  if (state.empty()) badWeights(file, "its state_dict is empty");
  std::string problems;
  for (const auto& e : state) {
    if (!e.key().isString()) {
      problems += "\n  key " + keyText(e.key()) + " is not a string";
    } else if (!e.value().isTensor()) {
      problems += "\n  " + e.key().toStringRef() + " holds " + describeValue(e.value());
    } else {
      const at::Tensor& t = e.value().toTensor();
      out.state.emplace_back(e.key().toStringRef(), t);
      out.info.tensors.push_back(
          {e.key().toStringRef(), t.sizes().vec(), dtypeName(t.scalar_type())});
    }
  }
  if (!problems.empty()) badWeights(file, "its state_dict has entries that are not tensors:" + problems);
  return out;
}

WeightsFileInfo inspectWeightsFile(const Path& file) { return readWeightsFile(file).info; }

}  // namespace trainscope
