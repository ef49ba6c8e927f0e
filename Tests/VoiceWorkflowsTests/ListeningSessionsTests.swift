import Foundation
import Platform
import Synchronization
import Testing
import VoiceChat
import VoiceWorkflows

/// The speech a user is sending, kept for their turn: theirs only, once, and not forever.
struct ListeningSessionsTests {
    static func listening() -> Listening { Listening(sampleRate: 16_000) { _ in "" } }

    /// A clock the test moves.
    final class Clock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    @Test("a session is its owner's: another user's id is not found, and a turn takes it once")
    func ownersOnly() async throws {
        let sessions = ListeningSessions()
        let (ada, bob) = (UUID(), UUID())
        let id = try await sessions.open(Self.listening(), owner: ada)
        let refused = await #expect(throws: ServiceError.self) { _ = try await sessions.session(id, owner: bob) }
        #expect(refused?.code == "listening_not_found")
        await sessions.close(id, owner: bob)
        _ = try await sessions.take(id, owner: ada)
        await #expect(throws: ServiceError.self) { _ = try await sessions.take(id, owner: ada) }
    }

    @Test("each user holds at most two (the oldest goes), the server at most its limit, and idle ones are dropped")
    func bounded() async throws {
        let clock = Clock()
        let sessions = ListeningSessions(idleSeconds: 60, perUser: 2, limit: 3, now: { clock.now })
        let ada = UUID()
        let first = try await sessions.open(Self.listening(), owner: ada)
        clock.advance(1)
        let second = try await sessions.open(Self.listening(), owner: ada)
        clock.advance(1)
        _ = try await sessions.open(Self.listening(), owner: ada)
        await #expect(throws: ServiceError.self) { _ = try await sessions.session(first, owner: ada) }
        _ = try await sessions.session(second, owner: ada)
        _ = try await sessions.open(Self.listening(), owner: UUID())
        let busy = await #expect(throws: ServiceError.self) { _ = try await sessions.open(Self.listening(), owner: UUID()) }
        #expect(busy?.code == "busy")
        clock.advance(61)
        _ = try await sessions.open(Self.listening(), owner: UUID())
        #expect(await sessions.count == 1, "the idle sessions were not dropped")
    }
}
