import Audio
import Foundation
@testable import JourneyWorkflows
import Journeys
import LanguageModels
import Logging
import Speech
import SpeechEngines
import Synchronization
import TestSupport
import Testing
import VendorHTTP

/// A model in OpenAI's wire format on loopback, and espeak-ng speaking: the teller's own work
/// (what it asks, what it keeps, what it speaks) with real audio and a real HTTP stream.
enum Teller {
    static let espeak = EspeakEngine()

    static func speak(_ text: String) async throws -> Data {
        let voices = try await espeak.voices()
        let voice = try #require(voices.first { $0.id == "espeak-ng:en-us" } ?? voices.first)
        return WAV.encode(try await espeak.synthesize(text, voice: voice, settings: SpeechSettings()))
    }

    static func model(_ server: LoopbackServer) -> RemoteLanguageModel {
        RemoteLanguageModel(provider: .openaiCompatible, model: "test", baseURL: server.baseURL + "/v1", key: nil,
                            timeout: loopbackTimeout, retry: .none, limiter: ConcurrencyLimiter(limit: 1))
    }

    /// A plan of `parts` parts between two points in Oxford.
    static func plan(parts: Int, wordsPerMinute: Double = 60) -> JourneyPlan {
        let start = Place(name: "Carfax", latitude: 51.752, longitude: -1.258)
        let end = Place(name: "Magdalen Bridge", latitude: 51.750, longitude: -1.246)
        let route = Route(distanceMeters: 1000, durationSeconds: Double(parts) * 60 - 30, line: [start.coordinate, end.coordinate], source: .estimate)
        return JourneyPlan(start: start, end: end, mode: .walking, route: route, parts: parts,
                           wordsPerPart: JourneyPlanner.wordsPerPart(wordsPerMinute: wordsPerMinute), wordsPerMinute: wordsPerMinute)
    }

    static func teller(_ server: LoopbackServer, parts: Int, store: MemoryJourneyStore, speak: @escaping @Sendable (String) async throws -> Data = speak) throws -> JourneyTeller {
        JourneyTeller(plan: plan(parts: parts), style: try StoryStyle(.childrens), model: model(server), speak: speak, store: store, backoff: { _ in 0 }, logger: quiet)
    }

    /// The teller's log, not printed among the tests' results.
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func store() -> MemoryJourneyStore {
        MemoryJourneyStore(folder: FileManager.default.temporaryDirectory.appendingPathComponent("journey-\(UUID().uuidString)"))
    }

    /// `text` streamed in pieces that cut words, as a model's tokens do.
    static func streamed(_ text: String) -> LoopbackReply {
        VendorWire.streamed(.openai, pieces: VendorWire.pieces(of: text, every: 17), pause: .milliseconds(1))
    }

    static func json(_ value: JSONValue, _ request: RecordedRequest) -> LoopbackReply {
        VendorWire.success(.openai, answer: value.canonicalText, for: request)
    }

    /// An answer to a structured request with every key its schema asks for (`part_3`, `act_1`).
    static func keyed(_ request: RecordedRequest, _ line: (String) -> String) -> LoopbackReply {
        let keys = request.json?["response_format"]?["json_schema"]?["schema"]?["properties"]?.objectValue?.keys.sorted() ?? []
        return json(.object(Dictionary(uniqueKeysWithValues: keys.map { ($0, JSONValue.string(line($0))) })), request)
    }

    /// `count` sentences of about ten words naming `who`, each with words of its own (a sentence
    /// that says most of another again is taken for a model going round in a loop).
    static func prose(_ who: String, sentences count: Int) -> String {
        (1...count).map { "Then \(who) walked along river \($0 * 7 + who.count * 1000) for a while, number \($0)." }.joined(separator: " ")
    }

    static func userMessage(_ request: RecordedRequest) -> String {
        request.json?["messages"]?.arrayValue?.last?["content"]?.stringValue ?? ""
    }

