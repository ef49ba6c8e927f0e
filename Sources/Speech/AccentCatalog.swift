import Foundation

/// English accents StoryVoice knows by name, as the BCP 47-style tags voices carry.
///
/// Analysis describes accents in words ("Scottish", "a posh English accent"); voices carry
/// tags (`en-GB-scotland`). This maps one onto the other for casting.
public enum AccentCatalog {
    public struct Accent: Sendable, Hashable {
        public var tag: String
        public var name: String
        /// Lower-case words or phrases that name it in a description.
        public var keywords: [String]
    }

    /// Most specific first: a description is matched against these in order.
    public static let known: [Accent] = [
        Accent(tag: "en-US-nyc", name: "New York", keywords: ["new york", "nyc", "brooklyn", "bronx"]),
        Accent(tag: "en-GB-x-rp", name: "Received Pronunciation",
               keywords: ["received pronunciation", "rp", "posh", "upper-class", "upper class", "aristocratic", "queen's english", "oxford"]),
        Accent(tag: "en-GB-scotland", name: "Scottish", keywords: ["scottish", "scots", "scotland", "highland", "glasgow", "edinburgh"]),
        Accent(tag: "en-GB-x-gbclan", name: "Lancastrian",
               keywords: ["lancaster", "lancashire", "lancastrian", "northern", "north of england", "manchester", "yorkshire"]),
        Accent(tag: "en-GB-x-gbcwmd", name: "West Midlands", keywords: ["west midlands", "midlands", "brummie", "birmingham"]),
        // English with a Japanese speaker's colouring (Kokoro's voices were recorded from Japanese speakers).
        Accent(tag: "en-x-ja", name: "Japanese", keywords: ["japanese", "japan", "tokyo", "osaka", "kyoto"]),
        Accent(tag: "en-029", name: "Caribbean", keywords: ["caribbean", "jamaican", "jamaica", "west indian", "trinidad", "barbad", "bajan"]),
        Accent(tag: "en-US", name: "American", keywords: ["american", "america", "usa", "us", "u.s.", "yankee", "texan"]),
        Accent(tag: "en-GB", name: "British", keywords: ["british", "english", "england", "uk", "london", "cockney", "britain"]),
    ]

    /// The display name of a tag ("en-GB-scotland" → "Scottish"), if it is a known accent.
    public static func name(ofTag tag: String) -> String? {
        known.first { $0.tag.lowercased() == tag.lowercased() }?.name
    }

    /// The tag an accent description or tag means: "Scottish" → `en-GB-scotland`,
    /// "en-gb" → `en-GB`. Nil when the description names no accent StoryVoice knows.
    public static func tag(forDescription description: String) -> String? {
        let text = description.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !text.isEmpty else { return nil }
        if let exact = known.first(where: { $0.tag.lowercased() == text }) { return exact.tag }
        if text.hasPrefix("en-") || text.hasPrefix("en_") {
            let parts = text.replacingOccurrences(of: "_", with: "-").split(separator: "-")
            return parts.enumerated().map { $0 == 1 && $1.count == 2 ? $1.uppercased() : String($1) }.joined(separator: "-")
        }
        let words = Set(text.split { !$0.isLetter && $0 != "'" && $0 != "." }.map(String.init))
        for accent in known {
            for keyword in accent.keywords {
                if keyword.contains(" ") || keyword.contains("-") || keyword.hasSuffix(".") {
                    if text.contains(keyword) { return accent.tag }
                } else if words.contains(keyword) || (keyword.count >= 6 && text.contains(keyword)) {
                    return accent.tag
                }
            }
        }
        return nil
    }

    /// How well a voice's accent serves a wanted one, in [0, 1]: 1 for the same accent,
    /// 0.7 for a regional form of the wanted accent (wanted en-GB, voice en-GB-x-rp), 0.5
    /// for the general form of a wanted regional accent, 0 otherwise.
    public static func similarity(wanted: String, voice: String?) -> Double {
        guard let voice else { return 0 }
        let wanted = wanted.lowercased(), voiceTag = voice.lowercased()
        if wanted == voiceTag { return 1 }
        if voiceTag.hasPrefix(wanted + "-") { return 0.7 }
        if wanted.hasPrefix(voiceTag + "-") { return 0.5 }
        return 0
    }

    /// Whether a tag is a regional or minority accent rather than plain US or British English:
    /// casting avoids these for characters the story gives no accent.
    public static func isMarked(_ tag: String?) -> Bool {
        guard let tag else { return false }
        return !["en", "en-us", "en-gb"].contains(tag.lowercased())
    }
}
