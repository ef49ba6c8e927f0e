import Problems

/// Why a use case of any product refused or failed, in words for the user: a stable code and
/// a kind. StoryServer maps the kind to an HTTP status in one place (through `Problem`); the
/// CLI prints the message. Calls keep `CallError`, a `Problem` too, for the 402 body and the
/// 400s of the mobile app's contract; journeys' planning refusals are `JourneyError`s, which
/// name the field at fault.
public struct ServiceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds every product shares (`ProblemKind`), each one HTTP status.
    public typealias Kind = ProblemKind

    public var kind: Kind
    /// Stable, for clients to branch on (`not_analyzed`, `premium_required`, …).
    public var code: String
    public var message: String
    /// For `limitReached`: seconds until it lifts.
    public var retryAfterSeconds: Int?

    public init(_ kind: Kind, code: String, _ message: String, retryAfterSeconds: Int? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String { message }

    public static func notFound(_ what: String) -> ServiceError {
        ServiceError(.notFound, code: "not_found", "No \(what) with this id.")
    }
}

extension ServiceError: Problem {
    public var problemKind: ProblemKind { kind }
}
