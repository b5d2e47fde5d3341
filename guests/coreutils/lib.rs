//! Empty: this package only exists to build the `coreutils` binary of its dependency.
