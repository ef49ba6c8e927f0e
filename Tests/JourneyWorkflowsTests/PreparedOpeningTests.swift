import Foundation
@testable import JourneyWorkflows
import Journeys
import LanguageModels
import Synchronization
import TestSupport
import Testing

/// The opening written while the user looks at the plan: the teller of the journey started
/// with the same choices tells it without asking the model again; any other choice does not.
@Suite struct PreparedOpeningTests {
    let owner = UUID()

    /// A teller as the server builds one: the prepared answer for the opening, the prepared
    /// audio for its first sentences; `spoken` counts the sentences it had to voice itself.
    func teller(_ server: LoopbackServer, openings: PreparedOpenings, owner: UUID, store: MemoryJourneyStore, style: StoryStyle,
                spoken: LockedValue<[String]> = LockedValue([])) -> JourneyTeller {
        JourneyTeller(
            plan: Teller.plan(parts: 3), style: style, model: Teller.model(server),
            speak: { [spoken] text in
                if let wav = await openings.voicedSentence(owner: owner, voice: "espeak-ng:en-us", text: text) { return wav }
                spoken.withLock { $0.append(text) }
                return try await Teller.speak(text)
            },
            store: store, backoff: { _ in 0 },
            prepared: { request in await openings.take(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: request) }, logger: Teller.quiet)
    }

