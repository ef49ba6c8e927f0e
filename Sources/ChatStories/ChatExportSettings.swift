/// How a conversation becomes a video.
public struct ChatExportSettings: Sendable, Hashable, Codable {
    public var format: VideoFormat
    public var typingSpeed: TypingSpeed
    public var keyboard: Bool
    public var typingIndicator: Bool
    public var sounds: Bool
    public var dark: Bool
    /// 30 or 60.
    public var fps: Int
    /// Free exports carry a visible "Made with StoryVoice" mark.
    public var watermark: Bool

    public init(
        format: VideoFormat = .tiktok, typingSpeed: TypingSpeed = .normal, keyboard: Bool = true, typingIndicator: Bool = true,
        sounds: Bool = true, dark: Bool = false, fps: Int = 30, watermark: Bool = false
    ) {
        self.format = format
        self.typingSpeed = typingSpeed
        self.keyboard = keyboard
        self.typingIndicator = typingIndicator
        self.sounds = sounds
        self.dark = dark
        self.fps = fps
        self.watermark = watermark
    }

    public static let frameRates = [30, 60]

    enum CodingKeys: String, CodingKey {
        case format, keyboard, sounds, dark, fps, watermark
        case typingSpeed = "typing_speed"
        case typingIndicator = "typing_indicator"
    }

    /// Every field may be left out (its default is taken).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ChatExportSettings()
        format = try container.decodeIfPresent(VideoFormat.self, forKey: .format) ?? defaults.format
        typingSpeed = try container.decodeIfPresent(TypingSpeed.self, forKey: .typingSpeed) ?? defaults.typingSpeed
        keyboard = try container.decodeIfPresent(Bool.self, forKey: .keyboard) ?? defaults.keyboard
        typingIndicator = try container.decodeIfPresent(Bool.self, forKey: .typingIndicator) ?? defaults.typingIndicator
        sounds = try container.decodeIfPresent(Bool.self, forKey: .sounds) ?? defaults.sounds
        dark = try container.decodeIfPresent(Bool.self, forKey: .dark) ?? defaults.dark
        fps = try container.decodeIfPresent(Int.self, forKey: .fps) ?? defaults.fps
        watermark = try container.decodeIfPresent(Bool.self, forKey: .watermark) ?? defaults.watermark
    }

    public func validated() throws(ChatStoryError) -> ChatExportSettings {
        guard Self.frameRates.contains(fps) else { throw .invalidFrameRate(fps) }
        return self
    }
}

/// The video's shape, named for where it is posted.
public enum VideoFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// 1080×1920, 9:16.
    case tiktok
    /// 1080×1080, 1:1.
    case instagram
    /// 1920×1080, 16:9.
    case youtube

    public var width: Int { self == .youtube ? 1920 : 1080 }
    public var height: Int { self == .tiktok ? 1920 : 1080 }

    public var aspectRatio: String {
        switch self {
        case .tiktok: "9:16"
        case .instagram: "1:1"
        case .youtube: "16:9"
        }
    }
}

/// Seconds a character takes to type; after a message the story pauses ten times that.
public enum TypingSpeed: String, Sendable, Hashable, Codable, CaseIterable {
    case slow, normal, fast

    public var secondsPerCharacter: Double {
        switch self {
        case .slow: 0.08
        case .normal: 0.05
        case .fast: 0.02
        }
    }

    public var pauseAfterMessage: Double { secondsPerCharacter * 10 }
}
