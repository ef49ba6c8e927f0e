import ChatStories
import Foundation
import Testing

struct ChatValidationTests {
    private func conversation(_ edit: (inout ChatConversation) -> Void) -> ChatConversation {
        var conversation = ChatConversation(
            title: "T", characters: [
                ChatCharacter(id: "me", name: "Me", color: "#007AFF", isMe: true),
                ChatCharacter(id: "a", name: "Alex", color: "#34C759", isMe: false),
            ],
            messages: [ChatMessage(characterID: "a", text: "hi")]
        )
        edit(&conversation)
        return conversation
    }

    private func error(_ conversation: ChatConversation, export: Bool = false) -> ChatStoryError? {
        do {
            if export { try conversation.validateForExport() } else { try conversation.validate() }
            return nil
        } catch {
            return error
        }
    }

    @Test func aSoundConversationPasses() {
        #expect(error(conversation { _ in }, export: true) == nil)
        #expect(error(ChatConversation(title: "New")) == nil, "a new conversation (no messages yet) can be kept")
    }

    @Test func eachMistakeIsNamedWithWhatToDo() {
        let cases: [(ChatConversation, ChatStoryError, Bool)] = [
            (conversation { $0.messages = [] }, .noMessages, true),
            (conversation { $0.characters.removeLast() }, .tooFewCharacters(1), false),
            (conversation { $0.characters[0].isMe = false }, .noSender, false),
            (conversation { $0.characters[1].isMe = true }, .severalSenders(["Me", "Alex"]), false),
            (conversation { $0.characters[1].id = "me" }, .duplicateCharacterID("me"), false),
            (conversation { $0.characters[1].name = "  " }, .emptyName(person: "person 2"), false),
            (conversation { $0.characters[1].color = "green" }, .invalidColor(person: "Alex", color: "green"), false),
            (conversation { $0.characters[1].avatarEmoji = "ab" }, .invalidAvatar(person: "Alex"), false),
            (conversation { $0.messages[0].characterID = "ghost" }, .unknownCharacter(messageIndex: 0, characterID: "ghost"), false),
            (conversation { $0.messages[0].text = " \n" }, .emptyMessage(messageIndex: 0), false),
            (conversation { $0.messages[0].text = String(repeating: "a", count: 5_000) }, .messageTooLong(messageIndex: 0, characters: 5_000, limit: 2_000), false),
            (conversation { $0.messages = Array(repeating: ChatMessage(characterID: "a", text: "x"), count: 1_001) }, .tooManyMessages(1_001, limit: 1_000), false),
        ]
        for (conversation, expected, export) in cases {
            let actual = error(conversation, export: export)
            #expect(actual == expected)
            #expect(actual.map { $0.description.count > 30 } == true)
        }
        #expect(ChatStoryError.messageTooLong(messageIndex: 0, characters: 10_000, limit: 2_000).description
            == "Message 1 is 10,000 characters long; a message can be at most 2,000. Split it into shorter messages.")
        #expect(ChatStoryError.emptyName(person: "person 2").description.hasPrefix("Person 2 has no name."))
        #expect(ChatStoryError.invalidColor(person: "Alex", color: "green").description.contains("of Alex is not a colour"))
    }

    @Test func avatarsAreOneEmojiHoweverManyScalars() {
        for avatar in ["🦊", "👨‍👩‍👧", "🇫🇷", "👍🏽", "❤️"] {
            #expect(error(conversation { $0.characters[1].avatarEmoji = avatar }) == nil, "\(avatar)")
        }
        for avatar in ["A", "🦊🦊", "1"] {
            #expect(error(conversation { $0.characters[1].avatarEmoji = avatar }) == .invalidAvatar(person: "Alex"), "\(avatar)")
        }
    }

    @Test func aConversationFileRoundTripsAndItsMistakesAreSpelledOut() throws {
        let original = conversation { $0.messages.append(ChatMessage(characterID: "me", text: "Ça va? 😀")) }
        #expect(try ChatConversation.decodeFile(original.encodedFile()) == original)

        let minimal = try ChatConversation.decodeFile(Data(#"{"characters":[{"id":"me","name":"Me","is_me":true},{"id":"a","name":"A"}],"messages":[{"character_id":"a","text":"hi"}]}"#.utf8))
        #expect(minimal.theme == .imessage && minimal.title == "Untitled chat" && minimal.messages.count == 1)

        let failures: [(String, String)] = [
            ("not json", "not JSON"),
            (#"{"messages":[]}"#, "\"characters\" is missing"),
            (#"{"theme":"telegram","characters":[]}"#, "\"theme\" has a value that is not offered"),
            (#"{"characters":[{"id":"me","name":"Me"}],"messages":[{"text":"hi"}]}"#, "\"character_id\" is missing (at messages[0])"),
        ]
        for (text, expected) in failures {
            #expect(throws: ChatStoryError.self) { try ChatConversation.decodeFile(Data(text.utf8)) }
            do {
                _ = try ChatConversation.decodeFile(Data(text.utf8))
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
            }
        }
    }

    @Test func exportSettingsDefaultWhatIsLeftOutAndRefuseOtherFrameRates() throws {
        let settings = try JSONDecoder().decode(ChatExportSettings.self, from: Data(#"{"format":"youtube","dark":true}"#.utf8))
        #expect(settings == ChatExportSettings(format: .youtube, dark: true))
        #expect(throws: ChatStoryError.invalidFrameRate(24)) { try ChatExportSettings(fps: 24).validated() }
        #expect((VideoFormat.tiktok.width, VideoFormat.tiktok.height) == (1080, 1920))
        #expect((VideoFormat.youtube.width, VideoFormat.youtube.height) == (1920, 1080))
        #expect(TypingSpeed.slow.pauseAfterMessage == 0.8)
    }

    /// Limits in the units that cost: code points (what shaping reads), code points in one
    /// character (shaping one cluster costs their square), then characters; names and ids too.
    @Test func textIsBoundedInCodePointsAndCharactersBeforeItIsMeasured() {
        // The message that stalled every user's jobs: one character, 300,001 code points.
        let zalgo = "a" + String(repeating: "\u{0301}", count: 300_000)
        #expect(error(conversation { $0.messages[0].text = zalgo }) == .tooManyCodePoints(what: "Message 1", count: 300_001, limit: 8_000))
        // Within the message's code points, one character may still not hold too many.
        let heavy = "a" + String(repeating: "\u{0301}", count: 40)
        #expect(error(conversation { $0.messages[0].text = "ok " + heavy }) == .characterTooComplex(what: "Message 1", codePoints: 41, limit: 32))
        #expect(error(conversation { $0.messages[0].text = String(repeating: "\u{FE0F}", count: 9_000) }) == .tooManyCodePoints(what: "Message 1", count: 9_000, limit: 8_000))
        // What people write passes; 2,000 emoji families (5 code points each, 10,000 in all) do not,
        // but a long message with emoji, flags and accents does.
        let rich = String(repeating: "Ça va? 👨‍👩‍👧 🇫🇷 👍🏽 e\u{0301} ", count: 60)
        #expect(rich.count <= 2_000 && error(conversation { $0.messages[0].text = rich }) == nil)
        #expect(error(conversation { $0.messages[0].text = String(repeating: "👨‍👩‍👧", count: 2_000) }) == .tooManyCodePoints(what: "Message 1", count: 10_000, limit: 8_000))
        #expect(error(conversation { $0.messages[0].text = String(repeating: "👩🏻‍❤️‍💋‍👨🏼", count: 3) }) == nil, "the longest standard emoji (10 code points)")

        // Names: 500 KB was accepted; now 60 characters, 240 code points.
        #expect(error(conversation { $0.characters[1].name = String(repeating: "n", count: 500_000) }) == .tooManyCodePoints(what: "The name of person 2", count: 500_000, limit: 240))
        #expect(error(conversation { $0.characters[1].name = String(repeating: "n", count: 61) }) == .nameTooLong(person: 2, characters: 61, limit: 60))
        #expect(error(conversation { $0.characters[1].name = String(repeating: "n", count: 60) }) == nil)
        #expect(error(conversation { $0.title = String(repeating: "t", count: 201) }) == .titleTooLong(201, limit: 200))
        #expect(error(conversation { $0.title = String(repeating: "\u{0301}", count: 801) }) == .tooManyCodePoints(what: "The title", count: 801, limit: 800))
        #expect(error(conversation { $0.messages[0].id = String(repeating: "i", count: 101) }) == .idTooLong(what: "The id of message 1", limit: 100))
        #expect(error(conversation { $0.characters[1].id = String(repeating: "i", count: 101) }) == .idTooLong(what: "The id of Alex", limit: 100))

        let said = ChatStoryError.tooManyCodePoints(what: "Message 1", count: 300_001, limit: 8_000).description
        #expect(said.hasPrefix("Message 1 has 300,001 code points") && said.contains("at most 8,000"), "\(said)")
        #expect(ChatStoryError.characterTooComplex(what: "Message 2", codePoints: 41, limit: 32).description.contains("a character can have at most 32"))
        #expect(ChatStoryError.nameTooLong(person: 2, characters: 61, limit: 60).description == "The name of person 2 is 61 characters long; a name can be at most 60.")
    }

    @Test func theLengthOfAVideoIsWorkedOutWithoutItsTimeline() {
        let long = conversation { conversation in
            conversation.messages = (0..<40).map { ChatMessage(characterID: $0 % 2 == 0 ? "me" : "a", text: String(repeating: "x", count: 100 + $0)) }
        }
        for speed in TypingSpeed.allCases {
            for (keyboard, indicator) in [(true, true), (false, false)] {
                let settings = ChatExportSettings(typingSpeed: speed, keyboard: keyboard, typingIndicator: indicator)
                #expect(ChatTimeline.durationMS(of: long, settings: settings) == ChatTimeline(conversation: long, settings: settings).durationMS)
            }
        }
    }
}
