#pragma once
/// Facts about a dashboard run shared by the engine side (gui/engine) and the panels, so that
/// neither includes the other.

namespace trainscope {

/// Run states as the GUI shows them (RunCommands::state, stateChanged).
enum class RunState {
  Idle,      ///< no run yet, or the last one failed before its first step
  Running,
  Paused,
  Stopping,  ///< stop requested, waiting for the engine to end the run
  Finished   ///< the run ended (completed, stopped, non-finite, error)
};

/// Cores the dashboard leaves free for drawing when a run's thread count is the default
/// (TrainerOptions::reserved_cores).
inline constexpr int kGuiReservedCores = 1;

}  // namespace trainscope
