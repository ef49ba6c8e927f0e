/// What a use case tells a person when it refuses or fails (issue 50): a stable code for clients
/// to branch on, words for people, and the kind of failure. Every product's error conforms;
/// the server maps `ProblemKind` to an HTTP status in one place (`APIError.status(for:)`), and
/// the CLI prints the message.
public protocol Problem: Error, Sendable, CustomStringConvertible {
    var problemKind: ProblemKind { get }
    /// Stable: `not_analyzed`, `premium_required`, `unknown_place`, …
    var code: String { get }
    var message: String { get }
    /// The request's field at fault, when the refusal names one.
    var field: String? { get }
    /// Seconds after which trying again may succeed (a limit that lifts).
    var retryAfterSeconds: Int? { get }
    /// What a client's contract reads beside the message, when the contract fixes one (the
    /// calls API's 402 body: what to buy).
    var detail: (any Encodable & Sendable)? { get }
}

extension Problem {
    public var field: String? { nil }
    public var retryAfterSeconds: Int? { nil }
    public var detail: (any Encodable & Sendable)? { nil }
}

/// The kinds of failure every product shares, each one HTTP status.
public enum ProblemKind: Sendable, Equatable, CaseIterable {
    /// The request itself is malformed (400).
    case badRequest
    /// The request is well formed but names something impossible (422).
    case invalid
    /// Nothing left to use without buying (402).
    case paymentRequired
    /// Not allowed for this account or plan (403).
    case forbidden
    /// No such thing for this user (404).
    case notFound
    /// Not in a state for this (409).
    case conflict
    /// The client edits a version that is no longer the latest (412).
    case staleVersion
    case tooLarge
    case unsupportedMedia
    /// A limit reached; `retryAfterSeconds` says when it lifts (429).
    case limitReached
    /// A service behind the server failed (502).
    case upstream
    /// A part the server lacks or a service that is down (503).
    case unavailable
    /// A service behind the server did not answer in time (504).
    case timeout
}
