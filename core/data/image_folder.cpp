// The "image-folder" source: a folder per class, decoded with OpenCV in parallel.
#include "core/data/image_folder.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <thread>
#include <unistd.h>

#include "core/config/train_config.h"
#include "core/data/augment/functional.h"
#include "core/data/data_fingerprint.h"
#include "core/data/file_rows.h"
#include "core/data/image_cache.h"
#include "core/data/sources.h"
#include "core/errors.h"
#include "core/io/row_file.h"
#include "core/io/utf8.h"
#include "core/system/cancel.h"

namespace trainscope {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void failImage(const std::string& path, const std::string& problem) {
  throw Error(ErrorCode::Data, path, "image folder " + problem);
}

bool isImageFile(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* e : {".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp"})
    if (ext == e) return true;
  return false;
}

/// Path order of '/'-separated relative names, component by component (as std::filesystem::path
/// compares: "a/b" before "a-b/c"), so a class folder's subfolders sort as they always did.
bool componentLess(const std::string& a, const std::string& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    const auto rank = [](char c) { return c == '/' ? -1 : static_cast<int>(static_cast<unsigned char>(c)); };
    return rank(x) < rank(y);
  });
}

/// One split's files: (class index, name relative to the split folder), sorted by class then
/// path. Names rather than std::filesystem::path objects: a path keeps every component as a
/// path of its own, ~10 times the bytes of its text for 60,000 files.
struct Listing {
  fs::path dir;  ///< the split folder
  std::vector<std::string> classes;
  std::vector<std::pair<int64_t, std::string>> files;
  std::vector<std::string> skipped;  ///< paths of what is neither a class folder nor an image
  /// Links to folders inside a class folder, not followed, each a note with the reason.
  std::vector<std::string> folders_skipped;

  /// The full path of file `i`.
  std::string path(std::size_t i) const { return (dir / files[i].second).string(); }
};

Listing listSplit(const fs::path& dir) {
  Listing l;
  l.dir = dir;
  std::error_code ec;
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    entries.push_back(it->path());
  if (ec) failImage(dir.string(), dir.string() + " cannot be read: " + ec.message());
  std::sort(entries.begin(), entries.end());
  for (const fs::path& e : entries) {
    const std::string name = e.filename().string();
    if (!isValidUtf8(name))  // class and file names reach run.json and split.json
      failImage(e.string(), e.string() + ": the name is not UTF-8; rename it");
    if (!name.empty() && name[0] == '.') continue;  // hidden, as torchvision's scandir skips none
                                                    // but a checkout's .git is no class
    if (fs::is_directory(e, ec)) {
      l.classes.push_back(name);
    } else {
      l.skipped.push_back(e.string());
    }
  }
  for (std::size_t c = 0; c < l.classes.size(); ++c) {
    const fs::path cdir = dir / l.classes[c];
    const std::string cdir_text = cdir.string() + "/";
    std::vector<std::string> files;
    // A link to a folder inside a class folder is not followed (bag/loop ->
    // .. turned 90 images into 3,690 samples labelled "bag"): pointing inside the class folder
    // it only reaches folders listed anyway, pointing elsewhere it would give another folder's
    // images this class's label. Skipped and listed; links to image files are followed.
    for (fs::recursive_directory_iterator it(cdir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_symlink(ec) && it->is_directory(ec)) {
        l.folders_skipped.push_back("skipped (a link to a folder inside a class folder is not "
                                    "followed: it loops, repeats or relabels images): " +
                                    it->path().string());
        continue;
      }
      if (it->is_directory(ec)) continue;
      const fs::path& p = it->path();
      if (!isValidUtf8(p.filename().string()))
        failImage(p.string(), p.string() + ": the name is not UTF-8; rename it");
      if (!isImageFile(p) || !it->is_regular_file(ec)) {  // a FIFO named .png would block
        l.skipped.push_back(p.string());
        continue;
      }
      const std::string& text = p.native();
      files.push_back(l.classes[c] + "/" +
                      (text.compare(0, cdir_text.size(), cdir_text) == 0
                           ? text.substr(cdir_text.size())
                           : p.lexically_relative(cdir).generic_string()));
    }
    if (ec) failImage(cdir.string(), cdir.string() + " cannot be read: " + ec.message());
    if (files.empty())
      failImage(cdir.string(), "class folder " + cdir.string() +
                              " holds no image (.png, .jpg, .bmp ...): every class needs one");
    std::sort(files.begin(), files.end(), componentLess);
    for (std::string& f : files) l.files.emplace_back(static_cast<int64_t>(c), std::move(f));
  }
  return l;
}

