import Synchronization

/// A value shared between a test and its loopback handlers (which run concurrently).
public final class LockedValue<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    public init(_ value: Value) {
        storage = Mutex(value)
    }

    public func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T {
        storage.withLock { body(&$0) }
    }

    public var value: Value { storage.withLock { $0 } }
}