    static func schemaName(_ request: RecordedRequest) -> String? {
        request.json?["response_format"]?["json_schema"]?["name"]?.stringValue
    }
}

@Suite struct StoryAnswersTests {
    @Test func titlesLoseQuotesAndPartLabels() {
        #expect(StoryAnswers.title("“The Lantern on the Fen”") == "The Lantern on the Fen")
        #expect(StoryAnswers.title("The Neon Rain, Part 1: The Case Begins") == "The Neon Rain")
        #expect(StoryAnswers.title("Part One") == "Part One")
        #expect(StoryAnswers.title("The Partridge Affair") == "The Partridge Affair")
    }

    @Test("a long story's outline keys sort in the parts' order, as the grammar writes them, and are read back")
    func keysSortInPartOrder() throws {
        let prompts = StoryPrompts(plan: Teller.plan(parts: 13), style: try StoryStyle(.fantasy))
        let request = prompts.firstOutline(told: ["Told one.", "Told two."], beats: 3...13)
        let keys = try #require(request.schema?.schema["properties"]?.objectValue?.keys).sorted()
        #expect(keys == (1...13).map { String(format: "part_%02d", $0) } + ["title"])
        let answer = JSONValue.object(["title": "The Fen", "part_02": "Two.", "part_10": "Ten."]).canonicalText
        #expect(StoryAnswers.firstOutline(answer, parts: [2, 10], source: "")?.lines.usable == [2: "Two.", 10: "Ten."])
        #expect(StoryAnswers.beats(#"{"part_3": "Three."}"#, parts: 3...4, source: "")?.usable == [3: "Three."], "one digit while every part has one")
    }

    @Test("a beat may take up its act's line, not an earlier beat or its stage's guidance")
    func beatsFollowTheirActInTheirOwnWords() throws {
        // 13 parts: the rising action is parts 3–5.
        let prompts = StoryPrompts(plan: Teller.plan(parts: 13), style: try StoryStyle(.fantasy))
        let outline = StoryOutline(title: "The Fen", actSummaries: Array(repeating: "Elara must escape the wizard Shadow before dawn.", count: 6),
                                   beats: [3: "Elara hides from the wizard in a cave by the river."])
        let source = prompts.unoriginal(beats: 4...5, outline: outline)
        let answer = #"{"part_4": "Elara must escape the wizard Shadow before dawn breaks.", "part_5": "Elara hides from the wizard in a cave again."}"#
        let beats = try #require(StoryAnswers.beats(answer, parts: 4...5, source: source))
        #expect(beats.usable == [4: "Elara must escape the wizard Shadow before dawn breaks."] && beats.unusable == [5])
        #expect(!SpokenProse.isPlanLine("Complications build: new obstacles, clues or companions for Elara.", source: source, limit: 120))
    }

    @Test("lines that copy the story shown, go on from another line, or ran to the length limit are no plan")
    func unusableLines() throws {
        // As the model on this machine answered (2026-12-04): the story so far copied into the
        // lines, cut at 120 characters, each going on from the one before.
        let told = "In a lush forest glade, where whispers of the ancient tree whispered secrets, lived a young elf named Elara. Her quest was to uncover the lost city of Eldoria."
        let prompt = "The story so far:\nPart 1: \(told)\n\nAnswer with the title and one sentence for each part."
        let answer = JSONValue.object([
            "title": "The Whispering Tree",
            "part_1": "In a lush forest glade, where whispers of the ancient tree whispered secrets, lived a young elf named Elara. Her quest",
            "part_2": "was to uncover the lost city of Eldoria.",
            "part_3": "Elara climbs the tallest tree and meets a silver owl.",
            "part_4": .string("Elara follows the owl " + String(repeating: "and the owl ", count: 12)),
        ]).canonicalText
        let outline = try #require(StoryAnswers.firstOutline(answer, parts: [1, 2, 3, 4], source: prompt))
        #expect(outline.title == "The Whispering Tree")
        #expect(outline.lines.usable == [3: "Elara climbs the tallest tree and meets a silver owl."])
        #expect(outline.lines.unusable == [1, 2, 4])
        // Only its last line refused: the answer was still read, its parts marked unplanned.
        let cut = JSONValue.object(["title": "T", "part_3": "A fox arrives.", "part_4": "was to uncover the lost city"]).canonicalText
        #expect(StoryAnswers.firstOutline(cut, parts: [3, 4], source: prompt)?.lines.unusable == [4])
    }
}

