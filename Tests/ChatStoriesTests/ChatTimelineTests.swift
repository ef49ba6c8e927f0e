import ChatStories
import Foundation
import Testing

/// The timeline is the video's script: these golden files are what the video and the preview
/// play. `STORYVOICE_RECORD_GOLDENS=1` rewrites them (review the diff before committing).
struct ChatTimelineTests {
    static let conversation = ChatConversation(
        id: "golden", title: "Golden",
        characters: [
            ChatCharacter(id: "me", name: "Me", color: "#007AFF", isMe: true),
            ChatCharacter(id: "alex", name: "Alex", color: "#34C759", isMe: false),
        ],
        messages: [
            ChatMessage(id: "m1", characterID: "alex", text: "Hi 👋"),
            ChatMessage(id: "m2", characterID: "me", text: "Hey!"),
            ChatMessage(id: "m3", characterID: "me", text: "👨‍👩‍👧 ok"),
            ChatMessage(id: "m4", characterID: "alex", text: "bye"),
        ]
    )

    @Test(arguments: [
        ("normal-everything", ChatExportSettings()),
        ("fast-plain", ChatExportSettings(typingSpeed: .fast, keyboard: false, typingIndicator: false, sounds: false)),
        ("slow-no-keyboard", ChatExportSettings(typingSpeed: .slow, keyboard: false)),
    ])
    func matchesItsGoldenFile(name: String, settings: ChatExportSettings) throws {
        let timeline = ChatTimeline(conversation: Self.conversation, settings: settings)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let actual = String(decoding: try encoder.encode(timeline), as: UTF8.self) + "\n"
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens/\(name).timeline.json")
        if ProcessInfo.processInfo.environment["STORYVOICE_RECORD_GOLDENS"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "timeline \(name) differs from Goldens/\(name).timeline.json")
        #expect(try JSONDecoder().decode(ChatTimeline.self, from: Data(expected.utf8)) == timeline)
    }

    @Test func typingCountsWhatAReaderSeesAsCharacters() {
        let timeline = ChatTimeline(conversation: Self.conversation, settings: ChatExportSettings())
        let typedThird = timeline.events.compactMap { event -> Int? in
            if case .typed(2, let count) = event.kind { count } else { nil }
        }
        // "👨‍👩‍👧 ok" is four characters: the family emoji is one, not five scalars.
        #expect(typedThird == [1, 2, 3, 4])
    }

    @Test func receivedMessagesFollowTheirIndicatorAndSentOnesTheirTyping() {
        let settings = ChatExportSettings()
        let timeline = ChatTimeline(conversation: Self.conversation, settings: settings)
        let kinds = timeline.events.map(\.kind)
        let shown = kinds.firstIndex(of: .indicatorShown(character: "alex"))!
        let firstSent = kinds.firstIndex(of: .sent(message: 0))!
        #expect(shown < firstSent)
        let at = { (kind: ChatTimelineEvent.Kind) in timeline.events.first { $0.kind == kind }!.atMS }
        #expect(at(.sent(message: 0)) - at(.indicatorShown(character: "alex")) == ChatTimeline.indicatorMS)
        // "Hey!" types four characters 50 ms apart, then is sent.
        #expect(at(.typed(message: 1, count: 4)) - at(.typed(message: 1, count: 1)) == 150)
        #expect(at(.sent(message: 1)) == at(.typed(message: 1, count: 4)) + ChatTimeline.sendDelayMS)
        // The next message starts after a pause ten times a character's time.
        #expect(at(.typed(message: 2, count: 1)) == at(.sent(message: 1)) + 500 + 50)
        // The keyboard stays up between two messages of "me" and goes down after them.
        #expect(kinds.filter { $0 == .keyboardShown }.count == 1)
        #expect(at(.keyboardHidden) == at(.sent(message: 2)))
        #expect(timeline.durationMS == at(.sent(message: 3)) + 500 + ChatTimeline.outroMS)
    }

    @Test func soundsPlayWhenMessagesAppear() {
        let timeline = ChatTimeline(conversation: Self.conversation, settings: ChatExportSettings(keyboard: false))
        let sounds = timeline.sounds
        #expect(sounds.map(\.sound) == [.received, .sent, .sent, .received])
        let sentTimes = timeline.events.filter { if case .sent = $0.kind { true } else { false } }.map(\.atMS)
        #expect(sounds.map(\.atMS) == sentTimes)
        #expect(ChatTimeline(conversation: Self.conversation, settings: ChatExportSettings(sounds: false)).sounds.isEmpty)
    }

    @Test func theSceneAtAMomentIsWhatTheEventsSoFarMake() {
        let timeline = ChatTimeline(conversation: Self.conversation, settings: ChatExportSettings())
        var cursor = ChatSceneCursor(timeline)
        #expect(cursor.scene(atMS: 0) == ChatScene())
        let indicator = cursor.scene(atMS: ChatTimeline.introMS + 10)
        #expect(indicator.indicator == "alex" && indicator.sentCount == 0)
        let typing = timeline.events.first { $0.kind == .typed(message: 1, count: 2) }!.atMS
        let scene = cursor.scene(atMS: typing)
        #expect(scene.sentCount == 1 && scene.indicator == nil && scene.keyboard)
        #expect(scene.typing?.message == 1 && scene.typing?.count == 2)
        let end = cursor.scene(atMS: timeline.durationMS)
        #expect(end.sentCount == 4 && end.typing == nil && !end.keyboard)
        #expect(timeline.frameCount(fps: 30) == (timeline.durationMS * 30 + 999) / 1000)
    }
}
