import Foundation
import Logging
import Synchronization

/// One call's media stream, bridged to a voice agent.
///
/// Reads the socket until `start`, asks `authorize` for a grant (none: the socket is closed and
/// no agent is opened), starts the agent, then runs until either side closes:
/// - the caller's audio goes to the agent; echoed marks tell `Playback` what was heard;
/// - the agent's audio comes back as 20 ms `media` frames, each chunk followed by a `mark`;
/// - when the agent hears the caller start speaking over a reply, that reply is cut: `clear`
///   to Twilio, and the agent is told how much was heard;
/// - at the grant's limit (from `start`; a browser's from the agent's first audio)
///   `limitReached` runs once and the session ends;
/// - a caller that sends no frame for `idleLimit` is gone: Twilio and the web app send 50 a
///   second while the call lasts, silence included.
/// Whatever ends it (`stop`, the socket closing, the agent going, the limit), the agent is
/// closed, the socket is closed, the session leaves the registry and `ended` runs once.
///
/// The end has one path: every cause closes the Twilio socket, whose frame stream then
/// finishes, which ends the read loop. The first cause recorded is the reason.
public struct MediaStreamSession: Sendable {
    public enum Event: Sendable, Hashable {
        case started(streamSid: String, callID: String)
        case refused(streamSid: String)
        case markPlayed(name: String)
        case interrupted(itemID: String, heardMilliseconds: Int)
        case ended(MediaStreamSummary)
    }

    let socket: TextSocket
    let hooks: MediaStreamHooks
    let registry: MediaStreamRegistry
    let observe: @Sendable (Event) -> Void
    let logger: Logger
    let startTimeout: Duration
    let idleLimit: Duration

    /// - Parameters:
    ///   - startTimeout: a socket that has not sent `start` by then is closed, so an
    ///     unauthenticated connection cannot hold a session open.
    ///   - idleLimit: a call whose caller sends nothing for this long is ended.
    public init(
        socket: TextSocket, hooks: MediaStreamHooks, registry: MediaStreamRegistry,
        logger: Logger = Logger(label: "storyvoice.media-stream"), startTimeout: Duration = .seconds(15),
        idleLimit: Duration = .seconds(30), observe: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.socket = socket
        self.startTimeout = startTimeout
        self.idleLimit = idleLimit
        self.hooks = hooks
        self.registry = registry
        self.logger = logger
        self.observe = observe
    }

    /// Runs the call to its end. Returns the summary (nil when the stream was refused).
    @discardableResult
    public func run() async -> MediaStreamSummary? {
        var frames = socket.frames.makeAsyncIterator()
        var start: MediaStreamStart?
        let socket = socket, timeout = startTimeout
        let watch = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            await socket.close(.refused)
        }
        while start == nil, let text = await frames.next() {
            if case .start(let message) = MediaStreamInbound.decode(text) { start = message }
        }
        watch.cancel()
        guard let start else {
            await socket.close()
            return nil
        }
        let startedAt = ContinuousClock.now
        guard let grant = await hooks.authorize(start) else {
            logger.notice("media stream refused: no grant", metadata: ["stream": "\(start.streamSid)"])
            observe(.refused(streamSid: start.streamSid))
            await socket.close(.refused)
            return nil
        }
        let log = {
            var log = logger
            log[metadataKey: "call"] = "\(grant.callID)"
            log[metadataKey: "stream"] = "\(start.streamSid)"
            return log
        }()
        let ending = Ending()
        let playback = Playback()

        var made: (any VoiceAgent)?
        do {
            made = try await hooks.makeAgent(grant)
            try await made?.start()
        } catch {
            log.error("the voice agent could not start: \(error)")
            await made?.close()
            await socket.close(.failed)
            return await finish(grant, start, startedAt, .agentFailed, playback)
        }
        guard let agent = made else { return nil }
        await registry.add(.init(streamSid: start.streamSid, callSid: start.callSid, callID: grant.callID, close: {
            ending.record(.socketClosed)
            await socket.close()
        }))
        observe(.started(streamSid: start.streamSid, callID: grant.callID))
        log.info("call connected", metadata: ["scenario": "\(grant.scenario.id)", "limit": "\(grant.durationLimit)"])

