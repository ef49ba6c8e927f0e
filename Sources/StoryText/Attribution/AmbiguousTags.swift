/// "said Mr. Bertram" beside Tom and Edmund Bertram: a tag whose name the clustering gave to the
/// likeliest of two or more people (`CharacterClusterer.Result.ambiguousForms`). The line keeps
/// that person, and the learned confidence weighs that it could be the other's (issue 48, item 3).
enum AmbiguousTags {
    /// Tokens either side of a quote where its tag's name is looked for.
    private static let reach = 8

    static func mark(_ attributions: inout [Attribution], tokens: [Token], mentions: [NameMention], mentionEntity: [Int],
                     ambiguousForms: Set<String>) {
        guard !ambiguousForms.isEmpty else { return }
        // A mention in narration of an ambiguous form, by its first token: the entity it was given.
        var ambiguousAt: [Int: Int] = [:]
        for (index, mention) in mentions.enumerated() where !mention.inQuote && ambiguousForms.contains(CharacterClusterer.formKey(mention)) {
            ambiguousAt[mention.firstToken] = mentionEntity[index]
        }
        guard !ambiguousAt.isEmpty else { return }
        var span: [Int: ClosedRange<Int>] = [:]
        for (index, token) in tokens.enumerated() where token.quote >= 0 {
            span[token.quote] = (span[token.quote]?.lowerBound ?? index)...index
        }
        for q in attributions.indices where attributions[q].evidence == .namedTag {
            guard let quote = span[q] else { continue }
            let before = max(0, quote.lowerBound - reach)..<quote.lowerBound
            let after = (quote.upperBound + 1)..<min(tokens.count, quote.upperBound + 1 + reach)
            attributions[q].ambiguousName = (Array(before) + Array(after)).contains { k in
                ambiguousAt[k] == attributions[q].entity
                    && (tokens[k].paragraph == tokens[quote.lowerBound].paragraph || tokens[k].paragraph == tokens[quote.upperBound].paragraph)
            }
        }
    }
}
