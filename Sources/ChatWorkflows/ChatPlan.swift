import ChatStories
import Foundation
import Platform

/// What a user's account allows in chat stories: free, or premium. Pure; the server enforces
/// it on every export and generation, whatever the page shows.
public struct ChatPlan: Sendable, Equatable {
    public var isPremium: Bool

    public init(isPremium: Bool) {
        self.isPremium = isPremium
    }

    public static let freeExportsPerDay = 3
    public static let freeMaxCharacters = 2

    /// What premium adds, said wherever a free account is refused.
    public static let premiumOffer =
        "Premium gives unlimited exports without the watermark, every look, up to \(ChatLimits.standard.maxCharacters) people and the story generator."

    /// The longest video of each plan: free 3 minutes (what Reels and Shorts take), premium 10
    /// (TikTok's upload limit). A video is what an export costs: every frame is drawn and encoded.
    public static let freeMaxVideoSeconds = 180
    public static let longestVideoSeconds = 600

    /// Nil: unlimited.
    public var dailyExportLimit: Int? { isPremium ? nil : Self.freeExportsPerDay }
    public var maxVideoSeconds: Int { isPremium ? Self.longestVideoSeconds : Self.freeMaxVideoSeconds }
    public var maxCharacters: Int { isPremium ? ChatLimits.standard.maxCharacters : Self.freeMaxCharacters }
    public var themes: [ChatTheme] { ChatTheme.allCases.filter { isPremium || !$0.isPremium } }
    public var watermarkForced: Bool { !isPremium }
    public var generator: Bool { isPremium }

    /// The settings an export of `conversation` runs with (a free export always carries the
    /// watermark), or why it is refused. `exportsToday` counts the exports started since
    /// midnight UTC that have not failed.
    public func exportSettings(
        for conversation: ChatConversation, requested: ChatExportSettings, exportsToday: Int, now: Date
    ) throws(ServiceError) -> ChatExportSettings {
        try allow(characters: conversation.characters.count)
        try allow(theme: conversation.theme)
        if let limit = dailyExportLimit, exportsToday >= limit {
            throw ServiceError(
                .limitReached, code: "daily_export_limit",
                "Free accounts make \(limit) videos a day and today's are used; the next one is possible after midnight UTC. \(Self.premiumOffer)",
                retryAfterSeconds: Self.secondsUntilNextDay(after: now))
        }
        var settings = requested
        if watermarkForced { settings.watermark = true }
        return settings
    }

    /// Refuses a video of `conversation` with `settings` longer than the plan's longest, before
    /// anything is drawn: the length is worked out from the text, without a timeline.
    public func allow(videoOf conversation: ChatConversation, settings: ChatExportSettings) throws(ServiceError) {
        let duration = ChatTimeline.durationMS(of: conversation, settings: settings)
        guard duration > maxVideoSeconds * 1000 else { return }
        let premium = isPremium ? "" : " Premium makes videos of up to \(Self.minutes(Self.longestVideoSeconds * 1000))."
        throw ServiceError(
            .invalid, code: "video_too_long",
            "This video would be \(Self.minutes(duration)) long; \(isPremium ? "a video" : "a free account's video") can be at most \(Self.minutes(maxVideoSeconds * 1000)). Choose a faster typing speed, shorten the conversation, or split it into several stories.\(premium)")
    }

    /// Refuses a conversation that no plan could make into a video: even typed fast, with no
    /// keyboard and no typing indicator, it would last longer than the longest video.
    public static func allow(keeping conversation: ChatConversation) throws(ServiceError) {
        let fastest = ChatExportSettings(typingSpeed: .fast, keyboard: false, typingIndicator: false, sounds: false)
        let duration = ChatTimeline.durationMS(of: conversation, settings: fastest)
        guard duration > longestVideoSeconds * 1000 else { return }
        throw ServiceError(
            .invalid, code: "conversation_too_long",
            "Even typed fast, with no keyboard or typing indicator, this conversation would make a video of \(minutes(duration)); the longest video is \(minutes(longestVideoSeconds * 1000)). Shorten it or split it into several stories.")
    }

    /// 754,300 ms as "12 min 34 s"; whole minutes as "10 minutes".
    static func minutes(_ ms: Int) -> String {
        let seconds = (ms + 999) / 1000
        if seconds % 60 == 0 { return "\(seconds / 60) minute\(seconds == 60 ? "" : "s")" }
        return seconds < 60 ? "\(seconds) s" : "\(seconds / 60) min \(seconds % 60) s"
    }

    public func allow(characters count: Int) throws(ServiceError) {
        guard count <= maxCharacters else {
            throw ServiceError(
                .forbidden, code: "premium_required",
                "Free accounts make videos of conversations between \(Self.freeMaxCharacters) people; this one has \(count). Remove \(count - Self.freeMaxCharacters), or go premium. \(Self.premiumOffer)")
        }
    }

    public func allow(theme: ChatTheme) throws(ServiceError) {
        guard themes.contains(theme) else {
            throw ServiceError(
                .forbidden, code: "premium_required",
                "The \"\(theme.displayName)\" look comes with premium; free accounts use \"\(ChatTheme.imessage.displayName)\". Choose it, or go premium. \(Self.premiumOffer)")
        }
    }

    public func allowGenerator() throws(ServiceError) {
        guard generator else {
            throw ServiceError(
                .forbidden, code: "premium_required",
                "Writing a chat story from a prompt comes with premium; free accounts write their stories by hand. \(Self.premiumOffer)")
        }
    }

    /// The start of the UTC day `now` falls in: free exports are counted from there.
    public static func startOfDay(_ now: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.startOfDay(for: now)
    }

    static func secondsUntilNextDay(after now: Date) -> Int {
        max(1, Int(startOfDay(now).addingTimeInterval(86_400).timeIntervalSince(now).rounded(.up)))
    }
}
