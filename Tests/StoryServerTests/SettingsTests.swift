import DatabaseTestSupport
import FluentKit
import FluentSQL
import Foundation
import Persistence
import Platform
import Speech
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

@Suite("Settings API")
struct SettingsTests {
    @Test("defaults: standard narration and no keys")
    func defaults() async throws {
        try await withServer { app, _, _ in
            let tokens = try await app.register("ada@example.com")
            let settings = try await app.send(.GET, "/api/settings", token: tokens.access_token)
            #expect(settings.status == .ok)
            let body = settings.body.string
            #expect(body.contains(#""openai":null"#))
            #expect(body.contains(#""elevenlabs":null"#))
            #expect(body.contains(#""rate":1"#))
            #expect(try await app.send(.GET, "/api/settings").status == .unauthorized)
        }
    }

    @Test("keys are stored encrypted, shown masked and never returned", arguments: Backend.available)
    func keysMaskedAndEncrypted(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let tokens = try await app.register("ada@example.com")
            let key = "sk-proj-PLAINTEXTSECRET0123456789wxyz"
            let put = try await app.send(.PUT, "/api/settings", token: tokens.access_token, json: """
                {"api_keys": {"openai": "\(key)", "anthropic": null}, "narration": {"rate": 1.25}}
                """)
            #expect(put.status == .ok, "\(put.body.string)")
            #expect(!put.body.string.contains("PLAINTEXTSECRET"))
            #expect(put.body.string.contains(#""openai":"sk-…wxyz""#))
            #expect(put.body.string.contains(#""rate":1.25"#))

            let get = try await app.send(.GET, "/api/settings", token: tokens.access_token)
            #expect(!get.body.string.contains("PLAINTEXTSECRET"))
            #expect(get.body.string.contains(#""openai":"sk-…wxyz""#))

            // The database holds only ciphertext.
            let rows = try await app.db.requireSQL().raw("SELECT sealed_key, masked FROM provider_keys").all()
            #expect(rows.count == 1)
            let sealed = try rows[0].decode(column: "sealed_key", as: Data.self)
            #expect(sealed.range(of: Data(key.utf8)) == nil)
            #expect(sealed.range(of: Data("PLAINTEXTSECRET".utf8)) == nil)

            let removed = try await app.send(.PUT, "/api/settings", token: tokens.access_token, json: #"{"api_keys": {"openai": ""}}"#)
            #expect(removed.body.string.contains(#""openai":null"#))
        }
    }

    @Test("the choice between the fastest voices and the best is kept per user", arguments: Backend.available)
    func voicesPreference(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let bob = try await app.register("bob@example.com").access_token
            #expect(try await app.send(.GET, "/api/settings", token: ada).body.string.contains(#""voices":"fastest""#))
            let best = try await app.send(.PUT, "/api/settings", token: ada, json: #"{"narration": {"voices": "best"}}"#)
            #expect(best.status == .ok, "\(best.body.string)")
            #expect(best.body.string.contains(#""voices":"best""#))
            #expect(best.body.string.contains(#""rate":1"#))
            #expect(try await app.send(.GET, "/api/settings", token: ada).body.string.contains(#""voices":"best""#))
            #expect(try await app.send(.GET, "/api/settings", token: bob).body.string.contains(#""voices":"fastest""#))

            let hours = try await app.send(.PUT, "/api/settings", token: ada, json: #"{"narration": {"voices": "hours:2.5"}}"#)
            #expect(hours.status == .ok, "\(hours.body.string)")
            #expect(try await app.send(.GET, "/api/settings", token: ada).body.string.contains(#""voices":"hours:2.5""#))
            let tooLong = try await app.send(.PUT, "/api/settings", token: ada, json: #"{"narration": {"voices": "hours:500"}}"#)
            #expect(tooLong.status == .unprocessableEntity)
            _ = try await app.send(.PUT, "/api/settings", token: ada, json: #"{"narration": {"voices": "best"}}"#)
            let unknown = try await app.send(.PUT, "/api/settings", token: ada, json: #"{"narration": {"voices": "loudest"}}"#)
            #expect(unknown.status == .unprocessableEntity)
            #expect(unknown.errorCode == "invalid_narration")
            #expect(try await app.send(.GET, "/api/settings", token: ada).body.string.contains(#""voices":"best""#))
        }
    }

    @Test("automatic casting keeps to free voices; slow ones are left to the time budget")
    func castableVoices() {
        let voices = [
            Voice(id: "kokoro:kumo", engine: "kokoro", engineVoice: "kumo", displayName: "Kumo", gender: .male, quality: 4),
            Voice(id: "piper:joe", engine: "piper", engineVoice: "joe", displayName: "Joe", gender: .male, quality: 4),
            Voice(id: "openai:tts-1:alloy", engine: "openai", engineVoice: "alloy", displayName: "Alloy", gender: .female, quality: 4,
                  costPer1000Characters: 0.015),
        ]
        #expect(CastableVoices.automatic(voices).map(\.id) == ["kokoro:kumo", "piper:joe"])
        #expect(CastableVoices.automatic(voices, includingPaid: true).count == 3)
        #expect(!CastableVoices.rendersInRealTime(engine: "kokoro") && CastableVoices.rendersInRealTime(engine: "piper"))
    }

    @Test("invalid settings are refused and change nothing")
    func invalidSettings() async throws {
        try await withServer { app, _, _ in
            let token = try await app.register("ada@example.com").access_token
            let unknown = try await app.send(.PUT, "/api/settings", token: token, json: #"{"api_keys": {"acme": "sk-1234567890123"}}"#)
            #expect(unknown.status == .unprocessableEntity)
            #expect(unknown.errorCode == "unknown_provider")

            let tooFast = try await app.send(.PUT, "/api/settings", token: token, json: #"{"narration": {"rate": 9}, "api_keys": {"openai": "sk-should-not-be-saved-1234"}}"#)
            #expect(tooFast.status == .unprocessableEntity)
            #expect(tooFast.errorCode == "invalid_narration")
            #expect(try await app.send(.GET, "/api/settings", token: token).body.string.contains(#""openai":null"#))

            let wrongType = try await app.send(.PUT, "/api/settings", token: token, json: #"{"narration": {"rate": "fast"}}"#)
            #expect(wrongType.status == .badRequest)
            #expect(wrongType.errorMessage == "Field 'narration.rate' must be a number.")

            let notJSON = try await app.send(.PUT, "/api/settings", token: token, headers: ["Content-Type": "text/plain"], body: .init(string: "rate=2"))
            #expect(notJSON.status == .unsupportedMediaType)
        }
    }

    @Test("bodies over the limit answer 413")
    func oversizeBody() async throws {
        try await withServer(adjust: { $0.maxJSONBodyBytes = 4096 }) { app, _, _ in
            let token = try await app.register("ada@example.com").access_token
            let huge = #"{"api_keys": {"openai": ""# + String(repeating: "x", count: 10_000) + #""}}"#
            let reply = try await app.send(.PUT, "/api/settings", token: token, json: huge)
            #expect(reply.status == .payloadTooLarge)
            #expect(reply.errorCode == "payload_too_large")
            #expect(reply.errorMessage?.contains("larger than") == true)
        }
    }
}
