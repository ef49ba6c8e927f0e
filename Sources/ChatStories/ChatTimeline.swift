import Foundation

/// A conversation as the video plays it: every moment something changes, in milliseconds.
///
/// A pure function of the conversation and the export settings. The video's frames, its sound
/// track and the web app's preview are all read from the same timeline, so what the page shows
/// is what the video does.
public struct ChatTimeline: Sendable, Hashable, Codable {
    public var durationMS: Int
    /// In time order; events at the same moment in the order they apply.
    public var events: [ChatTimelineEvent]

    enum CodingKeys: String, CodingKey {
        case durationMS = "duration_ms"
        case events
    }

    /// The empty chat is shown this long before anything happens.
    public static let introMS = 600
    /// The "…" indicator shows this long before a received message.
    public static let indicatorMS = 500
    /// The sender's typed text stays in the input bar this long before it is sent.
    public static let sendDelayMS = 150
    /// The finished conversation stays on screen this long at the end.
    public static let outroMS = 1_500

    public init(durationMS: Int, events: [ChatTimelineEvent]) {
        self.durationMS = durationMS
        self.events = events
    }

    public init(conversation: ChatConversation, settings: ChatExportSettings) {
        var events: [ChatTimelineEvent] = []
        let duration = Self.walk(conversation, settings) { events.append($0) }
        self.init(durationMS: duration, events: events)
    }

    /// How long the video of `conversation` with `settings` lasts, without listing its events
    /// (a long chat has one per typed character): what its length is checked by before any
    /// timeline, frame or sound is made.
    public static func durationMS(of conversation: ChatConversation, settings: ChatExportSettings) -> Int {
        walk(conversation, settings) { _ in }
    }

    /// The timeline's events, each handed to `add` in order; returns the duration.
    private static func walk(_ conversation: ChatConversation, _ settings: ChatExportSettings, _ record: (ChatTimelineEvent) -> Void) -> Int {
        let characterMS = Int((settings.typingSpeed.secondsPerCharacter * 1000).rounded())
        let pauseMS = Int((settings.typingSpeed.pauseAfterMessage * 1000).rounded())
        let senders = Set(conversation.characters.filter(\.isMe).map(\.id))
        var now = Self.introMS
        var keyboardUp = false
        func add(_ kind: ChatTimelineEvent.Kind) { record(ChatTimelineEvent(atMS: now, kind)) }

        for (index, message) in conversation.messages.enumerated() {
            if senders.contains(message.characterID) {
                if settings.keyboard, !keyboardUp {
                    add(.keyboardShown)
                    keyboardUp = true
                }
                let length = message.text.count
                for typed in 1...max(length, 1) {
                    now += characterMS
                    add(.typed(message: index, count: min(typed, length)))
                    if settings.sounds, settings.keyboard { add(.sound(.key)) }
                }
                now += Self.sendDelayMS
                add(.sent(message: index))
                if settings.sounds { add(.sound(.sent)) }
                let nextIsMine = conversation.messages.indices.contains(index + 1)
                    && senders.contains(conversation.messages[index + 1].characterID)
                if keyboardUp, !nextIsMine {
                    add(.keyboardHidden)
                    keyboardUp = false
                }
            } else {
                if settings.typingIndicator {
                    add(.indicatorShown(character: message.characterID))
                    now += Self.indicatorMS
                    add(.indicatorHidden)
                }
                add(.sent(message: index))
                if settings.sounds { add(.sound(.received)) }
            }
            add(.scroll(message: index))
            now += pauseMS
        }
        return now + Self.outroMS
    }

    /// The moments sounds play, for the sound track.
    public var sounds: [(atMS: Int, sound: ChatSound)] {
        events.compactMap { event in
            if case .sound(let sound) = event.kind { (event.atMS, sound) } else { nil }
        }
    }

    /// How many frames a video of this timeline has at `fps`.
    public func frameCount(fps: Int) -> Int {
        (durationMS * fps + 999) / 1000
    }
}

/// One moment in a timeline.
public struct ChatTimelineEvent: Sendable, Hashable {
    public var atMS: Int
    public var kind: Kind

    public init(atMS: Int, _ kind: Kind) {
        self.atMS = atMS
        self.kind = kind
    }

    public enum Kind: Sendable, Hashable {
        /// The "…" bubble of someone about to send a message appears.
        case indicatorShown(character: String)
        case indicatorHidden
        case keyboardShown
        case keyboardHidden
        /// The sender's input bar shows the first `count` characters of message `message`.
        case typed(message: Int, count: Int)
        /// Message `message` appears as a bubble (the input bar empties if it was typed there).
        case sent(message: Int)
        case sound(ChatSound)
        /// The chat follows its newest message (`message`), scrolling older ones up when the
        /// screen is full.
        case scroll(message: Int)
    }
}

/// The project's own message sounds (synthesised, see ChatVideo's sound track).
public enum ChatSound: String, Sendable, Hashable, Codable, CaseIterable {
    case sent, received, key
}

extension ChatTimelineEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case atMS = "at_ms"
        case type, character, message, count, sound
    }

    /// `{"at_ms": 650, "type": "typed", "message": 0, "count": 1}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(atMS, forKey: .atMS)
        switch kind {
        case .indicatorShown(let character):
            try container.encode("indicator-shown", forKey: .type)
            try container.encode(character, forKey: .character)
        case .indicatorHidden: try container.encode("indicator-hidden", forKey: .type)
        case .keyboardShown: try container.encode("keyboard-shown", forKey: .type)
        case .keyboardHidden: try container.encode("keyboard-hidden", forKey: .type)
        case .typed(let message, let count):
            try container.encode("typed", forKey: .type)
            try container.encode(message, forKey: .message)
            try container.encode(count, forKey: .count)
        case .sent(let message):
            try container.encode("sent", forKey: .type)
            try container.encode(message, forKey: .message)
        case .sound(let sound):
            try container.encode("sound", forKey: .type)
            try container.encode(sound, forKey: .sound)
        case .scroll(let message):
            try container.encode("scroll", forKey: .type)
            try container.encode(message, forKey: .message)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        atMS = try container.decode(Int.self, forKey: .atMS)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "indicator-shown": kind = .indicatorShown(character: try container.decode(String.self, forKey: .character))
        case "indicator-hidden": kind = .indicatorHidden
        case "keyboard-shown": kind = .keyboardShown
        case "keyboard-hidden": kind = .keyboardHidden
        case "typed": kind = .typed(message: try container.decode(Int.self, forKey: .message), count: try container.decode(Int.self, forKey: .count))
        case "sent": kind = .sent(message: try container.decode(Int.self, forKey: .message))
        case "sound": kind = .sound(try container.decode(ChatSound.self, forKey: .sound))
        case "scroll": kind = .scroll(message: try container.decode(Int.self, forKey: .message))
        default: throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown event type \(type)")
        }
    }
}
