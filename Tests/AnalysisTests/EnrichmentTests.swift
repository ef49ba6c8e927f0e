import Analysis
import Foundation
import LanguageModels
import StoryModel
import Testing
import TestSupport
import VendorHTTP

@Suite("Character enrichment and voices")
struct EnrichmentTests {
    @Test("Labels backed by a quotation from the story are applied, with the evidence kept")
    func evidencedLabels() async throws {
        let story = smallStory()
        let truth = story.truth
        try await LoopbackServer.withServer(handler: labeller(text: story.document.text) { span in truth[Int(span.dropFirst())!]! }) { server in
            let result = try await HybridAnalyzer(model: makeModel(server: server)).label(document: story.document, analysis: story.analysis, mode: .hybrid)
            let profile = try #require(result.profiles.first { $0.id == "c1" })
            #expect(profile.gender?.value == "female")
            #expect(profile.personality?.value == "brisk and kind")
            #expect(profile.accent == nil) // "unknown" is no label
            let evidence = try #require(profile.description?.evidence)
            #expect(story.document.text.contains(evidence))
            let anna = try #require(result.analysis.character(id: "c1"))
            #expect(anna.gender == .female)
            #expect(anna.ageRange == .adult)
            #expect(anna.personality == "brisk and kind")
            #expect(anna.description == profile.description?.value && anna.description?.isEmpty == false)
            // The quotations behind the labels stay with the story, and survive saving it.
            #expect(anna.evidence["description"] == evidence)
            #expect(anna.evidence["gender"] == profile.gender?.evidence && anna.evidence["gender"] != nil)
            #expect(anna.evidence["personality"] == profile.personality?.evidence)
            #expect(anna.evidence["accent"] == nil)
            let saved = try JSONDecoder().decode(StoryAnalysis.self, from: JSONEncoder().encode(result.analysis))
            #expect(saved.character(id: "c1")?.evidence == anna.evidence)
            // The enrichment prompt shows the character's own lines.
            let enrichment = server.requests.compactMap { VendorWire.prompt(of: $0, provider: .openai)?.user }.first { $0.contains("Describe each of these characters:") }
            #expect(enrichment?.contains("Is the kettle on?") == true)
        }
    }

    @Test("Labels whose evidence is not in the story are dropped, and the drop is noted")
    func inventedEvidenceDropped() async throws {
        let story = smallStory()
        try await LoopbackServer.withServer(handler: labeller(text: story.document.text, inventEvidence: true) { _ in "c1" }) { server in
            let result = try await HybridAnalyzer(model: makeModel(server: server)).label(document: story.document, analysis: story.analysis, mode: .hybrid)
            #expect(result.profiles.allSatisfy { $0.gender == nil && $0.personality == nil && $0.description == nil })
            #expect(result.analysis.characters.allSatisfy { $0.gender == .unknown && $0.personality == nil })
            #expect(result.notes.contains { $0.contains("evidence is not in the text") })
        }
    }

    @Test("A suggested voice must be installed; an invented one gives nil")
    func voiceSuggestion() async throws {
        let voices = [
            VoiceOption(id: "flite:slt", gender: .female, accent: "en-US"),
            VoiceOption(id: "espeak-ng:en-gb+m3", gender: .male, accent: "en-GB"),
        ]
        let anna = Character(id: "c1", name: "Anna Bell", gender: .female, ageRange: .adult, description: "the vicar's sharp-eyed housekeeper")
        try await LoopbackServer.withServer(handler: answering(#"{"voice":"flite:slt","rate":2.5,"pitch":1,"reason":"warm"}"#)) { server in
            let suggestion = try await VoiceSuggester(model: makeModel(server: server)).suggest(for: anna, story: "Test", voices: voices)
            #expect(suggestion?.voice == "flite:slt")
            #expect(suggestion?.rate == 1.4)
            #expect(suggestion?.pitch == 1)
            let user = VendorWire.prompt(of: try #require(server.requests.first), provider: .openai)?.user ?? ""
            #expect(user.contains("espeak-ng:en-gb+m3: male, adult, en-GB"))
            #expect(user.contains("description: the vicar's sharp-eyed housekeeper"))
        }
        try await LoopbackServer.withServer(handler: answering(#"{"voice":"elevenlabs:rachel","rate":1,"pitch":0,"reason":"best"}"#)) { server in
            let suggestion = try await VoiceSuggester(model: makeModel(server: server)).suggest(for: anna, story: "Test", voices: voices)
            #expect(suggestion == nil)
        }
    }

    @Test("Evidence must be long enough and in the story; typography is forgiven")
    func evidenceMatching() async throws {
        let story = Fixture(characters: cast, chapters: [[.narration("She wore a hat \u{2014} a \u{201C}dreadful\u{201D} one \u{2014} to church.")]])
        try await LoopbackServer.withServer(handler: { request in
            let quote = "wore a hat - a \"dreadful\" ONE"
            let answer: JSONValue = ["characters": [[
                "id": "c1", "gender": ["value": "female", "evidence": .string(quote)], "ageRange": ["value": "adult", "evidence": "hat"],
                "accent": ["value": "unknown", "evidence": ""], "personality": ["value": "bold", "evidence": "she wore a crown"],
                "description": ["value": "a churchgoer", "evidence": .string(quote)],
            ]]]
            return VendorWire.success(.openai, answer: answer.canonicalText, for: request)
        }) { server in
            var analysis = story.analysis
            analysis.characters = [cast[0]]
            let result = try await HybridAnalyzer(model: makeModel(server: server)).label(document: story.document, analysis: analysis, mode: .hybrid)
            let profile = try #require(result.profiles.first)
            #expect(profile.gender?.value == "female")
            #expect(profile.ageRange == nil)
            #expect(profile.personality == nil)
            #expect(profile.description?.value == "a churchgoer")
        }
    }
}

func answering(_ answer: String) -> LoopbackServer.Handler {
    { request in VendorWire.success(.openai, answer: answer, for: request) }
}
