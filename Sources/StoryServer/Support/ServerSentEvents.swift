import Foundation
import Vapor

/// An event a streamed reply sends: its name on the wire, and its JSON.
protocol ServerSentEvent: Encodable, Sendable {
    var name: String { get }
}

extension Response {
    /// `text/event-stream`: each event as `event: NAME` and its JSON. A client that hangs up
    /// stops the work (the stream's consumer goes away, which cancels its producer), noticed at
    /// the next write; `heartbeat` writes a comment that often, so a hang-up is noticed while
    /// the work has nothing to say (a model waiting its turn). `finish` runs once the reply ends.
    static func events<Event: ServerSentEvent>(
        _ stream: AsyncStream<Event>, heartbeat: Duration? = nil, after finish: @escaping @Sendable () -> Void = {}
    ) -> Response {
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "text", subType: "event-stream")
        headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
        headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let frames = AsyncStream<String> { continuation in
            let task = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await event in stream {
                            guard let data = try? encoder.encode(event) else { continue }
                            continuation.yield("event: \(event.name)\ndata: \(String(decoding: data, as: UTF8.self))\n\n")
                        }
                    }
                    if let heartbeat {
                        group.addTask {
                            while (try? await Task.sleep(for: heartbeat)) != nil { continuation.yield(": still working\n\n") }
                        }
                    }
                    // The events ended: the heartbeat stops with them.
                    await group.next()
                    group.cancelAll()
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        let body = Response.Body(managedAsyncStream: { writer in
            defer { finish() }
            for await frame in frames {
                try await writer.write(.buffer(ByteBuffer(string: frame)))
            }
        })
        return Response(status: .ok, headers: headers, body: body)
    }
}

extension Request {
    /// Whether the client asked for server-sent events (`Accept: text/event-stream`).
    var acceptsEvents: Bool {
        headers[.accept].contains { $0.lowercased().contains("text/event-stream") }
    }
}
