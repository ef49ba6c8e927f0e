@testable import JourneyWorkflows
import Journeys
import Testing

/// What of a model's streamed answer is told, and when the reading stops.
@Suite("Reading a part's answer")
struct PartReaderTests {
    static func read(_ answer: String, prompt: String = "Write part 4 of 9.", earlier: String = "", enough: Int = 500) -> [PartReader.Output] {
        var reader = PartReader(prompt: prompt, sentences: [], enough: enough, earlier: earlier)
        var outputs: [PartReader.Output] = []
        // In pieces that cut words, as a model's tokens do.
        var rest = Substring(answer)
        while !rest.isEmpty {
            outputs += reader.add(String(rest.prefix(7)))
            rest = rest.dropFirst(7)
            if case .stop = outputs.last { return outputs }
        }
        if let last = reader.finish() { outputs.append(last) }
        return outputs
    }

    @Test("the prompt's own labels are not told: 'Part 4 (rising action: …):', 'Part 6 ended:'")
    func partLabelsAreLeftOut() {
        #expect(SpokenProse.withoutLeadingLabel("Part 4 (rising action: complications build; the stakes grow): As she climbed, Elara shook.") == "As she climbed, Elara shook.")
        #expect(SpokenProse.withoutLeadingLabel("Part 6 ended: The door closed.") == "The door closed.")
        #expect(SpokenProse.withoutLeadingLabel("Part 7:") == nil)
        #expect(SpokenProse.withoutLeadingLabel("Partly hidden, the door stood open.") == "Partly hidden, the door stood open.")
    }

    @Test("the last part's ending said again is left out, and the part goes on after it")
    func earlierEndingIsLeftOut() {
        let outputs = Self.read("The lantern went out at last. Elara listened to the dark water below.",
                                earlier: "She climbed the stair. The lantern went out at last.")
        #expect(outputs == [.sentence("Elara listened to the dark water below.")])
    }

    @Test("a model that reads back its prompt three sentences in a row is stopped")
    func echoLoopStops() {
        let prompt = "What happens in it: Elara took a deep breath and stepped up to the top of the tower. She could feel the weight of the quest pressing down on her. The smoke rising from the tower was thick and ominous."
        let answer = "Elara reached the landing. Elara took a deep breath and stepped up to the top of the tower. She could feel the weight of the quest pressing down on her. The smoke rising from the tower was thick and ominous. Elara took a deep breath and stepped up to the top of the tower again."
        let outputs = Self.read(answer, prompt: prompt)
        #expect(outputs == [.sentence("Elara reached the landing."), .stop(.readBack)])
    }

    /// As the model on this machine wrote a part (2026-12-04), a clause over and over.
    @Test("a sentence that goes round within itself, or says most of an earlier one again, is a loop")
    func nearRepeatsAreLoops() {
        let looping = "She knew that she had to gather more information about the forest, and she knew that she had to gather more information about the forest, and she knew that she had to go."
        #expect(Self.read("Elara reached the landing. " + looping + " The owl hooted.") == [.sentence("Elara reached the landing."), .sentence("The owl hooted.")])
        let said = "The creatures were the ones who had always watched over the kingdom from the hills."
        let again = "The creatures were the ones who had always watched over the kingdom, and Elara knew it."
        let bow = "Elara bowed low before the ancient creatures."
        let outputs = Self.read([said, again, bow, "The creatures were the ones who had always watched over the kingdom, they said.", "Then she left."].joined(separator: " "))
        #expect(outputs == [.sentence(said), .sentence(bow), .stop(.looping)], "the second loop ends the part")
        // Most of the last part's ending in other words is left out, as the ending itself is.
        #expect(Self.read(again + " " + bow, earlier: said) == [.sentence(bow)])
        // A phrase taken up again is no loop.
        #expect(!PartReader.isMostly("Elara looked back at the kingdom from the hills one last time.", in: Set(SpokenProse.wordRuns(said, length: 5))))
    }

    @Test("the reading stops at the first sentence end past the part's words")
    func stopsAtItsWords() {
        let outputs = Self.read("One two three four five. Six seven eight nine ten. Eleven twelve.", enough: 8)
        #expect(outputs == [.sentence("One two three four five."), .sentence("Six seven eight nine ten."), .stop(.enough)])
    }
}
