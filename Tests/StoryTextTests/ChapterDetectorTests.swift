import StoryModel
import Testing
@testable import StoryText

@Suite("Chapter detection")
struct ChapterDetectorTests {
    static let body = "The rain fell on the roofs of the town all night, and nobody slept at all."

    @Test(arguments: [
        ("Chapter 1", "Chapter 2", "Chapter 1", "Chapter 2"),
        ("CHAPTER IV.", "CHAPTER V.", "CHAPTER IV", "CHAPTER V"),
        ("Chapter the First", "Chapter the Second", "Chapter the First", "Chapter the Second"),
        ("Part One", "Part Two", "Part One", "Part Two"),
        ("BOOK I", "BOOK II", "BOOK I", "BOOK II"),
        ("# The Storm", "# The Calm", "The Storm", "The Calm"),
        ("Chapter Twenty-One", "Chapter Twenty Two", "Chapter Twenty-One", "Chapter Twenty Two"),
        ("Chapter 3: The Storm", "Chapter 4. The Calm", "Chapter 3: The Storm", "Chapter 4. The Calm"),
        ("Prologue", "Chapter 1", "Prologue", "Chapter 1"),
    ])
    func headingStyles(first: String, second: String, firstTitle: String, secondTitle: String) {
        let text = "\(first)\n\n\(Self.body)\n\n\(second)\n\n\(Self.body)\n"
        let chapters = ChapterDetector.chapters(in: text, title: "Story")
        #expect(chapters.map(\.title) == [firstTitle, secondTitle])
        #expect(chaptersTile(chapters, text))
        #expect(text.scalars(chapters[1].start, chapters[1].end).hasPrefix(second))
    }

    @Test func titleLineAfterHeading() {
        let text = "CHAPTER I\n\nTHE BEGINNING.\n\n\(Self.body)\n\nCHAPTER II\n\nDown the Rabbit-Hole\n\n\(Self.body)\n\nCHAPTER III\n\nIt was late.\n\n\(Self.body)"
        let chapters = ChapterDetector.chapters(in: text, title: "Story")
        // "It was late." is the chapter's first sentence, not its title.
        #expect(chapters.map(\.title) == ["CHAPTER I: THE BEGINNING", "CHAPTER II: Down the Rabbit-Hole", "CHAPTER III"])
        #expect(chaptersTile(chapters, text))
    }

    @Test func noHeadingsIsOneChapterTitledAfterTheStory() {
        let text = "Chapter 1 was the best part of the book.\n\nPart of me agreed.\n\n\(Self.body)"
        #expect(ChapterDetector.chapters(in: text, title: "A Tale") == [Chapter(title: "A Tale", start: 0, end: text.unicodeScalars.count)])
    }

    @Test func shortOpeningJoinsTheFirstChapterLongOneStandsAlone() {
        let short = "A dedication.\n\nChapter 1\n\n\(Self.body)\n\nChapter 2\n\n\(Self.body)"
        let joined = ChapterDetector.chapters(in: short, title: "S")
        #expect(joined.map(\.title) == ["Chapter 1", "Chapter 2"])
        #expect(joined[0].start == 0)

        let preface = String(repeating: Self.body + "\n\n", count: 20)
        let long = preface + "Chapter 1\n\n\(Self.body)\n\nChapter 2\n\n\(Self.body)"
        let separate = ChapterDetector.chapters(in: long, title: "S")
        #expect(separate.map(\.title) == ["Opening", "Chapter 1", "Chapter 2"])
        #expect(separate[0] == Chapter(title: "Opening", start: 0, end: preface.unicodeScalars.count))
        #expect(chaptersTile(separate, long))
    }

