import ChatStories
import ChatWorkflows
import Foundation
import ObjectStorage
import Platform
import Vapor

extension Request {
    /// The chat stories use cases for the signed-in user.
    func chatConversations(_ config: ServerConfig) throws -> ChatConversations {
        var conversations = ChatConversations(database: appDatabase, artifacts: config.artifacts, ownerID: try requireUser().id)
        conversations.expectedVersion = StoryVersionTag.expected(ifMatch: headers[.ifMatch])
        return conversations
    }

    func chatExports(_ config: ServerConfig) throws -> ChatExports {
        ChatExports(database: appDatabase, artifacts: config.artifacts, ownerID: try requireUser().id)
    }

    /// Export settings from the query (`?format=&typing_speed=&keyboard=…`): what is left out
    /// takes its default; a value that is not offered answers 400 naming it.
    func chatSettingsQuery() throws -> ChatExportSettings {
        var settings = ChatExportSettings()
        settings.format = try enumQuery("format", default: settings.format)
        settings.typingSpeed = try enumQuery("typing_speed", default: settings.typingSpeed)
        settings.keyboard = try booleanQuery("keyboard", default: settings.keyboard)
        settings.typingIndicator = try booleanQuery("typing_indicator", default: settings.typingIndicator)
        settings.sounds = try booleanQuery("sounds", default: settings.sounds)
        settings.dark = try booleanQuery("dark", default: settings.dark)
        settings.watermark = try booleanQuery("watermark", default: settings.watermark)
        if let fps = query[String.self, at: "fps"] {
            guard let value = Int(fps), ChatExportSettings.frameRates.contains(value) else {
                throw APIError.badRequest("Query parameter 'fps' must be 30 or 60.", code: "invalid_query")
            }
            settings.fps = value
        }
        return settings
    }

    private func enumQuery<T: RawRepresentable & CaseIterable>(_ name: String, default fallback: T) throws -> T where T.RawValue == String {
        guard let raw = query[String.self, at: name] else { return fallback }
        guard let value = T(rawValue: raw) else {
            let options = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError.badRequest("Query parameter '\(name)' must be one of \(options).", code: "invalid_query")
        }
        return value
    }

    /// A chat JSON body, its dates in ISO 8601 as the API writes them (so a conversation read
    /// can be sent back).
    func decodeChatJSON<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        // A string that is no date is a broken rule (422), like the other message rules JSON
        // Schema cannot state, rather than malformed JSON.
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = ChatTimestamp.date(text) else {
                throw ServiceError(.invalid, code: "invalid_timestamp",
                                "\"\(text.prefix(40))\" is not a date and time; write message timestamps in ISO 8601, like 2026-11-26T21:04:00Z.")
            }
            return date
        }
        return try decodeJSON(T.self, decoder: decoder)
    }

    /// A chat JSON body that may be left out entirely (then `fallback`).
    func optionalChatJSON<T: Decodable>(_ type: T.Type, default fallback: T) throws -> T {
        guard let body = body.data, body.readableBytes > 0 else { return fallback }
        return try decodeChatJSON(T.self)
    }
}

extension Response {
    /// A conversation as JSON, its version as the `ETag` that `If-Match` names on edits.
    static func chat(_ conversation: ChatConversation, status: HTTPResponseStatus = .ok) throws -> Response {
        let response = try Response.json(conversation, status: status)
        if let version = conversation.version { response.headers.replaceOrAdd(name: .eTag, value: StoryVersionTag.tag(version)) }
        return response
    }

    /// A kept MP4, streamed with `Range`, to download (`attachment`) or to watch in place (`inline`).
    static func video(_ key: String, in store: any ArtifactStore, title: String, disposition: String, for request: Request) async throws -> Response {
        try await artifact(key, in: store, mediaType: HTTPMediaType(type: "video", subType: "mp4"),
                           filename: "\(PlaybackController.filename(title)).mp4", disposition: disposition, for: request)
    }
}

/// Message timestamps as the API writes them (ISO 8601, with or without fractions of a second).
enum ChatTimestamp {
    static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        return plain.date(from: text) ?? fractional.date(from: text)
    }
}
