import Problems

/// Why a stories use case refused or failed, in words for the user. StoryServer maps the kind
/// to an HTTP status in one place; the CLI prints the message.
public struct StoryError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No such story, character or line (for this user).
        case notFound
        /// The request names something impossible: an empty name, an unknown voice.
        case invalid
        /// The story is not in a state for this (not analysed yet, edited meanwhile).
        case conflict
        case tooLarge
        case unsupportedMedia
        /// A part the server lacks (no speech engine).
        case unavailable
        /// The client edits a version of the story that is no longer the latest (`If-Match`).
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

    public static func notFound(_ what: String) -> StoryError {
        StoryError(.notFound, code: "not_found", "No \(what) with this id.")
    }

    public static let notAnalyzed = StoryError(.conflict, code: "not_analyzed", "Analyse the story first (POST /api/stories/{id}/analyze).")
}

extension StoryError: Problem {
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
