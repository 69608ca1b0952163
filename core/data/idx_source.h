#pragma once
/// The "idx" data source: any pair of IDX files (MNIST, KMNIST, EMNIST, ...), plain or .gz.
#include "core/config/config_fwd.h"

namespace trainscope {

struct SourceData;

/// Reads data.idx.path (inputs) and data.idx.y_path (labels or targets), and the optional
/// test pair, with readIdxArray (core/data/idx_reader.h: element types 0x08-0x0E). uint8
/// inputs of 3 dimensions [N, H, W] (or 4, [N, C, H, W]) are images; any other inputs become
/// float32 features of their own shape. Labels of an integer type are classes (any count;
/// class names: the label values, sorted) unless data.idx.task says regression; float labels
/// are regression targets. Throws Error(Config, key) for a missing key and Error(Data, file)
/// naming the file for every problem (see arraysToSource in core/data/array_source.h).
void loadIdxSource(const DataConfig& config, SourceData& out);

}  // namespace trainscope
