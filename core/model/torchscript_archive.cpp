// TrainScope's reading of a TorchScript archive before torch::jit::load (torchscript_archive.h).
#include "core/model/torchscript_archive.h"

#include <cctype>

#include "core/io/pickle_reader.h"
#include "core/io/torch_zip.h"

namespace trainscope {
namespace {

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// Whether `code` calls `call` ("torch.from_file(") as a call of its own, not as the tail of
/// another name ("my_torch.from_file(").
bool calls(const std::string& code, const std::string& call) {
  for (std::size_t at = code.find(call); at != std::string::npos; at = code.find(call, at + 1)) {
    const char before = at == 0 ? ' ' : code[at - 1];
    if (!(std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == '.'))
      return true;
  }
  return false;
}

}  // namespace

ScriptArchiveFacts checkScriptArchive(const std::vector<char>& bytes) {
  const TorchZip zip(bytes, /*compressed_ok=*/true);
  ScriptArchiveFacts facts;
  // Every record, with its CRC-32 (libzip checks it once the whole record is read).
  for (const std::string& name : zip.names()) {
    const std::vector<char> record = zip.read(name);
    if (name.rfind("code/", 0) != 0 || !endsWith(name, ".py")) continue;
    const std::string code(record.begin(), record.end());
    for (const char* op : {"torch.from_file", "torch.save"})
      if (calls(code, std::string(op) + "("))
        facts.file_operations.push_back(std::string(op) + " in " + name);
    facts.prints = facts.prints || calls(code, "print(");
  }
  // The tensors, rebuilt over their records: a view past a record's end is refused (the
  // unpickler checks each tensor's size, stride and offset against its storage).
  for (const std::string pkl : {"data.pkl", "constants.pkl"}) {
    if (!zip.has(pkl)) continue;
    const std::vector<char> data = zip.read(pkl);
    const std::string folder = pkl == "data.pkl" ? "data/" : "constants/";
    unpickle(data.data(), data.size(), zipStorageLoader(zip, folder));
  }
  return facts;
}

}  // namespace trainscope
