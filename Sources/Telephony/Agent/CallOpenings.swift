import Audio
import Calls
import Foundation
import VoiceChat

/// A call's first words, ready to play the moment the call is answered: each sentence with its
/// 8 kHz μ-law audio (one reply item of several chunks, so that the marks say how much the
/// caller heard, as for any reply).
public struct CallOpening: Sendable, Hashable, Codable {
    public struct Sentence: Sendable, Hashable, Codable {
        public var text: String
        public var mulaw: Data

        public init(text: String, mulaw: Data) {
            self.text = text
            self.mulaw = mulaw
        }
    }

    public var sentences: [Sentence]

    public init(sentences: [Sentence]) {
        self.sentences = sentences
    }

    public var text: String { sentences.map(\.text).joined(separator: " ") }

    /// `text` voiced sentence by sentence by `speak` (WAV bytes at any rate).
    public static func voicing(_ text: String, speak: @Sendable (String) async throws -> Data) async throws -> CallOpening {
        var sentences: [Sentence] = []
        for sentence in SentenceSplitter.sentences(of: text) {
            sentences.append(Sentence(text: sentence, mulaw: Data(MuLaw.encode(try WAV.decode(try await speak(sentence))))))
        }
        return CallOpening(sentences: sentences)
    }
}

/// The openings of calls, by scenario and voice: made once (their words written with the
/// scenario, or by the model in the background or on a first call, then voiced) and kept, so
/// that the local agent speaks within moments of the answer instead of waiting for the model
/// and the voice on every call.
///
/// Kept as files in `directory` (one per scenario fingerprint and voice; a few tens of kB
/// each) that a restart keeps, or in memory without one. Concurrent requests for the same
/// opening share the one being made.
public actor CallOpenings {
    public struct Key: Hashable, Sendable {
        /// `CallScenario.fingerprint`: the character and its written opening.
        public var scenario: String
        /// The local voice that speaks it.
        public var voice: String

        public init(scenario: CallScenario, voice: String) {
            self.scenario = scenario.fingerprint
            self.voice = voice
        }

        var fileName: String {
            let safeVoice = voice.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }
            return "\(scenario)-\(String(safeVoice)).json"
        }
    }

    private let directory: URL?
    private var kept: [Key: CallOpening] = [:]
    private var making: [Key: Task<CallOpening, any Error>] = [:]

    public init(directory: URL?) {
        self.directory = directory
    }

    /// The opening kept for `key`, if any; never makes one.
    public func ready(_ key: Key) -> CallOpening? {
        if let opening = kept[key] { return opening }
        guard let directory, let data = try? Data(contentsOf: directory.appendingPathComponent(key.fileName)) else { return nil }
        return try? JSONDecoder().decode(CallOpening.self, from: data)
    }

    /// Keeps `opening` for `key` (the words the model wrote live on a first call, voiced).
    public func keep(_ opening: CallOpening, for key: Key) {
        guard !opening.sentences.isEmpty else { return }
        guard let directory else {
            kept[key] = opening
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try JSONEncoder().encode(opening).write(to: directory.appendingPathComponent(key.fileName), options: .atomic)
        } catch {
            // Not kept: the next call makes it again.
        }
    }

    /// What a call of `scenario` opens with: the opening kept for `key`, else the scenario's
    /// written words voiced now by `speak` (or by the preparation already under way); nil when
    /// the model has yet to write them (the agent then writes them live, and keeps them).
    public func forCall(_ key: Key, of scenario: CallScenario, speak: @escaping @Sendable (String) async throws -> Data) async -> CallOpening? {
        if let opening = ready(key) { return opening }
        // Words the model is still writing (in the background) are not waited for: the agent
        // writes them live, which the model answers first.
        guard let words = scenario.opening else { return nil }
        return try? await opening(key, write: { words }, speak: speak)
    }

    /// The opening for `key`: the one kept, the one being made (waited for), or a new one,
    /// written by `write` and voiced by `speak`, then kept.
    public func opening(
        _ key: Key, write: @escaping @Sendable () async throws -> String, speak: @escaping @Sendable (String) async throws -> Data
    ) async throws -> CallOpening {
        if let opening = ready(key) { return opening }
        if let task = making[key] { return try await task.value }
        // Not cancelled with the caller that asked first: others may be waiting on it, and a
        // finished opening serves the next call.
        let task = Task.detached { try await CallOpening.voicing(try await write(), speak: speak) }
        making[key] = task
        defer { making[key] = nil }
        let opening = try await task.value
        keep(opening, for: key)
        return opening
    }
}