@Suite("Telling a journey's story", .serialized)
struct JourneyTellerTests {
    @Test("part 1 comes first from the trip alone, part 2 from how it ended; the outline follows; each part goes on from the last")
    func threeParts() async throws {
        let store = Teller.store()
        try await LoopbackServer.withServer(handler: { request in
            switch Teller.schemaName(request) {
            case "story_outline":
                return Teller.json(["title": "The Brave Duckling", "part_1": "Dot the duckling leaves the pond.", "part_2": "Dot meets the grey heron.",
                                    "part_3": "Dot swims home at dusk."], request)
            case "story_beats":
                return Teller.keyed(request) { _ in "Dot swims home at dusk." }
            default:
                let user = Teller.userMessage(request)
                let who = user.contains("Write part 3") ? "Dot at home" : user.contains("Write part 2") ? "Dot and the heron" : "Dot the duckling"
                return Teller.streamed(Teller.prose(who, sentences: 30))
            }
        }) { server in
            let teller = try Teller.teller(server, parts: 3, store: store)
            let one = try await teller.tell(part: 1)
            #expect(server.requests.count == 1, "part 1 needs nothing but its own request")
            // 60 words at 60 words a minute: five sentences of thirteen words.
            #expect(one.status == .ready && one.storySentences.count == 5 && !one.fallback)
            #expect(one.text.hasPrefix("Then Dot the duckling walked"))
            for sentence in one.sentences {
                let wav = try Data(contentsOf: store.folder.appendingPathComponent(sentence.file))
                #expect(try WAV.decode(wav).durationSeconds == sentence.durationSeconds)
                #expect(sentence.durationSeconds > 1)
            }
            try await teller.tell(part: 2)
            try await teller.tell(part: 3)
            let kinds = server.requests.map { Teller.schemaName($0) ?? "prose" }
            // The title, a line for each part told and part 3's beat come once part 2 is told.
            #expect(kinds == ["prose", "prose", "story_outline", "prose"])
            let outline = try #require(await store.outline())
            #expect(outline.title == "The Brave Duckling")
            #expect(outline.beats == [1: "Dot the duckling leaves the pond.", 2: "Dot meets the grey heron.", 3: "Dot swims home at dusk."])
            #expect(await store.part(2)?.beat == "Dot meets the grey heron.", "a part told before the outline gets its line")
            let asked = server.requests[2].json?["response_format"]?["json_schema"]?["schema"]?["properties"]?.objectValue
            #expect(Set(asked?.keys ?? [:].keys) == ["title", "part_1", "part_2", "part_3"], "a line for each part by name")
            #expect(asked?["part_3"]?["maxLength"] == 120, "lines that cannot run on")
            let outlineRequest = Teller.userMessage(server.requests[2])
            // The story so far by how each part ended: its last 80 words, not its whole text.
            let two = try #require(await store.part(2))
            #expect(outlineRequest.contains("Part 1: " + JourneyTeller.ending(of: one.text, words: 80)) && outlineRequest.contains("Part 2: " + JourneyTeller.ending(of: two.text, words: 80)), "the story so far")
            let partTwo = try #require(server.requests.first { Teller.userMessage($0).contains("Write part 2") })
            let partThree = try #require(server.requests.first { Teller.userMessage($0).contains("Write part 3") })
            #expect(Teller.userMessage(partTwo).contains("number 5."), "how part 1 ended")
            #expect(Teller.userMessage(partThree).contains("Dot swims home at dusk."), "its beat")
            // Who the story is about, which the last part's ending may not name.
            let began = try #require(JourneyTeller.beginning(of: one.text, unlessIn: nil))
            #expect(began.hasPrefix("Then Dot the duckling walked along river 16007") && SpokenProse.wordCount(began) >= 40 && SpokenProse.wordCount(began) < 60)
            #expect(Teller.userMessage(partThree).contains("How the story began: “\(began)”"))
            #expect(Teller.userMessage(partThree).contains("This is the last part"))
            // The story's requests share one system message, the outline's another, and the two
            // differ from their first word (a local server gives each the slot that shares most of it).
            let systems = Dictionary(grouping: server.requests) { Teller.schemaName($0) == nil }
                .mapValues { Set($0.compactMap { $0.json?["messages"]?[0]?["content"]?.stringValue?.components(separatedBy: "\n\nAnswer with").first }) }
            #expect(systems[true]?.count == 1 && systems[false]?.count == 1, "\(systems)")
            #expect(systems[true]?.first?.split(separator: " ").first != systems[false]?.first?.split(separator: " ").first)
            let parts = await store.allParts
            #expect(parts.map(\.number) == [1, 2, 3] && parts.allSatisfy { $0.status == .ready })
            #expect(parts[2].text.contains("Dot at home"))
        }
    }

