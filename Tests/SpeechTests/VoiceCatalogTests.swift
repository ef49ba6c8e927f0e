import Audio
import Speech
import StoryModel
import Testing

/// An engine with a fixed voice list, for catalogue tests that must not depend on installs.
private struct ListedEngine: SpeechSynthesizer {
    let engineID: String
    let listed: [Voice]
    var installed = true
    var failure: SpeechError?

    func info() async -> EngineInfo {
        EngineInfo(id: engineID, name: engineID, version: "1.0", installed: installed, installHint: "install \(engineID)")
    }

    func voices() async throws -> [Voice] {
        if let failure { throw failure }
        return listed
    }

    func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        PCMAudio(sampleRate: 16000, samples: [1, 2, 3])
    }
}

@Suite struct VoiceCatalogTests {
    func catalog() async -> VoiceCatalog {
        await VoiceCatalog.load(from: [
            ListedEngine(engineID: "festival", listed: [Fixtures.festival]),
            ListedEngine(engineID: "flite", listed: Fixtures.flite),
            ListedEngine(engineID: "espeak-ng", listed: Fixtures.espeak()),
            ListedEngine(engineID: "missing", listed: [], installed: false),
            ListedEngine(engineID: "broken", listed: [], failure: .engineFailed(engine: "broken", status: "exited(1)", message: "boom")),
        ])
    }

    @Test func loadsVoicesAndEngineInfoInOrder() async {
        let catalog = await catalog()
        #expect(catalog.voices.count == 1 + 3 + Fixtures.espeak().count)
        #expect(catalog.voices.first?.id == "festival:cmu_us_slt_arctic_hts")
        #expect(catalog.engines.map(\.id) == ["festival", "flite", "espeak-ng", "missing", "broken"])
        #expect(catalog.engines.first { $0.id == "missing" }?.installed == false)
        #expect(catalog.failures["broken"]?.contains("boom") == true)
    }

    @Test func resolvesVoiceIdsLeniently() async {
        let catalog = await catalog()
        #expect(catalog.voice(id: "flite:slt")?.id == "flite:slt")
        #expect(catalog.voice(id: "espeak-ng:en-us+f3")?.id == "espeak-ng:en-us+f3")
        #expect(catalog.voice(id: "ESPEAK-NG:en-US+F3")?.id == "espeak-ng:en-us+f3")
        #expect(catalog.voice(id: "espeak:en-us+f3")?.id == "espeak-ng:en-us+f3")
        #expect(catalog.voice(id: "en-us+f3")?.id == "espeak-ng:en-us+f3")
        #expect(catalog.voice(id: "festival:slt")?.id == "festival:cmu_us_slt_arctic_hts")
        #expect(catalog.voice(id: "rms")?.id == "flite:rms")
        // Ambiguous or unknown names resolve to nothing rather than to a guess.
        #expect(catalog.voice(id: "slt") == nil)
        #expect(catalog.voice(id: "flite:kal") == nil)
        #expect(catalog.voice(id: "espeak-ng:m3") == nil)
    }

    @Test func findsTheEngineForAVoice() async throws {
        let catalog = await catalog()
        let voice = try #require(catalog.voice(id: "flite:awb"))
        #expect(catalog.engine(for: voice)?.engineID == "flite")
    }
}

@Suite struct AccentCatalogTests {
    @Test(arguments: [
        ("Scottish", "en-GB-scotland"), ("British", "en-GB"), ("a posh English accent", "en-GB-x-rp"),
        ("American", "en-US"), ("Southern US drawl", "en-US"), ("New York", "en-US-nyc"), ("Jamaican", "en-029"),
        ("en-gb", "en-GB"), ("en_US", "en-US"), ("Brummie", "en-GB-x-gbcwmd"),
    ])
    func mapsDescriptionsToTags(description: String, tag: String) {
        #expect(AccentCatalog.tag(forDescription: description) == tag)
    }

    @Test func unknownAccentsHaveNoTag() {
        #expect(AccentCatalog.tag(forDescription: "Irish") == nil)
        #expect(AccentCatalog.tag(forDescription: "") == nil)
    }

    @Test func similarityPrefersExactThenRegionalForms() {
        #expect(AccentCatalog.similarity(wanted: "en-GB", voice: "en-GB") == 1)
        #expect(AccentCatalog.similarity(wanted: "en-GB", voice: "en-GB-x-rp") > AccentCatalog.similarity(wanted: "en-GB-scotland", voice: "en-GB"))
        #expect(AccentCatalog.similarity(wanted: "en-GB", voice: "en-US") == 0)
    }
}
