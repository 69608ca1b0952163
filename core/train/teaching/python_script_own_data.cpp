// The data section of the export-python script for a run on the user's own data (csv, npy,
// idx, image-folder): the samples split.json lists, read as Python users read them (pandas,
// numpy, OpenCV's cv2) and converted as core/data/csv_source.cpp, array_source.cpp,
// idx_reader.cpp and image_folder.cpp convert them; python_script_data.cpp standardises them.
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/config/config_json.h"
#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/data/csv_table.h"
#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/run/run_description.h"
#include "core/train/teaching/python_script.h"
#include "core/train/teaching/python_script_parts.h"

namespace trainscope {
namespace fs = std::filesystem;

namespace {

nlohmann::json readJson(const fs::path& file, const std::string& what) {
  if (const auto problem = notRegularFileProblem(file))
    throw Error(ErrorCode::Data, file.string(),
                file.string() + ": " + *problem + "; export-python reads " + what);
  std::ifstream in(file);
  try {
    return parseJson(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCode::Data, file.string(), file.string() + " is not valid JSON: " + e.what());
  }
}

/// The pool table's target column, as csv_source.cpp resolves data.csv.target.
std::string targetColumn(const CsvTable& t, const ColumnRef& ref) {
  const auto n = static_cast<int64_t>(t.columns.size());
  if (ref.name) return *ref.name;
  int64_t i = ref.index ? *ref.index : n - 1;
  if (i < 0) i += n;
  if (i < 0 || i >= n)
    throw Error(ErrorCode::Config, "data.csv.target",
                "data.csv.target is column index " + std::to_string(*ref.index) + " but " + t.file +
                    " has " + std::to_string(n) + " columns");
  return t.columns[static_cast<std::size_t>(i)].name;
}

}  // namespace

bool isOwnDataSource(const std::string& source) {
  const DataSourceKind* kind = findDataSource(source);
  return kind && kind->user_data;
}

OwnDataRecord readOwnDataRecord(const fs::path& dir, const TrainConfig& config) {
  OwnDataRecord r;
  r.run_dir = fs::absolute(dir).lexically_normal().string();
  readJson(dir / "split.json", "the samples of the run from its split.json");
  const nlohmann::json run = readJson(dir / "run.json", "the run's data from its run.json");
  try {
    r.data = runInfoFromJson(run, configToJson(config)).data;
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCode::Data, (dir / "run.json").string(),
                (dir / "run.json").string() + ": " + e.what());
  }
  if (r.data.input_shape.empty())
    throw Error(ErrorCode::Data, (dir / "run.json").string(),
                (dir / "run.json").string() + " records no data (input_shape): the run did not "
                "start training");
  if (const auto complete = dataSource(config.data.source).python_own_record)
    complete(r, config.data);
  return r;
}