/// Decodes every image of `listing` into uint8 [N, C*H*W] (rows of images that fail to decode
/// are left out: DecodedImages::kept / failed). `size` [H, W] is fixed by the caller or by the
/// first image. Pixels of more than `max_in_memory` bytes are decoded in pieces of 64 MB and
/// written row after row to `spill` (x undefined, pixels_file = spill); `spill` empty then
/// refuses naming `limit_key`.
DecodedImages decodeAll(const Listing& listing, int64_t channels, std::vector<int64_t>& size,
                        bool resize, augment::Interpolation mode, const fs::path& root,
                        int64_t max_in_memory = INT64_MAX, const fs::path& spill = {},
                        const std::string& limit_key = {}) {
  const int64_t n = static_cast<int64_t>(listing.files.size());
  const int flag = channels == 1 ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR;
  auto read = [&](int64_t i) {
    const std::string file = listing.path(static_cast<std::size_t>(i));
    cv::Mat m;
    try {
      m = cv::imread(file, flag);
    } catch (const cv::Exception&) {
      m = cv::Mat();
    }
    return m;
  };
  // The size from the first image that decodes.
  int64_t first = 0;
  cv::Mat probe;
  while (size.empty() && first < n) {
    probe = read(first);
    if (!probe.empty()) size = {probe.rows, probe.cols};
    else ++first;
  }
  if (size.empty()) failImage(root.string(), root.string() + ": no image could be decoded");
  const int64_t h = size[0], w = size[1], per = channels * h * w;
  const bool on_disk = n * per > max_in_memory;
  if (on_disk && spill.empty())
    throw Error(ErrorCode::Config, limit_key,
                limit_key + ": the decoded images of " + root.string() + " (" +
                    std::to_string(n * per) + " bytes) would stay on disk in the image cache, "
                    "but the cache is off (TRAINSCOPE_CACHE_DIR=off or no cache folder): set "
                    "TRAINSCOPE_CACHE_DIR to a folder with room for them");
  // Rows [lo, hi) are decoded into x (row i at i - lo): all at once in memory, else in pieces.
  const int64_t piece_rows = on_disk ? std::max<int64_t>(1, (int64_t{64} << 20) / per) : n;
  at::Tensor x = at::empty({std::min(n, piece_rows), per}, at::kByte);
  int64_t lo = 0, hi = 0;
  std::vector<char> ok(n, 0);
  std::atomic<int64_t> next{0};
  std::mutex mutex;
  std::string wrong_size;  // the first image of another size (without a fixed size)
  std::atomic<bool> cancelled{false};
  const int workers = static_cast<int>(std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, 8));
  auto work = [&](bool resize_allowed) {
    for (int64_t i = next++; i < hi; i = next++) {
      if (cancelRequested()) {
        cancelled = true;
        return;
      }
      cv::Mat m = read(i);
      if (m.empty()) continue;
      if (m.rows != h || m.cols != w) {
        if (!resize_allowed) {
          std::lock_guard<std::mutex> lock(mutex);
          if (wrong_size.empty())
            wrong_size = listing.path(static_cast<std::size_t>(i)) + " is " + std::to_string(m.cols) +
                         "x" + std::to_string(m.rows) + " (width x height) but the first " +
                         "training image is " + std::to_string(w) + "x" + std::to_string(h);
          continue;
        }
        // torchvision's Resize on the image as a uint8 tensor (data.image_folder.resize;
        // OpenCV's resize has no antialiasing)
        if (channels == 3) cv::cvtColor(m, m, cv::COLOR_BGR2RGB);
        if (!m.isContinuous()) m = m.clone();
        const at::Tensor hwc = at::from_blob(m.data, {m.rows, m.cols, channels}, at::kByte);
        const at::Tensor r = augment::resize(hwc.permute({2, 0, 1}), h, w, mode,
                                             /*antialias=*/mode != augment::Interpolation::Nearest)
                                 .contiguous();
        std::memcpy(x.data_ptr<uint8_t>() + (i - lo) * per, r.data_ptr<uint8_t>(),
                    static_cast<std::size_t>(per));
        ok[i] = 1;
        continue;
      }
      if (channels == 3) cv::cvtColor(m, m, cv::COLOR_BGR2RGB);
      if (!m.isContinuous()) m = m.clone();
      uint8_t* dst = x.data_ptr<uint8_t>() + (i - lo) * per;
      if (channels == 1) {
        std::memcpy(dst, m.data, per);
      } else {  // HWC to CHW
        const uint8_t* src = m.data;
        for (int64_t p = 0; p < h * w; ++p)
          for (int64_t c = 0; c < 3; ++c) dst[c * h * w + p] = src[p * 3 + c];
      }
      ok[i] = 1;
    }
  };
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(nullptr, std::fclose);
  if (on_disk) {
    out.reset(std::fopen(spill.c_str(), "wb"));
    if (!out)
      throw Error(ErrorCode::Io, spill.string(),
                  "cannot write the decoded images to " + spill.string() + ": " +
                      std::strerror(errno));
  }
  for (lo = 0; lo < n; lo = hi) {
    hi = std::min(n, lo + piece_rows);
    next = lo;
    std::vector<std::thread> threads;
    for (int t = 1; t < workers; ++t) threads.emplace_back(work, resize);
    work(resize);
    for (std::thread& t : threads) t.join();
    if (cancelled) throw Cancelled(root.string());
    if (!wrong_size.empty())
      failImage(root.string(), wrong_size +
                              ": images of different sizes need data.image_folder.size "
                              "[height, width] to resize them to");
    for (int64_t i = lo; on_disk && i < hi; ++i)  // the kept rows, in listing order
      if (ok[i] && std::fwrite(x.data_ptr<uint8_t>() + (i - lo) * per, 1,
                               static_cast<std::size_t>(per), out.get()) != static_cast<std::size_t>(per))
        throw Error(ErrorCode::Io, spill.string(),
                    "cannot write the decoded images to " + spill.string() + " (disk full?)");
  }
  DecodedImages d;
  for (int64_t i = 0; i < n; ++i) (ok[i] ? d.kept : d.failed).push_back(i);
  d.size = size;
  if (on_disk) {
    if (std::fclose(out.release()) != 0)
      throw Error(ErrorCode::Io, spill.string(), "cannot write the decoded images to " + spill.string());
    d.pixels_file = spill;
    return d;
  }
  d.x = d.kept.size() == static_cast<std::size_t>(n)
            ? x
            : x.index_select(0, at::tensor(d.kept, at::kLong));
  return d;
}

