import Foundation
import NIOCore
@testable import StoryServer
import Testing
import VaporTesting

extension ContractWalk {
    /// Every chat stories operation, with the replies it documents: the part of the API walk
    /// (`OpenAPIShapeTests.walk`) for `/api/chat/…` and `/share/chat/…`. `token` is a free account.
    func walkChatStories(token: String, config: ServerConfig) async throws {
        try await call(.GET, "/api/chat/themes", token: token, expect: .ok)
        try await call(.GET, "/api/chat/themes", expect: .unauthorized)
        try await call(.GET, "/api/chat/entitlement", token: token, expect: .ok)
        try await call(.POST, "/api/chat/generate", token: token, json: #"{"prompt":"a ghost texts"}"#, expect: .forbidden)

        try await call(.POST, "/api/chat/conversations", token: token, expect: .created)
        let created = try await call(.POST, "/api/chat/conversations", token: token, json: wrongNumberJSON, expect: .created)
        let chat = try #require(created.json?["id"]?.stringValue)
        try await call(.POST, "/api/chat/conversations", token: token, json: #"{"messages":[{"character_id":"x","text":"hi"}]}"#, expect: .unprocessableEntity)
        try await call(.POST, "/api/chat/conversations", token: token, json: #"{"title":7}"#, expect: .badRequest)
        try await call(.GET, "/api/chat/conversations", token: token, expect: .ok)
        try await call(.GET, "/api/chat/conversations/\(chat)", token: token, expect: .ok)
        try await call(.GET, "/api/chat/conversations/\(UUID())", token: token, expect: .notFound)
        try await call(.PUT, "/api/chat/conversations/\(chat)", token: token, json: #"{"title":"The lighthouse","theme":"imessage"}"#, expect: .ok)
        try await call(.PUT, "/api/chat/conversations/\(chat)", token: token, json: #"{"characters":[]}"#, expect: .unprocessableEntity)
        try await call(.GET, "/api/chat/conversations/\(chat)/timeline?format=youtube&typing_speed=slow&dark=true&sounds=false", token: token, expect: .ok)
        try await call(.GET, "/api/chat/conversations/\(chat)/timeline?fps=24", token: token, expect: .badRequest)
        let copy = try await call(.POST, "/api/chat/conversations/\(chat)/duplicate", token: token, expect: .created)
        let copyID = try #require(copy.json?["id"]?.stringValue)
        try await call(.POST, "/api/chat/conversations/\(UUID())/duplicate", token: token, expect: .notFound)

        // Exports: refused by the rules and the plan, then one made, downloaded and shared.
        let empty = try #require(try await call(.POST, "/api/chat/conversations", token: token, json: #"{"title":"Nothing yet"}"#, expect: .created).json?["id"]?.stringValue)
        try await call(.POST, "/api/chat/conversations/\(empty)/exports", token: token, json: "{}", expect: .unprocessableEntity)
        try await call(.PUT, "/api/chat/conversations/\(copyID)", token: token, json: #"{"theme":"messenger"}"#, expect: .ok)
        try await call(.POST, "/api/chat/conversations/\(copyID)/exports", token: token, json: quickExportJSON, expect: .forbidden)
        try await call(.POST, "/api/chat/conversations/\(chat)/exports", token: token, json: #"{"format":"square"}"#, expect: .badRequest)
        try await call(.POST, "/api/chat/conversations/\(UUID())/exports", token: token, json: quickExportJSON, expect: .notFound)
        let queued = try await call(.POST, "/api/chat/conversations/\(chat)/exports", token: token, json: quickExportJSON, expect: .accepted)
        let pending = try await call(.POST, "/api/chat/conversations/\(chat)/exports", token: token, expect: .accepted)
        let pendingID = try #require(pending.json?["id"]?.stringValue)
        try await call(.GET, "/api/chat/exports/\(pendingID)/video", token: token, expect: .conflict)
        try await call(.POST, "/api/chat/exports/\(pendingID)/share", token: token, expect: .conflict)
        _ = try await app.send(.POST, "/api/jobs/\(try #require(pending.json?["job_id"]?.stringValue))/cancel", token: token)
        // The cancelled one does not count: two more make the day's three.
        for _ in 0..<2 {
            try await call(.POST, "/api/chat/conversations/\(chat)/exports", token: token, json: quickExportJSON, expect: .accepted)
        }
        try await call(.POST, "/api/chat/conversations/\(chat)/exports", token: token, json: quickExportJSON, expect: .tooManyRequests)

        let export = try await app.finishChatExport(queued, token: token, config: config)
        #expect(export.status == "succeeded", "\(export.error ?? "")")
        try await call(.GET, "/api/chat/exports", token: token, expect: .ok)
        try await call(.GET, "/api/chat/exports?conversation_id=\(chat)", token: token, expect: .ok)
        try await call(.GET, "/api/chat/exports?conversation_id=nope", token: token, expect: .badRequest)
        try await call(.GET, "/api/chat/exports/\(export.id)", token: token, expect: .ok)
        try await call(.GET, "/api/chat/exports/\(UUID())", token: token, expect: .notFound)
        try await call(.GET, "/api/chat/exports/\(export.id)/video", token: token, expect: .ok)
        try await call(.GET, "/api/chat/exports/\(export.id)/video", token: token, headers: ["Range": "bytes=0-9"], expect: .partialContent)
        try await call(.GET, "/api/chat/exports/\(UUID())/video", token: token, expect: .notFound)
        let shared = try await call(.POST, "/api/chat/exports/\(export.id)/share", token: token, expect: .ok)
        try await call(.POST, "/api/chat/exports/\(UUID())/share", token: token, expect: .notFound)
        let link = try #require(shared.json?["share_url"]?.stringValue)
        try await call(.GET, link, expect: .ok)
        try await call(.GET, link, headers: ["Range": "bytes=10-19"], expect: .partialContent)
        try await call(.GET, "/share/chat/\(String(repeating: "x", count: 43))", expect: .notFound)
        try await call(.DELETE, "/api/chat/exports/\(export.id)/share", token: token, expect: .ok)
        try await call(.DELETE, "/api/chat/exports/\(UUID())/share", token: token, expect: .notFound)
        try await call(.GET, link, expect: .notFound)

        try await call(.DELETE, "/api/chat/conversations/\(copyID)", token: token, expect: .noContent)
        try await call(.DELETE, "/api/chat/conversations/\(copyID)", token: token, expect: .notFound)
    }
}
