import Problems

/// Why a chat stories use case refused or failed, in words for the user. StoryServer maps the
/// kind to an HTTP status in one place; the CLI prints the message.
public struct ChatError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No such conversation or export (for this user).
        case notFound
        /// The conversation or the settings break a rule (an unknown person, a message too long).
        case invalid
        /// Free accounts do not have this (a look, a third person, the generator).
        case premiumRequired
        /// The free exports of the day are used up.
        case limitReached
        /// Not in a state for this (the video is not made yet).
        case conflict
        /// A part the server lacks.
        case unavailable
        /// The client edits a version of the conversation that is no longer the latest (`If-Match`).
        case staleVersion
    }

    public var kind: Kind
    /// Stable, for clients to branch on (`premium_required`, `daily_export_limit`, …).
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

    static let conversationNotFound = ChatError(.notFound, code: "conversation_not_found", "No chat story with this id.")
    static let exportNotFound = ChatError(.notFound, code: "export_not_found", "No export with this id.")
}

extension ChatError: Problem {
    public var problemKind: ProblemKind {
        switch kind {
        case .notFound: .notFound
        case .invalid: .invalid
        case .premiumRequired: .forbidden
        case .limitReached: .limitReached
        case .conflict: .conflict
        case .unavailable: .unavailable
        case .staleVersion: .staleVersion
        }
    }
}
