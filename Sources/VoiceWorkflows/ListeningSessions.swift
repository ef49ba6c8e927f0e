import Foundation
import Platform
import StoryModel
import VoiceChat

/// The listening sessions this server holds: speech a user is sending while they speak, kept
/// until their turn takes it (`take`) or they cancel. Held in this process's memory: a turn
/// must reach the server that heard the speech (a fleet routes a user's voice requests to one
/// server; docs/voice-chat.md). A session idle longer than `idleSeconds` is dropped, each
/// user holds at most `perUser` at once (the oldest goes), and the server at most `limit`.
public actor ListeningSessions {
    private struct Session {
        var owner: UUID
        var listening: Listening
        var lastUsed: Date
    }

    public let idleSeconds: TimeInterval
    public let perUser: Int
    public let limit: Int
    private let now: @Sendable () -> Date
    private var sessions: [UUID: Session] = [:]

    public init(idleSeconds: TimeInterval = 60, perUser: Int = 2, limit: Int = 200, now: @escaping @Sendable () -> Date = { Date() }) {
        self.idleSeconds = idleSeconds
        self.perUser = perUser
        self.limit = limit
        self.now = now
    }

    /// Keeps `listening` for `owner`; returns its id.
    public func open(_ listening: Listening, owner: UUID) throws -> UUID {
        dropIdle()
        let mine = sessions.filter { $0.value.owner == owner }.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (id, _) in mine.prefix(max(0, mine.count - perUser + 1)) { sessions[id] = nil }
        guard sessions.count < limit else {
            throw ServiceError(.unavailable, code: "busy", "Too many people are speaking to this server right now: try again in a moment.")
        }
        let id = UUID.random()
        sessions[id] = Session(owner: owner, listening: listening, lastUsed: now())
        return id
    }

    /// The owner's session (another user's is simply not found).
    public func session(_ id: UUID, owner: UUID) throws -> Listening {
        dropIdle()
        guard var session = sessions[id], session.owner == owner else { throw Self.notFound }
        session.lastUsed = now()
        sessions[id] = session
        return session.listening
    }

    /// The owner's session, no longer kept: a turn takes it once.
    public func take(_ id: UUID, owner: UUID) throws -> Listening {
        let listening = try session(id, owner: owner)
        sessions[id] = nil
        return listening
    }

    public func close(_ id: UUID, owner: UUID) {
        if sessions[id]?.owner == owner { sessions[id] = nil }
    }

    public var count: Int { sessions.count }

    private func dropIdle() {
        let cutoff = now().addingTimeInterval(-idleSeconds)
        sessions = sessions.filter { $0.value.lastUsed >= cutoff }
    }

    static let notFound = ServiceError(.notFound, code: "listening_not_found",
                                     "That listening session is over (it was used, cancelled or idle for a minute): start speaking again.")
}