    @Test("a prepared opening is told by the journey started with the same choices, asked of the model once")
    func preparedOpeningIsTold() async throws {
        let openings = PreparedOpenings()
        let style = try StoryStyle(.childrens)
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(Teller.prose("Dot", sentences: 8)) }) { server in
            let request = JourneyTeller.openingRequest(plan: Teller.plan(parts: 3), style: style)
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: request, using: Teller.model(server), speak: Teller.speak))
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: request, using: Teller.model(server), speak: Teller.speak) == false,
                    "the same opening is not asked for twice")
            #expect(await eventually { server.requests.count == 1 })
            #expect(await eventually { await openings.voicedCount(for: owner) == 2 }, "its first two sentences are voiced ahead")
            let spoken = LockedValue<[String]>([])
            let part = try await teller(server, openings: openings, owner: owner, store: Teller.store(), style: style, spoken: spoken).tell(part: 1)
            #expect(server.requests.count == 1, "the teller asked the model nothing more")
            #expect(part.status == .ready && part.text.hasPrefix("Then Dot walked along river 3007 for a while, number 1."))
            // The teller voices the announcement (sentence 0) and the story after the two made ahead.
            #expect(part.storySentences.count > 2 && spoken.value == [part.sentences[0].text] + part.storySentences.dropFirst(2).map(\.text),
                    "the first two sentences' audio was made ahead, the rest by the teller")
            #expect(await openings.hasOpening(for: owner) == false, "taken once")
        }
    }

    @Test("the journey's spoken title is voiced with the opening, first, so that starting after the plan is heard at once")
    func announcementIsVoicedAhead() async throws {
        let openings = PreparedOpenings()
        let style = try StoryStyle(.childrens)
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(Teller.prose("Dot", sentences: 8)) }) { server in
            let plan = Teller.plan(parts: 3)
            let title = JourneyAnnouncement.text(for: plan, style: style)
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: JourneyTeller.openingRequest(plan: plan, style: style),
                                           using: Teller.model(server), announcement: title, speak: Teller.speak))
            #expect(await eventually { await openings.voicedCount(for: owner) == 3 }, "the title and the first two sentences")
            let spoken = LockedValue<[String]>([])
            let part = try await teller(server, openings: openings, owner: owner, store: Teller.store(), style: style, spoken: spoken).tell(part: 1)
            #expect(part.sentences.first?.text == title && part.sentences.first?.isAnnouncement == true)
            #expect(!spoken.value.contains(title), "the teller found the title's audio made")
            #expect(spoken.value == part.storySentences.dropFirst(2).map(\.text))
        }
    }

    @Test("an opening prepared as due soon is the same opening the teller asks for when it is due now")
    func preparedPriorityIsNoOtherOpening() async throws {
        let openings = PreparedOpenings()
        let style = try StoryStyle(.childrens)
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(Teller.prose("Dot", sentences: 8)) }) { server in
            let request = JourneyTeller.openingRequest(plan: Teller.plan(parts: 3), style: style).with(.due(Date().addingTimeInterval(PreparedOpenings.dueAfter)))
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: request, using: Teller.model(server), speak: Teller.speak))
            var teller = teller(server, openings: openings, owner: owner, store: Teller.store(), style: style)
            teller.listener = { ListenerPosition(part: 1) }
            let part = try await teller.tell(part: 1)
            #expect(server.requests.count == 1, "the teller took the prepared answer")
            #expect(part.status == .ready && part.text.hasPrefix("Then Dot walked"))
        }
    }

    @Test("a journey started while the opening's first sentence is being voiced waits for that audio instead of voicing it again")
    func aSentenceBeingVoicedIsAwaited() async throws {
        let openings = PreparedOpenings()
        let style = try StoryStyle(.childrens)
        let voicing = LockedValue(0)
        let released = LockedValue(false)
        let slowVoice: @Sendable (String) async throws -> Data = { text in
            voicing.withLock { $0 += 1 }
            // The voice is busy until the teller has asked for the first sentence.
            while !released.value { try await Task.sleep(for: .milliseconds(10)) }
            return try await Teller.speak(text)
        }
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(Teller.prose("Dot", sentences: 8)) }) { server in
            let request = JourneyTeller.openingRequest(plan: Teller.plan(parts: 3), style: style)
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: request, using: Teller.model(server), speak: slowVoice))
            #expect(await eventually { voicing.value == 1 }, "the first sentence is being voiced")
            let spoken = LockedValue<[String]>([])
            let telling = Task { try await teller(server, openings: openings, owner: owner, store: Teller.store(), style: style, spoken: spoken).tell(part: 1) }
            try await Task.sleep(for: .milliseconds(200))
            released.withLock { $0 = true }
            let part = try await telling.value
            #expect(part.status == .ready && part.storySentences.count > 2)
            #expect(spoken.value == [part.sentences[0].text] + part.storySentences.dropFirst(2).map(\.text), "the first two sentences were voiced once, ahead")
        }
    }

    @Test("another user's journey, or one of another style, is not given the prepared opening")
    func otherChoicesAskTheModel() async throws {
        let openings = PreparedOpenings()
        let asked = Mutex(0)
        try await LoopbackServer.withServer(handler: { _ in
            let n = asked.withLock { $0 += 1; return $0 }
            return Teller.streamed(Teller.prose(n == 1 ? "the owl" : "Dot", sentences: 8))
        }) { server in
            let noir = try StoryStyle(.noir)
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: JourneyTeller.openingRequest(plan: Teller.plan(parts: 3), style: noir), using: Teller.model(server), speak: Teller.speak))
            #expect(await eventually { server.requests.count == 1 })
            let stranger = try await teller(server, openings: openings, owner: UUID(), store: Teller.store(), style: noir).tell(part: 1)
            #expect(!stranger.text.contains("the owl"), "another user's journey asks the model itself")
            let childrens = try await teller(server, openings: openings, owner: owner, store: Teller.store(), style: try StoryStyle(.childrens)).tell(part: 1)
            #expect(!childrens.text.contains("the owl"), "another style asks the model itself")
            #expect(await openings.hasOpening(for: owner) == false, "and drops the prepared one: the user chose otherwise")
        }
    }

    @Test("a prepare that arrives after its journey started (the start overtook it) writes nothing")
    func aLatePrepareIsNotWritten() async throws {
        let openings = PreparedOpenings()
        let style = try StoryStyle(.historical)
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(Teller.prose("Dot", sentences: 8)) }) { server in
            let teller = teller(server, openings: openings, owner: owner, store: Teller.store(), style: style)
            let telling = Task { try await teller.tell(part: 1) }
            // The teller has looked for a prepared opening once its own request is out.
            #expect(await eventually { server.requests.count == 1 })
            let request = JourneyTeller.openingRequest(plan: Teller.plan(parts: 3), style: style)
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: request, using: Teller.model(server), speak: Teller.speak) == false)
            _ = try await telling.value
            #expect(server.requests.count == 1, "only the teller asked the model")
        }
    }

    @Test("a prepared opening whose model failed is asked again by the teller")
    func failedPreparationIsAskedAgain() async throws {
        let openings = PreparedOpenings()
        let style = try StoryStyle(.fantasy)
        let answers = Mutex([VendorWire.error(.openai, status: 500, message: "overloaded"), Teller.streamed(Teller.prose("Dot", sentences: 8))])
        try await LoopbackServer.withServer(handler: { _ in answers.withLock { $0.removeFirst() } }) { server in
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: JourneyTeller.openingRequest(plan: Teller.plan(parts: 3), style: style), using: Teller.model(server), speak: Teller.speak))
            let part = try await teller(server, openings: openings, owner: owner, store: Teller.store(), style: style).tell(part: 1)
            #expect(server.requests.count == 2)
            #expect(part.status == .ready && !part.fallback && part.text.contains("Dot walked"))
        }
    }

    @Test("an opening nobody starts is dropped after its lifetime")
    func unusedOpeningsAreDropped() async throws {
        let openings = PreparedOpenings(lifetime: .milliseconds(200))
        let noir = try StoryStyle(.noir)
        try await LoopbackServer.withServer(handler: { _ in Teller.streamed(Teller.prose("Dot", sentences: 8)) }) { server in
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: JourneyTeller.openingRequest(plan: Teller.plan(parts: 3), style: noir), using: Teller.model(server), speak: Teller.speak))
            #expect(await eventually { await openings.hasOpening(for: owner) == false })
        }
    }

    @Test("an opening replaced by other choices is hung up on: the model stops writing it")
    func replacedOpeningsAreHungUpOn() async throws {
        let openings = PreparedOpenings()
        var slow = Teller.streamed(Teller.prose("Dot", sentences: 40))
        slow.pieceDelay = .milliseconds(100)
        let plan = Teller.plan(parts: 3)
        try await LoopbackServer.withServer(handler: { [slow] _ in slow }) { server in
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: JourneyTeller.openingRequest(plan: plan, style: try! StoryStyle(.noir)), using: Teller.model(server), speak: Teller.speak))
            #expect(await eventually { server.requests.count == 1 })
            #expect(await openings.prepare(owner: owner, modelSpec: "local", voice: "espeak-ng:en-us", request: JourneyTeller.openingRequest(plan: plan, style: try! StoryStyle(.fantasy)), using: Teller.model(server), speak: Teller.speak))
            #expect(await eventually { server.abandoned >= 1 }, "the first answer's stream was hung up on")
        }
    }
}
