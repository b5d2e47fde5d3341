//! Empty: this package only exists to build the `sed` binary of its `sed` dependency.
