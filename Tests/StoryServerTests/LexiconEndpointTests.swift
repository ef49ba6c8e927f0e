import Foundation
import Platform
import Speech
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

/// `PUT /api/stories/:id/lexicon`: respellings and per-engine phonemes, as JSON entries or as the
/// text of a `--lexicon` file (what the web app's box sends).
@Suite("Pronunciation lexicon API")
struct LexiconEndpointTests {
    /// Ada's analysed sample story and the path of its lexicon.
    func withAnalyzedStory(_ body: (Application, String, UUID, String) async throws -> Void) async throws {
        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            try await body(app, ada, story, "/api/stories/\(story)/lexicon")
        }
    }

    @Test("entries and text give the same lexicon; phonemes are kept per engine")
    func entriesAndText() async throws {
        try await withAnalyzedStory { app, ada, story, path in

            let byEntries = try await app.send(.PUT, path, token: ada,
                                               json: #"{"entries":{"Nuttel":"Nuttle","Framton":{"say":"FRAM-tun","piper":"[[fɹˈæmtən]]"}}}"#)
            #expect(byEntries.status == .ok, "\(byEntries.body.string)")
            let expected: [String: PronunciationLexicon.Entry] = [
                "Nuttel": "Nuttle", "Framton": .init(respelling: "FRAM-tun", phonemes: ["piper": "fɹˈæmtən"]),
            ]
            #expect(try await app.analysis(story, ada).overrides.lexicon == expected)
            // The reply writes a respelling alone as a string, as lexicons always were.
            #expect(byEntries.body.string.contains(#""Nuttel":"Nuttle""#))

            let text = "# names\nNuttel = Nuttle\nFramton = FRAM-tun | piper [[fɹˈæmtən]]\n"
            let json = try String(decoding: JSONEncoder().encode(["text": text]), as: UTF8.self)
            #expect(try await app.send(.PUT, path, token: ada, json: json).status == .ok)
            #expect(try await app.analysis(story, ada).overrides.lexicon == expected)

            #expect(try await app.send(.PUT, path, token: ada, json: #"{"text":"  "}"#).status == .ok)
            #expect(try await app.analysis(story, ada).overrides.lexicon == nil)
        }
    }

    @Test("a wrong entry is refused with what is wrong, and the saved lexicon stays")
    func refusals() async throws {
        try await withAnalyzedStory { app, ada, story, path in
            #expect(try await app.send(.PUT, path, token: ada, json: #"{"entries":{"Nuttel":"Nuttle"}}"#).status == .ok)

            let refusals: [(json: String, says: String)] = [
                (#"{"text":"Nuttel = Nuttle\nFramton FRAM-tun"}"#, "Line 2: 'Framton FRAM-tun' has no '='"),
                (#"{"text":"Framton = FRAM-tun | flite [[x]]"}"#, "does not read phonemes"),
                (#"{"entries":{"Framton":{"flite":"x"}}}"#, "The entry for 'Framton' gives phonemes for 'flite'"),
                (#"{"entries":{"Framton":{}}}"#, "gives neither a respelling nor phonemes"),
                (#"{"entries":{"":"x"}}"#, "has no word"),
                (#"{"entries":{},"text":""}"#, "either 'entries'"),
                (#"{}"#, "either 'entries'"),
                (#"{"entries":{"Framton":"\#(String(repeating: "a", count: 201))"}}"#, "up to 200"),
            ]
            for refusal in refusals {
                let reply = try await app.send(.PUT, path, token: ada, json: refusal.json)
                #expect(reply.status == .unprocessableEntity, "\(refusal.json): \(reply.body.string)")
                #expect(reply.errorCode == "invalid_lexicon")
                #expect(reply.errorMessage?.contains(refusal.says) == true, "\(reply.errorMessage ?? "")")
            }
            #expect(try await app.analysis(story, ada).overrides.lexicon == ["Nuttel": "Nuttle"])
        }
    }

    @Test("overrides saved before phonemes existed read unchanged")
    func oldOverridesDecode() throws {
        let stored = #"{"characters":{},"lexicon":{"Nuttel":"Nuttle"}}"#
        let overrides = try JSONDecoder().decode(CastOverrides.self, from: Data(stored.utf8))
        #expect(overrides.lexicon == ["Nuttel": PronunciationLexicon.Entry(respelling: "Nuttle")])
        #expect(String(decoding: try JSONEncoder().encode(overrides.lexicon), as: UTF8.self) == #"{"Nuttel":"Nuttle"}"#)
    }
}
