import Problems

/// Why a use case of any product refused or failed, in words for the user: a stable code and
/// a kind. StoryServer maps the kind to an HTTP status in one place (through `Problem`); the
/// CLI prints the message. Chat and calls keep errors of their own shape (`ChatError`,
/// `CallError`), which are `Problem`s too.
public struct ServiceError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No such story, journey, conversation or line (for this user).
        case notFound
        /// The request names something impossible: an empty name, an unknown voice.
        case invalid
        /// Not in a state for this (a story not analysed yet, a journey with nothing told).
        case conflict
        case tooLarge
        case unsupportedMedia
        /// A part the server lacks (no speech engine), or one busy right now.
        case unavailable
        /// The client edits a version that is no longer the latest (`If-Match`).
        case staleVersion
    }

    public var kind: Kind
    /// Stable, for clients to branch on (`not_analyzed`, `invalid_name`, …).
    public var code: String
    public var message: String

    public init(_ kind: Kind, code: String, _ message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static func notFound(_ what: String) -> ServiceError {
        ServiceError(.notFound, code: "not_found", "No \(what) with this id.")
    }
}

extension ServiceError: Problem {
    public var problemKind: ProblemKind {
        switch kind {
        case .notFound: .notFound
        case .invalid: .invalid
        case .conflict: .conflict
        case .tooLarge: .tooLarge
        case .unsupportedMedia: .unsupportedMedia
        case .unavailable: .unavailable
        case .staleVersion: .staleVersion
        }
    }
}
