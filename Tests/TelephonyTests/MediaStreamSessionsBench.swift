import Calls
import Foundation
import Telephony
import TestSupport
import Testing

/// `bench/media-stream-sessions.sh`: N calls at once through the bridge against the loopback
/// Realtime server, each with the caller talking (a frame up every 20 ms) and the agent
/// answering (a 160-byte delta every 20 ms); prints the latency of each reply frame, from the
/// Realtime server's send to the Twilio-like client's receipt, as percentiles, beside a single
/// call measured in the same run. Off unless STORYVOICE_BENCH_MEDIA_STREAMS is set.
@Suite("Bench: concurrent media-stream sessions", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["STORYVOICE_BENCH_MEDIA_STREAMS"] != nil))
struct MediaStreamSessionsBench {
    static var counts: [Int] {
        (ProcessInfo.processInfo.environment["STORYVOICE_BENCH_SESSIONS"] ?? "1,25,50,100").split(separator: ",").compactMap { Int($0) }
    }
    static var seconds: Double { Double(ProcessInfo.processInfo.environment["STORYVOICE_BENCH_SECONDS"] ?? "10") ?? 10 }

    @Test("per-frame latency with N calls at once, against one call alone")
    func sessions() async throws {
        var reference: [Double] = []
        for count in [1] + Self.counts.filter { $0 > 1 } {
            let (latencies, lost) = try await Self.run(sessions: count, seconds: Self.seconds)
            if count == 1 { reference = latencies }
            print(Self.line(count, latencies, lost: lost, reference: reference))
        }
    }

    static func run(sessions: Int, seconds: Double) async throws -> (latencies: [Double], lost: Int) {
        let frames = Int(seconds * 50)
        let wire = RealtimeWire(answersResponseCreate: false)
        return try await wire.serve { wire in
            // Each call its own scenario, whose instructions name it, so the wire's connection
            // and the caller's client of one call are paired exactly.
            try await Bridge.bridged(to: wire, authorize: { start in
                guard let token = start.customParameters["call_token"], token.hasPrefix("bench-") else { return nil }
                var scenario = Fixtures.comedian
                scenario.instructions = token
                return MediaStreamGrant(callID: token, scenario: scenario, durationLimit: 3600)
            }) { bridge in
                var clients: [MediaStreamClient] = []
                for index in 0..<sessions {
                    clients.append(try await MediaStreamClient.connect(
                        to: bridge.url, options: .init(parameters: ["call_token": "bench-\(index)"], playbackSpeed: 1, unknownEventEvery: nil)))
                }
                guard await eventually(timeout: 120, { wire.connections.count == sessions && wire.connections.allSatisfy { $0.sessionUpdate != nil } }) else {
                    throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "only \(wire.connections.count) of \(sessions) sessions opened"])
                }
                let byToken = Dictionary(wire.connections.map { ($0.sessionUpdate?["instructions"]?.stringValue ?? "", $0) }, uniquingKeysWith: { a, _ in a })
                let connections = (0..<sessions).compactMap { byToken["bench-\($0)"] }
                let sent = LockedValue<[[ContinuousClock.Instant]]>(Array(repeating: [], count: sessions))
                let silence = [UInt8](repeating: 0xFF, count: 160)
                await withTaskGroup(of: Void.self) { group in
                    for (index, connection) in connections.enumerated() {
                        group.addTask {
                            let start = ContinuousClock.now
                            for frame in 0..<frames {
                                let now = ContinuousClock.now
                                sent.withLock { $0[index].append(now) }
                                await connection.sendAudio(itemID: "item_bench", silence)
                                try? await Task.sleep(until: start + .milliseconds(20 * (frame + 1)), clock: .continuous)
                            }
                        }
                    }
                    for client in clients {
                        group.addTask { try? await client.sendAudio([UInt8](repeating: 0x7F, count: 160 * frames), paced: true) }
                    }
                }
                let callers = clients
                _ = await eventually(timeout: 30) { callers.allSatisfy { $0.frames.count >= frames } }
                var latencies: [Double] = []
                var lost = 0
                let sends = sent.withLock { $0 }
                for (index, client) in clients.enumerated() {
                    let received = client.frames.map(\.at)
                    lost += max(0, frames - received.count)
                    for (send, receipt) in zip(sends[index], received) { latencies.append(Self.milliseconds(receipt - send)) }
                }
                for client in clients { await client.stop() }
                _ = await eventually(timeout: 60) { bridge.log.endedSummaries.count == sessions }
                return (latencies, lost)
            }
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func line(_ sessions: Int, _ latencies: [Double], lost: Int, reference: [Double]) -> String {
        func percentile(_ values: [Double], _ p: Double) -> Double {
            guard !values.isEmpty else { return .nan }
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
        }
        let f = { (value: Double) in String(format: "%.2f", value) }
        let p50 = percentile(latencies, 0.5), p95 = percentile(latencies, 0.95), p99 = percentile(latencies, 0.99)
        return "media-stream bench: \(sessions) session(s), \(latencies.count) frames, lost \(lost): p50 \(f(p50)) ms, p95 \(f(p95)) ms, p99 \(f(p99)) ms, max \(f(latencies.max() ?? .nan)) ms"
            + " (one session alone: p50 \(f(percentile(reference, 0.5))), p95 \(f(percentile(reference, 0.95))), p99 \(f(percentile(reference, 0.99))))"
    }
}
