/// How well a voice's style words suit a character's personality.
///
/// Personalities are free text ("proud, sharp-tongued", "cheerful and curious") from the user or
/// a model's enrichment pass; voice styles are a small vocabulary from the catalogues ("deep",
/// "bright", "warm"). Both are mapped onto a handful of temperaments a listener hears: a stern
/// character suits a deep, firm voice, a cheerful one a bright, lively voice.
public struct StyleAffinity: Sendable {
    struct Temperament: Sendable {
        var personality: Set<String>
        var style: Set<String>
    }

    static let temperaments: [Temperament] = [
        Temperament(  // warmth
            personality: ["kind", "warm", "gentle", "caring", "affectionate", "tender", "friendly", "sweet",
                          "good-natured", "motherly", "amiable", "compassionate", "generous", "loving", "soft-hearted"],
            style: ["warm", "gentle", "soft", "friendly", "melodic", "natural"]),
        Temperament(  // liveliness
            personality: ["cheerful", "lively", "playful", "merry", "excitable", "energetic", "enthusiastic", "vivacious",
                          "bubbly", "spirited", "high-spirited", "talkative", "chatty", "witty", "exuberant", "curious",
                          "impulsive", "eager", "optimistic", "mischievous", "giddy", "silly"],
            style: ["bright", "upbeat", "lively", "energetic", "cheerful", "excitable", "animated", "youthful", "breezy",
                    "expressive"]),
        Temperament(  // calm
            personality: ["calm", "wise", "thoughtful", "patient", "serene", "sensible", "reserved", "composed", "quiet",
                          "philosophical", "measured", "reflective", "prudent", "stoic", "placid", "shy", "timid", "modest"],
            style: ["calm", "measured", "wise", "smooth", "even", "soft"]),
        Temperament(  // authority
            personality: ["stern", "authoritative", "commanding", "proud", "arrogant", "strict", "severe", "pompous",
                          "dignified", "imperious", "domineering", "formal", "serious", "cold", "ruthless", "determined",
                          "confident", "bold", "brave", "forceful", "haughty", "noble", "stubborn"],
            style: ["deep", "authoritative", "firm", "resonant", "confident", "mature", "forward"]),
        Temperament(  // feeling
            personality: ["dramatic", "passionate", "emotional", "theatrical", "romantic", "melancholy", "anxious",
                          "nervous", "fiery", "volatile", "hysterical", "sentimental", "sensitive", "moody"],
            style: ["expressive", "dramatic", "emotive", "breathy", "versatile", "storytelling"]),
        Temperament(  // ease
            personality: ["easy-going", "easygoing", "relaxed", "laid-back", "casual", "carefree", "lazy", "jovial",
                          "humorous", "genial", "good-humoured", "good-humored"],
            style: ["easy-going", "casual", "breezy", "natural", "friendly"]),
        Temperament(  // intellect
            personality: ["clever", "intelligent", "scholarly", "knowledgeable", "analytical", "precise", "pedantic",
                          "learned", "shrewd", "observant", "rational", "logical"],
            style: ["knowledgeable", "informative", "clear", "measured"]),
        Temperament(  // roughness
            personality: ["gruff", "rough", "coarse", "blunt", "surly", "grumpy", "bitter", "cynical", "sharp-tongued",
                          "irritable", "brusque", "crude"],
            style: ["gravelly", "deep", "firm"]),
    ]

    /// The temperaments `personality` names, worked out once per character.
    private let wanted: [Temperament]

    public init(personality: String?) {
        let words = Set((personality ?? "").lowercased().split { !$0.isLetter && $0 != "-" }.map(String.init))
        wanted = Self.temperaments.filter { !$0.personality.isDisjoint(with: words) }
    }

    /// 0 (nothing in common, or nothing to go on) to 1 (the voice suits every temperament the
    /// personality names).
    public func affinity(style: [String]) -> Double {
        guard !wanted.isEmpty else { return 0 }
        let styles = Set(style.map { $0.lowercased() })
        let suited = wanted.filter { !$0.style.isDisjoint(with: styles) }.count
        return Double(suited) / Double(wanted.count)
    }
}
