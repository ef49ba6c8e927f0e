import Audio
import CloudSpeech
import Foundation
import LanguageModels
import Persistence
import Platform
import Speech
import StoryModel
import VendorHTTP
import VoiceChat

/// Voice chat for one signed-in user: the server's transcriber, the user's own model (or, with
/// none chosen, the one on this machine), and any voice the user can use. The server's
/// controllers and the tests call these; every refusal is a `ServiceError`.
public struct VoiceChats: Sendable {
    /// The user's context: their narration (voices their keys unlock) and model access.
    public var user: UserContext
    public var transcriber: (any SpeechTranscriber)?
    /// Recordings longer than this are refused.
    public var maxRecordingSeconds: Double

    public init(user: UserContext, transcriber: (any SpeechTranscriber)?, maxRecordingSeconds: Double = 120) {
        self.user = user
        self.transcriber = transcriber
        self.maxRecordingSeconds = maxRecordingSeconds
    }

    /// The words in a recording (any format ffmpeg reads), heard by `choice` (see `transcriber(_:)`).
    public func transcribe(_ file: URL, with choice: String? = nil) async throws -> String {
        try await transcribe(file, by: try await transcriber(choice))
    }

    func transcribe(_ file: URL, by transcriber: any SpeechTranscriber) async throws -> String {
        let audio: PCMAudio
        do {
            audio = try await AudioDecoder(maxSeconds: maxRecordingSeconds + 1).decode(file)
        } catch {
            throw ServiceError(.unsupportedMedia, code: "unreadable_audio", "The recording could not be read as audio: \(error)")
        }
        return try await transcribe(audio, by: transcriber)
    }

    /// The words in audio held in memory; "" when it holds no speech (silence and noise never
    /// reach the transcriber, which hears words in them).
    func transcribe(_ audio: PCMAudio, by transcriber: any SpeechTranscriber) async throws -> String {
        guard audio.durationSeconds >= 0.3 else {
            throw ServiceError(.invalid, code: "recording_too_short", "The recording is too short: hold the button while you speak.")
        }
        guard audio.durationSeconds <= maxRecordingSeconds else {
            throw ServiceError(.tooLarge, code: "recording_too_long",
                             "The recording is over \(Int(maxRecordingSeconds)) seconds: ask in shorter parts.")
        }
        let speech = SpeechDetector.speech(in: audio)
        guard !speech.samples.isEmpty else { return "" }
        return try await heard(speech, by: transcriber)
    }

    /// `transcriber`'s words for speech already found, its failures as `ServiceError`s.
    func heard(_ speech: PCMAudio, by transcriber: any SpeechTranscriber) async throws -> String {
        do {
            return TranscriptLoops.collapsed(try await transcriber.transcribe(speech))
        } catch let error as CloudSpeechError {
            throw ServiceError(error.kind == .missingKey ? .invalid : .unavailable, code: error.kind == .missingKey ? "missing_key" : "transcription_failed", error.description)
        }
    }

    /// A listening session: speech sent in pieces while it is spoken, heard as it comes by this
    /// server's transcriber (passes while the person speaks only with it: another would be paid
    /// for each), so that a turn given it (`VoicePipeline.Input.listened`) waits only for the
    /// last piece.
    public func listening(sampleRate: Int, with choice: String? = nil) async throws -> Listening {
        guard (8_000...48_000).contains(sampleRate) else {
            throw ServiceError(.invalid, code: "invalid_sample_rate", "The sample rate must be between 8000 and 48000 (16000 is best).")
        }
        let transcriber = try await self.transcriber(choice)
        let listening = Listening(sampleRate: sampleRate, maxSeconds: maxRecordingSeconds) { speech in
            try await self.heard(speech, by: transcriber)
        }
        let local = ["", "local"].contains(choice?.trimmingCharacters(in: .whitespaces) ?? "")
        if !local { await listening.setPassEvery(.infinity) }
        return listening
    }

