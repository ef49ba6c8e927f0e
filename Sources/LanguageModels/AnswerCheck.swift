/// What a usable written answer looks like, checked before it reaches a user: small models
/// (the 1.5B one on this machine above all) sometimes loop, switch language, wrap prose in
/// Markdown, or stop after a word.
public struct AnswerCheck: Sendable, Hashable {
    /// Inclusive bounds on the answer's words.
    public var words: ClosedRange<Int>
    /// Whether the answer should be prose in a Latin script (English and the like): a model
    /// that drifts into another script mid-answer is caught.
    public var latinScript: Bool
    /// Whether Markdown and HTML are refused (text to be spoken or shown as is).
    public var plainText: Bool

    public init(words: ClosedRange<Int> = 1...2000, latinScript: Bool = true, plainText: Bool = true) {
        self.words = words
        self.latinScript = latinScript
        self.plainText = plainText
    }

    /// Why `text` is not usable, in words for a log; empty when it is.
    public func problems(in text: String) -> [String] {
        let words = text.split(whereSeparator: { $0.isWhitespace })
        var problems: [String] = []
        if !self.words.contains(words.count) {
            problems.append("it has \(words.count) words, not \(self.words.lowerBound)–\(self.words.upperBound)")
        }
        if latinScript, let share = Self.nonLatinShare(text), share > 0.1 {
            problems.append("\(Int((share * 100).rounded()))% of its letters are not in the Latin script")
        }
        if plainText, let markup = Self.markup(in: text) {
            problems.append("it holds markup (\(markup))")
        }
        if let loop = Self.repetition(in: words.map { $0.lowercased() }) {
            problems.append("it repeats “\(loop)”")
        }
        return problems
    }

    static func nonLatinShare(_ text: String) -> Double? {
        let letters = text.unicodeScalars.filter(\.properties.isAlphabetic)
        guard !letters.isEmpty else { return nil }
        // Latin letters: ASCII, Latin-1 Supplement and Latin Extended (U+00C0–U+024F, U+1E00–U+1EFF).
        let latin = letters.filter { $0.value < 0x250 || (0x1E00...0x1EFF).contains($0.value) }
        return 1 - Double(latin.count) / Double(letters.count)
    }

    static func markup(in text: String) -> String? {
        if text.contains("```") { return "a code fence" }
        if text.contains("**") || text.contains("__") { return "Markdown emphasis" }
        if text.split(separator: "\n").contains(where: { $0.hasPrefix("#") || $0.hasPrefix("- ") || $0.hasPrefix("* ") }) {
            return "Markdown headings or lists"
        }
        if text.firstMatch(of: /<\/?[A-Za-z][A-Za-z0-9]*[^<>]*>/) != nil { return "HTML tags" }
        return nil
    }

    /// A run of four or more words that comes back four times or more: the loop a small model
    /// falls into, which prose does not.
    static func repetition(in words: [String]) -> String? {
        let length = 4
        guard words.count >= length * 4 else { return nil }
        var counts: [ArraySlice<String>: Int] = [:]
        for start in 0...(words.count - length) {
            let gram = words[start..<(start + length)]
            counts[gram, default: 0] += 1
            if counts[gram]! >= 4 { return gram.joined(separator: " ") }
        }
        return nil
    }
}

/// A model whose written answers pass an `AnswerCheck`: an answer that fails is asked for once
/// more, a little less deterministically; one that fails again is an error saying why.
public struct CheckedModel: LanguageModel {
    public let base: any LanguageModel
    public let check: AnswerCheck
    public var provider: Provider { base.provider }
    public var model: String { base.model }

    public init(_ base: any LanguageModel, check: AnswerCheck) {
        self.base = base
        self.check = check
    }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        let first = try await base.complete(request)
        guard !check.problems(in: first.text).isEmpty else { return first }
        var again = request
        again.temperature = max(request.temperature, 0.3) + 0.3
        let second = try await base.complete(again)
        let problems = check.problems(in: second.text)
        guard problems.isEmpty else {
            throw LanguageModelError(.unparseableAnswer, provider: provider, model: model, detail: problems.joined(separator: "; "))
        }
        return second
    }

    /// Streams as the base model does; an answer that turns out unusable ends the stream with
    /// the reason (what was shown cannot be taken back, so it is not asked for again here).
    public func stream(_ request: CompletionRequest) -> AsyncThrowingStream<CompletionEvent, any Error> {
        let base = base, check = check, provider = provider, model = model
        return .producing { yield in
            for try await event in base.stream(request) {
                if case .finished(let response) = event {
                    let problems = check.problems(in: response.text)
                    guard problems.isEmpty else {
                        throw LanguageModelError(.unparseableAnswer, provider: provider, model: model, detail: problems.joined(separator: "; "))
                    }
                }
                yield(event)
            }
        }
    }
}
