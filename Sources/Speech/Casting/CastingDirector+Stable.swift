import StoryModel

extension CastingDirector {
    /// The cast with the user's choices (`narrator`, `characters`), changing as few automatic choices as possible.
    ///
    /// Every character without a choice keeps the voice the automatic cast gives it,
    /// unless a chosen voice now sounds like theirs in a chapter they share; only those
    /// displaced characters are cast again, around everyone else. Casting the choices from
    /// scratch instead would re-run the greedy choice for all, and one chosen voice would move
    /// a chain of others.
    public func stableCast(_ analysis: StoryAnalysis, voices: [Voice], narrator chosenNarrator: VoiceAssignment?, characters: [String: VoiceAssignment]) -> Cast {
        let automatic = cast(analysis, voices: voices)
        let byID = Dictionary(voices.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func performance(_ assignment: VoiceAssignment) -> Performance {
            Performance(voiceID: assignment.voice, voice: byID[assignment.voice], pitch: assignment.pitch)
        }
        let presence = SpeakingPresence(analysis)
        let narrator = chosenNarrator ?? automatic.narrator
        let chosen = characters.map { (id: $0.key, performance: performance($0.value)) }
        let narratorPerformance = performance(narrator)

        var pinned = characters
        for (id, assignment) in automatic.characters where pinned[id] == nil {
            let mine = performance(assignment)
            let displaced = mine.isConfusable(with: narratorPerformance)
                || chosen.contains { $0.performance.isConfusable(with: mine) && presence.shareAChapter($0.id, id) }
            if !displaced { pinned[id] = assignment }
        }
        return cast(analysis, voices: voices, overrides: Cast(narrator: narrator, characters: pinned))
    }
}
