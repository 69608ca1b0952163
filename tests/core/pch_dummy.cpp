// Anchor for the shared precompiled header of the core test suites.