    @Test("part 1 begins with the journey's spoken title, voiced before the model's first sentence; it is heard, never given to the model as story")
    func announcementComesFirst() async throws {
        let store = Teller.store()
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(Teller.prose("Dot", sentences: 30)) }) { server in
            let spoken = LockedValue<[String]>([])
            let teller = try Teller.teller(server, parts: 3, store: store) { text in
                spoken.withLock { $0.append(text) }
                return try await Teller.speak(text)
            }
            let one = try await teller.tell(part: 1)
            let announcement = "A children’s story for your 3-minute walk from Carfax to Magdalen Bridge."
            #expect(spoken.value.first == announcement, "voiced first")
            #expect(one.sentences.first?.text == announcement && one.sentences.first?.isAnnouncement == true)
            let wav = try Data(contentsOf: store.folder.appendingPathComponent(try #require(one.sentences.first).file))
            #expect(try WAV.decode(wav).durationSeconds > 1)
            #expect(one.storySentences.count == one.sentences.count - 1 && one.storySentences.allSatisfy { !$0.isAnnouncement })
            #expect(!one.text.contains("for your") && one.text.hasPrefix("Then Dot walked"))
            // The voice's pace is its words over the story's seconds, not the title's too.
            #expect(one.storySeconds < one.durationSeconds)
            #expect(JourneyTeller.pace(of: one) == min(220, max(90, Double(one.words) / one.storySeconds * 60)))
            let two = try await teller.tell(part: 2)
            #expect(two.sentences.allSatisfy { !$0.isAnnouncement }, "only part 1 has one")
            #expect(server.requests.allSatisfy { !Teller.userMessage($0).contains("for your") }, "never part of a prompt")
            // Kept as it was told: a part read back from the store still knows its announcement.
            #expect(try await store.part(1)?.sentences.first?.isAnnouncement == true)
            // As the database keeps sentences: the mark survives, and sentences kept before it existed read as story.
            #expect(try JSONDecoder().decode([PartSentence].self, from: JSONEncoder().encode(one.sentences)) == one.sentences)
            let older = try JSONDecoder().decode([PartSentence].self, from: Data(#"[{"text":"Hi.","file":"a.wav","duration_s":1}]"#.utf8))
            #expect(older.first?.isAnnouncement == false)
        }
    }

    /// As the model on this machine answered (2026-12-04): the story so far copied into the
    /// outline, and the next part's line going on from it, cut at the length limit.
    @Test("lines that copy the story are no beats: their parts are told from the story so far, and not asked for again")
    func copiedLinesAreNoBeats() async throws {
        let store = Teller.store()
        try await LoopbackServer.withServer(handler: { request in
            switch Teller.schemaName(request) {
            case "story_outline":
                Teller.json(["title": "The Brave Duckling", "part_1": "Then Dot the duckling walked along river 16007 for a while.",
                             "part_2": "Dot meets the grey heron.", "part_3": "for a while, and then the duckling walked along the river again"], request)
            case "story_acts": Teller.keyed(request) { "In \($0.replacingOccurrences(of: "_", with: " ")) Dot and the heron cross the marsh." }
            case "story_beats": Teller.keyed(request) { _ in "Dot and the heron find the reeds." }
            default: Teller.streamed(Teller.prose(Teller.userMessage(request).contains("Write part") ? "the heron" : "Dot the duckling", sentences: 30))
            }
        }) { server in
            let teller = try Teller.teller(server, parts: 4, store: store)
            for part in 1...4 { try await teller.tell(part: part) }
            let kinds = server.requests.map { Teller.schemaName($0) ?? "prose" }
            #expect(kinds == ["prose", "prose", "story_outline", "prose", "story_acts", "story_beats", "prose"], "part 3's beat is not asked for again")
            let outline = try #require(await store.outline())
            #expect(outline.beats == [2: "Dot meets the grey heron.", 4: "Dot and the heron find the reeds."])
            #expect(outline.unplanned == [3])
            let one = try await store.part(1), three = try await store.part(3)
            #expect(one?.beat == nil && three?.beat == nil)
            let partThree = try #require(server.requests.map(Teller.userMessage).first { $0.contains("Write part 3") })
            #expect(!partThree.contains("What happens in it") && partThree.contains("Part 2 ended"), "told from its stage and how part 2 ended")
            #expect((await store.allParts).allSatisfy { $0.status == .ready && !$0.fallback })
        }
    }

    @Test("the acts' lines are written once part 3 is told, and the beats after them follow them")
    func actsAfterPartThree() async throws {
        let store = Teller.store()
        let acts = StoryArc.acts(parts: 5).count
        try await LoopbackServer.withServer(handler: { request in
            switch Teller.schemaName(request) {
            case "story_outline": Teller.json(["title": "The Brave Duckling", "part_1": "Dot leaves the pond.", "part_2": "Dot paddles on.", "part_3": "Dot meets the heron."], request)
            case "story_acts": Teller.keyed(request) { "In \($0.replacingOccurrences(of: "_", with: " ")) Dot and the heron cross the marsh." }
            case "story_beats": Teller.keyed(request) { _ in "Dot and the heron find the reeds." }
            default: Teller.streamed(Teller.prose("Dot", sentences: 30))
            }
        }) { server in
            let teller = try Teller.teller(server, parts: 5, store: store)
            for part in 1...3 { try await teller.tell(part: part) }
            let kinds = server.requests.map { Teller.schemaName($0) ?? "prose" }
            #expect(kinds == ["prose", "prose", "story_outline", "prose", "story_acts", "story_beats"])
            let outline = try #require(await store.outline())
            #expect(outline.actSummaries.count == acts && outline.beats[3] == "Dot meets the heron." && outline.beats[4] == "Dot and the heron find the reeds.")
            // The beats came after the acts' lines, and follow them.
            let beats = try #require(server.requests.firstIndex { Teller.schemaName($0) == "story_beats" })
            #expect(try #require(server.requests.firstIndex { Teller.schemaName($0) == "story_acts" }) < beats)
            #expect(Teller.userMessage(server.requests[beats]).contains("In act 1 Dot and the heron cross the marsh."))
            // Every planning request starts alike (the trip, the style, the arc): the model's
            // cache keeps that read, and each reads only what follows.
            let preamble = StoryPrompts(plan: teller.plan, style: teller.style).planningPreamble
            let planning = server.requests.filter { Teller.schemaName($0) != nil }.map(Teller.userMessage)
            #expect(planning.count == 3 && planning.allSatisfy { $0.hasPrefix(preamble + "\n\n") })
        }
    }

    @Test("the next part is as long as a minute in this voice, measured on the part before it")
    func paceIsMeasured() async throws {
        let store = Teller.store()
        try await LoopbackServer.withServer(handler: { request in
            switch Teller.schemaName(request) {
            case "story_outline": Teller.json(["title": "T", "part_1": "P.", "part_2": "Beat."], request)
            case "story_beats": Teller.keyed(request) { _ in "Beat." }
            default: Teller.streamed(Teller.prose("Dot", sentences: 30))
            }
        }) { server in
            let teller = try Teller.teller(server, parts: 2, store: store)
            let one = try await teller.tell(part: 1)
            try await teller.tell(part: 2)
            // The story's words over the story's seconds (the spoken title is not the story);
            let pace = Double(one.words) / one.storySeconds * 60
            // a minute at espeak's pace, and what part 1 (the title included) fell short of its minute.
            let expected = JourneyTeller.words(pace: min(220, max(90, pace)), seconds: 120 - one.durationSeconds)
            #expect(Teller.userMessage(server.requests[0]).contains("About 60 words"), "the plan's pace for part 1")
            let partTwo = try #require(server.requests.map(Teller.userMessage).first { $0.contains("Write part 2") })
            #expect(partTwo.contains("About \(expected) words"), "espeak's measured pace for part 2")
            #expect(expected != 60)
        }
    }

    @Test("the story's beginning is whole sentences to about 40 words, left out when the last part's ending holds it")
    func beginningOfTheStory() {
        let text = "Elara set out at dawn. " + (1...10).map { "She walked past the mill number \($0) and on." }.joined(separator: " ")
        let beginning = JourneyTeller.beginning(of: text, unlessIn: nil)
        #expect(beginning?.hasPrefix("Elara set out at dawn. She walked past the mill number 1 and on.") == true)
        #expect(beginning.map(SpokenProse.wordCount) == 41)
        #expect(JourneyTeller.beginning(of: "Elara set out at dawn.", unlessIn: "Elara set out at dawn.") == nil)
    }

    @Test("a part short of its minute makes the next one longer, within 30–90 s")
    func shortPartsAreMadeUp() {
        #expect(JourneyTeller.words(pace: 150, seconds: 60) == 150)
        #expect(JourneyTeller.words(pace: 150, seconds: 80) == 200)
        #expect(JourneyTeller.words(pace: 150, seconds: 200) == 225)
        #expect(JourneyTeller.words(pace: 150, seconds: 5) == 75)
    }

    @Test("a part stops at the first sentence end past its words, so the story does not outlast the trip")
    func partsStopAtTheirLength() async throws {
        let store = Teller.store()
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(Teller.prose("Dot", sentences: 30)) }) { server in
            // 60 words a minute: six sentences of eleven words are enough.
            let part = try await Teller.teller(server, parts: 2, store: store).tell(part: 1)
            #expect(part.storySentences.count == 6)
            #expect(part.words >= 60 && part.words < 72)
        }
    }

    @Test("the model is stopped once the text has its words, not once the voice has caught up with it")
    func modelStopsBeforeTheVoiceCatchesUp() async throws {
        let store = Teller.store()
        // A long answer, streamed slowly: the model would go on writing if it were not stopped.
        let answer = VendorWire.streamed(.openai, pieces: VendorWire.pieces(of: Teller.prose("Dot", sentences: 200), every: 17), pause: .milliseconds(5))
        try await LoopbackServer.withServer(handler: { _ in answer }) { server in
            let stoppedFirst = Mutex<Bool?>(nil)
            // The voice speaks its first sentence only once the model's stream was hung up on.
            let speak: @Sendable (String) async throws -> Data = { text in
                if !text.contains("for your"), stoppedFirst.withLock({ $0 }) == nil {
                    let stopped = await eventually(timeout: 30) { server.abandoned >= 1 }
                    stoppedFirst.withLock { $0 = stopped }
                }
                return try await Teller.speak(text)
            }
            let part = try await Teller.teller(server, parts: 2, store: store, speak: speak).tell(part: 1)
            #expect(stoppedFirst.withLock { $0 } == true, "the answer was read to its words before the first sentence was voiced")
            #expect(part.storySentences.count == 6)
        }
    }

    @Test("JSON instead of prose is never spoken: the part is written again")
    func dataIsWrittenAgain() async throws {
        let store = Teller.store()
        let answers = Mutex([Teller.streamed(#"{"text": "Once upon a time there was a duck."}"#), Teller.streamed(Teller.prose("Dot", sentences: 6))])
        try await LoopbackServer.withServer(handler: { _ in answers.withLock { $0.removeFirst() } }) { server in
            let part = try await Teller.teller(server, parts: 1, store: store).tell(part: 1)
            #expect(server.requests.count == 2)
            #expect(part.status == .ready && !part.fallback)
            #expect(!part.text.contains("{") && part.text.contains("Dot walked"))
        }
    }

    @Test("a part that stops short is gone on with once, from where it stopped; what was voiced is kept")
    func shortPartsAreContinued() async throws {
        let store = Teller.store()
        let answers = Mutex([Teller.streamed(Teller.prose("Dot", sentences: 2)), Teller.streamed(Teller.prose("the heron", sentences: 30))])
        try await LoopbackServer.withServer(handler: { _ in answers.withLock { $0.removeFirst() } }) { server in
            let part = try await Teller.teller(server, parts: 3, store: store).tell(part: 1)
            #expect(server.requests.count == 2)
            let again = Teller.userMessage(server.requests[1])
            #expect(again.contains("so far ends") && again.contains("number 2."), "it goes on from the first answer's end")
            #expect(part.storySentences.prefix(2).allSatisfy { $0.text.contains("Dot walked") })
            #expect(part.storySentences.dropFirst(2).allSatisfy { $0.text.contains("the heron walked") })
            #expect(part.words >= 60 && part.status == .ready)
        }
    }

    @Test("a refusal is not told as the story: the part is written again, then told from its beat")
    func refusalsAreNotTold() async throws {
        let store = Teller.store()
        await store.save(StoryOutline(title: "T", actSummaries: ["A.", "B."], beats: [1: "Dot leaves.", 2: "Dot paddles home past the mill."]))
        await store.save(JourneyPart(number: 1, status: .ready, sentences: []))
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed("I'm sorry, but I can't assist with that request. Is there anything else?") }) { server in
            let part = try await Teller.teller(server, parts: 2, store: store).tell(part: 2)
            #expect(server.requests.count == 6, "written twice on each of three tries")
            #expect(part.fallback && part.text == "Dot paddles home past the mill.")
        }
    }

    @Test("a model that loops: a repeated sentence is not said again, and the second repeat ends the part")
    func repeatsAreNotSaid() async throws {
        let store = Teller.store()
        let loop = Teller.prose("Dot", sentences: 3) + " " + Array(repeating: "The water was cold and dark and deep that night.", count: 9).joined(separator: " ")
        let answers = Mutex([Teller.streamed(loop), Teller.streamed(Teller.prose("the heron", sentences: 30))])
        // After the part, the outline (not read here).
        try await LoopbackServer.withServer(handler: { _ in answers.withLock { $0.isEmpty ? VendorWire.error(.openai, status: 500, message: "no more") : $0.removeFirst() } }) { server in
            let part = try await Teller.teller(server, parts: 2, store: store).tell(part: 1)
            let texts = part.sentences.map(\.text)
            #expect(texts.filter { $0.hasPrefix("The water was cold") }.count == 1, "\(texts)")
            #expect(Set(texts).count == texts.count)
        }
    }

    @Test("headings and Markdown are not read out; a sentence cut off by the token limit is dropped")
    func speakableOnly() async throws {
        let store = Teller.store()
        let text = "Part 1: The Pond\n\n" + Teller.prose("*Dot*", sentences: 6) + " And then she saw the"
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(text) }) { server in
            let part = try await Teller.teller(server, parts: 1, store: store).tell(part: 1)
            #expect(part.storySentences.count == 6)
            #expect(part.storySentences.allSatisfy { !$0.text.contains("Part 1") && !$0.text.contains("*") })
            #expect(!part.text.hasSuffix("saw the"))
        }
    }

    @Test("a part the model keeps failing is retried, then told from its beat; the story goes on")
    func fallsBackToTheBeat() async throws {
        let store = Teller.store()
        await store.save(StoryOutline(title: "T", actSummaries: ["Dot sets out.", "Dot comes home."], beats: [1: "Dot leaves.", 2: "Dot paddles home past the mill."]))
        await store.save(JourneyPart(number: 1, status: .ready, sentences: []))
        try await LoopbackServer.withServer(handler: { _ in VendorWire.error(.openai, status: 500, message: "overloaded") }) { server in
            let part = try await Teller.teller(server, parts: 2, store: store).tell(part: 2)
            #expect(server.requests.count == 3, "three tries")
            #expect(part.fallback && part.status == .ready && part.attempts == 3)
            #expect(part.text == "Dot paddles home past the mill.")
            #expect(part.sentences.count == 1 && part.sentences[0].durationSeconds > 1)
        }
    }

    @Test("an outline the model cannot write readably does not stop the story: the part is written from the one before")
    func unreadableOutline() async throws {
        let store = Teller.store()
        try await LoopbackServer.withServer(handler: { request in
            // The acts come back cut off, every time; the prose is fine.
            Teller.schemaName(request) != nil
                ? VendorWire.success(.openai, answer: #"{"title": "The Mill"#, for: request)
                : Teller.streamed(Teller.prose("Dot", sentences: 8))
        }) { server in
            let teller = try Teller.teller(server, parts: 2, store: store)
            _ = try await teller.tell(part: 1)
            let part = try await teller.tell(part: 2)
            #expect(part.status == .ready && !part.fallback)
            #expect(part.text.contains("Dot walked"))
            let written = try #require(server.requests.map(Teller.userMessage).first { $0.contains("Write part 2 of 2") })
            #expect(written.contains("Part 1 ended"), "from how part 1 ended: \(written)")
            #expect(!written.contains("Its plan:"), "with no outline")
        }
    }

    @Test("a voice that fails stops the story with a message that says what to do")
    func voiceFailure() async throws {
        let store = Teller.store()
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(Teller.prose("Dot", sentences: 6)) }) { server in
            let teller = try Teller.teller(server, parts: 1, store: store, speak: { _ in throw CocoaError(.fileReadCorruptFile) })
            do {
                try await teller.tell(part: 1)
                Issue.record("a failing voice told a part")
            } catch let error as JourneyTellError {
                #expect(error.description.contains("Choose another voice"))
            }
        }
    }

    @Test("a part left half-told (a stopped server, the part before read on into it) is gone on with from its end: what was voiced may be heard")
    func resumesAfterARestart() async throws {
        let store = Teller.store()
        let kept = try await store.writeAudio(try await Teller.speak("An old sentence."), part: 1, sentence: 0)
        await store.save(JourneyPart(number: 1, sentences: [PartSentence(text: "An old sentence.", file: kept, durationSeconds: 1)]))
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(Teller.prose("Dot", sentences: 6)) }) { server in
            var teller = try Teller.teller(server, parts: 1, store: store)
            teller.listener = { ListenerPosition(part: 1) }
            let part = try await teller.tell(part: 1)
            #expect(part.status == .ready && part.text.hasPrefix("An old sentence. Then Dot walked"))
            #expect(FileManager.default.fileExists(atPath: store.folder.appendingPathComponent(kept).path))
            #expect(server.requests.count == 1)
            let asked = Teller.userMessage(server.requests[0])
            #expect(asked.contains("Part 1 of 1 so far ends: “An old sentence.”"), "went on from its end: \(asked)")
        }
    }
}