        await withTaskGroup(of: Void.self) { group in
            let (firstAudio, firstAudioHeard) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            group.addTask { await speak(agent, playback, streamSid: start.streamSid, ending, log, firstAudio: firstAudioHeard) }
            group.addTask { await enforceLimit(grant, start, from: startedAt, ending, firstAudio: firstAudio) }
            group.addTask { await endWhenIdle(since: .now, ending, log) }
            while let text = await frames.next() {
                switch MediaStreamInbound.decode(text) {
                case .media(_, let track, _, _, let payload):
                    if track == nil || track == "inbound" || track == "inbound_track" { agent.listen(payload) }
                case .mark(_, let name):
                    if playback.played(markNamed: name) != nil { observe(.markPlayed(name: name)) }
                case .stop:
                    ending.record(.stopped)
                    await socket.close()
                case .start, .connected, .dtmf, .unknown:
                    break  // a second start, keys pressed, events we do not know: nothing to do
                case nil:
                    log.debug("an unreadable media-stream frame was ignored")
                }
            }
            ending.record(.socketClosed)
            group.cancelAll()
            await agent.close()
        }
        if socket.dropped > 0 { log.warning("\(socket.dropped) media-stream frames were dropped: the session fell behind") }
        return await finish(grant, start, startedAt, ending.reason ?? .socketClosed, playback)
    }

    /// Plays the agent's replies to the caller, and cuts one when the caller speaks over it.
    /// Ends the call when the agent goes.
    private func speak(
        _ agent: any VoiceAgent, _ playback: Playback, streamSid: String, _ ending: Ending, _ log: Logger,
        firstAudio: AsyncStream<Void>.Continuation
    ) async {
        do {
            for await event in agent.events {
                switch event {
                case .audio(let itemID, let audio):
                    for frame in playback.frames(itemID: itemID, audio: audio, streamSid: streamSid) { try await socket.send(frame.text) }
                    firstAudio.yield()
                    firstAudio.finish()
                case .replyDone:
                    for frame in playback.finishReply(streamSid: streamSid) { try await socket.send(frame.text) }
                case .speechStarted:
                    guard let cut = playback.interrupt() else { continue }
                    try await socket.send(MediaStreamOutbound.clear(streamSid: streamSid).text)
                    await agent.truncate(itemID: cut.itemID, heardMilliseconds: cut.heardMilliseconds)
                    observe(.interrupted(itemID: cut.itemID, heardMilliseconds: cut.heardMilliseconds))
                case .problem(let message):
                    log.warning("voice agent: \(message)")
                }
            }
        } catch {
            // The socket to the caller failed: the read loop sees it close.
        }
        guard !Task.isCancelled else { return }
        ending.record(.agentClosed)
        await socket.close(.goingAway)
    }

    /// A browser's call waits this long at most for the agent's first words.
    static let firstAudioWait: Duration = .seconds(180)

    /// Ends the call at the grant's limit: a Twilio call counted from `start` (the phone was
    /// answered; Twilio bills from then) and ended through the `limitReached` hook (the REST
    /// API), a browser's counted from the agent's first audio (a slow local agent's silence is
    /// not the caller's time) and ended by closing its socket.
    private func enforceLimit(
        _ grant: MediaStreamGrant, _ start: MediaStreamStart, from startedAt: ContinuousClock.Instant, _ ending: Ending,
        firstAudio: AsyncStream<Void>
    ) async {
        if start.callSid.isEmpty {
            let heard = await Self.arrives(firstAudio, within: Self.firstAudioWait)
            guard !Task.isCancelled else { return }
            // An agent that never spoke ends the call now.
            if heard, (try? await Task.sleep(for: .seconds(grant.durationLimit))) == nil { return }
        } else if (try? await Task.sleep(until: startedAt + .seconds(grant.durationLimit), clock: .continuous)) == nil {
            return
        }
        guard ending.record(.limitReached) else { return }
        if !start.callSid.isEmpty { await hooks.limitReached(grant, start.callSid) }
        await socket.close()
    }

    /// Ends the call once the caller has sent nothing for `idleLimit` (counted from `since`,
    /// when the call was connected, at the earliest: the agent may take a while to start).
    private func endWhenIdle(since connected: ContinuousClock.Instant, _ ending: Ending, _ log: Logger) async {
        func last() -> ContinuousClock.Instant { max(connected, socket.lastReceived) }
        while (try? await Task.sleep(until: last() + idleLimit, clock: .continuous)) != nil {
            guard ContinuousClock.now - last() >= idleLimit else { continue }
            guard ending.record(.idle) else { return }
            log.notice("the caller sent nothing for \(idleLimit): the call is ended")
            await socket.close(.goingAway)
            return
        }
    }

    /// Whether `signal` yields before `wait` runs out.
    private static func arrives(_ signal: AsyncStream<Void>, within wait: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { race in
            race.addTask { for await _ in signal { return true }; return false }
            race.addTask {
                try? await Task.sleep(for: wait)
                return false
            }
            let first = await race.next() ?? false
            race.cancelAll()
            return first
        }
    }

    private func finish(
        _ grant: MediaStreamGrant, _ start: MediaStreamStart, _ startedAt: ContinuousClock.Instant,
        _ reason: MediaStreamSummary.Reason, _ playback: Playback
    ) async -> MediaStreamSummary {
        await registry.remove(streamSid: start.streamSid)
        let elapsed = ContinuousClock.now - startedAt
        let summary = MediaStreamSummary(
            callID: grant.callID, streamSid: start.streamSid, callSid: start.callSid,
            secondsConnected: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            reason: reason, framesSent: playback.framesSent, interruptions: playback.interruptions)
        logger.info("call ended", metadata: [
            "call": "\(grant.callID)", "stream": "\(start.streamSid)", "reason": "\(reason.rawValue)",
            "seconds": "\(String(format: "%.1f", summary.secondsConnected))",
        ])
        await hooks.ended(grant, summary)
        observe(.ended(summary))
        return summary
    }
}

/// The first reason a session ends wins.
final class Ending: Sendable {
    private let first = Mutex<MediaStreamSummary.Reason?>(nil)

    /// True when this was the first reason.
    @discardableResult
    func record(_ reason: MediaStreamSummary.Reason) -> Bool {
        first.withLock { current in
            guard current == nil else { return false }
            current = reason
            return true
        }
    }

    var reason: MediaStreamSummary.Reason? { first.withLock { $0 } }
}
