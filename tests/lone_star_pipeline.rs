//! Lone Star played by mail through the daemon (placeholder until the pipeline test lands).
