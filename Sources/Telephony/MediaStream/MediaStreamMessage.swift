import Foundation

/// What Twilio sends on a Media Stream's WebSocket (one JSON text frame each), as
/// twilio.com/docs/voice/media-streams/websocket-messages gives them. Counters
/// (`sequenceNumber`, `chunk`, `timestamp`) are strings on the wire. An event this code does
/// not know decodes as `.unknown(name)`, so a new Twilio event never ends a call.
public enum MediaStreamInbound: Sendable, Hashable {
    case connected(protocol: String?, version: String?)
    case start(MediaStreamStart)
    case media(streamSid: String?, track: String?, chunk: Int?, timestamp: Int?, payload: [UInt8])
    /// Twilio echoes a mark we sent once the audio sent before it has played.
    case mark(streamSid: String?, name: String)
    case dtmf(streamSid: String?, digit: String)
    case stop(streamSid: String?, callSid: String?)
    case unknown(String)

    /// Decodes one text frame; nil when it is not a JSON object with an `event`.
    public static func decode(_ text: String) -> MediaStreamInbound? {
        guard let frame = try? JSONDecoder().decode(Frame.self, from: Data(text.utf8)) else { return nil }
        switch frame.event {
        case "connected":
            return .connected(protocol: frame.protocol, version: frame.version)
        case "start":
            guard let start = frame.start else { return nil }
            return .start(MediaStreamStart(
                streamSid: frame.streamSid ?? start.streamSid ?? "", callSid: start.callSid ?? "",
                accountSid: start.accountSid ?? "", tracks: start.tracks ?? [],
                encoding: start.mediaFormat?.encoding ?? "audio/x-mulaw",
                sampleRate: start.mediaFormat?.sampleRate ?? 8000, channels: start.mediaFormat?.channels ?? 1,
                customParameters: start.customParameters ?? [:]))
        case "media":
            guard let media = frame.media, let payload = Data(base64Encoded: media.payload) else { return nil }
            return .media(streamSid: frame.streamSid, track: media.track, chunk: media.chunk.flatMap { Int($0) },
                          timestamp: media.timestamp.flatMap { Int($0) }, payload: [UInt8](payload))
        case "mark":
            return .mark(streamSid: frame.streamSid, name: frame.mark?.name ?? "")
        case "dtmf":
            return .dtmf(streamSid: frame.streamSid, digit: frame.dtmf?.digit ?? "")
        case "stop":
            return .stop(streamSid: frame.streamSid, callSid: frame.stop?.callSid)
        default:
            return .unknown(frame.event)
        }
    }

    /// The wire shape, every field optional but `event`, so a frame missing a field we do not
    /// need still decodes.
    struct Frame: Codable {
        struct Start: Codable {
            struct Format: Codable {
                var encoding: String?
                var sampleRate: Int?
                var channels: Int?
            }
            var streamSid: String?
            var accountSid: String?
            var callSid: String?
            var tracks: [String]?
            var customParameters: [String: String]?
            var mediaFormat: Format?
        }
        struct Media: Codable {
            var track: String?
            var chunk: String?
            var timestamp: String?
            var payload: String
        }
        struct Mark: Codable { var name: String }
        struct DTMF: Codable {
            var track: String?
            var digit: String
        }
        struct Stop: Codable {
            var accountSid: String?
            var callSid: String?
        }
        var event: String
        var sequenceNumber: String?
        var streamSid: String?
        var `protocol`: String?
        var version: String?
        var start: Start?
        var media: Media?
        var mark: Mark?
        var dtmf: DTMF?
        var stop: Stop?
    }
}

/// The `start` message: which call and stream, the audio's format, and the `<Parameter>`s
/// the TwiML gave the stream (the call's token).
public struct MediaStreamStart: Sendable, Hashable {
    public var streamSid: String
    /// Empty for a browser's call, which has no Twilio call behind it.
    public var callSid: String
    public var accountSid: String
    public var tracks: [String]
    public var encoding: String
    public var sampleRate: Int
    public var channels: Int
    public var customParameters: [String: String]

    public init(
        streamSid: String, callSid: String, accountSid: String = "", tracks: [String] = ["inbound"],
        encoding: String = "audio/x-mulaw", sampleRate: Int = 8000, channels: Int = 1, customParameters: [String: String] = [:]
    ) {
        self.streamSid = streamSid
        self.callSid = callSid
        self.accountSid = accountSid
        self.tracks = tracks
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channels = channels
        self.customParameters = customParameters
    }
}

/// What we send back on a bidirectional stream: audio to play, a mark to be echoed when the
/// audio before it has played, and `clear` to drop what Twilio has buffered but not played.
public enum MediaStreamOutbound: Sendable, Hashable {
    case media(streamSid: String, payload: [UInt8])
    case mark(streamSid: String, name: String)
    case clear(streamSid: String)

    /// The JSON text frame. Built by hand, not with JSONEncoder: 50 of these a second per call,
    /// and the only escaping needed is in the mark's name.
    public var text: String {
        switch self {
        case .media(let sid, let payload):
            #"{"event":"media","streamSid":"\#(Self.escaped(sid))","media":{"payload":"\#(Data(payload).base64EncodedString())"}}"#
        case .mark(let sid, let name):
            #"{"event":"mark","streamSid":"\#(Self.escaped(sid))","mark":{"name":"\#(Self.escaped(name))"}}"#
        case .clear(let sid):
            #"{"event":"clear","streamSid":"\#(Self.escaped(sid))"}"#
        }
    }

    /// Decodes what we send (the test client reads it).
    public static func decode(_ text: String) -> MediaStreamOutbound? {
        guard let frame = try? JSONDecoder().decode(MediaStreamInbound.Frame.self, from: Data(text.utf8)),
              let sid = frame.streamSid else { return nil }
        switch frame.event {
        case "media":
            guard let payload = frame.media.flatMap({ Data(base64Encoded: $0.payload) }) else { return nil }
            return .media(streamSid: sid, payload: [UInt8](payload))
        case "mark":
            return frame.mark.map { .mark(streamSid: sid, name: $0.name) }
        case "clear":
            return .clear(streamSid: sid)
        default:
            return nil
        }
    }

    private static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0 == "\"" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true }) else { return text }
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
