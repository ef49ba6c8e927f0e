import Foundation

/// How a journey's story is told: one of the house styles, or the listener's own description.
public struct StoryStyle: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case noir
        case childrens
        case historical
        case fantasy
        case custom
    }

    public var kind: Kind
    /// The listener's words: the whole style for `custom`, a wish on top of a house style otherwise.
    public var description: String?

    /// Longer descriptions are refused: the style is repeated in every request to the model.
    public static let maxDescriptionLength = 300

    public init(_ kind: Kind, description: String? = nil) throws(JourneyError) {
        let trimmed = description?.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = trimmed?.isEmpty == false ? trimmed : nil
        if kind == .custom, text == nil {
            throw JourneyError(.invalidStyle, "Describe the story you want (for example “a cosy mystery on a night train”), or choose one of the styles.")
        }
        if let text, text.utf8.count > Self.maxDescriptionLength * 32 {
            throw JourneyError(.invalidStyle, "The style description is far longer than \(Self.maxDescriptionLength) characters; keep it to \(Self.maxDescriptionLength).")
        }
        if let text, text.count > Self.maxDescriptionLength {
            throw JourneyError(.invalidStyle, "The style description is \(text.count) characters; keep it to \(Self.maxDescriptionLength).")
        }
        self.kind = kind
        self.description = text
    }

    /// The style named by `id` (`noir`, `childrens`, …).
    public init(id: String, description: String? = nil) throws(JourneyError) {
        // A style's name is a word: anything long is refused before it is read (or repeated back).
        guard id.utf8.count <= 40, let kind = Kind(rawValue: id.trimmingCharacters(in: .whitespaces).lowercased()) else {
            let named = id.utf8.count <= 40 ? " called “\(id)”" : " with so long a name"
            throw JourneyError(.invalidStyle, "There is no story style\(named): choose \(Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        try self.init(kind, description: description)
    }

    public var name: String {
        switch kind {
        case .noir: "Noir"
        case .childrens: "Children’s"
        case .historical: "Historical"
        case .fantasy: "Fantasy"
        case .custom: "Your own"
        }
    }

    /// One line for the listener choosing a style.
    public var summary: String {
        switch kind {
        case .noir: "A hard-boiled mystery: rain, neon, a detective with secrets."
        case .childrens: "A warm, gentle adventure for young listeners, with a happy ending."
        case .historical: "A story set in the past, rich with the period’s everyday detail."
        case .fantasy: "Magic, quests and strange creatures in a world of wonder."
        case .custom: "Describe the story you would like."
        }
    }

    /// What the model is told about the style.
    public var guidance: String {
        let house: String? = switch kind {
        case .noir: "a noir mystery told in the first person by a weary detective: short, punchy sentences, dry wit, rain and shadows, a case with a twist"
        case .childrens: "a gentle children's adventure for ages 5 to 9: simple words, a kind and curious hero, a little peril, friendship, and a happy ending; nothing frightening"
        case .historical: "historical fiction: a vivid period setting with true-to-life everyday detail, ordinary people caught up in the events of their time"
        case .fantasy: "a fantasy adventure: magic with rules, a quest, wondrous places and creatures, told in the third person"
        case .custom: nil
        }
        switch (house, description) {
        case let (house?, wish?): return "\(house). The listener also asks for: \(wish)"
        case let (house?, nil): return house
        case let (nil, wish?): return "the listener's own description: \(wish)"
        case (nil, nil): return "a story for the road"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind = "style"
        case description = "style_description"
    }
}
