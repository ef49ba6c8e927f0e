import Foundation
import LanguageModels
import StoryModel
import StoryWorkflows
import Vapor
import VoiceChat
import VoiceWorkflows

/// `/api/voice/…`: spoken conversation. `turn` runs a whole turn (recording or text in, events
/// out as server-sent events); `transcribe`, `reply` and `speak` are its stages alone, for a
/// client that retries one stage, or does one itself.
struct VoiceController: Sendable {
    let config: ServerConfig

    func register(routes: any RoutesBuilder, uploads: any RoutesBuilder) {
        let voice = routes.grouped("voice")
        voice.post("reply", use: reply)
        voice.post("speak", use: speak)
        let conversations = voice.grouped("conversations")
        conversations.get(use: listConversations)
        conversations.get(":id", use: conversation)
        conversations.delete(":id", use: deleteConversation)
        conversations.post(":id", "heard", use: heard)
        voice.post("listen", use: startListening)
        voice.delete("listen", ":id", use: stopListening)
        let audio = uploads.grouped("voice")
        audio.on(.POST, "listen", ":id", body: .collect(maxSize: ByteCount(value: Self.maxPieceBytes)), use: hearPiece)
        audio.on(.POST, "transcribe", body: .collect(maxSize: ByteCount(value: config.maxUploadBytes)), use: transcribe)
        audio.on(.POST, "turn", body: .collect(maxSize: ByteCount(value: config.maxUploadBytes)), use: turn)
    }

    /// A turn's choices, as JSON or as the fields of a multipart form beside the recording.
    /// An empty model or voice is no choice (a form's empty field).
    struct TurnRequest: Decodable {
        var text: String?
        var history: [ChatTurn]?
        var model: String?
        var voice: String?
        /// The conversation to keep the turn in (and take the history from), or `new`.
        var conversationID: String?
        /// Who hears the recording: `local` (default), `openai` or `openai:MODEL`.
        var transcriber: String?
        /// A listening session (`POST /api/voice/listen`) whose speech is the question.
        var listeningID: String?

        enum CodingKeys: String, CodingKey {
            case text, history, model, voice, transcriber
            case conversationID = "conversation_id"
            case listeningID = "listening_id"
        }

