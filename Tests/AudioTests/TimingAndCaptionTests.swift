import Foundation
import StoryModel
import Testing
@testable import Audio

@Suite struct TimingMapFileTests {
    static let entries = [
        TimedSegment(segment: 0, start: 0, end: 12, startMs: 0, endMs: 900, kind: .narration, speaker: nil, voice: "espeak-ng:en-us"),
        TimedSegment(segment: 1, start: 13, end: 30, startMs: 1100, endMs: 2400, kind: .dialogue, speaker: "della", voice: "flite:slt"),
    ]

    @Test func roundTrips() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let url = scratch.file("book.timing.json")
        try TimingMapFile.write(Self.entries.reversed(), to: url)
        #expect(try TimingMapFile.read(url) == Self.entries)
        let json = try String(contentsOf: url, encoding: .utf8)
        #expect(json.contains("\"format\":\"storyvoice-timing\""))
    }

    @Test func readsABareArrayAndRejectsOtherFiles() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let bare = scratch.file("bare.json")
        try JSONEncoder().encode(Self.entries).write(to: bare)
        #expect(try TimingMapFile.read(bare) == Self.entries)
        let other = scratch.file("other.json")
        try Data(#"{"hello": 1}"#.utf8).write(to: other)
        #expect(throws: AudioError.self) { try TimingMapFile.read(other) }
        #expect(throws: AudioError.self) { try TimingMapFile.read(scratch.file("missing.json")) }
    }
}

@Suite struct WebVTTTests {
    static let text = """
    The door   opened.\n"Della, is that you?" Jim asked. \
    She had saved one dollar and eighty-seven cents. That was all. And sixty cents of it was in pennies. \
    Pennies saved one and two at a time by bulldozing the grocer. <b>&</b>
    """

    /// Parses cue timing lines into (start, end) milliseconds.
    static func cueTimes(_ vtt: String) -> [(Int, Int)] {
        vtt.split(separator: "\n").filter { $0.contains(" --> ") }.map { line in
            let parts = line.components(separatedBy: " --> ")
            return (milliseconds(parts[0]), milliseconds(parts[1]))
        }
    }

    static func milliseconds(_ stamp: String) -> Int {
        let hms = stamp.split(separator: ":"), secs = hms[2].split(separator: ".")
        return ((Int(hms[0])! * 60 + Int(hms[1])!) * 60 + Int(secs[0])!) * 1000 + Int(secs[1])!
    }

    static func render() -> String {
        let scalars = ScalarText(text)
        func offset(_ needle: String) -> Int {
            let target = Array(needle.unicodeScalars)
            return scalars.scalars.indices.first { Array(scalars.scalars.dropFirst($0).prefix(target.count)) == target }!
        }
        let quoteStart = offset("\"Della"), quoteEnd = offset(" Jim")
        let longStart = offset("She had")
        let entries = [
            TimedSegment(segment: 2, start: longStart, end: scalars.count, startMs: 3_600_000 + 5000, endMs: 3_600_000 + 20000, kind: .narration, speaker: nil, voice: "v"),
            TimedSegment(segment: 0, start: 0, end: quoteStart, startMs: 0, endMs: 1200, kind: .narration, speaker: nil, voice: "v"),
            TimedSegment(segment: 1, start: quoteStart, end: quoteEnd, startMs: 1400, endMs: 2600, kind: .dialogue, speaker: "della", voice: "w"),
            TimedSegment(segment: 1, start: quoteEnd, end: quoteEnd + 1, startMs: 2600, endMs: 2700, kind: .narration, speaker: nil, voice: "v"),
        ]
        return WebVTT.render(entries, text: text, speakerNames: ["della": "Della <Young>"])
    }

    @Test func isValidWebVTT() {
        let vtt = Self.render()
        #expect(vtt.hasPrefix("WEBVTT\n\n"))
        let times = Self.cueTimes(vtt)
        let timingLines = vtt.split(separator: "\n").filter { $0.contains(" --> ") }
        #expect(timingLines.allSatisfy { $0.wholeMatch(of: /\d{2,}:\d{2}:\d{2}\.\d{3} --> \d{2,}:\d{2}:\d{2}\.\d{3}/) != nil })
        #expect(times.allSatisfy { $0.0 < $0.1 })
        #expect(zip(times, times.dropFirst()).allSatisfy { $0.0 <= $1.0 })  // starts are monotonic
        // Cues are blank-line separated blocks with no blank line inside.
        let blocks = vtt.components(separatedBy: "\n\n").dropFirst()
        #expect(blocks.count == times.count)
        #expect(!vtt.contains("\n\n\n"))
        #expect(!vtt.contains("<b>"))  // markup in the story's text is escaped
    }

    @Test func cueTextIsTheSpanWithVoiceTags() {
        let vtt = Self.render()
        #expect(vtt.contains("00:00:00.000 --> 00:00:01.200\nThe door opened.\n"))
        #expect(vtt.contains("<v Della &lt;Young&gt;>\"Della, is that you?\"\n"))
        // The whitespace-only entry gets no cue.
        #expect(Self.cueTimes(vtt).count(where: { $0.0 >= 2600 && $0.0 < 5000 }) == 0)
    }

    @Test func longCuesSplitAtSentencesWithProportionalTimes() {
        let vtt = Self.render()
        let long = Self.cueTimes(vtt).filter { $0.0 >= 3_600_000 }
        #expect(long.count >= 2)
        #expect(long.first?.0 == 3_605_000 && long.last?.1 == 3_620_000)
        #expect(zip(long, long.dropFirst()).allSatisfy { $0.1 == $1.0 })  // contiguous
        #expect(vtt.contains("01:00:05.000 --> "))
        let lines = vtt.split(separator: "\n").map(String.init)
        let cueTexts = lines.indices.filter { lines[$0].hasPrefix("01:00:") }.map { lines[$0 + 1] }
        #expect(cueTexts.allSatisfy { $0.count <= 120 })
        #expect(cueTexts.dropLast().allSatisfy { $0.hasSuffix(".") })  // cut between sentences
        #expect(cueTexts.joined(separator: " ").hasSuffix("grocer. &lt;b&gt;&amp;&lt;/b&gt;"))
        // Time is shared in proportion to text: longer parts last longer.
        let durations = long.map { $0.1 - $0.0 }, lengths = cueTexts.map(\.count)
        for (a, b) in zip(zip(durations, lengths), zip(durations, lengths).dropFirst()) where abs(a.1 - b.1) > 20 {
            #expect((a.0 < b.0) == (a.1 < b.1))
        }
    }

    @Test func formatsTimestamps() {
        #expect(WebVTT.timestamp(0) == "00:00:00.000")
        #expect(WebVTT.timestamp(3_723_045) == "01:02:03.045")
        #expect(WebVTT.timestamp(100 * 3_600_000) == "100:00:00.000")
    }
}
