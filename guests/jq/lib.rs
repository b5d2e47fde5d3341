//! Empty: this package only exists to build the `jaq` binary of its `jaq` dependency.