/// decodeAll through the cache (core/data/image_cache.h): the images of `listing` as uint8
/// [kept, C*H*W] with class labels; failed files named in `failed`, relative names of the kept
/// ones moved from the listing to `names`, where the pixels came from in `notes`.
/// Pixels of more than `max_in_memory` bytes stay on disk in the cache file, their rows read as
/// batches ask (core/data/file_rows.h); `limit_key` names the key that decided it.
TensorPair decode(Listing& listing, int64_t channels, std::vector<int64_t>& size,
                  bool resize, augment::Interpolation mode, std::vector<std::string>& failed, std::vector<std::string>* names,
                  const fs::path& root, std::vector<std::string>& notes,
                  const std::string& config_key, std::vector<DataFile>& folders,
                  int64_t max_in_memory, const std::string& limit_key) {
  const int64_t n = static_cast<int64_t>(listing.files.size());
  const fs::path cache_dir = imageCacheDir();
  // The cache key is the folder's fingerprint too (run.json data.files): every
  // image's relative path, class, size and modification time.
  const uint64_t key =
      imageCacheKey(root, channels, resize ? size : std::vector<int64_t>{},
                    resize ? augment::interpolationName(mode) : "", listing.files);
  {
    DataFile f;
    f.key = config_key;
    f.path = root.string();
    f.size = n;
    f.mtime_ns = modificationTimeNs(root);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
    f.sha256 = std::string("listing:") + hex;
    folders.push_back(std::move(f));
  }
  fs::path cache_file;
  std::optional<DecodedImages> d;
  if (!cache_dir.empty()) {
    cache_file = imageCacheFile(cache_dir, key);
    d = readImageCache(cache_file, key, n, channels, max_in_memory);
    if (d && !size.empty() && d->size != size) d.reset();  // val/test: the training size
    if (d) notes.push_back("decoded images of " + root.string() + " read from the cache " +
                           cache_file.string());
  }
  if (!d) {
    fs::path spill;  // decoded rows too large for memory, before they join the cache file
    if (!cache_file.empty()) {
      std::error_code ec;
      fs::create_directories(cache_dir, ec);
      spill = cache_file.string() + ".pixels-" + std::to_string(::getpid());
    }
    struct Remove {
      fs::path p;
      ~Remove() {
        std::error_code ec;
        if (!p.empty()) fs::remove(p, ec);
      }
    } remove_spill{spill};
    d = decodeAll(listing, channels, size, resize, mode, root, max_in_memory, spill, limit_key);
    if (!cache_file.empty()) {
      if (writeImageCache(cache_file, key, n, channels, *d))
        notes.push_back("decoded images of " + root.string() + " cached in " + cache_file.string());
      else if (!d->x.defined())
        throw Error(ErrorCode::Io, cache_file.string(),
                    "the decoded images of " + root.string() + " stay on disk in the image "
                    "cache, but " + cache_file.string() + " could not be written (disk full?)");
      else
        notes.push_back("the decoded images could not be cached in " + cache_dir.string() +
                        " (not a writable folder): the next start decodes them again");
    }
  }
  size = d->size;
  std::vector<int64_t> labels;
  labels.reserve(d->kept.size());
  for (int64_t i : d->failed) failed.push_back(listing.path(static_cast<std::size_t>(i)));
  if (names) names->reserve(d->kept.size());
  for (int64_t i : d->kept) {
    labels.push_back(listing.files[static_cast<std::size_t>(i)].first);
    if (names) names->push_back(std::move(listing.files[static_cast<std::size_t>(i)].second));
  }
  TensorPair out;
  if (d->x.defined()) {
    out.x = d->x;
  } else {  // larger than memory: the cache file's rows, read as batches ask
    auto rows = std::make_shared<FileRows>();
    rows->file = std::make_shared<const RowFile>(d->pixels_file.string());
    rows->offset = d->pixels_offset;
    rows->rows = static_cast<int64_t>(d->kept.size());
    rows->row_bytes = static_cast<uint64_t>(channels * size[0] * size[1]);
    rows->dtype = at::kByte;
    out = fileRowsSplit(rows, {channels * size[0] * size[1]});
    notes.push_back("the decoded images of " + root.string() + " stay on disk in " +
                    d->pixels_file.string() + ", their rows read as batches ask (" + limit_key + ")");
  }
  out.y = at::tensor(labels, at::kLong);
  out.x_scale = 255.0;
  return out;
}

}  // namespace

