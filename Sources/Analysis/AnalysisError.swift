import LanguageModels

/// A language-model step that failed, named with the step and the story so the user knows
/// what stopped: "Character extraction failed for Emma: the OpenAI key was rejected — …".
public struct AnalysisError: Error, Sendable, CustomStringConvertible {
    /// "Speaker labelling", "Character extraction", "Voice suggestion".
    public var step: String
    public var story: String
    public var underlying: LanguageModelError

    public init(step: String, story: String, underlying: LanguageModelError) {
        self.step = step
        self.story = story
        self.underlying = underlying
    }

    public var description: String { underlying.message(step: step, story: story) }
}

enum Step {
    static let labelling = "Speaker labelling"
    static let enrichment = "Character extraction"
    static let voice = "Voice suggestion"
}
