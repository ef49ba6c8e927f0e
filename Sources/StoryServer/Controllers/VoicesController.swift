import Foundation
import StoryModel
import Vapor

/// `/api/voices`: the installed voices, and a short preview of one.
struct VoicesController: Sendable {
    let config: ServerConfig

    func register(routes: any RoutesBuilder) {
        let voices = routes.grouped("voices")
        voices.get(use: list)
        voices.post("preview", use: preview)
    }

    struct VoiceList: Codable { var voices: [VoiceSummary] }

    struct PreviewRequest: Decodable {
        var voice: String
        var rate: Double?
        var pitch: Double?
        var volume: Double?
        var name: String?
    }

    @Sendable
    func list(_ request: Request) async throws -> Response {
        let user = try request.requireUser()
        let narration = try requireNarration(try await config.narration(for: user.id, database: request.db))
        return try Response.json(VoiceList(voices: await narration.voices()))
    }

    /// `audio/wav` of "Hello, I'm <name>." in the given voice and delivery.
    @Sendable
    func preview(_ request: Request) async throws -> Response {
        let user = try request.requireUser()
        let narration = try requireNarration(try await config.narration(for: user.id, database: request.db))
        let body = try request.decodeJSON(PreviewRequest.self)
        let assignment = try await VoiceChoice(voice: body.voice, rate: body.rate, pitch: body.pitch, volume: body.volume)
            .validated(against: narration)
        let name = (body.name?.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0.isEmpty ? nil : String($0.prefix(80)) } ?? "your narrator"
        let wav = try await narration.preview(assignment, text: "Hello, I'm \(name).")
        return Response.wav(wav)
    }
}

/// A voice and delivery as a client sends it, checked before use.
struct VoiceChoice: Decodable {
    var voice: String
    var rate: Double?
    var pitch: Double?
    var volume: Double?

    static let rates = 0.5...2.0
    static let pitches = -12.0...12.0
    static let volumes = 0.0...2.0

    func validated(against narration: any NarrationService) async throws -> VoiceAssignment {
        guard await narration.voices().contains(where: { $0.id == voice }) else {
            throw APIError(status: .unprocessableEntity, code: "unknown_voice",
                           message: "No installed voice is called '\(voice)'; pick one from GET /api/voices.")
        }
        let assignment = VoiceAssignment(voice: voice, rate: rate ?? 1, pitch: pitch ?? 0, volume: volume ?? 1)
        guard Self.rates.contains(assignment.rate) else {
            throw APIError(status: .unprocessableEntity, code: "out_of_range", message: "Rate must be between 0.5 and 2.")
        }
        guard Self.pitches.contains(assignment.pitch) else {
            throw APIError(status: .unprocessableEntity, code: "out_of_range", message: "Pitch must be between -12 and 12 semitones.")
        }
        guard Self.volumes.contains(assignment.volume) else {
            throw APIError(status: .unprocessableEntity, code: "out_of_range", message: "Volume must be between 0 and 2.")
        }
        return assignment
    }
}

func requireNarration(_ narration: (any NarrationService)?) throws -> any NarrationService {
    guard let narration else {
        throw APIError(status: .serviceUnavailable, code: "narration_unavailable",
                       message: "This server has no speech engines configured; start it with 'storyvoice serve'.")
    }
    return narration
}

extension Response {
    static func wav(_ data: Data) -> Response {
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "audio", subType: "wav")
        headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=3600")
        return Response(status: .ok, headers: headers, body: .init(data: data))
    }
}
