/// Errors from the queue and workers.
public enum JobError: Error, Equatable, CustomStringConvertible {
    /// Another worker holds the job now (our lease expired and it was re-claimed), or the job
    /// finished: this worker must stop working on it and must not report a result.
    case leaseLost
    /// The payload could not be decoded as the handler's input.
    case invalidPayload(String)

    public var description: String {
        switch self {
        case .leaseLost: "The job's lease was lost to another worker; this worker stopped working on it."
        case .invalidPayload(let reason): "The job's payload is not valid for its kind: \(reason)"
        }
    }
}

/// Thrown by a handler for a failure that retrying cannot fix (bad input, missing story):
/// the job fails at once instead of backing off and trying again.
public struct PermanentJobFailure: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
