import StoryModel

/// Offline, heuristic story analysis: finds every quotation, the characters who speak them
/// and who speaks each one. See docs/analysis.md for the rules and their measured accuracy.
public struct StoryAnalyzer: Sendable {
    public init() {}

    /// Pure and deterministic. Copies `document.chapters` into the result (the importer fills them).
    public func analyze(_ document: StoryDocument) -> StoryAnalysis {
        analysis(document, explaining: false).analysis
    }

    /// The analysis and, for each dialogue line with a speaker, the evidence and features its
    /// confidence was computed from (`analyze --features`, for `bench/attribution-learn.py`).
    public func explain(_ document: StoryDocument) -> (analysis: StoryAnalysis, lines: [ExplainedLine]) {
        analysis(document, explaining: true)
    }

    private func analysis(_ document: StoryDocument, explaining: Bool) -> (analysis: StoryAnalysis, lines: [ExplainedLine]) {
        let text = AnalysisText(document.text)
        let quotes = QuoteFinder(text: text).find()
        let tokens = Tokenizer.tokenize(text, quotes: quotes)
        let mentions = NameMentionFinder(text: text, tokens: tokens).find()
        var mentionAt = Array(repeating: Int32(-1), count: tokens.count)
        for (index, mention) in mentions.enumerated() { mentionAt[mention.firstToken] = Int32(index) }
        var clusters = CharacterClusterer(mentions: mentions, tokens: tokens).cluster()
        NounNames.describe(entities: &clusters.entities, mentions: mentions, mentionEntity: clusters.mentionEntity, tokens: tokens)
        let inference = GenderAgeInference(tokens: tokens, mentions: mentions, mentionEntity: clusters.mentionEntity, mentionAt: mentionAt)
        let evidence = inference.pronounEvidence(entityCount: clusters.entities.count)
        let estimates = clusters.entities.indices.map { inference.estimate(clusters.entities[$0], pronouns: evidence[$0]) }

        var attributor = SpeakerAttributor(
            text: text, tokens: tokens, quotes: quotes, mentions: mentions, mentionEntity: clusters.mentionEntity,
            mentionAt: mentionAt, entities: clusters.entities, genders: estimates.map(\.gender))
        var attributions = attributor.attribute()
        AmbiguousTags.mark(&attributions, tokens: tokens, mentions: mentions, mentionEntity: clusters.mentionEntity,
                           ambiguousForms: clusters.ambiguousForms)
        var entities = attributor.entities
        var entityEstimates = estimates
        let added = Array(estimates.count..<entities.count)
        let descriptionVotes = inference.descriptionEvidence(keys: added.map { entities[$0].firstForm ?? "" })
        for (index, votes) in zip(added, descriptionVotes) {
            entityEstimates.append(inference.estimate(entities[index], pronouns: votes))
        }
        let genders = entityEstimates.map(\.gender)
        RoleMerging.merge(entities: &entities, genders: genders, attributions: &attributions)
        RoleMerging.joinDefiniteDescriptions(entities: &entities, genders: genders, ages: entityEstimates.map(\.age),
                                             attributions: &attributions,
                                             mentions: mentions, mentionEntity: clusters.mentionEntity, tokens: tokens)
        RoleMerging.joinStatedIdentity(entities: &entities, genders: genders, attributions: &attributions,
                                       mentions: mentions, mentionEntity: clusters.mentionEntity, tokens: tokens)
        RoleMerging.nameFromDialogue(entities: &entities, genders: genders, attributions: attributions,
                                     vocatives: attributor.vocatives, mentions: mentions, mentionEntity: clusters.mentionEntity, tokens: tokens)
        RoleMerging.nameCalledBeside(entities: &entities, genders: genders, attributions: &attributions,
                                     vocatives: attributor.vocatives, mentions: mentions, mentionEntity: clusters.mentionEntity)
        FullNameCompletion.complete(entities: &entities, genders: genders, attributions: &attributions)
        FullNameCompletion.completeFromCalls(entities: &entities, genders: genders, attributions: &attributions,
                                             vocatives: attributor.vocatives)
        var narrationMentions = Array(repeating: 0, count: clusters.entities.count)
        for (index, mention) in mentions.enumerated() where !mention.inQuote && clusters.mentionEntity[index] >= 0 {
            narrationMentions[clusters.mentionEntity[index]] += 1
        }
        if attributor.narrator >= 0 {
            let addressed = attributor.narratorAddressGender(attributions)
            if addressed != .unknown {
                entityEstimates[attributor.narrator].gender = addressed
                entityEstimates[attributor.narrator].genderConfidence = 0.7
            }
            NarratorNaming.name(narrator: attributor.narrator, entities: &entities, estimates: &entityEstimates,
                                attributions: &attributions, quotes: quotes, vocatives: attributor.vocatives,
                                narrationMentions: narrationMentions,
                                names: .init(tokens: tokens, mentions: mentions, mentionEntity: clusters.mentionEntity))
        }
        let castEstimates = zip(entityEstimates, entities).map { GenderAgeInference.unmarked($0, of: $1) }
        return CastAssembler.assemble(
            document: document, text: text, tokens: tokens, quotes: quotes, attributions: attributions,
            entities: entities, estimates: castEstimates, explaining: explaining)
    }
}
