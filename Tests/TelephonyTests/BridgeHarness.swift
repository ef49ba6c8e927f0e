import Audio
import Calls
import Foundation
import Logging
import Synchronization
import Telephony
import TestSupport
import VendorHTTP
import WebSocketKit

/// Scenarios for the tests: a comedian (temperature below the Realtime range, so it is
/// clamped) and a storyteller.
enum Fixtures {
    static let comedian = CallScenario(
        id: "comedian", name: "Comedian", description: "Jokes", icon: "😂", category: .entertainment,
        isFamilyFriendly: true, voice: .ash, temperature: 0.5,
        instructions: "You are a stand-up comedian calling a friend with three clean jokes.")
    static let storyteller = CallScenario(
        id: "storyteller", name: "Storyteller", description: "Stories", icon: "📖", category: .entertainment,
        isFamilyFriendly: true, voice: .coral, temperature: 0.8,
        instructions: "You are a storyteller who tells a short tale \"with feeling\".")

    /// `call_token` → grant; anything else is refused.
    static func grants(limit: Int = 600) -> @Sendable (MediaStreamStart) async -> MediaStreamGrant? {
        { start in
            switch start.customParameters["call_token"] {
            case "token-comedian": MediaStreamGrant(callID: "call-comedian", scenario: comedian, durationLimit: limit)
            case "token-storyteller": MediaStreamGrant(callID: "call-storyteller", scenario: storyteller, durationLimit: limit)
            default: nil
            }
        }
    }

    static let key = Secret("sk-test-realtime-key")
}

/// What the hooks saw.
final class HookLog: Sendable {
    let limits = LockedValue<[(callID: String, callSid: String)]>([])
    let ended = LockedValue<[MediaStreamSummary]>([])
    let agentsMade = LockedValue(0)
    let events = LockedValue<[MediaStreamSession.Event]>([])

    var endedSummaries: [MediaStreamSummary] { ended.withLock { $0 } }
    var limitCalls: [(callID: String, callSid: String)] { limits.withLock { $0 } }
    var marksPlayed: Int { events.withLock { $0.filter { if case .markPlayed = $0 { true } else { false } }.count } }
}

/// The media-stream endpoint as the server runs it (one session per socket), on loopback,
/// bridged to agents made by `makeAgent`.
struct Bridge {
    let url: String
    let registry: MediaStreamRegistry
    let log: HookLog

    /// `startTimeout` is generous by default: on a loaded machine (the whole suite on two cores)
    /// a session's task can wait many seconds for a thread, and the production 15 s would close
    /// a socket whose `start` is already waiting to be read. The timeout's own test passes 300 ms.
    /// So is `idleLimit`: the test client sends frames only when told to, where Twilio sends 50
    /// a second.
    static func serve<T: Sendable>(
        authorize: @escaping @Sendable (MediaStreamStart) async -> MediaStreamGrant? = Fixtures.grants(),
        makeAgent: @escaping @Sendable (MediaStreamGrant) async throws -> any VoiceAgent,
        startTimeout: Duration = .seconds(loopbackTimeout), idleLimit: Duration = .seconds(loopbackTimeout),
        _ body: (Bridge) async throws -> T
    ) async throws -> T {
        let registry = MediaStreamRegistry()
        let log = HookLog()
        let hooks = MediaStreamHooks(
            authorize: authorize,
            makeAgent: { grant in
                log.agentsMade.withLock { $0 += 1 }
                return try await makeAgent(grant)
            },
            limitReached: { grant, callSid in log.limits.withLock { $0.append((grant.callID, callSid)) } },
            ended: { _, summary in log.ended.withLock { $0.append(summary) } })
        return try await WebSocketLoopback.withServer(accept: { socket, _ in
            let session = MediaStreamSession(
                socket: TextSocket(socket), hooks: hooks, registry: registry, startTimeout: startTimeout, idleLimit: idleLimit,
                observe: { event in log.events.withLock { $0.append(event) } })
            Task { await session.run() }
        }) { server in
            try await body(Bridge(url: server.url + "/media-stream", registry: registry, log: log))
        }
    }

    /// Bridged to the Realtime API on `wire`.
    static func bridged<T: Sendable>(
        to wire: RealtimeWire, authorize: @escaping @Sendable (MediaStreamStart) async -> MediaStreamGrant? = Fixtures.grants(),
        idleLimit: Duration = .seconds(loopbackTimeout), _ body: (Bridge) async throws -> T
    ) async throws -> T {
        let configuration = RealtimeAgent.Configuration(apiKey: Fixtures.key, baseURL: wire.baseURL, model: "gpt-realtime-test")
        return try await serve(authorize: authorize, makeAgent: RealtimeAgent.factory(configuration), idleLimit: idleLimit, body)
    }
}

/// `seconds` of a loud 440 Hz tone as μ-law: the caller talking.
func callerSpeech(seconds: Double, amplitude: Double = 8000) -> [UInt8] {
    MuLaw.encode((0..<Int(seconds * 8000)).map { Int16(amplitude * sin(2 * Double.pi * 440 * Double($0) / 8000)) })
}
