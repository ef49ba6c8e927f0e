import Foundation
import Platform
import StoryModel
import StoryWorkflows
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
        let narration = try await request.stories(config).userNarration().narration
        return try Response.json(VoiceList(voices: await narration.voices()))
    }

    /// `audio/wav` of "Hello, I'm <name>." in the given voice and delivery.
    @Sendable
    func preview(_ request: Request) async throws -> Response {
        let narration = try await request.stories(config).userNarration().narration
        let body = try request.decodeJSON(PreviewRequest.self)
        let assignment = try await VoiceChoice(voice: body.voice, rate: body.rate, pitch: body.pitch, volume: body.volume)
            .validated(against: narration)
        let name = (body.name?.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0.isEmpty ? nil : String($0.prefix(80)) } ?? "your narrator"
        let wav = try await narration.preview(assignment, text: "Hello, I'm \(name).")
        return Response.wav(wav)
    }
}

extension Response {
    static func wav(_ data: Data) -> Response {
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "audio", subType: "wav")
        headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=3600")
        return Response(status: .ok, headers: headers, body: .init(data: data))
    }
}
