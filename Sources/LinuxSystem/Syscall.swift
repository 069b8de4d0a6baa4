/// Runs a C call that reports failure as -1 and `errno`, calling it again while it fails with `EINTR`.
///
/// Every system call in this module goes through here, except `close`, which must not be retried on Linux
/// (the descriptor is gone even when it reports `EINTR`).
@inline(__always)
func retryingOnInterrupt<Value: FixedWidthInteger>(_ call: () -> Value) -> Result<Value, Errno> {
    while true {
        let value = call()
        if value != -1 {
            return .success(value)
        }
        let errno = Errno.current
        if errno != .interrupted {
            return .failure(errno)
        }
    }
}

/// Turns `EAGAIN` (a non-blocking call with nothing to do) into `nil`, keeping every other error.
@inline(__always)
func nilOnWouldBlock<Value>(_ result: Result<Value, Errno>) -> Result<Value?, Errno> {
    switch result {
    case .success(let value):
        return .success(value)
    case .failure(let errno) where errno == .wouldBlock:
        return .success(nil)
    case .failure(let errno):
        return .failure(errno)
    }
}
