import ChatWorkflows
import Foundation
import Persistence
@testable import StoryServer
import Testing
import VaporTesting
import VendorHTTP

/// A three-message chat between "me" and Sam, as a client sends it.
let wrongNumberJSON = #"""
{"title":"Wrong number","characters":[{"id":"me","name":"Me","color":"#007AFF","is_me":true},{"id":"sam","name":"Sam","color":"#34C759","avatar_emoji":"🦊"}],
 "messages":[{"character_id":"sam","text":"hey, is this the lighthouse?"},{"character_id":"me","text":"No… it's me 😅"},{"character_id":"sam","text":"oh."}]}
"""#

/// The shortest video worth making: square, typed fast, no keyboard.
let quickExportJSON = #"{"format":"instagram","typing_speed":"fast","keyboard":false}"#

struct ChatExportReply: Decodable {
    struct Settings: Decodable { var watermark: Bool; var format: String }
    var id: UUID
    var status: String
    var error: String?
    var job_id: UUID?
    var settings: Settings
    var video_url: String?
    var share_url: String?
}

extension Application {
    /// Creates a chat story from `json` and returns its id.
    func createChat(_ token: String, json: String = wrongNumberJSON) async throws -> UUID {
        let reply = try await send(.POST, "/api/chat/conversations", token: token, json: json)
        #expect(reply.status == .created, "\(reply.body.string)")
        struct Created: Decodable { var id: UUID }
        return try reply.content.decode(Created.self).id
    }

    func startChatExport(_ conversation: UUID, token: String, json: String = quickExportJSON) async throws -> TestingHTTPResponse {
        try await send(.POST, "/api/chat/conversations/\(conversation)/exports", token: token, json: json)
    }

    /// Gives the account premium, as `storyvoice admin grant-premium` does.
    func grantPremium(_ email: String, expiresAt: Date? = nil) async throws {
        let user = try #require(try await UserRepository(database: appDatabase).find(email: email))
        try await EntitlementRepository(database: appDatabase).grant(Entitlement.premium, to: user.id, source: Entitlement.Source.admin, expiresAt: expiresAt)
    }

    /// Runs a worker until the export has finished, and returns it.
    func finishChatExport(_ reply: TestingHTTPResponse, token: String, config: ServerConfig) async throws -> ChatExportReply {
        let export = try reply.content.decode(ChatExportReply.self)
        let worker = startWorker(config)
        defer { worker.cancel() }
        _ = try await waitForJob(try #require(export.job_id), token: token)
        return try await send(.GET, "/api/chat/exports/\(export.id)", token: token).content.decode(ChatExportReply.self)
    }
}

/// What ffprobe reads in an MP4: each stream's type, and the video's size.
struct VideoProbe: Decodable {
    struct Stream: Decodable { var codec_type: String; var width: Int?; var height: Int? }
    var streams: [Stream]

    static func probe(_ data: Data) throws -> VideoProbe {
        try JSONDecoder().decode(VideoProbe.self, from: ffprobe(data, fileExtension: "mp4", ["-show_entries", "stream=codec_type,width,height"]))
    }
}

/// ffprobe's JSON about a file's bytes (`arguments` say what to show).
func ffprobe(_ data: Data, fileExtension: String, _ arguments: [String]) throws -> Data {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).\(fileExtension)")
    try data.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    process.arguments = ["-v", "error"] + arguments + ["-of", "json", file.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let bytes = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return bytes
}
