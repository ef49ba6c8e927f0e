import Calls
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import VendorHTTP
import WebSocketKit

/// A call's voice agent on the OpenAI Realtime API: one WebSocket per call, configured with the
/// scenario's voice, instructions and temperature, μ-law in and out, the server detecting
/// turns (and so interruptions).
public final class RealtimeAgent: VoiceAgent {
    public struct Configuration: Sendable {
        /// `wss://api.openai.com/v1/realtime`, or a loopback server in tests.
        public var baseURL: String
        public var model: String
        public var apiKey: Secret
        /// Caller frames waiting for the socket; beyond it the oldest are dropped (20 ms each,
        /// so 1 s by default: older audio is no use to a live conversation).
        public var listenBufferFrames: Int
        /// Agent events waiting for the session; beyond it the newest are dropped and
        /// reported (an audio delta is ~100 ms, so the default is minutes of reply).
        public var eventBufferLimit: Int
        public var eventLoopGroup: any EventLoopGroup

        public static let defaultBaseURL = "wss://api.openai.com/v1/realtime"
        public static let defaultModel = "gpt-realtime"

        public init(
            apiKey: Secret, baseURL: String = defaultBaseURL, model: String = defaultModel,
            listenBufferFrames: Int = 50, eventBufferLimit: Int = 4096,
            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
        ) {
            self.apiKey = apiKey
            self.baseURL = baseURL
            self.model = model
            self.listenBufferFrames = listenBufferFrames
            self.eventBufferLimit = eventBufferLimit
            self.eventLoopGroup = eventLoopGroup
        }

        /// The socket's address: the base URL with the model as its query.
        public var url: String {
            let separator = baseURL.contains("?") ? "&" : "?"
            return baseURL + separator + "model=" + (model.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? model)
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case connect(String)

        public var description: String {
            switch self {
            case .connect(let reason): "the Realtime API could not be reached: \(reason)"
            }
        }
    }

    public let events: AsyncStream<VoiceAgentEvent>
    private let eventInput: AsyncStream<VoiceAgentEvent>.Continuation
    private let audioOut: AsyncStream<[UInt8]>
    private let audioInput: AsyncStream<[UInt8]>.Continuation
    private let configuration: Configuration
    private let scenario: CallScenario
    private let logger: Logger
    private let link = Mutex<Link>(Link())

    private struct Link {
        var socket: TextSocket?
        var tasks: [Task<Void, Never>] = []
        var closed = false
    }

    public init(scenario: CallScenario, configuration: Configuration, logger: Logger = Logger(label: "storyvoice.realtime")) {
        self.scenario = scenario
        self.configuration = configuration
        self.logger = logger
        (events, eventInput) = AsyncStream.makeStream(of: VoiceAgentEvent.self, bufferingPolicy: .bufferingOldest(configuration.eventBufferLimit))
        (audioOut, audioInput) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(configuration.listenBufferFrames))
    }

    /// A factory for `MediaStreamHooks.makeAgent`.
    public static func factory(_ configuration: Configuration, logger: Logger = Logger(label: "storyvoice.realtime")) -> @Sendable (MediaStreamGrant) async throws -> any VoiceAgent {
        { grant in RealtimeAgent(scenario: grant.scenario, configuration: configuration, logger: logger) }
    }

    public func start() async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "Bearer \(configuration.apiKey.value)")
        headers.add(name: RealtimeProtocol.betaHeader.name, value: RealtimeProtocol.betaHeader.value)
        let socket: TextSocket
        do {
            // Reply audio arrives in deltas of a few kB of base64; a whole response's
            // transcript is larger. 16 MB bounds a frame without refusing a real one.
            socket = try await TextSocket.connect(
                to: configuration.url, headers: headers, configuration: .init(maxFrameSize: 1 << 24),
                on: configuration.eventLoopGroup, bufferLimit: 4096)
        } catch {
            // Never the headers: they carry the key.
            throw Failure.connect("\(type(of: error)): \(error)")
        }
        // Kept at once, so `close()` releases it even if configuring it fails.
        let closedAlready = link.withLock { link in
            link.socket = socket
            return link.closed
        }
        guard !closedAlready else {
            await socket.close()
            return
        }
        let update = RealtimeProtocol.SessionUpdate(voice: scenario.voice.rawValue, instructions: scenario.instructions, temperature: scenario.temperature)
        try await socket.send(RealtimeProtocol.text(update))
        // The scenario speaks first, as the one who placed the call would.
        try await socket.send(RealtimeProtocol.text(RealtimeProtocol.ResponseCreate()))

        let reader = Task { [eventInput, logger] in
            for await text in socket.frames { Self.handle(text, eventInput, logger) }
            eventInput.finish()
        }
        let writer = Task { [audioOut] in
            for await audio in audioOut {
                do {
                    try await socket.send(RealtimeProtocol.append(audio))
                } catch {
                    break
                }
            }
        }
        let closedMeanwhile = link.withLock { link in
            link.tasks = [reader, writer]
            return link.closed
        }
        if closedMeanwhile { await close() }
    }

    public func listen(_ mulaw: [UInt8]) {
        audioInput.yield(mulaw)
    }

    public func truncate(itemID: String, heardMilliseconds: Int) async {
        guard let socket = link.withLock({ $0.socket }) else { return }
        try? await socket.send(RealtimeProtocol.text(RealtimeProtocol.Truncate(item_id: itemID, audio_end_ms: heardMilliseconds)))
    }

    public func close() async {
        let (socket, tasks) = link.withLock { link in
            link.closed = true
            defer { link.tasks = [] }
            return (link.socket, link.tasks)
        }
        audioInput.finish()
        await socket?.close()
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        eventInput.finish()
    }

    private static func handle(_ text: String, _ events: AsyncStream<VoiceAgentEvent>.Continuation, _ logger: Logger) {
        guard let event = try? JSONDecoder().decode(RealtimeProtocol.ServerEvent.self, from: Data(text.utf8)) else {
            logger.debug("an unreadable Realtime event was ignored")
            return
        }
        let result: AsyncStream<VoiceAgentEvent>.Continuation.YieldResult
        switch event.type {
        case let type where RealtimeProtocol.audioDeltaTypes.contains(type):
            guard let delta = event.delta, let audio = Data(base64Encoded: delta) else { return }
            result = events.yield(.audio(itemID: event.item_id ?? "", mulaw: [UInt8](audio)))
        case "input_audio_buffer.speech_started":
            result = events.yield(.speechStarted)
        case "response.done":
            result = events.yield(.replyDone)
        case "error":
            let failure = event.error
            result = events.yield(.problem("Realtime error \(failure?.code ?? failure?.type ?? "?"): \(failure?.message ?? "")"))
        default:
            return  // session.created, transcripts, rate limits…: nothing the call needs
        }
        if case .dropped = result { logger.warning("a Realtime event was dropped: the call fell behind") }
    }
}