        var chosenConversation: String? { conversationID.flatMap { $0.isEmpty ? nil : $0 } }
        var chosenModel: String? { model.flatMap { $0.isEmpty ? nil : $0 } }
        var chosenVoice: String? { voice.flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// One request speaks a sentence or two: the slowest local voices take seconds for this.
    static let maxSpokenCharacters = 300

    struct SpeakRequest: Decodable {
        var text: String
        var voice: String?
    }

    struct Transcript: Content { var text: String }

    func chats(_ request: Request) throws -> VoiceChats {
        VoiceChats(user: try request.user(config), transcriber: config.transcriber)
    }

    @Sendable
    func transcribe(_ request: Request) async throws -> Response {
        let recording = try Recording(request)
        defer { recording.remove() }
        guard let file = recording.file else {
            throw APIError.badRequest("Send the recording as a multipart form with an 'audio' field, or as the body with its audio Content-Type.", code: "invalid_body")
        }
        let text = try await chats(request).transcribe(file, with: recording.choices?.transcriber ?? request.query[String.self, at: "transcriber"])
        return try Response.json(Transcript(text: text))
    }

    /// A piece of speech is at most ~30 s of 16 kHz audio (pages send a few hundred ms at a time).
    static let maxPieceBytes = 1 << 20

    struct ListenRequest: Decodable {
        var sampleRate: Int?
        var transcriber: String?
        /// The turn's conversation and model, when known: the model on this machine reads the
        /// conversation while the person speaks.
        var conversationID: String?
        var model: String?

        enum CodingKeys: String, CodingKey {
            case sampleRate = "sample_rate"
            case transcriber, model
            case conversationID = "conversation_id"
        }
    }

    struct ListeningStarted: Content {
        var id: UUID
        var sample_rate: Int
    }

    struct ListeningHeard: Content {
        var text: String
        var seconds: Double
        var speech_seconds: Double
        var speaking: Bool
    }

    /// Starts hearing speech sent in pieces while it is spoken; a turn with `listening_id` then
    /// waits only for the last piece to be transcribed.
    @Sendable
    func startListening(_ request: Request) async throws -> Response {
        let body = request.body.data?.readableBytes ?? 0 > 0 ? try request.decodeJSON(ListenRequest.self) : ListenRequest()
        let user = try request.user(config)
        let sampleRate = body.sampleRate ?? 16_000
        let listening = try await VoiceChats(user: user, transcriber: config.transcriber).listening(sampleRate: sampleRate, with: body.transcriber)
        let id = try await config.listenings.open(listening, owner: user.ownerID)
        if (body.model ?? "").isEmpty || body.model == "local" {
            let chats = VoiceChats(user: user, transcriber: config.transcriber), reference = body.conversationID
            Task { try? await chats.prepare(conversation: reference) }
        }
        return try Response.json(ListeningStarted(id: id, sample_rate: sampleRate), status: .created)
    }

    /// The next piece: mono 16-bit little-endian samples at the session's rate, as the body.
    @Sendable
    func hearPiece(_ request: Request) async throws -> Response {
        let id = try request.uuidParameter("id", what: "listening session")
        let user = try request.user(config)
        let listening = try await config.listenings.session(id, owner: user.ownerID)
        let bytes = request.body.data.map { Array($0.readableBytesView) } ?? []
        guard bytes.count.isMultiple(of: 2) else {
            throw APIError.badRequest("Send whole 16-bit samples (an even number of bytes), little-endian, mono.", code: "invalid_body")
        }
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map(Int16.init(littleEndian:))
        do {
            let heard = try await listening.add(samples)
            return try Response.json(ListeningHeard(text: heard.text, seconds: heard.seconds, speech_seconds: heard.speechSeconds, speaking: heard.speaking))
        } catch let error as Listening.TooLong {
            await config.listenings.close(id, owner: user.ownerID)
            throw APIError(status: .payloadTooLarge, code: "recording_too_long", message: error.description)
        }
    }

    @Sendable
    func stopListening(_ request: Request) async throws -> Response {
        let id = try request.uuidParameter("id", what: "listening session")
        await config.listenings.close(id, owner: try request.user(config).ownerID)
        return Response(status: .noContent)
    }

    @Sendable
    func reply(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(TurnRequest.self)
        let text = try Self.question(body.text)
        let pipeline = try await chats(request).pipeline(model: body.chosenModel, voice: nil)
        return Self.events(pipeline.run(.text(text), history: body.history ?? [], speaking: false))
    }

    @Sendable
    func speak(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(SpeakRequest.self)
        let text = try Self.question(body.text, what: "text to speak")
        guard text.unicodeScalars.count <= Self.maxSpokenCharacters else {
            throw APIError(status: .unprocessableEntity, code: "text_too_long", message: "Speak at most \(Self.maxSpokenCharacters) characters at once (a sentence or two).")
        }
        return Response.wav(try await chats(request).speak(text, voice: body.voice.flatMap { $0.isEmpty ? nil : $0 }))
    }

    /// A recording (multipart `audio`, or the body itself) or `text` in; the turn's events out.
    @Sendable
    func turn(_ request: Request) async throws -> Response {
        let recording = try Recording(request)
        // A bare recording (an audio body) takes its choices from the query; a JSON body is them.
        let choices = try recording.choices ?? (recording.file == nil
            ? request.decodeJSON(TurnRequest.self)
            : TurnRequest(model: request.query[String.self, at: "model"], voice: request.query[String.self, at: "voice"],
                          conversationID: request.query[String.self, at: "conversation_id"],
                          transcriber: request.query[String.self, at: "transcriber"],
                          listeningID: request.query[String.self, at: "listening_id"]))
        do {
            let input: VoicePipeline.Input
            var question: String?
            if let file = recording.file {
                input = .audio(file)
            } else if let listening = choices.listeningID.flatMap({ $0.isEmpty ? nil : $0 }) {
                guard let id = UUID(uuidString: listening) else {
                    throw APIError(status: .notFound, code: "listening_not_found", message: "No such listening session.")
                }
                input = .listened(try await config.listenings.take(id, owner: try request.user(config).ownerID))
            } else {
                question = try Self.question(choices.text)
                input = .text(question ?? "")
            }
            // Another user's conversation is refused before anything else is looked at.
            let conversations = VoiceConversations(user: try request.user(config))
            let reference = choices.chosenConversation
            let found = try await conversations.find(reference)
            let pipeline = try await chats(request).pipeline(model: choices.chosenModel, voice: choices.chosenVoice, transcriber: choices.transcriber)
            guard reference != nil else {
                return Self.events(pipeline.run(input, history: choices.history ?? []), after: recording.remove)
            }
            // A kept conversation supplies the history; the client's is not needed.
            let (conversation, history) = try await conversations.open(found, question: question)
            let events = conversations.keeping(pipeline.run(input, history: history), in: conversation, question: question)
            return Self.events(events, after: recording.remove)
        } catch {
            recording.remove()
            throw error
        }
    }

    struct ConversationList: Content { var conversations: [VoiceConversation] }
    struct HeardRequest: Decodable { var text: String }

    @Sendable
    func listConversations(_ request: Request) async throws -> Response {
        try Response.json(ConversationList(conversations: try await VoiceConversations(user: try request.user(config)).list()))
    }

    @Sendable
    func conversation(_ request: Request) async throws -> Response {
        let id = try request.uuidParameter("id", what: "conversation")
        return try Response.json(try await VoiceConversations(user: try request.user(config)).conversation(id))
    }

    @Sendable
    func deleteConversation(_ request: Request) async throws -> Response {
        let id = try request.uuidParameter("id", what: "conversation")
        try await VoiceConversations(user: try request.user(config)).delete(id)
        return Response(status: .noContent)
    }

    /// The user spoke over the last reply: the conversation keeps what they heard of it.
    @Sendable
    func heard(_ request: Request) async throws -> Response {
        let id = try request.uuidParameter("id", what: "conversation")
        let body = try request.decodeJSON(HeardRequest.self)
        let conversations = VoiceConversations(user: try request.user(config))
        try await conversations.markHeard(body.text, in: id)
        return try Response.json(try await conversations.conversation(id))
    }

    static func question(_ text: String?, what: String = "question") throws -> String {
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !trimmed.isEmpty else {
            throw APIError(status: .unprocessableEntity, code: "empty_text", message: "Send a \(what) (text), or a recording.")
        }
        guard trimmed.unicodeScalars.count <= 4000 else {
            throw APIError(status: .unprocessableEntity, code: "text_too_long", message: "The \(what) is over 4,000 characters.")
        }
        return trimmed
    }

    /// `text/event-stream`: the turn's events. A client that hangs up stops the turn.
    static func events(_ stream: AsyncStream<VoiceTurnEvent>, after finish: @escaping @Sendable () -> Void = {}) -> Response {
        Response.events(stream, after: finish)
    }
}

extension VoiceTurnEvent: ServerSentEvent {}

/// The recording a request carries, written to a temporary file for ffmpeg, and the turn's
/// choices when they came as form fields beside it.
struct Recording: Sendable {
    var file: URL?
    var choices: VoiceController.TurnRequest?

