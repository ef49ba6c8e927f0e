import Problems

/// Why a use case of any product refused or failed, in words for the user: a stable code and
/// a kind. StoryServer maps the kind to an HTTP status in one place (through `Problem`); the
/// CLI prints the message. Journeys' planning refusals are `JourneyError`s, which name the field
/// at fault.
public struct ServiceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds every product shares (`ProblemKind`), each one HTTP status.
    public typealias Kind = ProblemKind

    public var kind: Kind
    /// Stable, for clients to branch on (`not_analyzed`, `premium_required`, …).
    public var code: String
    public var message: String
    /// For `limitReached`: seconds until it lifts.
    public var retryAfterSeconds: Int?
    /// What a client's contract reads beside the message (the calls API's 402 body).
    public var detail: (any Encodable & Sendable)?

    public init(
        _ kind: Kind, code: String, _ message: String, retryAfterSeconds: Int? = nil, detail: (any Encodable & Sendable)? = nil
    ) {
        self.kind = kind
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
        self.detail = detail
    }

    public var description: String { message }

    /// The same refusal: kind, code, words and wait (the detail is what they say, shaped for a client).
    public static func == (left: ServiceError, right: ServiceError) -> Bool {
        (left.kind, left.code, left.message, left.retryAfterSeconds) == (right.kind, right.code, right.message, right.retryAfterSeconds)
    }

    public static func notFound(_ what: String) -> ServiceError {
        ServiceError(.notFound, code: "not_found", "No \(what) with this id.")
    }
}

extension ServiceError: Problem {
    public var problemKind: ProblemKind { kind }
}
