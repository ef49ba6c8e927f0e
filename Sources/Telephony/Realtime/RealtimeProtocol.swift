import Foundation

/// The OpenAI Realtime API's events, as far as a phone call needs them.
///
/// We speak the **beta** interface (`OpenAI-Beta: realtime=v1`): its `session.update` takes
/// the flat `voice`, `instructions`, `temperature`, `input_audio_format`/`output_audio_format`
/// (`g711_ulaw`) and `turn_detection` a phone bridge needs; the GA interface moved audio
/// formats under `session.audio.{input,output}.format` (`audio/pcmu`) and has no
/// `temperature`. Reply audio is read under both names, the beta `response.audio.delta` and
/// the GA `response.output_audio.delta`, so a server that answers in GA events still plays.
public enum RealtimeProtocol {
    public static let betaHeader = (name: "OpenAI-Beta", value: "realtime=v1")
    /// The API accepts temperatures in this range only.
    public static let temperatureRange = 0.6...1.2
    public static let audioFormat = "g711_ulaw"
    public static let audioDeltaTypes: Set<String> = ["response.audio.delta", "response.output_audio.delta"]

    public struct SessionUpdate: Codable, Sendable, Equatable {
        public struct Session: Codable, Sendable, Equatable {
            public struct TurnDetection: Codable, Sendable, Equatable {
                public var type: String
            }
            public var modalities: [String]
            public var voice: String
            public var instructions: String
            public var temperature: Double
            public var input_audio_format: String
            public var output_audio_format: String
            public var turn_detection: TurnDetection
        }
        public var type = "session.update"
        public var session: Session

        public init(voice: String, instructions: String, temperature: Double) {
            session = Session(
                modalities: ["audio", "text"], voice: voice, instructions: instructions,
                temperature: min(max(temperature, temperatureRange.lowerBound), temperatureRange.upperBound),
                input_audio_format: audioFormat, output_audio_format: audioFormat,
                turn_detection: .init(type: "server_vad"))
        }
    }

    public struct Append: Codable, Sendable {
        public var type = "input_audio_buffer.append"
        /// Base64 μ-law.
        public var audio: String
    }

    public struct Truncate: Codable, Sendable, Equatable {
        public var type = "conversation.item.truncate"
        public var item_id: String
        public var content_index = 0
        public var audio_end_ms: Int
    }

    public struct ResponseCreate: Codable, Sendable {
        public var type = "response.create"
    }

    /// Any server event: the fields the bridge reads, all optional but `type`.
    public struct ServerEvent: Codable, Sendable {
        public struct Failure: Codable, Sendable {
            public var type: String?
            public var code: String?
            public var message: String?
        }
        public var type: String
        public var item_id: String?
        public var delta: String?
        public var error: Failure?
    }

    /// `input_audio_buffer.append`, built by hand: 50 a second per call, and base64 needs no
    /// escaping (the same as `Append`, which tests decode).
    static func append(_ mulaw: [UInt8]) -> String {
        #"{"type":"input_audio_buffer.append","audio":""# + Data(mulaw).base64EncodedString() + #""}"#
    }

    static func text(_ value: some Encodable) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
