import Foundation
import StoryModel

/// Chooses a voice and delivery for the narrator and every character. Pure and deterministic:
/// the same analysis, voices and overrides always give the same cast.
///
/// The rules, in order of strength:
/// 1. A cast file's `overrides` win for every id they name (the narrator included).
/// 2. The narrator gets the highest-quality voice.
/// 3. No two characters who speak in the same chapter share a voice (the narrator counts as
///    speaking in every chapter), nor voices of one recorded speaker (`Voice.speaker`: flite's
///    slt and festival's slt) unless their pitches are at least `minimumPitchSeparation` apart. A voice is reused only between characters who never share
///    a chapter. As a last resort, when no voice of the character's gender is free in their
///    chapters, a voice heard there is reused with its pitch moved at least
///    `minimumPitchSeparation` semitones from each of its other uses in those chapters.
/// 4. Characters are cast from the most talkative down, each taking the candidate that best
///    matches gender, age, accent and personality (to voice style), is of high quality, sounds
///    most unlike the voices already heard in their chapters, and is not yet used elsewhere.
/// 5. Age moves delivery: children and teens higher and quicker, elderly people lower and slower.
///
/// With an empty voice list every character gets the narrator's voice id, which is empty
/// unless `overrides` name one; callers check the catalogue first and say what to install.
public struct CastingDirector: Sendable {
    /// The least pitch difference that makes one voice pass for two characters (last resort).
    public static let minimumPitchSeparation = 3.0
    /// Pitch shifts casting will use; beyond these the local engines sound unnatural or clamp.
    static let pitchLimits = -4.5...8.0

    /// The shifts `voice` takes: its own limits where it has them, within casting's.
    static func pitchLimits(for voice: Voice) -> ClosedRange<Double> {
        guard let own = voice.pitchShifts else { return pitchLimits }
        let lower = max(own.lowerBound, pitchLimits.lowerBound)
        return lower...max(lower, min(own.upperBound, pitchLimits.upperBound))
    }
    /// What one quality tier is worth in a voice's fit. For `best`, three tiers (formant to
    /// neural) come close to a gender mismatch (8) without outweighing it.
    let qualityWeight: Double
    /// Whether each character first gets the best free neural voice of their gender, if any.
    let neuralFirst: Bool
    /// Whether a character no neural voice of their gender is left for (in their chapters) gets
    /// another voice of their gender, free there, before the usual choice (which may prefer a
    /// neural voice of the other gender).
    let keepsGender: Bool
    /// Engines whose voices only `slowRoles` may have: the slow, best ones a time budget rations.
    let slowEngines: Set<String>
    /// Role ids (`narratorRole` for the narrator) allowed the voices of `slowEngines`.
    let slowRoles: Set<String>

    /// The narrator's id among `slowRoles`.
    public static let narratorRole = ""
    /// What a voice of a slow engine is worth to a role allowed one: the reason it is slow.
    static let slowVoiceBonus = 2.0

    /// The plain cast: every voice open to every role, quality one consideration among others.
    /// `.best` (any other choice is cast by `BudgetedCasting`) gives neural voices first.
    public init(preference: CastingPreference = .fastest) {
        qualityWeight = preference == .best ? 2.5 : 1.2
        neuralFirst = preference == .best
        keepsGender = false
        slowEngines = []
        slowRoles = []
    }

    /// Neural voices first for every role (a free one of their gender, else one shared and moved
    /// in pitch), then with `keepsGender` any free voice of their gender; the voices of
    /// `slowEngines` only for `slowRoles`, who prefer them.
    public init(keepsGender: Bool, slowEngines: Set<String>, slowRoles: Set<String>) {
        qualityWeight = 2.5
        neuralFirst = true
        self.keepsGender = keepsGender
        self.slowEngines = slowEngines
        self.slowRoles = slowRoles
    }

    /// The voices `role` may be cast with.
    private func open(_ pool: [Voice], to role: String) -> [Voice] {
        slowEngines.isEmpty || slowRoles.contains(role) ? pool : pool.filter { !slowEngines.contains($0.engine) }
    }

