import Foundation

/// The stages of one spoken turn, each of which can fail and be retried alone.
public enum VoiceStage: String, Sendable, Codable, Hashable {
    /// Speech to text.
    case stt
    /// The language model's reply.
    case llm
    /// Text to speech.
    case tts
}

/// What one turn reports, in order: `run-start`, `stt-start`, `stt-end{text}`, `llm-delta{text}`…,
/// `llm-end{text}`, then for each sentence `tts-start{index,text}`, `tts-audio{index,audio}`,
/// `tts-end{index}`, and `run-end`; or `error{stage,message,retryable,audio?}` and `run-end`.
/// Speech of the first sentence starts while the model still writes (events interleave).
public enum VoiceTurnEvent: Sendable, Hashable {
    case runStart
    /// The turn is kept in this conversation (sent after `run-start` when it is).
    case conversation(id: String)
    case sttStart
    case sttEnd(text: String)
    case llmDelta(text: String)
    case llmEnd(text: String)
    case ttsStart(index: Int, text: String)
    /// One sentence's audio: a WAV file's bytes.
    case ttsAudio(index: Int, audio: Data)
    case ttsEnd(index: Int)
    /// `spoken`: the failure said briefly in the turn's voice (a WAV file's bytes), when that voice works.
    case error(stage: VoiceStage, message: String, retryable: Bool, spoken: Data? = nil)
    case runEnd

    /// The event's name on the wire (`llm-delta`).
    public var name: String {
        switch self {
        case .runStart: "run-start"
        case .conversation: "conversation"
        case .sttStart: "stt-start"
        case .sttEnd: "stt-end"
        case .llmDelta: "llm-delta"
        case .llmEnd: "llm-end"
        case .ttsStart: "tts-start"
        case .ttsAudio: "tts-audio"
        case .ttsEnd: "tts-end"
        case .error: "error"
        case .runEnd: "run-end"
        }
    }

}

extension VoiceTurnEvent: Encodable {
    private enum Key: String, CodingKey {
        case type, text, index, audio, format, stage, message, retryable, id
    }

    /// `{"type": "llm-delta", "text": "…"}`; audio as base64 WAV.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: .type)
        switch self {
        case .runStart, .sttStart, .runEnd:
            break
        case .conversation(let id):
            try container.encode(id, forKey: .id)
        case .sttEnd(let text), .llmDelta(let text), .llmEnd(let text):
            try container.encode(text, forKey: .text)
        case .ttsStart(let index, let text):
            try container.encode(index, forKey: .index)
            try container.encode(text, forKey: .text)
        case .ttsAudio(let index, let audio):
            try container.encode(index, forKey: .index)
            try container.encode(audio.base64EncodedString(), forKey: .audio)
            try container.encode("wav", forKey: .format)
        case .ttsEnd(let index):
            try container.encode(index, forKey: .index)
        case .error(let stage, let message, let retryable, let spoken):
            try container.encode(stage, forKey: .stage)
            try container.encode(message, forKey: .message)
            try container.encode(retryable, forKey: .retryable)
            if let spoken {
                try container.encode(spoken.base64EncodedString(), forKey: .audio)
                try container.encode("wav", forKey: .format)
            }
        }
    }
}