    @Test func tableOfContentsEntriesAreNotChapters() {
        let text = """
            CONTENTS

            Chapter I. The Start
            Chapter II. The Middle
            Chapter III. The End


            Chapter I. The Start

            \(Self.body)

            Chapter II. The Middle

            \(Self.body)

            Chapter III. The End

            \(Self.body)
            """
        let chapters = ChapterDetector.chapters(in: text, title: "S")
        #expect(chapters.map(\.title) == ["Chapter I. The Start", "Chapter II. The Middle", "Chapter III. The End"])
        #expect(chapters[0].start == 0)
        #expect(text.scalars(chapters[1].start, chapters[1].end).hasPrefix("Chapter II. The Middle\n\nThe rain"))
        #expect(chaptersTile(chapters, text))
    }

    @Test func partHeadingIntroducesItsFirstChapter() {
        let text = "PART ONE\n\nCHAPTER 1\n\n\(Self.body)\n\nCHAPTER 2\n\n\(Self.body)\n\nPART TWO\n\nCHAPTER 3\n\n\(Self.body)"
        let chapters = ChapterDetector.chapters(in: text, title: "S")
        #expect(chapters.map(\.title) == ["PART ONE — CHAPTER 1", "CHAPTER 2", "PART TWO — CHAPTER 3"])
        #expect(text.scalars(chapters[2].start, chapters[2].end).hasPrefix("PART TWO\n\nCHAPTER 3"))
        #expect(chaptersTile(chapters, text))
    }

    @Test func headingsMustStandAlone() {
        // Inside a paragraph, or running into one, "Chapter 2" is just words.
        let text = "Chapter 1\n\n\(Self.body)\nChapter 2\nwas read aloud.\n\nChapter 3\n\n\(Self.body)"
        let chapters = ChapterDetector.chapters(in: text, title: "S")
        #expect(chapters.map(\.title) == ["Chapter 1", "Chapter 3"])
    }

    @Test func offsetsCountUnicodeScalars() {
        let text = "Intro 👩‍👩‍👧 é\n\nChapter 1\n\n\(Self.body)"
        let chapters = ChapterDetector.chapters(in: text, title: "S")
        #expect(chapters.count == 1)
        #expect(chapters[0].end == text.unicodeScalars.count)
        #expect(chapters[0].end != text.count)
    }

    @Test func bareNumeralsCountingUpAreChapters() {
        let text = "THE AWAKENING\n\n\nI\n\n\(Self.body)\n\nII\n\n\(Self.body)\n\nIII\n\n\(Self.body)"
        let chapters = ChapterDetector.chapters(in: text, title: "S")
        #expect(chapters.map(\.title) == ["I", "II", "III"])
        #expect(chapters[0].start == 0)
        #expect(text.scalars(chapters[2].start, chapters[2].end).hasPrefix("III\n\nThe rain"))
        // A lone numeral (or one out of sequence) is text, not a chapter.
        let stray = "\(Self.body)\n\nI\n\n\(Self.body)\n\n7\n\n\(Self.body)"
        #expect(ChapterDetector.chapters(in: stray, title: "S").map(\.title) == ["S"])
    }

    @Test func volumeHeadingSeparatedByBlankLinesIntroducesItsChapter() {
        let text = "EMMA\n\nBy Jane Austen\n\n\n\nVOLUME I\n\n\n\nCHAPTER I\n\n\n\(Self.body)\n\nCHAPTER II\n\n\(Self.body)"
        let chapters = ChapterDetector.chapters(in: text, title: "Emma")
        #expect(chapters.map(\.title) == ["VOLUME I — CHAPTER I", "CHAPTER II"])
    }

    @Test func romanNumerals() {
        #expect(RomanNumeral.value(of: "XIV") == 14)
        #expect(RomanNumeral.value(of: "iv") == 4)
        #expect(RomanNumeral.value(of: "MIX") == nil)
        #expect(RomanNumeral.value(of: "IIII") == nil)
        #expect(RomanNumeral.value(of: "Mix") == nil)
    }

    @Test func emptyText() {
        #expect(ChapterDetector.chapters(in: "", title: "T") == [Chapter(title: "T", start: 0, end: 0)])
    }
}
