//! Empty: this package only exists to build the `rg` binary of its `ripgrep` dependency.