void loadImageFolderSource(const DataConfig& config, SourceData& out) {
  const ImageFolderConfig& c = config.image_folder;
  if (!c.path)
    throw Error(ErrorCode::Config, "data.image_folder.path",
                "data.source is image-folder: set data.image_folder.path");
  const fs::path root = *c.path;
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    failImage(root.string(), root.string() + (fs::exists(root, ec) ? " is not a folder" : " does not exist") +
                            " (data.image_folder.path names a folder of class folders)");
  const bool split_folders = fs::is_directory(root / "train", ec);
  const fs::path train_dir = split_folders ? root / "train" : root;
  Listing train = listSplit(train_dir);
  if (train.classes.empty())
    failImage(train_dir.string(), train_dir.string() +
                                 " holds no class folder: images go in <root>/<class>/<image>");
  if (train.classes.size() < 2)
    failImage(train_dir.string(), train_dir.string() + " holds one class folder (" + train.classes[0] +
                                 "): classification needs at least 2");
  std::vector<int64_t> size = c.size;
  std::vector<std::string> failed;
  const bool resize = !c.size.empty();  // else every image must have the first one's size
  const augment::Interpolation mode = augment::interpolationFromName(c.resize);
  std::vector<std::string> cache_notes;
  // Larger than data.in_memory_limit (or data.memory_map): the pixels stay on disk.
  const int64_t max_in_memory = config.memory_map ? 0 : inMemoryLimit(config);
  const std::string limit_key = config.memory_map ? "data.memory_map" : "data.in_memory_limit";
  out.pool = decode(train, c.channels, size, resize, mode, failed, &out.pool_names, train_dir, cache_notes,
                    split_folders ? "data.image_folder.path/train" : "data.image_folder.path",
                    out.folders, max_in_memory, limit_key);
  out.pool_file = train_dir.string();
  const at::Tensor per_class =
      at::bincount(out.pool.y, {}, static_cast<int64_t>(train.classes.size()));
  for (std::size_t k = 0; k < train.classes.size(); ++k)
    if (per_class[k].item<int64_t>() == 0)
      failImage((train_dir / train.classes[k]).string(),
           "class folder " + (train_dir / train.classes[k]).string() +
               " holds no image that decodes (" + std::to_string(failed.size()) +
               " images failed, e.g. " + (failed.empty() ? std::string() : failed[0]) + ")");
  for (const std::string& s : train.skipped) out.notes.push_back("skipped (not an image): " + s);
  for (const std::string& s : train.folders_skipped) out.notes.push_back(s);
  for (const auto& [name, dst, file] :
       {std::tuple{"val", &out.val, &out.val_file}, std::tuple{"test", &out.test, &out.test_file}}) {
    const fs::path dir = root / name;
    if (!split_folders || !fs::is_directory(dir, ec)) continue;
    Listing l = listSplit(dir);
    if (l.classes != train.classes) {
      std::string a, b;
      for (const auto& s : l.classes) a += (a.empty() ? "" : ", ") + s;
      for (const auto& s : train.classes) b += (b.empty() ? "" : ", ") + s;
      failImage(dir.string(), dir.string() + "'s classes (" + a + ") differ from " +
                             train_dir.string() + "'s (" + b + ")");
    }
    *dst = decode(l, c.channels, size, resize, mode, failed, nullptr, dir, cache_notes,
                  std::string("data.image_folder.path/") + name, out.folders, max_in_memory,
                  limit_key);
    *file = dir.string();
    for (const std::string& s : l.skipped) out.notes.push_back("skipped (not an image): " + s);
    for (const std::string& s : l.folders_skipped) out.notes.push_back(s);
  }
  for (const std::string& f : failed) out.notes.push_back("could not decode (skipped): " + f);
  out.notes.insert(out.notes.end(), cache_notes.begin(), cache_notes.end());
  if (!failed.empty())
    out.notes.push_back(std::to_string(failed.size()) +
                        (failed.size() == 1 ? " image could not be decoded" : " images could not be decoded"));
  out.class_names = train.classes;
  out.image_shape = {c.channels, size[0], size[1]};
}

}  // namespace trainscope
