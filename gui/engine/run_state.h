#pragma once
/// Facts about a dashboard run shared by the engine side (gui/engine) and the panels, so that
/// neither includes the other. Run states: TrainingController::State.

namespace trainscope {

/// Cores the dashboard leaves free for drawing when a run's thread count is the default
/// (TrainerOptions::reserved_cores).
inline constexpr int kGuiReservedCores = 1;

}  // namespace trainscope
