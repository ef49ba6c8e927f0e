import DatabaseTestSupport
import Foundation
@testable import StoryServer
import Testing
import VaporTesting

/// Chat stories bounded in the units that cost, checked before any work (issue 46): a message's
/// code points and the code points of one character, a person's name, the length of the video a
/// conversation makes, per plan. Each refusal says the limit, and nothing is kept or queued.
@Suite("Chat stories limits")
struct ChatLimitTests {
    static func messages(_ count: Int, length: Int) -> String {
        let list = (0..<count).map { #"{"character_id":"\#($0 % 2 == 0 ? "me" : "sam")","text":"\#(String(repeating: "x", count: length))"}"# }
        return #"{"title":"Long","characters":[{"id":"me","name":"Me","is_me":true},{"id":"sam","name":"Sam"}],"messages":[\#(list.joined(separator: ","))]}"#
    }

    @Test("'a' with 300,000 accents, a 500 KB name: 422 saying the limit, and the kept conversation is unchanged")
    func textInCodePoints() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let id = try await app.createChat(ada)
            let before = try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).body.string
            let zalgo = "a" + String(repeating: "\u{0301}", count: 300_000)
            let cases: [(json: String, code: String, says: String)] = [
                (#"{"messages":[{"character_id":"me","text":"\#(zalgo)"}]}"#, "too_many_code_points", "Message 1 has 300,001 code points"),
                (#"{"messages":[{"character_id":"me","text":"fine"},{"character_id":"sam","text":"a\#(String(repeating: "\u{0301}", count: 40))"}]}"#,
                 "character_too_complex", "a character can have at most 32"),
                (#"{"characters":[{"id":"me","name":"Me","is_me":true},{"id":"sam","name":"\#(String(repeating: "n", count: 500_000))"}]}"#,
                 "too_many_code_points", "can have at most 240"),
                (#"{"characters":[{"id":"me","name":"Me","is_me":true},{"id":"sam","name":"\#(String(repeating: "n", count: 61))"}]}"#,
                 "name_too_long", "a name can be at most 60"),
            ]
            for (json, code, says) in cases {
                let reply = try await app.send(.PUT, "/api/chat/conversations/\(id)", token: ada, json: json)
                #expect(reply.status == .unprocessableEntity && reply.errorCode == code, "\(code): \(reply.status) \(reply.body.string.prefix(200))")
                #expect(reply.errorMessage?.contains(says) == true, "\(reply.errorMessage ?? "")")
            }
            let created = try await app.send(.POST, "/api/chat/conversations", token: ada, json: cases[0].json)
            #expect(created.status == .unprocessableEntity && created.errorCode == "too_many_code_points")
            #expect(try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).body.string == before)
            #expect(try await app.send(.GET, "/api/chat/conversations", token: ada).json?["conversations"]?.arrayValue?.count == 1)
        }
    }

    @Test("a conversation no plan could make into a video is not kept: 100 typed messages of 300 characters")
    func conversationTooLong() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let reply = try await app.send(.POST, "/api/chat/conversations", token: ada, json: Self.messages(200, length: 300))
            #expect(reply.status == .unprocessableEntity && reply.errorCode == "conversation_too_long", "\(reply.body.string.prefix(300))")
            #expect(reply.errorMessage?.contains("the longest video is 10 minutes") == true, "\(reply.errorMessage ?? "")")
            #expect(try await app.send(.GET, "/api/chat/conversations", token: ada).json?["conversations"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("a video longer than the plan's is refused before anything is made: free 3 minutes, premium 10, the preview's timeline 10")
    func videoLengthPerPlan() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            // 90 messages of 150 characters: 10:44 typed slowly, 6:54 at normal speed, 3:05 fast, 2:42 fast without the indicator.
            let id = try await app.createChat(ada, json: Self.messages(90, length: 150))

            let slow = try await app.send(.GET, "/api/chat/conversations/\(id)/timeline?typing_speed=slow", token: ada)
            #expect(slow.status == .unprocessableEntity && slow.errorCode == "video_too_long", "\(slow.body.string.prefix(300))")
            #expect(slow.errorMessage?.contains("can be at most 10 minutes") == true, "\(slow.errorMessage ?? "")")
            #expect(try await app.send(.GET, "/api/chat/conversations/\(id)/timeline?typing_speed=fast", token: ada).status == .ok)

            let free = try await app.startChatExport(id, token: ada, json: #"{"typing_speed":"fast","format":"instagram"}"#)
            #expect(free.status == .unprocessableEntity && free.errorCode == "video_too_long", "\(free.body.string.prefix(300))")
            #expect(free.errorMessage?.contains("This video would be 3 min 5 s long; a free account's video can be at most 3 minutes") == true, "\(free.errorMessage ?? "")")
            #expect(free.errorMessage?.contains("Premium makes videos of up to 10 minutes") == true)
            // Refused before any work: nothing queued, nothing counted.
            #expect(try await app.send(.GET, "/api/chat/exports", token: ada).json?["exports"]?.arrayValue?.isEmpty == true)
            #expect(try await app.send(.GET, "/api/chat/entitlement", token: ada).json?["exports_today"]?.doubleValue == 0)
            let shorter = try await app.startChatExport(id, token: ada, json: #"{"typing_speed":"fast","typing_indicator":false,"format":"instagram"}"#)
            #expect(shorter.status == .accepted, "\(shorter.body.string.prefix(300))")

            try await app.grantPremium("ada@example.com")
            #expect(try await app.startChatExport(id, token: ada, json: #"{"format":"instagram"}"#).status == .accepted)
            let premiumSlow = try await app.startChatExport(id, token: ada, json: #"{"typing_speed":"slow","format":"instagram"}"#)
            #expect(premiumSlow.status == .unprocessableEntity && premiumSlow.errorCode == "video_too_long")
            #expect(premiumSlow.errorMessage?.contains("a video can be at most 10 minutes") == true, "\(premiumSlow.errorMessage ?? "")")
        }
    }
}