namespace python_script {

DataFacts ownDataFacts(const OwnDataRecord& r) {
  DataFacts f;
  const DataSummary& d = r.data;
  f.own = true;
  f.classification = d.task == "classification";
  f.images = d.x_dtype == "uint8";
  f.image_shape = d.image_shape;
  f.features = 1;
  for (int64_t v : d.input_shape) f.features *= v;
  f.outputs = d.outputs;
  f.flatten = d.input_shape.size() > 1 && !f.images;
  if (d.input_shape.size() == 2 && !f.images) f.sequences = true, f.step_features = d.input_shape[1];
  return f;
}

void writeOwnData(std::ostringstream& o, const TrainConfig& c, const OwnDataRecord& r,
                  const DataFacts& f) {
  const DataConfig& d = c.data;
  o << "# data.source \"" << d.source << "\": the samples the run read, through its split.json\n"
       "RUN_DIR = " << pyStr(r.run_dir) << "\n"
       "with open(os.path.join(RUN_DIR, \"split.json\")) as split_file:\n"
       "    SPLIT = json.load(split_file)\n"
       "for data_file in SPLIT[\"data_files\"]:  # the files must be those the run read\n"
       "    if data_file[\"sha256\"].startswith(\"listing:\"):  # an image folder: its images are listed\n"
       "        continue\n"
       "    digest = hashlib.sha256()\n"
       "    with open(data_file[\"path\"], \"rb\") as data:\n"
       "        for block in iter(lambda: data.read(1 << 20), b\"\"):\n"
       "            digest.update(block)\n"
       "    if digest.hexdigest() != data_file[\"sha256\"]:\n"
       "        raise SystemExit(f\"{data_file['path']} changed since the run (its SHA-256 differs \"\n"
       "                         f\"from split.json's): the indices would pick other samples\")\n"
       "train_idx = torch.tensor(SPLIT[\"train\"], dtype=torch.long)\n"
       "CLASS_NAMES = [" ;
  for (std::size_t i = 0; i < r.data.class_names.size(); ++i)
    o << (i ? ", " : "") << pyStr(r.data.class_names[i]);
  o << "]  # run.json data.class_names: class index = position\n\n\n";

  dataSource(d.source).python_own_samples(o, c, r, f);
  if (!f.classification && d.target_scale != 1.0)
    o << "y_train, y_val = y_train * " << py(d.target_scale) << ", y_val * " << py(d.target_scale)
      << "  # data.target_scale\n";
}

/// The table's delimiter, header and feature columns (a one-hot column's category) as the run
/// read them: DataSourceKind::python_own_record of csv.
void readCsvOwnRecord(OwnDataRecord& r, const DataConfig& d) {
  const CsvConfig& c = d.csv;
  CsvReadOptions options;
  options.header = c.header;
  options.delimiter = c.delimiter == "tab" ? "\t" : c.delimiter;
  options.missing = c.missing;
  const CsvTable t = readCsv(c.path.value_or(""), options);
  r.delimiter = t.delimiter;
  r.header = t.header;
  r.target_column = targetColumn(t, c.target);
  for (const std::string& name : r.data.feature_names) {
    const int64_t exact = t.find(name);
    if (exact >= 0 && t.columns[static_cast<std::size_t>(exact)].numeric) {
      r.features.emplace_back(name, "");
      continue;
    }
    // "<column>=<category>": the longest text column the name starts with
    const CsvColumn* best = nullptr;
    for (const CsvColumn& col : t.columns)
      if (!col.numeric && name.size() > col.name.size() && name.compare(0, col.name.size(), col.name) == 0 &&
          name[col.name.size()] == '=' && (!best || col.name.size() > best->name.size()))
        best = &col;
    if (!best)
      throw Error(ErrorCode::Data, t.file,
                  t.file + " has no column that gives the run's feature \"" + name +
                      "\": the table changed since the run");
    r.features.emplace_back(best->name, name.substr(best->name.size() + 1));
  }
}

namespace {

/// x_train, y_train of the arrays x_pool, y_pool as core/data/array_source.cpp converts them.
void writeArraySamples(std::ostringstream& o, const DataFacts& f) {
  o << "\n\ndef array_samples(x, y):\n"
       "    \"\"\"As TrainScope converts arrays: uint8 images [N, H, W] / [N, C, H, W] kept as\n"
       "    pixels [N, C*H*W], anything else float32 of its shape; labels by their sorted value.\"\"\"\n";
  if (f.images)
    o << "    x = torch.from_numpy(np.ascontiguousarray(x).reshape(len(x), -1))\n";
  else
    o << "    x = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))\n";
  if (f.classification)
    o << "    values = np.array([float(name) for name in CLASS_NAMES])\n"
         "    y = torch.from_numpy(np.searchsorted(values, y.astype(np.float64).reshape(-1)).astype(np.int64))\n";
  else
    o << "    y = torch.from_numpy(np.ascontiguousarray(y, dtype=np.float32).reshape(len(y), -1))\n";
  o << "    return x, y\n\n\n"
       "x_train, y_train = array_samples(x_pool[SPLIT[\"train\"]], y_pool[SPLIT[\"train\"]])\n";
}

}  // namespace

void writeCsvOwnSamples(std::ostringstream& o, const TrainConfig& c, const OwnDataRecord& r,
                        const DataFacts& f) {
  const DataConfig& d = c.data;
  o << "# The table as TrainScope reads it: delimiter " << pyStr(std::string(1, r.delimiter))
    << ", " << (r.header ? "a header row" : "no header (columns \"column 1\" ...)")
    << ", cells\n# trimmed, blank lines skipped; numbers parsed as Python's float(), then float32\n"
       "MISSING = {\"\"";
  for (const std::string& m : d.csv.missing) o << ", " << pyStr(m);
  o << "}  # data.csv.missing\n"
       "FEATURES = [";
  for (std::size_t i = 0; i < r.features.size(); ++i)
    o << (i ? ",\n            " : "") << "(" << pyStr(r.features[i].first) << ", "
      << (r.features[i].second.empty() ? "None" : pyStr(r.features[i].second)) << ")";
  o << "]  # (column, one-hot category or None), x's columns in order\n"
       "TARGET = " << pyStr(r.target_column) << "  # data.csv.target\n\n\n"
       "def read_table(path):\n"
       "    table = pd.read_csv(path, sep=" << pyStr(std::string(1, r.delimiter)) << ", header="
    << (r.header ? "0" : "None") << ", dtype=str, keep_default_na=False,\n"
       "                        skip_blank_lines=True, encoding=\"utf-8-sig\")\n"
       "    table.columns = " << (r.header ? "[str(name).strip() for name in table.columns]"
                                           : "[f\"column {i + 1}\" for i in range(table.shape[1])]")
    << "\n"
       "    return table.apply(lambda column: column.str.strip())\n\n\n"
       "def number(cell):\n"
       "    return float(\"nan\") if cell in MISSING else float(cell)\n\n\n"
       "def table_samples(table):\n"
       "    \"\"\"x float32 [N, " << f.features << "] and y of a table's rows.\"\"\"\n"
       "    columns = []\n"
       "    for column, category in FEATURES:\n"
       "        cells = table[column]\n"
       "        if category is None:\n"
       "            columns.append(np.array([number(c) for c in cells], dtype=np.float64).astype(np.float32))\n"
       "        else:  # data.csv.categorical one_hot\n"
       "            columns.append((cells == category).to_numpy(np.float32))\n"
       "    x = torch.from_numpy(np.stack(columns, 1).reshape(len(table), len(FEATURES)))\n";
  if (f.classification)
    o << "    index = {name: i for i, name in enumerate(CLASS_NAMES)}\n"
         "    # text labels by name; whole-number labels by their value (\"1.0\" is class \"1\")\n"
         "    y = torch.tensor([index[c] if c in index else index[str(int(float(c)))]\n"
         "                      for c in table[TARGET]], dtype=torch.long)\n";
  else
    o << "    y = torch.from_numpy(np.array([float(c) for c in table[TARGET]], dtype=np.float64)\n"
         "                         .astype(np.float32).reshape(-1, 1))\n";
  o << "    return x, y\n\n\n"
       "pool = read_table(SPLIT[\"pool_file\"])\n"
       "x_train, y_train = table_samples(pool.iloc[SPLIT[\"train\"]])\n"
       "if SPLIT[\"val\"] is not None:\n"
       "    x_val, y_val = table_samples(pool.iloc[SPLIT[\"val\"]])\n"
       "else:  # data.csv.val_path: a table of its own";
  if (d.csv.on_missing == "drop_row")
    o << ", rows with a missing cell dropped (data.csv.on_missing)\n"
         "    val_table = read_table(SPLIT[\"val_file\"])\n"
         "    used = [column for column, _ in FEATURES] + [TARGET]\n"
         "    val_table = val_table[~val_table[used].isin(MISSING).any(axis=1)]\n"
         "    x_val, y_val = table_samples(val_table)\n";
  else
    o << "\n    x_val, y_val = table_samples(read_table(SPLIT[\"val_file\"]))\n";
}

void writeImageFolderOwnSamples(std::ostringstream& o, const TrainConfig& c,
                                const OwnDataRecord& r, const DataFacts& f) {
  const DataConfig& d = c.data;
  const int64_t ch = r.data.image_shape.at(0), h = r.data.image_shape.at(1), w = r.data.image_shape.at(2);
  const std::string mode = d.image_folder.resize;
  std::string interpolate;  // torchvision's F.resize on a uint8 tensor, as TrainScope resizes
  if (mode == "nearest")
    interpolate = "F.interpolate(chw[None].float(), size=(" + std::to_string(h) + ", " +
                  std::to_string(w) + "), mode=\"nearest\")";
  else if (mode == "area")
    interpolate = "F.adaptive_avg_pool2d(chw[None].float(), (" + std::to_string(h) + ", " +
                  std::to_string(w) + "))";
  else
    interpolate = "F.interpolate(chw[None].float(), size=(" + std::to_string(h) + ", " +
                  std::to_string(w) + "), mode=\"" + mode +
                  "\", align_corners=False, antialias=True)" +
                  (mode == "bicubic" ? ".clamp(0, 255)" : "");
  o << "# torchvision's ImageFolder layout, decoded with OpenCV as TrainScope decodes it: "
    << (ch == 1 ? "grayscale" : "RGB") << ",\n# resized to " << h << "x" << w
    << " as torchvision's Resize does it on a uint8 tensor (data.image_folder.resize \"" << mode
    << "\"),\n# uint8 [C*H*W]\n"
       "ROOT = " << pyStr(d.image_folder.path.value_or("")) << "  # data.image_folder.path\n"
       "POOL_DIR = os.path.join(ROOT, \"train\") if os.path.isdir(os.path.join(ROOT, \"train\")) else ROOT\n"
       "EXTENSIONS = (\".jpg\", \".jpeg\", \".png\", \".ppm\", \".bmp\", \".pgm\", \".tif\", \".tiff\", \".webp\")\n\n\n"
       "def decode(path):\n"
       "    image = cv2.imread(path, " << (ch == 1 ? "cv2.IMREAD_GRAYSCALE" : "cv2.IMREAD_COLOR") << ")\n"
       "    if image is None:\n"
       "        return None\n";
  if (ch == 3) o << "    image = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)\n";
  o << "    chw = torch.from_numpy(np.ascontiguousarray(image)).reshape(image.shape[0], "
       "image.shape[1], " << ch << ").permute(2, 0, 1)\n"
       "    if tuple(chw.shape[1:]) != (" << h << ", " << w << "):\n"
       "        chw = " << interpolate << "[0].round().to(torch.uint8)\n"
       "    image = chw.contiguous().numpy()\n";
  o << "    return np.ascontiguousarray(image).reshape(-1)\n\n\n"
       "def folder_samples(folder, names):\n"
       "    \"\"\"uint8 pixels [N, " << f.features << "] and labels of the images `names` (\"class/file\").\"\"\"\n"
       "    pixels, labels = [], []\n"
       "    for name in names:\n"
       "        image = decode(os.path.join(folder, name))\n"
       "        if image is not None:  # TrainScope skips (and lists) images that do not decode\n"
       "            pixels.append(image)\n"
       "            labels.append(CLASS_NAMES.index(name.split(\"/\")[0]))\n"
       "    return torch.from_numpy(np.stack(pixels)), torch.tensor(labels, dtype=torch.long)\n\n\n"
       "def listing(folder):\n"
       "    \"\"\"Every image below folder/<class>/, sorted by path, as TrainScope lists them (links\n"
       "    to folders below a class folder are not followed).\"\"\"\n"
       "    names = []\n"
       "    for cls in CLASS_NAMES:\n"
       "        for dirpath, _, files in os.walk(os.path.join(folder, cls)):\n"
       "            names += [os.path.relpath(os.path.join(dirpath, f), folder) for f in files\n"
       "                      if f.lower().endswith(EXTENSIONS) and os.path.isfile(os.path.join(dirpath, f))]\n"
       "    return sorted(names, key=lambda name: name.split(\"/\"))  # by path component\n\n\n"
       "files = SPLIT[\"files\"]\n"
       "x_train, y_train = folder_samples(POOL_DIR, [files[i] for i in SPLIT[\"train\"]])\n"
       "if SPLIT[\"val\"] is not None:\n"
       "    x_val, y_val = folder_samples(POOL_DIR, [files[i] for i in SPLIT[\"val\"]])\n"
       "else:  # ROOT/val: every image of it\n"
       "    x_val, y_val = folder_samples(os.path.join(ROOT, \"val\"), listing(os.path.join(ROOT, \"val\")))\n";
}

void writeNpyOwnSamples(std::ostringstream& o, const TrainConfig& c, const OwnDataRecord&,
                        const DataFacts& f) {
  const DataConfig& d = c.data;
  const std::string path = d.npy.path.value_or("");
  o << "def read_arrays(x_path, y_path, suffix=\"\"):\n"
       "    \"\"\"numpy's own reader (no pickles): an .npz's members (x_val, y_val: the validation\n"
       "    split of its own), or an .npy of x and of y.\"\"\"\n"
       "    if y_path is None:\n"
       "        with np.load(x_path, allow_pickle=False) as members:\n"
       "            return members[" << pyStr(d.npy.x) << " + suffix], members[" << pyStr(d.npy.y)
    << " + suffix]  # data.npy.x, data.npy.y\n"
       "    return np.load(x_path, allow_pickle=False), np.load(y_path, allow_pickle=False)\n\n\n"
       "x_pool, y_pool = read_arrays(" << pyStr(path) << ", "
    << (d.npy.y_path ? pyStr(*d.npy.y_path) : "None") << ")  # data.npy.path, data.npy.y_path\n";
  writeArraySamples(o, f);
  o << "if SPLIT[\"val\"] is None:  # the archive's own validation arrays\n"
       "    x_val, y_val = array_samples(*read_arrays(" << pyStr(d.npy.path.value_or("")) << ", None, \"_val\"))\n"
       "else:\n"
       "    x_val, y_val = array_samples(x_pool[SPLIT[\"val\"]], y_pool[SPLIT[\"val\"]])\n";
}

void writeIdxOwnSamples(std::ostringstream& o, const TrainConfig& c, const OwnDataRecord&,
                        const DataFacts& f) {
  const DataConfig& d = c.data;
  o << "IDX_TYPES = {0x08: \">u1\", 0x09: \">i1\", 0x0B: \">i2\", 0x0C: \">i4\", 0x0D: \">f4\", 0x0E: \">f8\"}\n\n\n"
       "def read_idx(path):\n"
       "    \"\"\"An IDX file (plain or gzip): magic 0 0 type dims, big-endian sizes, then the values.\"\"\"\n"
       "    with open(path, \"rb\") as f:\n"
       "        data = f.read()\n"
       "    if data[:2] == b\"\\x1f\\x8b\":\n"
       "        data = gzip.decompress(data)\n"
       "    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], \"big\") for i in range(data[3])]\n"
       "    values = np.frombuffer(data, IDX_TYPES[data[2]], offset=4 + 4 * len(dims))\n"
       "    return values.reshape(dims).astype(values.dtype.newbyteorder(\"=\"))\n\n\n"
       "x_pool, y_pool = read_idx(" << pyStr(d.idx.path.value_or("")) << "), read_idx("
    << pyStr(d.idx.y_path.value_or("")) << ")  # data.idx.path, data.idx.y_path\n";
  writeArraySamples(o, f);
  o << "x_val, y_val = array_samples(x_pool[SPLIT[\"val\"]], y_pool[SPLIT[\"val\"]])\n";
}

}  // namespace python_script
}  // namespace trainscope