    /// Who hears recordings: `nil` or `local`, this server's faster-whisper; `openai` or
    /// `openai:MODEL` (a model spec, as for language models), OpenAI's transcription API with
    /// the user's own key (from Settings), at the endpoint the user's OpenAI models use.
    public func transcriber(_ choice: String?) async throws -> any SpeechTranscriber {
        let choice = choice?.trimmingCharacters(in: .whitespaces) ?? ""
        if choice.isEmpty || choice == "local" { return try localTranscriber() }
        let spec = try? ModelAccess.spec(choice.contains(":") ? choice : "\(choice):\(OpenAITranscriber.defaultModel)")
        guard let spec, spec.provider == .openai else {
            throw ServiceError(.invalid, code: "invalid_transcriber", "The transcriber must be local, openai or openai:MODEL.")
        }
        let settings = SettingsRepository(database: user.database, box: user.models.box)
        guard let key = try await settings.key(for: .openai, userID: user.ownerID) else {
            throw ServiceError(.invalid, code: "missing_key", "Add your OpenAI key in Settings to have OpenAI transcribe, or use this machine's.")
        }
        let factory = user.models.factory
        return OpenAITranscriber(
            model: spec.model, baseURL: try factory.baseURL(for: spec),
            transport: VendorTransport(key: Secret(key), timeout: factory.timeout, retry: factory.retry,
                                       limiter: factory.limiter(for: .openai), httpClient: factory.httpClient))
    }

    private func localTranscriber() throws -> any SpeechTranscriber {
        guard let transcriber else {
            throw ServiceError(.unavailable, code: "no_transcriber",
                             "This server cannot transcribe speech: run scripts/setup (it installs faster-whisper), or type instead.")
        }
        return transcriber
    }

    /// `text` as WAV bytes in `voice` (default: the best installed voice).
    public func speak(_ text: String, voice: String? = nil) async throws -> Data {
        let narration = try await user.userNarration().narration
        let assignment = try await self.voice(voice, narration: narration)
        guard text.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else {
            throw ServiceError(.invalid, code: "nothing_to_say", "The text has no words to speak.")
        }
        do {
            return try await narration.preview(assignment, text: text)
        } catch {
            throw ServiceError(.unavailable, code: "speech_failed", "The voice \(assignment.voice) could not speak this text: \(error)")
        }
    }

    /// The turn pipeline with the user's choices: `model` (`openai:gpt-4o-mini`; nil: the model
    /// on this machine) and `voice` (nil: the best installed voice).
    /// `transcriber`: see `transcriber(_:)`.
    public func pipeline(model: String?, voice: String?, transcriber: String? = nil) async throws -> VoicePipeline {
        // A remote transcriber is resolved (its key looked up) once, now: without a key it is
        // refused before the recording is sent. The server's own is asked for only by audio.
        let remote: (any SpeechTranscriber)? = if let transcriber, !["", "local"].contains(transcriber) {
            try await self.transcriber(transcriber)
        } else { nil }
        let narration = try await user.userNarration().narration
        let assignment = try await self.voice(voice, narration: narration)
        let spec = try model.map(ModelAccess.spec) ?? .local
        let chosen: any LanguageModel
        do {
            chosen = try await user.models.model(spec, userID: user.ownerID, database: user.database)
        } catch let error as LanguageModelError {
            throw ServiceError(.invalid, code: error.kind == .missingKey ? "missing_key" : "invalid_model", error.description)
        }
        let transcribe: @Sendable (VoicePipeline.Recording) async throws -> String = { recording in
            let transcriber = try remote ?? self.localTranscriber()
            switch recording {
            case .file(let file): return try await self.transcribe(file, by: transcriber)
            case .samples(let audio): return try await self.transcribe(audio, by: transcriber)
            }
        }
        return VoicePipeline(
            transcribe: transcribe, model: CheckedModel(chosen, check: AnswerCheck(words: 1...400)),
            speak: { text in try await narration.preview(assignment, text: text) })
    }

    /// Has the model on this machine read `conversation` (an id, `new` or nil) while its next
    /// question is being spoken (`VoicePipeline.prepare`).
    public func prepare(conversation reference: String?) async throws {
        let conversations = VoiceConversations(user: user)
        let found = try await conversations.find(reference)
        let history = if let found { try await conversations.history(of: found) } else { [ChatTurn]() }
        try await pipeline(model: nil, voice: nil).prepare(history: history)
    }

    /// The voice asked for, or the best one installed that speaks faster than real time.
    func voice(_ id: String?, narration: any NarrationService) async throws -> VoiceAssignment {
        try await CastableVoices.live(id, narration: narration)
    }
}
