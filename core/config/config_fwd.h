#pragma once
/// Forward declarations of the configuration structs of core/config/train_config.h, for headers
/// that name them only by reference, pointer or as a declared return type: a change to the
/// configuration then recompiles only the files that read its fields.
namespace trainscope {

struct ColumnRef;
struct ClassWeights;
struct CsvConfig;
struct ImageFolderConfig;
struct NpyConfig;
struct IdxConfig;
struct DataConfig;
struct AugmentConfig;
struct CnnConfig;
struct RnnConfig;
struct TorchScriptConfig;
struct ModelConfig;
struct OptimizerConfig;
struct ClipConfig;
struct EarlyStoppingConfig;
struct TrainingConfig;
struct SchedulerConfig;
struct CheckpointConfig;
struct DistributedConfig;
struct LoggingConfig;
struct TeachingConfig;
struct TrainConfig;
struct PresetInfo;

}  // namespace trainscope