    init(_ request: Request) throws {
        let type = request.headers.contentType
        let bytes = request.body.data.map { Array($0.readableBytesView) } ?? []
        if type?.type == "multipart" {
            guard let boundary = MultipartForm.boundary(in: type) else {
                throw APIError.badRequest("The Content-Type names no usable multipart boundary.", code: "invalid_body")
            }
            let form: MultipartForm
            do {
                form = try MultipartForm(bytes: bytes, boundary: boundary)
            } catch let failure as MultipartForm.Failure {
                throw APIError.badRequest("The form could not be read: \(failure.description)", code: "invalid_body")
            }
            let history: [ChatTurn]? = try (form.part(named: "history")?.text).flatMap { text -> [ChatTurn]? in
                guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
                do {
                    return try JSONDecoder().decode([ChatTurn].self, from: Data(text.utf8))
                } catch {
                    throw APIError(status: .unprocessableEntity, code: "invalid_history",
                                   message: "'history' must be a JSON array of {\"role\": \"user\"|\"assistant\", \"text\": …}.")
                }
            }
            choices = VoiceController.TurnRequest(
                text: form.part(named: "text")?.text, history: history, model: form.part(named: "model")?.text,
                voice: form.part(named: "voice")?.text, conversationID: form.part(named: "conversation_id")?.text,
                transcriber: form.part(named: "transcriber")?.text)
            file = try form.part(named: "audio").map { try Self.write($0.body) }
        } else if type?.type == "audio" || type?.type == "video" {
            file = try Self.write(bytes)
        }
    }

    private static func write(_ bytes: [UInt8]) throws -> URL {
        guard !bytes.isEmpty else {
            throw APIError(status: .unprocessableEntity, code: "recording_too_short", message: "The recording is empty: hold the button while you speak.")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-recording-\(UUID.random().uuidString)")
        try Data(bytes).write(to: file)
        return file
    }

    func remove() {
        if let file { try? FileManager.default.removeItem(at: file) }
    }
}