    /// Deterministic. `overrides` (an edited cast file) always win for the ids they name.
    public func cast(_ analysis: StoryAnalysis, voices: [Voice], overrides: Cast? = nil) -> Cast {
        var seen = Set<String>()
        let pool = voices.filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
        let byID = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0) })
        let presence = SpeakingPresence(analysis)

        let narrator = overrides.map { named($0.narrator, "Narrator") } ?? narratorAssignment(open(pool, to: Self.narratorRole))
        let narratorPerformance = Performance(voiceID: narrator.voice, voice: byID[narrator.voice], pitch: narrator.pitch)

        var assignments: [String: VoiceAssignment] = [:]
        var performances: [String: Performance] = [:]
        let characters = Dictionary(analysis.characters.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, assignment) in overrides?.characters ?? [:] {
            assignments[id] = named(assignment, characters[id]?.name ?? assignment.name)
            // A chosen voice keeps the character's direction unless the override gives its own.
            if assignment.delivery == nil, let character = characters[id] { assignments[id]?.delivery = Self.delivery(for: character) }
            performances[id] = Performance(voiceID: assignment.voice, voice: byID[assignment.voice], pitch: assignment.pitch)
        }

        let order = analysis.characters
            .filter { assignments[$0.id] == nil }
            .sorted { a, b in
                let (la, lb) = (presence.lines[a.id] ?? 0, presence.lines[b.id] ?? 0)
                if la != lb { return la > lb }
                if a.lines != b.lines { return a.lines > b.lines }
                let (sa, sb) = (presence.spokenLength[a.id] ?? 0, presence.spokenLength[b.id] ?? 0)
                if sa != sb { return sa > sb }
                return a.id < b.id
            }
        var castOrder: [String] = assignments.keys.sorted()

        for character in order {
            guard !pool.isEmpty else {
                assignments[character.id] = VoiceAssignment(voice: narrator.voice, name: character.name)
                continue
            }
            let rivals = [Rival(performance: narratorPerformance, interplay: presence.interplay(character.id, with: nil))]
                + castOrder.filter { presence.shareAChapter($0, character.id) }.compactMap { id in
                    performances[id].map { Rival(performance: $0, interplay: presence.interplay(character.id, with: id)) }
                }
            let usedElsewhere = Set(castOrder.compactMap { performances[$0]?.voiceID })
            let lines = presence.lines[character.id] ?? 0
            let open = open(pool, to: character.id)
            let neural = neuralFirst ? open.filter { $0.quality >= VoiceQuality.neural.rawValue } : []
            // Preferring the best: a free neural voice of the character's gender, else one shared
            // and moved in pitch (still told apart), before any other engine. Keeping genders:
            // then any voice of their gender (a woman keeps a woman's voice when every neural one
            // is taken in her chapters), before the usual choice.
            let (performance, rate) = freeChoice(for: character, pool: neural, rivals: rivals, lines: lines, usedElsewhere: usedElsewhere)
                ?? shared(for: character, pool: neural.filter { fitsGender($0, character) }, rivals: rivals).map { ($0.performance, $0.rate) }
                ?? (keepsGender ? freeChoice(for: character, pool: open, rivals: rivals, lines: lines, usedElsewhere: usedElsewhere) : nil)
                ?? choose(for: character, pool: open, rivals: rivals, lines: lines, usedElsewhere: usedElsewhere)
            performances[character.id] = performance
            assignments[character.id] = VoiceAssignment(
                voice: performance.voiceID, rate: Self.rounded(rate), pitch: Self.rounded(performance.pitch), volume: 1, name: character.name,
                delivery: Self.delivery(for: character))
            castOrder.append(character.id)
        }
        return Cast(narrator: narrator, characters: assignments)
    }

    /// The best voice for the narrator: highest quality, then a slow engine's (when open to the
    /// narrator), then plain (unmarked) accent, then adult, then id.
    private func narratorAssignment(_ pool: [Voice]) -> VoiceAssignment {
        let best = pool.min { a, b in
            if a.quality != b.quality { return a.quality > b.quality }
            // A slow engine's voice is in the pool only when the narrator may have it: the best.
            let (sa, sb) = (slowEngines.contains(a.engine), slowEngines.contains(b.engine))
            if sa != sb { return sa }
            let (ma, mb) = (AccentCatalog.isMarked(a.accent), AccentCatalog.isMarked(b.accent))
            if ma != mb { return !ma }
            if (a.age == .adult) != (b.age == .adult) { return a.age == .adult }
            return a.id < b.id
        }
        return VoiceAssignment(voice: best?.id ?? "", name: "Narrator")
    }

    /// The best performance for `character` that no rival in their chapters already uses;
    /// failing that, a rival's voice moved in pitch far enough to be told apart.
    private func choose(for character: Character, pool: [Voice], rivals: [Rival], lines: Int, usedElsewhere: Set<String>) -> (Performance, Double) {
        let best = bestFree(for: character, pool: pool, rivals: rivals, lines: lines, usedElsewhere: usedElsewhere)
        if let best, let voice = best.performance.voice, fitsGender(voice, character) { return (best.performance, best.rate) }

        // No free voice of the right gender in these chapters: share one, moved in pitch away
        // from its other uses. A shared voice of the right gender beats a free one of the wrong gender.
        let fallback = shared(for: character, pool: pool, rivals: rivals)
        if let fallback, best == nil || fallback.score - 2 > best!.score { return (fallback.performance, fallback.rate) }
        if let best { return (best.performance, best.rate) }
        // More characters in one chapter than voices times distinguishable pitches: the least-bad choice.
        let voice = pool[0]
        let delivery = ageDelivery(for: character, voice: voice)
        return (Performance(voiceID: voice.id, voice: voice, pitch: delivery.pitch.clamped(to: Self.pitchLimits(for: voice))), delivery.rate)
    }

    /// The best voice of `pool` that rivals in these chapters already use, moved in pitch far
    /// enough from each of its uses to be told apart, if one can be.
    private func shared(for character: Character, pool: [Voice], rivals: [Rival]) -> (score: Double, performance: Performance, rate: Double)? {
        let wantedAccent = accent(wantedBy: character, in: pool)
        let temperament = StyleAffinity(personality: character.personality)
        var best: (score: Double, performance: Performance, rate: Double)?
        let offsets = [0.0, 3, -3, 6, -6, 9, -9, 12]
        for voice in pool {
            let delivery = ageDelivery(for: character, voice: voice)
            let uses = rivals.map(\.performance).filter { $0.family == voice.family }.map(\.heardPitch)
            guard let pitch = offsets.map({ (delivery.pitch + $0) }).first(where: { pitch in
                Self.pitchLimits(for: voice).contains(pitch) && uses.allSatisfy { abs($0 - (voice.pitch + pitch)) >= Self.minimumPitchSeparation }
            }) else { continue }
            let performance = Performance(voiceID: voice.id, voice: voice, pitch: pitch)
            let score = suitability(of: voice, for: character, accent: wantedAccent, temperament: temperament) + distinctness(performance, rivals: rivals)
                - abs(pitch - delivery.pitch) / 3
            if best == nil || score > best!.score { best = (score, performance, delivery.rate) }
        }
        return best
    }

    /// The best free voice of `pool` of the character's gender, if there is one.
    private func freeChoice(for character: Character, pool: [Voice], rivals: [Rival], lines: Int, usedElsewhere: Set<String>) -> (Performance, Double)? {
        let fitting = pool.filter { fitsGender($0, character) }
        return bestFree(for: character, pool: fitting, rivals: rivals, lines: lines, usedElsewhere: usedElsewhere).map { ($0.performance, $0.rate) }
    }

    /// The best-scoring voice of `pool` that no rival in the character's chapters uses or sounds like.
    private func bestFree(
        for character: Character, pool: [Voice], rivals: [Rival], lines: Int, usedElsewhere: Set<String>
    ) -> (score: Double, performance: Performance, rate: Double)? {
        let wantedAccent = accent(wantedBy: character, in: pool)
        let temperament = StyleAffinity(personality: character.personality)
        let takenIDs = Set(rivals.map(\.performance.voiceID))
        var best: (score: Double, performance: Performance, rate: Double)?
        for voice in pool where !takenIDs.contains(voice.id) {
            let delivery = ageDelivery(for: character, voice: voice)
            let performance = Performance(voiceID: voice.id, voice: voice, pitch: delivery.pitch.clamped(to: Self.pitchLimits(for: voice)))
            // Another voice of a speaker already heard here, at nearly the same pitch, is the same voice to a listener.
            if rivals.contains(where: { performance.isConfusable(with: $0.performance) }) { continue }
            // Another voice of a speaker heard here (at a safe pitch distance) costs in
            // proportion to how much the two are heard together: most for the narrator and
            // the character's main partners, little for a passing exchange.
            let familyInterplay = rivals.filter { $0.performance.family == voice.family }.map(\.interplay).max() ?? 0
            let score = suitability(of: voice, for: character, accent: wantedAccent, temperament: temperament)
                + distinctness(performance, rivals: rivals)
                - (usedElsewhere.contains(voice.id) ? 2 : 0)
                - 3 * Double(min(familyInterplay, max(lines, 1))) / Double(max(lines, 1))
            if best == nil || score > best!.score { best = (score, performance, delivery.rate) }
        }
        return best
    }

    /// The accent `character` asks for, when some voice in `pool` has something of it.
    private func accent(wantedBy character: Character, in pool: [Voice]) -> String? {
        character.accent.flatMap(AccentCatalog.tag(forDescription:)).flatMap { tag in
            pool.contains { AccentCatalog.similarity(wanted: tag, voice: $0.accent) > 0 } ? tag : nil
        }
    }

    /// The character as a direction for engines that take one: personality, then who they are
    /// (age and gender, when known with some confidence), then accent; nil when nothing is known.
    /// "stern, proud; an elderly man; Scottish accent", "a teenage girl", "a child".
    public static func delivery(for character: Character) -> String? {
        let personality = character.personality?.trimmingCharacters(in: .whitespacesAndNewlines)
        let accent = character.accent?.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = [
            personality,
            person(gender: knownGender(character), age: knownAge(character)),
            accent.map { $0.lowercased().contains("accent") ? $0 : "\($0) accent" },
        ]
        let said = parts.compactMap { $0 }.filter { !$0.isEmpty }
        return said.isEmpty ? nil : said.joined(separator: "; ")
    }

    /// "a boy", "a teenage girl", "an adult man", "an elderly woman", "a child"; nil when neither is known.
    private static func person(gender: Gender?, age: AgeRange) -> String? {
        let young = age == .child || age == .teen
        let noun: String? = switch gender {
        case .male: young ? "boy" : "man"
        case .female: young ? "girl" : "woman"
        default: age == .child ? "child" : nil
        }
        let adjective: String? = switch age {
        case .teen: "teenage"
        case .adult: "adult"
        case .elderly: "elderly"
        case .child, .unknown: nil
        }
        switch (adjective, noun) {
        case let (adjective?, noun): return (adjective == "teenage" ? "a " : "an ") + adjective + " " + (noun ?? "person")
        case let (nil, noun?): return "a " + noun
        case (nil, nil): return nil
        }
    }

    /// The character's gender when it is male or female and the analysis is fairly sure of it.
    private static func knownGender(_ character: Character) -> Gender? {
        guard character.gender == .male || character.gender == .female, (character.genderConfidence ?? 1) >= 0.3 else { return nil }
        return character.gender
    }

    /// The character's age range, or `.unknown` when the analysis is unsure of it.
    private static func knownAge(_ character: Character) -> AgeRange {
        (character.ageConfidence ?? 1) >= 0.3 ? character.ageRange : .unknown
    }

    private func fitsGender(_ voice: Voice, _ character: Character) -> Bool {
        guard let gender = Self.knownGender(character) else { return true }
        return voice.gender == gender
    }

    private func ageDelivery(for character: Character, voice: Voice) -> AgeDelivery {
        AgeDelivery(character: Self.knownAge(character), voice: voice.age)
    }

    /// How well a voice fits a character (gender, age, accent, personality to style), quality
    /// included: gender outweighs everything.
    private func suitability(of voice: Voice, for character: Character, accent: String?, temperament: StyleAffinity) -> Double {
        var score = 0.0
        if let gender = Self.knownGender(character) {
            if voice.gender == .unknown || voice.gender == .nonbinary {
                score -= 3
            } else if voice.gender != gender {
                score -= 8
            }
        }
        switch (character.ageRange, voice.age) {
        case (.elderly, .elderly): score += 1.5
        case (.unknown, .elderly), (.adult, .elderly): score -= 1.5
        case (.child, .elderly), (.teen, .elderly): score -= 3
        // A child's or girl's voice for a grandmother is as wrong as the other way round.
        case (.elderly, .child), (.elderly, .teen): score -= 3
        case (.adult, .child): score -= 1.5
        default: break
        }
        if let accent {
            score += 4 * AccentCatalog.similarity(wanted: accent, voice: voice.accent)
        } else if AccentCatalog.isMarked(voice.accent) {
            score -= 1
        }
        // Personality to style ranks below accent: it chooses among voices that already fit.
        score += 2 * temperament.affinity(style: voice.style)
        score += qualityWeight * Double(voice.quality - 1)
        if slowEngines.contains(voice.engine) { score += Self.slowVoiceBonus }
        return score
    }

    /// How unlike a performance is to the voices already heard in the same chapters: the
    /// nearest one, plus a bonus for distance from those the character talks with most, so the
    /// most talkative pairs end up furthest apart (engine, timbre, accent, pitch).
    private func distinctness(_ performance: Performance, rivals: [Rival]) -> Double {
        let distances = rivals.map { min(performance.distance(to: $0.performance), 6) }
        let nearest = min(4, distances.min() ?? 4)
        let totalWeight = rivals.reduce(0) { $0 + $1.interplay }
        guard totalWeight > 0 else { return nearest }
        let weighted = zip(rivals, distances).reduce(0.0) { $0 + Double($1.0.interplay) * $1.1 } / Double(totalWeight)
        return nearest + weighted / 3
    }

    private func named(_ assignment: VoiceAssignment, _ name: String?) -> VoiceAssignment {
        var assignment = assignment
        assignment.name = name
        return assignment
    }

    /// How far apart two cast voices sound to a listener, about 0 (the same voice at the same
    /// pitch, or the same recorded speaker on another engine) to 6 (different engine, accent,
    /// gender and pitch). `voices` resolves assignment voice ids; unknown ids count as
    /// different voices.
    public static func perceivedDistance(_ a: VoiceAssignment, _ b: VoiceAssignment, voices: [String: Voice]) -> Double {
        Performance(voiceID: a.voice, voice: voices[a.voice], pitch: a.pitch)
            .distance(to: Performance(voiceID: b.voice, voice: voices[b.voice], pitch: b.pitch))
    }

    /// Whether a listener could take the two cast voices for one: the same recorded speaker
    /// (`Voice.family`) less than `minimumPitchSeparation` semitones apart in heard pitch.
    public static func areConfusable(_ a: VoiceAssignment, _ b: VoiceAssignment, voices: [String: Voice]) -> Bool {
        Performance(voiceID: a.voice, voice: voices[a.voice], pitch: a.pitch)
            .isConfusable(with: Performance(voiceID: b.voice, voice: voices[b.voice], pitch: b.pitch))
    }

    static func rounded(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }
}

/// A voice already heard in a character's chapters, and how much the two are heard together.
struct Rival: Sendable {
    var performance: Performance
    var interplay: Int
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
